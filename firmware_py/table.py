"""The table controller: hardware events -> engine actions -> journal -> public view.

One `Table` owns the game and is driven by one thread. It turns button presses and
pad taps into inputs (`firmware_py.table_inputs`), asks the rules engine, journals every
accepted input before `handle` returns (the game's flow, here), and builds the public
view of docs/view.md (`firmware_py.table_view`); what the pads sense and the checks of
markers and readers are in `firmware_py.pads`.

What a game is made of and what the journal keeps live in `firmware_py.tablegame`;
docs/table.md tells the players' side.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from firmware_py import messages as say
from firmware_py.journal import JournalUnwritable
from firmware_py.messages import Message, message
from firmware_py.pads import Pads
from firmware_py.rules import MEXICAN, IllegalMove, Options, RulesError, action_to_json
from firmware_py.table_inputs import Binding, Inputs
from firmware_py.table_view import PublicView
from firmware_py.tablegame import (
    Game,
    Moment,
    Refused,
    TableError,
    preset_name,
)
from hardware.events import Button, Event

if TYPE_CHECKING:
    from firmware_py.config import Config
    from firmware_py.rules import Action

__all__ = ["Game", "Moment", "Refused", "Table", "TableError", "record_from_entries"]

log = logging.getLogger(__name__)


class _Journal(Protocol):
    def begin_game(self, meta: Mapping[str, Any]) -> int: ...
    def append(self, game_id: int, entry: Mapping[str, Any], *,
               finish: Mapping[str, Any] | None = None, reopen: bool = False) -> int: ...
    def open_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None: ...
    def ended_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None: ...
    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None: ...
    def reopen_game(self, game_id: int) -> None: ...


# --- the controller --------------------------------------------------------------------


class Table(Inputs, PublicView):
    """The only owner of the game: feed it events, publish its view."""

    def __init__(
        self,
        config: Config,
        journal: _Journal,
        lookup: Callable[[str], Binding | None],
    ) -> None:
        self._config = config
        self._journal = journal
        self._lookup = lookup
        self._seat_config = {s.seat: s for s in config.seats}
        self._rules: str | dict[str, object] = config.rules
        self._joined: list[int] = []  # table seats in the order they joined
        self._held: set[tuple[int, Button]] = set()
        # Only the pads whose readers can read a marker beside a tile sense markers: on the
        # others a marker that is not read says nothing about where it lies.
        self._pads = Pads((r.pad for r in config.readers),
                          sensing={r.pad for r in config.readers if r.markers})
        self._rejection: dict[str, Any] | None = None
        # Languages chosen with the language card, by table seat, until a restart.
        self._languages: dict[int, str] = {}
        self._abandon_armed = False
        self._game: Game | None = None
        self._game_id: int | None = None
        self._history: list[Moment] = []
        opened = journal.open_game()
        if opened is not None:
            # The game goes on as it was, and so does the preset chosen for it.
            self._rules = self._resume(*opened).rules
            if self._history[-1].stage == "over":
                # Journaled before the result was written together with the last move.
                try:
                    self._finish(abandoned=False)
                except JournalUnwritable as err:
                    log.warning("the game's result waits for the next start: %s", err)
        else:
            ended = journal.ended_game()
            if ended is not None:
                # The last game's final ranking stays up, as it was before the restart.
                try:
                    self._resume(*ended)
                except TableError as err:
                    # It is only shown, never played on: the lobby is as good a start.
                    log.warning("the last game's ranking cannot be shown: %s", err)

    def _resume(self, game_id: int, meta: Mapping[str, Any], entries: list[Any]) -> Game:
        game = Game.from_meta(meta)
        self._history = game.replay(entries)
        self._game, self._game_id = game, game_id
        self._joined = [game.seats[game.leader]] + [
            s for s in game.seats if s != game.seats[game.leader]
        ]
        return game

    @property
    def game(self) -> Game | None:
        return self._game

    @property
    def moment(self) -> Moment | None:
        history = self._history
        return history[-1] if history else None

    @property
    def joined(self) -> tuple[int, ...]:
        """The table seats that joined, the first one first."""
        return tuple(self._joined)

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self._seat_config))

    @property
    def rejection(self) -> dict[str, Any] | None:
        return self._rejection

    def handle(self, event: Event) -> bool:
        """Take one event; True when the public view changed."""
        try:
            return self._dispatch(event)
        except Refused as refusal:
            self._reject(self._view_seat(getattr(event, "seat", None)), refusal.message)
        except IllegalMove as err:
            # A button names who acted (a seat's reveal); a tap is played for the turn.
            seat = self._view_seat(getattr(event, "seat", None))
            m = self._moment()
            if seat is None and m is not None:
                seat = m.state.turn
            self._reject(seat, err.message)
        except JournalUnwritable as err:
            # Every input is journaled before the table takes it: this one was not taken.
            log.warning("an input was refused: %s", err)
            self._reject(None, message(say.UNSAVED_FULL if err.full else say.UNSAVED_DISK))
        return True

    # --- the game's flow: accepted inputs -----------------------------------------------

    def _act(self, action: Action) -> bool:
        return self._commit({"t": "action", "action": action_to_json(action)})

    def _commit(self, entry: dict[str, Any]) -> bool:
        game, m = self._game, self._moment()
        assert game is not None and m is not None and self._game_id is not None
        moment = game.advance(m, entry)
        self._abandon_armed = False
        # The move that ends the game is written with the game's result, or neither is.
        result = self._result(game, moment, abandoned=False) if moment.stage == "over" else None
        self._journal.append(self._game_id, entry, finish=result)
        self._history.append(moment)
        self._rejection = None
        return True

    def _undo(self, *, by: int | None) -> bool:
        game, m = self._game, self._moment()
        if game is None or m is None or self._game_id is None:
            raise Refused(say.NOTHING_TO_UNDO)
        if len(self._history) < 2:
            raise Refused(say.NOTHING_TO_UNDO)
        if by is not None and m.actor != by:
            raise Refused(say.NOT_YOURS_TO_UNDO, seat=by)
        self._abandon_armed = False
        # At the ranking the last move goes with the result it gave (a wrong leftover
        # tile shown): both in one write.
        self._journal.append(self._game_id, {"t": "undo"}, reopen=m.stage == "over")
        self._history.pop()
        self._rejection = None
        return True

    def _new_game(self, *, same_seats: bool) -> bool:
        seats = list(self._game.seats) if same_seats and self._game else sorted(self._joined)
        if len(seats) < 2:
            raise Refused(say.TWO_SEATS)
        leader = self._joined[0] if self._joined and self._joined[0] in seats else seats[0]
        try:
            game = Game(
                rules=self._rules,
                hand_mode=self._config.hand_mode,
                seats=tuple(seats),
                names=tuple(self._name(s) for s in seats),
                leader=seats.index(leader),
            )
            opening = game.opening()
        except RulesError as err:
            raise Refused(
                say.CANNOT_DEAL, text=preset_name(self._rules), n=len(seats),
                players=_spans(_player_counts(self._rules)),
            ) from err
        self._game_id = self._journal.begin_game(game.meta())
        self._game, self._history = game, [opening]
        self._joined = [leader] + [s for s in seats if s != leader]
        self._rejection = None
        return True

    def _finish(self, *, abandoned: bool) -> None:
        game, m = self._game, self._moment()
        assert game is not None and m is not None and self._game_id is not None
        self._journal.finish_game(self._game_id, self._result(game, m, abandoned=abandoned))

    @staticmethod
    def _result(game: Game, m: Moment, *, abandoned: bool) -> dict[str, Any]:
        ranking = m.state.ranking
        return {
            "ranking": list(ranking) if ranking is not None else None,
            "totals": list(m.state.totals),
            "winner": game.names[ranking[0]] if ranking and not abandoned else None,
            "abandoned": abandoned,
        }

    def _reject(self, seat: int | None, said: Message) -> None:
        self._rejection = {"seat": seat, "message": said}

    # --- small lookups ------------------------------------------------------------------

    def _moment(self) -> Moment | None:
        return self._history[-1] if self._history else None

    def _name(self, seat: int) -> str:
        config = self._seat_config.get(seat)
        return config.name if config else f"Seat {seat}"

    def _pad_name(self, pad: str) -> Message:
        """A pad as a message: whose it is, by the seat's place in the view if it has one."""
        if pad == MEXICAN:
            return message(say.PAD_MEXICAN)
        if not pad.isdigit():
            return message(say.PAD_OTHER, text=repr(pad))
        seat = self._view_seat(int(pad))
        if seat is None:
            return message(say.PAD_NAMED, text=self._name(int(pad)))
        return message(say.PAD_OF_SEAT, seat=seat)

    def _language(self, seat: int) -> str:
        if seat in self._languages:
            return self._languages[seat]
        config = self._seat_config.get(seat)
        return config.language if config else self._config.language

    def _view_seat(self, seat: int | None) -> int | None:
        """A table seat as the view numbers it: its place among the game's seats, or in
        the lobby among the table's seats."""
        game = self._game
        if seat is None:
            return None
        seats = game.seats if game is not None else self.seat_numbers
        return seats.index(seat) if seat in seats else None


def _player_counts(rules: str | dict[str, object]) -> list[int]:
    """The numbers of players the rules deal for, at a table of up to 14 seats."""
    options = Options.from_json(rules)
    counts = []
    for players in range(2, 15):
        try:
            options.deal_for(players)
        except RulesError:
            continue
        counts.append(players)
    return counts


def _spans(numbers: list[int]) -> list[int | Message]:
    """`[2, 3, 4, 7]` -> 2-4 and 7."""
    runs: list[list[int]] = []
    for k in numbers:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    return [run[0] if len(run) == 1 else message(say.SPAN, low=run[0], high=run[-1])
            for run in runs]


# --- game records ------------------------------------------------------------------------


def record_from_entries(
    meta: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The game record (DESIGN.md) of a journaled game: `roundhouse replay` brings it to
    the game's last state. Raises `TableError` if the entries cannot be replayed."""
    from firmware_py.record import record_from_game

    game = Game.from_meta(meta)
    moment = game.replay(entries)[-1]
    return record_from_game(game.options, game.names, moment.actions())
