"""Game records (docs/records.md): read, replay, write; `roundhouse replay`.

A record is checked whole before anything is applied, so a file that is not a record
is refused in one line naming where it goes wrong (exit status 2), and a record whose
move the rules refuse replays up to that move (exit status 1).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.rules import (
    MEXICAN,
    RULES_VERSION,
    Action,
    BadOptions,
    Draw,
    IllegalMove,
    Options,
    Pass,
    Play,
    Reveal,
    RulesError,
    StartRound,
    State,
    Tile,
    action_from_json,
    action_to_json,
    apply,
    deal,
    new_game,
    state_to_json,
)
from firmware_py.rules.errors import quoted
from firmware_py.rules.tiles import digits_hint, is_number
from roundhouse.errors import RoundhouseError
from roundhouse.render import DEFAULT_LANGUAGE, languages, render

FORMAT = "roundhouse/1"
_ROUND_KEYS = {"engine", "starter", "hands", "boneyard", "seed", "moves"}


class RecordError(RoundhouseError):
    """A file that is not a valid game record; `str()` names where and what."""


@dataclass(frozen=True)
class RoundRecord:
    """One round of a record: how it is dealt and the moves played in it."""

    start: StartRound  # hands and boneyard are empty when `seed` deals them
    seed: int | None
    moves: tuple[Action, ...]


@dataclass(frozen=True)
class Record:
    options: Options
    players: int
    names: tuple[str, ...] | None
    rounds: tuple[RoundRecord, ...]


@dataclass
class Replay:
    """What replaying a record gave: the last state, and the refusal that stopped it."""

    state: State
    error: dict[str, Any] | None = None
    states: list[State] = field(default_factory=list)
    refusal: IllegalMove | None = None

    def to_json(self) -> dict[str, Any]:
        out = state_to_json(self.state)
        out["error"] = self.error
        return out


# ---- reading ---------------------------------------------------------------------------


def _fail(where: str, message: str) -> RecordError:
    return RecordError(f"{where}: {message}" if where else message)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _tile(value: Any, where: str, set_size: int) -> Tile:
    if not isinstance(value, str):
        raise _fail(where, f'a tile is written like "5-3", got {quoted(value)}')
    parts = value.strip().split("-")
    if len(parts) != 2 or not all(is_number(p) for p in parts):
        raise _fail(where, f'a tile is written like "5-3"{digits_hint(value)}, got {quoted(value)}')
    # (A long run of digits is no number of pips; int() would refuse a very long one.)
    if any(len(p) > 2 or int(p) > set_size for p in parts):
        raise _fail(where, f"{quoted(value)} is not in the double-{set_size} set")
    return Tile.parse(value)


# The most seats a record may have: no set has more tiles than a double-18 set's 190.
MAX_PLAYERS = 190


def _needs_deal(rounds_value: list[Any]) -> bool:
    """Whether the engine deals some round of the record (a seed, or a hand not written
    out): only then is the deal table consulted; a position needs only a set."""
    for rnd in rounds_value:
        if not isinstance(rnd, Mapping) or rnd.get("seed") is not None:
            return True
        hands = rnd.get("hands")
        if not isinstance(hands, list) or any(h is None for h in hands):
            return True
    return False


def parse_record(obj: Any) -> Record:
    """A record from its JSON value; `RecordError` names the first thing wrong."""
    if not isinstance(obj, Mapping):
        raise _fail("", "a game record is a JSON object")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise _fail("format", f'expected "{FORMAT}", got {quoted(fmt)}')
    if "rules" not in obj:
        raise _fail("rules", 'missing: a preset name or {"preset": NAME, OPTION: VALUE}')
    try:
        options = Options.from_json(obj["rules"])
    except RulesError as e:
        raise _fail("rules", str(e)) from None
    version = obj.get("rules_version", RULES_VERSION)
    if type(version) is not int or not 1 <= version <= RULES_VERSION:
        raise _fail("rules_version", f"a rules version from 1 to {RULES_VERSION}, "
                                     f"got {quoted(version)}")
    if version != RULES_VERSION:
        options = dataclasses.replace(options, readings=version)
    players_value: Any = obj.get("players")
    names: tuple[str, ...] | None = None
    if _is_count(players_value):
        players: int = players_value
    elif isinstance(players_value, list) and all(isinstance(p, str) for p in players_value):
        names = tuple(players_value)
        players = len(names)
    else:
        raise _fail("players", f"must be a count or a list of names, got {quoted(players_value)}")
    if not 1 <= players <= MAX_PLAYERS:
        raise _fail("players", f"a game has 1 to {MAX_PLAYERS} seats, not {players}")
    rounds_value = obj.get("rounds")
    if not isinstance(rounds_value, list):
        raise _fail("rounds", f"must be a list of rounds, got {quoted(rounds_value)}")
    try:
        if _needs_deal(rounds_value):
            set_size, _ = options.deal_for(players)
        else:
            set_size = options.set_for(players)
    except BadOptions as e:  # `rounds` more than the set has
        raise _fail("rules.rounds", str(e)) from None
    except RulesError as e:
        raise _fail("players", str(e)) from None
    rounds = tuple(
        _parse_round(r, f"rounds[{i}]", i + 1, options, players, set_size)
        for i, r in enumerate(rounds_value)
    )
    return Record(options, players, names, rounds)


def _parse_round(
    obj: Any, where: str, number: int, options: Options, players: int, set_size: int
) -> RoundRecord:
    if not isinstance(obj, Mapping):
        raise _fail(where, "a round is a JSON object")
    unknown = set(obj) - _ROUND_KEYS
    if unknown:
        raise _fail(where, f"unknown key {quoted(sorted(unknown)[0])}")
    e = set_size + 1 - number
    engine = Tile(e, e) if e >= 0 else None
    if engine is None:
        raise _fail(where, f"a double-{set_size} game has {set_size + 1} rounds at most")
    if obj.get("engine") is not None:
        named = _tile(obj["engine"], f"{where}.engine", set_size)
        if named is not engine:
            raise _fail(f"{where}.engine", f"round {number} is played with {engine}, not {named}")
    starter = obj.get("starter")
    if starter is not None and not (_is_count(starter) and starter < players):
        raise _fail(f"{where}.starter", f"must be a seat from 0 to {players - 1}")
    seed = obj.get("seed")
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise _fail(f"{where}.seed", f"must be a whole number, got {quoted(seed)}")
        if obj.get("hands") is not None or obj.get("boneyard") is not None:
            raise _fail(where, 'a round gives either "seed" or "hands" and "boneyard"')
        start = StartRound(None, None, starter, engine)
    else:
        start = _parse_deal(obj, where, options, players, set_size, engine, starter)
    moves_value = obj.get("moves", [])
    if not isinstance(moves_value, list):
        raise _fail(f"{where}.moves", "must be a list of moves")
    moves = tuple(
        _parse_move(m, f"{where}.moves[{j}]", players, set_size) for j, m in enumerate(moves_value)
    )
    return RoundRecord(start, seed, moves)


def _parse_deal(
    obj: Mapping[str, Any],
    where: str,
    options: Options,
    players: int,
    set_size: int,
    engine: Tile,
    starter: int | None,
) -> StartRound:
    hands_value = obj.get("hands")
    bone_value = obj.get("boneyard")
    if hands_value is None:
        if bone_value is not None:
            raise _fail(f"{where}.boneyard", "open hands (hands null) take a null boneyard")
        return StartRound(None, None, starter, engine)
    if not isinstance(hands_value, list):
        raise _fail(f"{where}.hands", "must be a list with one hand per seat, or null")
    if len(hands_value) != players:
        raise _fail(f"{where}.hands", f"{len(hands_value)} hands for {players} players")
    known = [isinstance(h, list) for h in hands_value]
    if any(known) and not all(known):
        raise _fail(f"{where}.hands", "either every hand lists tiles or every hand is a count")
    if not any(known):
        for i, h in enumerate(hands_value):
            if h is not None and not _is_count(h):
                raise _fail(f"{where}.hands[{i}]", f"must be a count or null, got {quoted(h)}")
        if bone_value is not None:
            raise _fail(f"{where}.boneyard", "open hands (counts) take a null boneyard")
        return StartRound(tuple(hands_value), None, starter, engine)
    seen: dict[Tile, str] = {}
    hands: list[tuple[Tile, ...]] = []
    aside = engine if options.engine == "set_aside" else None
    for i, hand in enumerate(hands_value):
        hands.append(
            tuple(
                _dealt(t, f"{where}.hands[{i}][{k}]", set_size, seen, aside)
                for k, t in enumerate(hand)
            )
        )
    if bone_value is not None and not isinstance(bone_value, list):
        raise _fail(f"{where}.boneyard", "must be a list of tiles in draw order")
    boneyard = tuple(
        _dealt(t, f"{where}.boneyard[{k}]", set_size, seen, aside)
        for k, t in enumerate(bone_value or [])
    )
    return StartRound(tuple(hands), boneyard, starter, engine)


def _dealt(
    value: Any, where: str, set_size: int, seen: dict[Tile, str], aside: Tile | None
) -> Tile:
    tile = _tile(value, where, set_size)
    if tile is aside:
        raise _fail(where, f"{tile} is this round's engine, set aside before the deal: no hand "
                           "or boneyard holds it")
    if tile in seen:
        raise _fail(where, f"{tile} appears twice (also {seen[tile]})")
    seen[tile] = f"at {where}"
    return tile


def _parse_move(obj: Any, where: str, players: int, set_size: int) -> Action:
    try:
        action = action_from_json(obj)
    except RulesError as e:
        raise _fail(where, str(e)) from None
    if isinstance(action, StartRound):
        raise _fail(where, "a round starts with its own entry in rounds, not a move")
    if action.seat >= players:
        raise _fail(where, f"there is no seat {action.seat} with {players} players")
    tiles: Iterable[Tile] = ()
    if isinstance(action, Play):
        tiles = (action.tile,)
        if action.train != MEXICAN and isinstance(action.train, int) and action.train >= players:
            raise _fail(where, f"there is no train {action.train} with {players} players")
    elif isinstance(action, Draw) and action.tile is not None:
        tiles = (action.tile,)
    elif isinstance(action, Reveal):
        tiles = action.tiles
    for tile in tiles:
        if tile.high > set_size:
            raise _fail(where, f"{tile} is not in the double-{set_size} set")
    return action


def read_record(path: str | Path) -> Record:
    """Read and check a record file; `RecordError` (one line) names what is wrong."""
    shown = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{shown}: cannot read the file: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{shown}: not a JSON text file (not UTF-8)") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(
            f"{shown}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    except RecursionError:
        raise RecordError(f"{shown}: not a game record: its JSON is nested too deeply") from None
    except ValueError:  # a number of more digits than Python converts (4300)
        raise RecordError(f"{shown}: not a game record: a number has thousands of digits") from None
    try:
        return parse_record(obj)
    except RecordError as e:
        raise RecordError(f"{shown}: {e}") from None
    except RecursionError:
        raise RecordError(f"{shown}: not a game record: a value is nested too deeply") from None


# ---- replaying -------------------------------------------------------------------------


def replay(record: Record, keep_states: bool = False) -> Replay:
    """Apply a record; stops at the first refused move. `RecordError` for a bad deal."""
    state = new_game(record.options, record.players)
    result = Replay(state)
    if keep_states:
        result.states.append(state)
    for i, rnd in enumerate(record.rounds):
        where = f"rounds[{i}]"
        if state.phase == "game_over":
            rounds = f"{state.round} round" + ("" if state.round == 1 else "s")
            raise _fail(where, f"the game is over after {rounds}")
        if state.phase == "play":
            raise _fail(where, f"round {state.round} is not over after its last move")
        if state.awaiting_reveal:
            seats = ", ".join(map(str, state.awaiting_reveal))
            raise _fail(where, f"round {state.round} still waits for the reveal of seat(s) {seats}")
        start = rnd.start
        try:
            if rnd.seed is not None:
                dealt = deal(state, rnd.seed)
                start = StartRound(dealt.hands, dealt.boneyard, start.starter, start.engine)
            state = apply(state, start)
        except RulesError as e:
            raise _fail(where, str(e)) from None
        result.state = state
        if keep_states:
            result.states.append(state)
        ended_turn: int | None = None
        for j, move in enumerate(rnd.moves):
            if type(move) is Pass and move.seat == ended_turn:
                # "Drew, passed": the rules already ended the turn; the PASS written after
                # it, as people write a game down, changes nothing (docs/records.md).
                ended_turn = None
                if keep_states:
                    result.states.append(state)
                continue
            try:
                after = apply(state, move)
            except IllegalMove as e:
                result.error = {"move": j, "round": state.round, "reason": str(e),
                                "code": e.code}
                result.refusal = e
                return result
            except RulesError as e:
                raise _fail(f"{where}.moves[{j}]", str(e)) from None
            ended_turn = _turn_ended_by_rules(state, move, after)
            state = result.state = after
            if keep_states:
                result.states.append(state)
    return result


def _turn_ended_by_rules(before: State, move: Action, after: State) -> int | None:
    """The seat whose turn the rules ended by themselves where a record may still write
    its PASS: a draw that cannot be played (known hands, or a named draw), or the last
    tile of a `train` first turn's line, which ends with PASS when the seat has tiles
    left (docs/records.md, "drew, passed"); else None."""
    if isinstance(move, Draw):
        if not before.engine_laid:
            return None
    elif not (
        isinstance(move, Play)
        and after.hand_counts[move.seat] == 0
        and before.options.first_turn == "train"
        and not before.first_turn_done[move.seat]
    ):
        return None
    ended = (
        after.phase != "play"
        or after.turn != move.seat
        or after.turn_number != before.turn_number
    )
    return move.seat if ended else None


# ---- writing ---------------------------------------------------------------------------


def record_from_game(
    options: Options, players: int | Sequence[str], actions: Iterable[Action]
) -> dict[str, Any]:
    """The record of a game played from `new_game(options, players)` by `actions`.

    `actions` are every action applied, each round's `StartRound` included; the record
    replays to the same final state.
    """
    rounds: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, StartRound):
            start = action_to_json(action)["start_round"]
            entry: dict[str, Any] = {}
            if start["engine"] is not None:
                entry["engine"] = start["engine"]
            if start["starter"] is not None:
                entry["starter"] = start["starter"]
            entry["hands"] = start["hands"]
            entry["boneyard"] = start["boneyard"]
            entry["moves"] = []
            rounds.append(entry)
        elif not rounds:
            raise RecordError("a game's first action must be a StartRound")
        else:
            rounds[-1]["moves"].append(action_to_json(action))
    rules = options.to_json()
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": rules if len(rules) > 1 else rules["preset"],
    }
    if options.readings != RULES_VERSION:  # a game begun before the engine's corrections
        record["rules_version"] = options.readings
    record["players"] = players if isinstance(players, int) else list(players)
    record["rounds"] = rounds
    return record


def write_record(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record as JSON, one move per line so that diffs stay readable."""
    lines = ["{"]
    head = [k for k in record if k != "rounds"]
    for key in head:
        lines.append(f"  {json.dumps(key)}: {json.dumps(record[key])},")
    lines.append('  "rounds": [')
    rounds = record.get("rounds", [])
    for i, rnd in enumerate(rounds):
        lines.append("    {")
        keys = [k for k in rnd if k != "moves"]
        for key in keys:
            lines.append(f"      {json.dumps(key)}: {json.dumps(rnd[key])},")
        moves = rnd.get("moves", [])
        lines.append('      "moves": [')
        for j, move in enumerate(moves):
            lines.append(f"        {json.dumps(move)}" + ("," if j < len(moves) - 1 else ""))
        lines.append("      ]")
        lines.append("    }" + ("," if i < len(rounds) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---- the command -----------------------------------------------------------------------


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the game record (JSON) to apply")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=languages(),
                        help="the language of error.reason (default: English)")


def run_replay(args: argparse.Namespace) -> int:
    """Print the replayed state as JSON: exit 0, 1 (a move refused) or 2 (not a record)."""
    path = args.file
    try:
        result = replay(read_record(path))
    except RecordError as e:
        message = str(e)
        if not message.startswith(f"{path}:"):
            message = f"{path}: {message}"
        print(" ".join(message.split()), file=sys.stderr)
        return 2
    except RecursionError:
        print(f"{path}: not a game record: a value is nested too deeply", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{path}: not a game record: too large to replay", file=sys.stderr)
        return 2
    except Exception as e:  # the command promises one line, never a traceback
        print(f"{path}: cannot replay this record: {quoted(str(e))}", file=sys.stderr)
        return 2
    if result.error is not None and result.refusal is not None and args.lang != DEFAULT_LANGUAGE:
        result.error["reason"] = render(result.refusal.message, args.lang)
    print(json.dumps(result.to_json()))
    return 0 if result.error is None else 1
