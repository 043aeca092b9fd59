"""The journal's commands: `roundhouse games` lists the journaled games, `roundhouse
export GAME` writes one as a game record (docs/records.md) that `roundhouse replay`
brings to the game's last state.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from firmware_py.config import DEFAULT_DATABASE
from firmware_py.game import Replayed, TableError, replay_journaled
from firmware_py.journal import Journal, JournalError
from firmware_py.record import record_from_game


def record_from_entries(
    meta: Mapping[str, Any], entries: Sequence[object]
) -> dict[str, Any]:
    """The game record of a journaled game. Raises `TableError` if the entries cannot be
    replayed."""
    replayed = replay_journaled(meta, entries)
    if replayed.failure is not None:
        raise replayed.failure
    return _record(replayed)


def _record(replayed: Replayed) -> dict[str, Any]:
    game = replayed.game
    return record_from_game(game.options, game.names, replayed.history[-1].actions())


# --- commands -------------------------------------------------------------------------


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=DEFAULT_DATABASE,
                        help=f"the journal's database (default {DEFAULT_DATABASE})")


def _open_existing(path: Path) -> Journal:
    """The journal for reading only: while the service runs, and on a full disk."""
    if not path.is_file():
        raise JournalError(f"{path}: no journal there (--db names another)")
    return Journal(path, read_only=True)


def configure_games(parser: argparse.ArgumentParser) -> None:
    _add_db(parser)


def run_games(args: argparse.Namespace) -> int:
    try:
        journal = _open_existing(args.db)
        try:
            games = journal.games()
            problem = journal.archive_problem
        finally:
            journal.close()
    except JournalError as err:
        print(f"roundhouse games: {err}", file=sys.stderr)
        return 2
    if not games:
        print(f"no games in {args.db}")
    else:
        print(f"{'game':>4}  {'started':<19}  {'preset':<10}  {'result':<24}  players")
    for g in games:
        print(f"{g.id:>4}  {g.started[:19].replace('T', ' '):<19}  {g.preset:<10}  "
              f"{g.status:<24}  {', '.join(g.players)}")
    if problem is not None:
        # The journal's own games are listed; the archived ones cannot be now.
        print(f"roundhouse games: the archived games are not listed: {problem}",
              file=sys.stderr)
        return 2
    return 0


def configure_export(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=int, help="the game's number (see `roundhouse games`)")
    _add_db(parser)
    parser.add_argument("-o", "--output", type=Path,
                        help="write the record to this file (default: standard output)")


def run_export(args: argparse.Namespace) -> int:
    try:
        journal = _open_existing(args.db)
        try:
            meta = journal.meta(args.game)
            entries = journal.entries(args.game)
        finally:
            journal.close()
    except JournalError as err:
        print(f"roundhouse export: {err}", file=sys.stderr)
        return 2
    try:
        replayed = replay_journaled(meta, entries)
    except TableError as err:
        print(f"roundhouse export: game {args.game} cannot be exported: {err}",
              file=sys.stderr)
        return 2
    if replayed.failure is not None:
        # A game set aside is exported as far as it replays, and said so.
        print(f"roundhouse export: game {args.game} is written up to entry "
              f"{replayed.replayed} of {len(entries)}: {replayed.failure}", file=sys.stderr)
    record = _record(replayed)
    text = json.dumps(record, indent=1) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as err:
        print(f"roundhouse export: cannot write {args.output}: {err}", file=sys.stderr)
        return 2
    print(f"game {args.game} written to {args.output}")
    return 0
