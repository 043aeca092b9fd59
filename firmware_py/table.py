"""The table controller: hardware events -> engine actions -> journal -> public view.

One `Table` owns the game and is driven by one thread. It turns button presses and
pad taps into inputs, asks the rules engine, journals every accepted input before
`handle` returns, and builds the public view of docs/view.md.

Buttons act when they are released, unless they were held: holding PASS (undo) or DRAW
(start a game, next round) must not first act as a plain press. So a press is the pair
`ButtonPressed`, `ButtonReleased`; a hold is `ButtonPressed`, `ButtonHeld`,
`ButtonReleased`.

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
from firmware_py.render import languages
from firmware_py.rules import (
    MEXICAN,
    Draw,
    IllegalMove,
    Options,
    Pass,
    Play,
    Reveal,
    RulesError,
    StartRound,
    Tile,
    Train,
    TrainId,
    action_to_json,
    apply,
    legal_actions,
)
from firmware_py.tablegame import (
    Game,
    Moment,
    Refused,
    TableError,
    preset_name,
)
from hardware.events import (
    Button,
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    Event,
    ReaderOffline,
    ReaderOnline,
    TagPlaced,
    TagRemoved,
)

if TYPE_CHECKING:
    from firmware_py.config import Config
    from firmware_py.rules import Action

__all__ = ["Game", "Moment", "Refused", "Table", "TableError", "record_from_entries"]

log = logging.getLogger(__name__)

VIEW_VERSION = 1
# The options the screens show next to the preset's name.
KEY_OPTIONS = ("engine", "first_turn", "double_follow", "chicken_foot", "double_blank")


class _Binding(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> str: ...


class _Journal(Protocol):
    def begin_game(self, meta: Mapping[str, Any]) -> int: ...
    def append(self, game_id: int, entry: Mapping[str, Any], *,
               finish: Mapping[str, Any] | None = None, reopen: bool = False) -> int: ...
    def open_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None: ...
    def ended_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None: ...
    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None: ...
    def reopen_game(self, game_id: int) -> None: ...


# --- the controller --------------------------------------------------------------------


class Table:
    """The only owner of the game: feed it events, publish its view."""

    def __init__(
        self,
        config: Config,
        journal: _Journal,
        lookup: Callable[[str], _Binding | None],
    ) -> None:
        self._config = config
        self._journal = journal
        self._lookup = lookup
        self._seat_config = {s.seat: s for s in config.seats}
        self._rules: str | dict[str, object] = config.rules
        self._joined: list[int] = []  # table seats in the order they joined
        self._held: set[tuple[int, Button]] = set()
        self._markers: dict[str, set[str]] = {r.pad: set() for r in config.readers}
        # Only these pads' readers can read a marker beside a tile: on the others a
        # marker that is not read says nothing about where it lies.
        self._senses_markers = {r.pad for r in config.readers if r.markers}
        self._readers: dict[str, tuple[bool, str | None]] = {
            r.pad: (False, "starting") for r in config.readers
        }
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

    # --- read-only snapshots (safe to read from another thread: never mutated) -------

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

    # --- events -------------------------------------------------------------------------

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

    def _dispatch(self, event: Event) -> bool:
        if isinstance(event, ButtonPressed):
            return False
        if isinstance(event, ButtonHeld):
            self._held.add((event.seat, event.button))
            return self._button(event.seat, event.button, held=True)
        if isinstance(event, ButtonReleased):
            if (event.seat, event.button) in self._held:
                self._held.discard((event.seat, event.button))
                return False
            return self._button(event.seat, event.button, held=False)
        if isinstance(event, TagPlaced):
            return self._tag(event.pad, event.uid)
        if isinstance(event, TagRemoved):
            binding = self._lookup(event.uid)
            if binding is not None and binding.kind == "marker":
                self._markers.setdefault(event.pad, set()).discard(binding.value)
                return True
            return False
        if isinstance(event, ReaderOnline):
            self._readers[event.pad] = (True, None)
            return True
        if isinstance(event, ReaderOffline):
            self._readers[event.pad] = (False, event.reason)
            self._markers[event.pad] = set()
            return True
        return False

    def _button(self, seat: int, button: Button, *, held: bool) -> bool:
        self._abandon_armed = False
        if seat not in self._seat_config:
            raise Refused(say.NOT_AT_TABLE, number=seat)
        game, m = self._game, self._moment()
        if game is None or m is None:
            return self._lobby_button(seat, button, held=held)
        if m.stage == "over":
            if button is Button.DRAW and held:
                return self._new_game(same_seats=True)
            if button is Button.DRAW:
                self._game, self._history, self._game_id = None, [], None
                return self._lobby_button(seat, button, held=held)
            raise Refused(say.OVER_HOLD_DRAW)
        if seat not in game.seats:
            raise Refused(say.NOT_IN_GAME, text=self._name(seat))
        me = game.seats.index(seat)
        if held:
            if button is Button.PASS:
                return self._undo(by=me)
            if m.stage == "summary":
                return self._commit({"t": "next"})
            # Held, DRAW does nothing here; a plain press would have.
            raise Refused(say.HOLD_DRAW_NOTHING)
        if m.stage == "lead":
            if button is Button.DRAW:
                return self._commit({"t": "lead", "seat": me})
            raise Refused(say.PRESS_DRAW_LEAD)
        if m.stage == "hunt":
            if button is Button.DRAW:
                return self._commit({"t": "hunt", "seat": me})
            raise Refused(game.waiting_for(m))
        if m.stage == "reveal":
            if button is Button.PASS:
                tiles = m.shown[me] if m.shown else ()
                return self._act(Reveal(me, tuple(tiles)))
            raise Refused(say.WAIT_REVEAL)
        if m.stage != "play":
            raise Refused(game.waiting_for(m))
        if me != m.state.turn:
            if m.state.turn is None:
                raise Refused(say.NOBODYS_TURN)
            raise Refused(say.NOT_YOUR_TURN, seat=m.state.turn)
        if m.drawing is not None:
            raise Refused(say.TAP_DRAWN_FIRST, seat=me)
        if button is Button.PASS:
            return self._act(Pass(me))
        if not game.tracked:
            return self._act(Draw(me))
        if not any(isinstance(a, Draw) for a in legal_actions(m.state)):
            # The engine's own sentence says why drawing is not allowed now.
            apply(m.state, Draw(me))
            raise Refused(say.CANNOT_DRAW, seat=me)
        return self._commit({"t": "drawing", "seat": me})

    def _lobby_button(self, seat: int, button: Button, *, held: bool) -> bool:
        if button is Button.PASS:
            raise Refused(say.LOBBY_PASS)
        if held:
            if seat not in self._joined:
                raise Refused(say.JOIN_FIRST, seat=self._view_seat(seat))
            return self._new_game(same_seats=False)
        if seat in self._joined:
            self._joined.remove(seat)
        else:
            self._joined.append(seat)
        self._rejection = None
        return True

    def _tag(self, pad: str, uid: str) -> bool:
        binding = self._lookup(uid)
        if binding is None or binding.kind not in ("marker", "card"):
            # Abandoning a game is confirmed by the very next input only.
            self._abandon_armed = False
        if binding is None:
            raise Refused(say.UNKNOWN_TAG, text=uid, pad=self._pad_name(pad))
        if binding.kind == "marker":
            self._markers.setdefault(pad, set()).add(binding.value)
            return True
        if binding.kind == "card":
            return self._card(binding.value, pad)
        if binding.kind != "tile":
            raise Refused(say.TAG_UNUSED, text=uid)
        tile = Tile.parse(binding.value)
        game, m = self._game, self._moment()
        if game is None or m is None:
            raise Refused(say.NO_GAME)
        if m.stage == "over":
            raise Refused(say.OVER_HOLD_DRAW)
        owner = self._pad_owner(game, pad)
        if m.stage == "deal":
            if owner is None:
                raise Refused(say.DEAL_OWN_PAD)
            return self._commit({"t": "dealt", "seat": owner, "tile": str(tile)})
        if m.stage == "hunt":
            if tile is not game.next_engine(m.state):
                raise Refused(game.waiting_for(m))
            if owner is None:
                raise Refused(say.ENGINE_OWN_PAD, tile=str(tile))
            return self._commit({"t": "holder", "seat": owner})
        if m.stage == "reveal":
            if owner is None:
                raise Refused(say.REVEAL_OWN_PAD)
            if tile.high > game.set_size:
                raise Refused(say.NOT_IN_SET, tile=str(tile), set=game.set_size)
            for other, shown in enumerate(m.shown):
                if other != owner and tile in shown:
                    raise Refused(say.SHOWN_BY_OTHER, tile=str(tile), other_seat=other)
            return self._commit({"t": "shown", "seat": owner, "tile": str(tile)})
        if m.stage != "play":
            raise Refused(game.waiting_for(m))
        turn = m.state.turn
        if turn is None:
            raise Refused(game.waiting_for(m))
        if m.drawing is not None:
            if owner != m.drawing:
                raise Refused(say.TAP_DRAWN_FIRST, seat=m.drawing)
            return self._act(Draw(m.drawing, tile))
        train: TrainId | None = MEXICAN if pad == MEXICAN else owner
        if train is None:
            raise Refused(say.NOT_A_TRAIN, pad=self._pad_name(pad))
        return self._play(game, m, Play(turn, tile, train))

    def _play(self, game: Game, m: Moment, play: Play) -> bool:
        """Play a tapped tile; on a chicken-foot train the first open end that fits."""
        ends = m.state.trains[play.train].ends()
        candidates = [play]
        if len(ends) > 1:
            candidates = [play._replace(branch=k) for k in range(len(ends))]
        refusal: RulesError | None = None
        for candidate in candidates:
            try:
                return self._act(candidate)
            except IllegalMove as err:
                refusal = refusal or err
        assert refusal is not None
        raise refusal

    def _card(self, card: str, pad: str) -> bool:
        if card != "new_game":
            self._abandon_armed = False
        if card == "language":
            return self._next_language(pad)
        if card == "undo":
            return self._undo(by=None)
        if card == "next_preset":
            m = self._moment()
            if self._game is not None and m is not None and m.stage != "over":
                raise Refused(say.PRESET_BETWEEN)
            if self._game is not None:
                # From the final ranking to the lobby, where the preset is shown.
                self._game, self._history, self._game_id = None, [], None
            presets = list(self._config.presets) or [preset_name(self._rules)]
            current = preset_name(self._rules)
            index = presets.index(current) + 1 if current in presets else 0
            self._rules = presets[index % len(presets)]
            self._rejection = None
            return True
        if card == "new_game":
            m = self._moment()
            if self._game is None or m is None:
                return self._new_game(same_seats=False)
            if m.stage == "over":
                return self._new_game(same_seats=True)
            if not self._abandon_armed:
                self._abandon_armed = True
                raise Refused(say.ABANDON_CONFIRM)
            self._abandon_armed = False
            self._finish(abandoned=True)
            self._game, self._history, self._game_id = None, [], None
            self._rejection = None
            return True
        raise Refused(say.CARD_UNUSED, text=card)

    # --- accepted inputs ----------------------------------------------------------------

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

    @staticmethod
    def _pad_owner(game: Game, pad: str) -> int | None:
        """The game seat whose train (and hand) a pad belongs to."""
        if pad.isdigit() and int(pad) in game.seats:
            return game.seats.index(int(pad))
        return None

    def _language(self, seat: int) -> str:
        if seat in self._languages:
            return self._languages[seat]
        config = self._seat_config.get(seat)
        return config.language if config else self._config.language

    def _next_language(self, pad: str) -> bool:
        """The language card on a seat's own pad: that seat reads the next language."""
        if not pad.isdigit() or int(pad) not in self._seat_config:
            raise Refused(say.LANGUAGE_OWN_PAD)
        seat = int(pad)
        codes = languages()
        current = self._language(seat)
        index = codes.index(current) + 1 if current in codes else 0
        self._languages[seat] = codes[index % len(codes)]
        return True

    def _languages_view(self) -> dict[str, str]:
        """The table's language and the wall's (the table screen speaks each seat's)."""
        wall = self._config.display.wall.language
        return {"language": self._config.language,
                "wall_language": wall or self._config.language}

    def _view_seat(self, seat: int | None) -> int | None:
        """A table seat as the view numbers it: its place among the game's seats, or in
        the lobby among the table's seats."""
        game = self._game
        if seat is None:
            return None
        seats = game.seats if game is not None else self.seat_numbers
        return seats.index(seat) if seat in seats else None

    # --- the public view ----------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The public view of docs/view.md (without "seq"): nothing hidden in it."""
        game, m = self._game, self._moment()
        if game is None or m is None:
            return self._lobby_view()
        state = m.state
        started = state.round > 0 and m.stage not in ("lead", "deal", "hunt")
        seats = []
        for e, seat in enumerate(game.seats):
            train = state.trains.get(e) if started else None
            seats.append(
                {
                    "seat": e,
                    "name": game.names[e],
                    "language": self._language(seat),
                    "joined": True,
                    "hand": self._hand(game, m, e),
                    "one_tile": e in self._one_tile(m),
                    "marker_expected": bool(train and train.open),
                    "marker_sensed": self._marker_sensed(seat),
                    "total": state.totals[e],
                }
            )
        trains = []
        if started:
            for e, name in enumerate(game.names):
                trains.append(
                    {"id": str(e), "owner": e, "name": name}
                    | _train_view(state.trains[e])
                )
            trains.append(
                {"id": MEXICAN, "owner": None, "name": "Mexican train"}
                | _train_view(state.trains[MEXICAN])
            )
        engine = state.engine if started else game.next_engine(state)
        last_play = None
        if m.last_play is not None:
            actor, train_id, text = m.last_play
            last_play = {
                "seat": actor,
                "train": str(train_id),
                "tile": text,
            }
        return {
            "version": VIEW_VERSION,
            **self._languages_view(),
            "phase": "deal" if m.stage == "play" and not state.engine_laid else _PHASES[m.stage],
            "preset": game.preset,
            "options": {k: game.option(k) for k in KEY_OPTIONS},
            "hand_mode": game.hand_mode,
            "set": game.set_size,
            "round": state.round if started else state.round + 1,
            "rounds": game.rounds,
            "engine": str(engine) if engine is not None else None,
            "engine_laid": bool(started and state.engine_laid),
            "turn": state.turn if started else None,
            "seats": seats,
            "trains": trains,
            "pending_doubles": [
                {"train": str(train_id), "tile": str(tile), "order": k}
                for k, (train_id, tile) in enumerate(state.pending_doubles if started else (), 1)
            ],
            "boneyard": self._boneyard(game, m),
            "prompt": self._prompt(game, m),
            "rejection": self._rejection,
            "alerts": self._alerts(game, m) if started else self._reader_alerts(),
            "scores": [list(row) for row in state.scores],
            "round_engines": list(m.engines[: len(state.scores)]),
            "totals": list(state.totals),
            "ranking": list(state.ranking) if state.ranking else None,
            "readers": self._reader_views(),
            "last_play": last_play,
            "revealed": self._revealed(game, m),
            "went_out": state.went_out if m.stage in ("reveal", "summary", "over") else None,
        }

    @staticmethod
    def _revealed(game: Game, m: Moment) -> list[int | None] | None:
        """During the reveal, each seat's points once known (its tiles shown and PASS
        pressed, or none left), else None; None outside the reveal."""
        if m.stage != "reveal":
            return None
        blank = int(str(game.option("double_blank")))
        state = m.state
        return [
            None if e in state.awaiting_reveal
            else sum(t.score(blank) for t in (m.shown[e] if m.shown else ()))
            for e in range(game.players)
        ]

    def _lobby_view(self) -> dict[str, Any]:
        options = Options.from_json(self._rules)
        # Until two have joined, the set is the one the whole table would be dealt.
        players = len(self._joined) if len(self._joined) >= 2 else len(self._config.seats)
        try:
            set_size = options.deal_for(players)[0]
        except RulesError:
            set_size = options.set or 12
        rounds = options.rounds
        joined = len(self._joined)
        if joined == 0:
            prompt = message(say.LOBBY_JOIN)
        elif joined == 1:
            prompt = message(say.LOBBY_JOIN_TWO)
        else:
            prompt = message(say.LOBBY_START, n=joined)
        return {
            "version": VIEW_VERSION,
            **self._languages_view(),
            "phase": "lobby",
            "preset": preset_name(self._rules),
            "options": {k: getattr(options, k) for k in KEY_OPTIONS},
            "hand_mode": self._config.hand_mode,
            "set": set_size,
            "round": 0,
            "rounds": int(rounds) if rounds else set_size + 1,
            "engine": None,
            "engine_laid": False,
            "turn": None,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "language": self._language(s.seat),
                    "joined": s.seat in self._joined,
                    "hand": 0,
                    "one_tile": False,
                    "marker_expected": False,
                    "marker_sensed": self._marker_sensed(s.seat),
                    "total": 0,
                }
                for s in sorted(self._config.seats, key=lambda s: s.seat)
            ],
            "trains": [],
            "pending_doubles": [],
            "boneyard": 0,
            "prompt": prompt,
            "rejection": self._rejection,
            "alerts": self._reader_alerts(),
            "scores": [],
            "round_engines": [],
            "totals": [0] * len(self._config.seats),
            "ranking": None,
            "readers": self._reader_views(),
            "last_play": None,
            "revealed": None,
            "went_out": None,
        }

    def _reader_views(self) -> list[dict[str, Any]]:
        return [
            {"pad": pad, "online": online, "reason": reason}
            for pad, (online, reason) in self._readers.items()
        ]

    def _marker_sensed(self, seat: int) -> bool | None:
        pad = str(seat)
        online, _ = self._readers.get(pad, (False, None))
        if not online or pad not in self._senses_markers:
            return None
        return str(seat) in self._markers.get(pad, set())

    def _marker_astray(self, seat: int) -> str | None:
        """The pad of another train where a seat's marker lies, if one senses it."""
        for pad, markers in self._markers.items():
            if (pad != str(seat) and str(seat) in markers and pad in self._senses_markers
                    and self._readers.get(pad, (False,))[0]):
                return pad
        return None

    @staticmethod
    def _hand(game: Game, m: Moment, e: int) -> int:
        if m.stage == "deal":
            return len(m.dealt[e])
        if m.stage == "hunt":
            return game.hand_size + m.hunted[e]
        if m.stage == "lead":
            return 0
        return int(m.state.hand_counts[e])

    def _boneyard(self, game: Game, m: Moment) -> int:
        if m.stage in ("lead", "deal", "hunt"):
            out = sum(self._hand(game, m, e) for e in range(game.players))
            return len(game.set_tiles()) - out - (1 if game.set_aside else 0)
        return int(m.state.boneyard_count)

    def _prompt(self, game: Game, m: Moment) -> Message | None:
        state = m.state
        if m.stage in ("lead", "deal", "hunt"):
            return self._deal_prompt(game, m)
        if m.stage == "reveal":
            waiting = [
                message(say.PROGRESS, seat=e, done=len(m.shown[e]) if m.shown else 0,
                        of=state.hand_counts[e])
                for e in state.awaiting_reveal
            ]
            return message(say.REVEAL, waiting=waiting)
        if m.stage == "summary":
            if state.went_out is not None:
                return message(say.SUMMARY_OUT, round=state.round, seat=state.went_out,
                               next=state.round + 1)
            return message(say.SUMMARY_BLOCKED, round=state.round, next=state.round + 1)
        if m.stage == "over":
            if state.ranking:
                return message(say.OVER, winner_seat=state.ranking[0])
            return message(say.OVER_NOBODY)
        return self._play_prompt(game, m)

    def _deal_prompt(self, game: Game, m: Moment) -> Message:
        state = m.state
        engine = str(game.next_engine(state))
        if m.stage == "lead":
            return message(say.LEAD, round=state.round + 1, tile=engine)
        if m.stage == "deal":
            dealt = [
                message(say.PROGRESS, seat=e, done=len(hand), of=game.hand_size)
                for e, hand in enumerate(m.dealt)
            ]
            if game.set_aside:
                return message(say.DEAL_ASIDE, round=state.round + 1, tile=engine, dealt=dealt)
            return message(say.DEAL, round=state.round + 1, dealt=dealt)
        return message(say.HUNT, round=state.round + 1, n=game.hand_size, tile=engine,
                       seat=m.hunter or 0)

    def _play_prompt(self, game: Game, m: Moment) -> Message | None:
        state = m.state
        seat = state.turn
        if seat is None:
            return None
        last = m.steps.action if m.steps is not None else None
        fresh: list[Message] = []
        if isinstance(last, StartRound):
            if not game.tracked:
                fresh.append(message(say.TAKE_TILES, n=game.hand_size))
            if game.set_aside:
                fresh.append(message(say.PUT_ENGINE, tile=str(state.engine)))
        if m.drawing is not None:
            online, reason = self._readers.get(str(game.seats[seat]), (True, None))
            if not online and reason != "starting":
                return message(say.DRAW_OFFLINE, seat=seat)
            return message(say.TAP_DRAWN, seat=seat)
        if not state.engine_laid:
            return message(say.FIND_ENGINE, seat=seat, tile=str(state.engine))
        if state.pending_doubles:
            train_id, tile = state.pending_doubles[0]
            return _after(fresh, message(say.SATISFY, seat=seat, tile=str(tile),
                                         train=str(train_id)))
        if isinstance(last, Draw) and last.seat == seat and last.tile is not state.engine:
            # (A draw that turned up the engine laid it: that seat leads the round.)
            return message(say.DRAWN, seat=seat)
        if game.option("first_turn") == "train" and not state.first_turn_done[seat]:
            return _after(fresh, message(say.LAY_TRAIN, seat=seat))
        if state.boneyard_count == 0:
            return _after(fresh, message(say.PLAY_OR_PASS, seat=seat))
        return _after(fresh, message(say.PLAY_OR_DRAW, seat=seat))

    @staticmethod
    def _one_tile(m: Moment) -> tuple[int, ...]:
        """Seats down to one tile in play. The table says it under every preset (the
        `one_tile_alert` rule makes players say it, and the table says it for them)."""
        if m.stage != "play":
            return ()
        return tuple(e for e, count in enumerate(m.state.hand_counts) if count == 1)

    def _reader_alerts(self) -> list[dict[str, Any]]:
        """One alert per offline reader, for the seat whose pad it reads (if in the view)."""
        alerts = []
        for pad, (online, reason) in self._readers.items():
            if online or reason == "starting":
                # A reader that has not reported yet is no news.
                continue
            seat = self._view_seat(int(pad)) if pad.isdigit() else None
            where = self._pad_name(pad)
            said = (message(say.READER_OFFLINE_WHY, pad=where, text=reason) if reason
                    else message(say.READER_OFFLINE, pad=where))
            alerts.append({"seat": seat, "message": said})
        return alerts

    def _alerts(self, game: Game, m: Moment) -> list[dict[str, Any]]:
        state = m.state
        alerts = [
            {"seat": e, "message": message(say.ONE_TILE, seat=e)} for e in self._one_tile(m)
        ]
        alerts += self._reader_alerts()
        if m.stage != "play":
            return alerts
        before = self._history[-2].state if len(self._history) > 1 else None
        for e, seat in enumerate(game.seats):
            expected = state.trains[e].open
            sensed = self._marker_sensed(seat)
            astray = None if sensed else self._marker_astray(seat)
            if astray is not None:
                where = self._pad_name(astray)
                said = (message(say.MARKER_MOVE, seat=e, pad=where) if expected
                        else message(say.MARKER_BACK_FROM, seat=e, pad=where))
                alerts.append({"seat": e, "message": said})
                continue
            if sensed is None:
                # Without a reader on that pad the table can only remind at the change.
                was = before.trains[e].open if before is not None and before.round else expected
                if expected == was:
                    continue
                sensed = was
            if expected and not sensed:
                alerts.append({"seat": e, "message": message(say.MARKER_OUT, seat=e)})
            elif sensed and not expected:
                alerts.append({"seat": e, "message": message(say.MARKER_BACK, seat=e)})
        return alerts


_PHASES = {
    "lead": "deal",
    "deal": "deal",
    "hunt": "deal",
    "play": "play",
    "reveal": "round_over",
    "summary": "round_over",
    "over": "game_over",
}


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


def _after(before: list[Message], prompt: Message) -> Message:
    """The sentences of a fresh round's start, then the prompt."""
    for first in reversed(before):
        prompt = message(say.SENTENCES, first=first, then=prompt)
    return prompt


def _train_view(train: Train) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in train.tiles],
        "open": train.open,
        "branches": [_branch_view(b) for b in train.branches],
    }


def _branch_view(branch: Train) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in branch.tiles],
        "branches": [_branch_view(b) for b in branch.branches],
    }


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
