"""The table controller: hardware events -> engine actions -> journal -> public view.

One `Table` owns the game and is driven by one thread. It turns button presses and
pad taps into inputs, asks the rules engine, journals every accepted input before
`handle` returns, and builds the public view of docs/view.md.

Buttons act when they are released, unless they were held: holding PASS (undo) or DRAW
(start a game, next round) must not first act as a plain press. So a press is the pair
`ButtonPressed`, `ButtonReleased`; a hold is `ButtonPressed`, `ButtonHeld`,
`ButtonReleased`.

Journal entries (one JSON object per accepted input, in order):

- `{"t": "action", "action": MOVE}`: a move of the game record (play, draw, pass, reveal);
- `{"t": "lead", "seat": S}`: seat S leads the round being set up;
- `{"t": "dealt", "seat": S, "tile": "A-B"}`: tracked hands, S took that tile in the deal;
- `{"t": "drawing", "seat": S}`: tracked hands, S pressed DRAW and owes the drawn tile;
- `{"t": "shown", "seat": S, "tile": "A-B"}`: open hands, S tapped a leftover tile
  (tapping it again takes it back);
- `{"t": "next"}`: the round summary was dismissed;
- `{"t": "hunt", "seat": S}`: open hands under `engine: holder`, S drew for the engine;
- `{"t": "holder", "seat": S}`: S tapped the engine on its own pad: S lays it and leads;
- `{"t": "undo"}`: the input before it is void.

Seats in entries, moves and the view during a game are the game's seats (0..players-1,
clockwise among the seats that joined); the table's own seat numbers name the buttons
and the pads. Starting a round (`StartRound`) is never an entry: it follows from the
game's meta and the entries before it, so replaying the entries rebuilds every moment
of the game. A finished game is closed in the journal: after a restart the table waits
in the lobby.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from firmware_py import RoundhouseError
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
    State,
    Tile,
    action_from_json,
    action_to_json,
    apply,
    legal_actions,
    new_game,
    set_tiles,
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

VIEW_VERSION = 1
# The options the screens show next to the preset's name.
KEY_OPTIONS = ("engine", "first_turn", "double_follow", "chicken_foot", "double_blank")


class TableError(RoundhouseError):
    """The journal holds a game this controller cannot rebuild."""


class Refused(RoundhouseError):
    """An input the table does not accept now; the message is shown to the players."""


class _Binding(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> str: ...


class _Journal(Protocol):
    def begin_game(self, meta: Mapping[str, Any]) -> int: ...
    def append(self, game_id: int, entry: Mapping[str, Any]) -> int: ...
    def open_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None: ...
    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None: ...


def _preset_name(rules: str | Mapping[str, object]) -> str:
    return rules if isinstance(rules, str) else str(rules["preset"])


# --- one moment of a game -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """The engine actions of a game so far, newest first, shared between moments."""

    action: Action
    before: _Step | None


@dataclass(frozen=True, slots=True)
class Moment:
    """The whole game at one point: the engine state plus what the table waits for.

    `stage` is "lead" (who leads the next round), "deal" (tracked hands being tapped),
    "hunt" (open hands under `engine: holder`: finding who holds the engine), "play",
    "reveal" (open hands: leftover tiles being tapped), "summary" (the round's scores
    until someone holds DRAW) or "over".
    """

    state: State
    stage: str
    starter: int | None = None  # who leads (or hunts first in) the current round
    dealt: tuple[tuple[Tile, ...], ...] = ()
    hunted: tuple[int, ...] = ()  # open-hands hunt: tiles each seat drew
    hunter: int | None = None
    drawing: int | None = None
    shown: tuple[tuple[Tile, ...], ...] = ()
    engines: tuple[str, ...] = ()
    actor: int | None = None
    last_play: tuple[int, object, str] | None = None
    steps: _Step | None = None
    base: Moment | None = None  # the moment before this round's StartRound

    def actions(self) -> list[Action]:
        out: list[Action] = []
        step = self.steps
        while step is not None:
            out.append(step.action)
            step = step.before
        out.reverse()
        return out


def _stage_of(state: State) -> str:
    if state.phase == "play":
        return "play"
    if state.awaiting_reveal:
        return "reveal"
    return "over" if state.phase == "game_over" else "summary"


class Game:
    """What stays fixed during one game: its rules, hand mode and seats."""

    def __init__(
        self,
        rules: str | dict[str, object],
        hand_mode: str,
        seats: Sequence[int],
        names: Sequence[str],
        leader: int,
    ) -> None:
        self.rules = rules
        self.hand_mode = hand_mode
        self.seats = tuple(seats)  # the table seat of each game seat, clockwise
        self.names = tuple(names)
        self.leader = leader  # the game seat that pressed DRAW first in the lobby
        self.options = Options.from_json(rules)
        self.set_size, self.hand_size = self.options.deal_for(len(self.seats))

    @property
    def preset(self) -> str:
        return _preset_name(self.rules)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def rounds(self) -> int:
        rounds = self.options.rounds
        return int(rounds) if rounds else self.set_size + 1

    @property
    def tracked(self) -> bool:
        return self.hand_mode == "tracked"

    @property
    def set_aside(self) -> bool:
        return self.options.engine == "set_aside"

    def option(self, name: str) -> object:
        return getattr(self.options, name)

    def meta(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "seats": list(self.seats),
            "leader": self.leader,
            "preset": self.preset,
            "rules": self.rules,
            "hand_mode": self.hand_mode,
        }

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> Game:
        """The game a journal's meta describes; `TableError` if it cannot be read."""
        try:
            names = [str(n) for n in meta["players"]]
            return cls(
                rules=meta["rules"],
                hand_mode=str(meta.get("hand_mode", "open")),
                seats=[int(s) for s in meta.get("seats", range(len(names)))],
                names=names,
                leader=int(meta.get("leader", 0)),
            )
        except (RulesError, KeyError, TypeError, ValueError) as err:
            raise TableError(f"the game's description {dict(meta)} cannot be read: {err}") from err

    def next_engine(self, state: State) -> Tile:
        pips = self.set_size - state.round
        return Tile(pips, pips)

    def set_tiles(self) -> tuple[Tile, ...]:
        return set_tiles(self.set_size)

    # --- the reducer: (moment, entry) -> next moment ----------------------------------

    def opening(self) -> Moment:
        return self._setup(Moment(state=new_game(self.options, self.players), stage="lead"))

    def replay(self, entries: Sequence[Mapping[str, Any]]) -> list[Moment]:
        """Every moment still in force after `entries` (undone ones are dropped)."""
        history = [self.opening()]
        for index, entry in enumerate(entries):
            if entry.get("t") == "undo":
                if len(history) > 1:
                    history.pop()
                continue
            try:
                history.append(self.advance(history[-1], entry))
            except (RulesError, Refused, KeyError, TypeError, ValueError) as err:
                raise TableError(
                    f"journal entry {index} ({entry}) cannot be replayed: {err}"
                ) from err
        return history

    def advance(self, m: Moment, entry: Mapping[str, Any]) -> Moment:
        """The moment after one input; raises `Refused` or a `RulesError` otherwise."""
        kind = entry.get("t")
        if kind == "action":
            return self._act(m, action_from_json(entry["action"]))
        if kind == "next" and m.stage == "summary":
            return self._setup(replace(m, actor=None))
        seat = entry.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise Refused(f"The table does not expect {kind!r} now.")
        if kind == "lead" and m.stage == "lead":
            return self._deal(replace(m, actor=seat), seat)
        if kind == "dealt" and m.stage == "deal":
            return self._dealt(m, seat, Tile.parse(str(entry["tile"])))
        if kind == "hunt" and m.stage == "hunt":
            return self._hunt(m, seat)
        if kind == "holder" and m.stage == "hunt":
            hands = tuple(self.hand_size + k for k in m.hunted)
            return self._start(replace(m, actor=seat), StartRound(hands, None, starter=seat))
        if kind == "drawing" and m.stage == "play":
            if seat != m.state.turn:
                raise Refused(f"It's {self.names[m.state.turn or 0]}'s turn.")
            return replace(m, drawing=seat, actor=seat)
        if kind == "shown" and m.stage == "reveal":
            return self._shown(m, seat, Tile.parse(str(entry["tile"])))
        raise Refused(self.waiting_for(m))

    def _setup(self, m: Moment) -> Moment:
        """Prepare the next round: choose who leads, then deal."""
        base = replace(
            m, stage="lead", dealt=(), hunted=(), hunter=None, shown=(), drawing=None,
            last_play=None,
        )
        if m.state.round == 0 or m.starter is None:
            return self._deal(base, self.leader)
        if self.set_aside and self.options.starter == "chosen":
            return base
        return self._deal(base, (m.starter + 1) % self.players)

    def _deal(self, m: Moment, starter: int) -> Moment:
        m = replace(m, starter=starter)
        if self.tracked:
            return replace(m, stage="deal", dealt=((),) * self.players)
        if not self.set_aside:
            return replace(m, stage="hunt", hunted=(0,) * self.players, hunter=starter)
        return self._start(m, StartRound(None, None, starter=starter))

    def _dealt(self, m: Moment, seat: int, tile: Tile) -> Moment:
        name = self.names[seat]
        engine = self.next_engine(m.state)
        if tile.high > self.set_size:
            raise Refused(f"The {tile} is not in this game's double-{self.set_size} set.")
        if tile is engine and self.set_aside:
            raise Refused(f"The {tile} is this round's engine: put it in the hub.")
        for other, hand in enumerate(m.dealt):
            if tile in hand:
                raise Refused(f"The {tile} is already in {self.names[other]}'s hand.")
        if len(m.dealt[seat]) >= self.hand_size:
            raise Refused(f"{name} already has {self.hand_size} tiles.")
        dealt = tuple((*h, tile) if i == seat else h for i, h in enumerate(m.dealt))
        m = replace(m, dealt=dealt, actor=seat)
        if any(len(hand) < self.hand_size for hand in dealt):
            return m
        taken = {t for hand in dealt for t in hand}
        if self.set_aside:
            taken.add(engine)
        # The face-down order is unknown: each draw names its tile (see `_draw_named`).
        boneyard = tuple(t for t in self.set_tiles() if t not in taken)
        return self._start(m, StartRound(dealt, boneyard, starter=m.starter))

    def _hunt(self, m: Moment, seat: int) -> Moment:
        if seat != m.hunter:
            raise Refused(f"It's {self.names[m.hunter or 0]}'s turn to draw for the engine.")
        left = len(self.set_tiles()) - self.players * self.hand_size - sum(m.hunted)
        if left <= 0:
            raise Refused("The boneyard is empty.")
        hunted = tuple(k + (i == seat) for i, k in enumerate(m.hunted))
        return replace(m, hunted=hunted, hunter=(seat + 1) % self.players, actor=seat)

    def _start(self, m: Moment, action: StartRound) -> Moment:
        state = apply(m.state, action)
        started = replace(m, base=m, engines=(*m.engines, str(state.engine)))
        return self._after(started, action, state)

    def _shown(self, m: Moment, seat: int, tile: Tile) -> Moment:
        if seat not in m.state.awaiting_reveal:
            raise Refused(f"{self.names[seat]} has already shown the leftover tiles.")
        shown = list(m.shown or ((),) * self.players)
        hand = shown[seat]
        if tile in hand:
            shown[seat] = tuple(t for t in hand if t is not tile)
        elif len(hand) >= m.state.hand_counts[seat]:
            raise Refused(f"{self.names[seat]} has only {m.state.hand_counts[seat]} tiles left.")
        else:
            shown[seat] = (*hand, tile)
        return replace(m, shown=tuple(shown), actor=seat)

    def _act(self, m: Moment, action: Action) -> Moment:
        if isinstance(action, StartRound):
            raise Refused("Rounds start by themselves.")
        if isinstance(action, Reveal):
            if m.stage != "reveal":
                raise Refused("Leftover tiles are shown at the end of a round.")
        elif m.stage != "play":
            raise Refused(self.waiting_for(m))
        elif m.drawing is not None and not (
            isinstance(action, Draw) and action.seat == m.drawing and action.tile is not None
        ):
            raise Refused(f"{self.names[m.drawing]}: tap the tile you drew on your own pad.")
        if isinstance(action, Draw) and action.tile is not None and self.tracked:
            return self._draw_named(m, action)
        return self._after(m, action, apply(m.state, action))

    def _draw_named(self, m: Moment, draw: Draw) -> Moment:
        """Tracked hands: the boneyard's order is learnt one draw at a time, so the
        round is rebuilt with the drawn tile next in line before it is drawn."""
        try:
            return self._after(m, draw, apply(m.state, draw))
        except IllegalMove as refusal:
            base = m.base
            if base is None:
                raise
            played = m.actions()[len(base.actions()) :]
            start = played[0]
            assert isinstance(start, StartRound)
            drawn = [a.tile for a in played if isinstance(a, Draw) and a.tile is not None]
            if draw.tile in drawn or draw.tile not in (start.boneyard or ()):
                raise Refused(self._whereabouts(m.state, draw.tile)) from refusal
            rest = [t for t in start.boneyard or () if t not in drawn and t is not draw.tile]
            again = self._start(base, start._replace(boneyard=(*drawn, draw.tile, *rest)))
            for action in played[1:]:
                again = self._after(again, action, apply(again.state, action))
            again = replace(again, drawing=m.drawing)
            return self._after(again, draw, apply(again.state, draw))

    def _whereabouts(self, state: State, tile: Tile | None) -> str:
        for seat, hand in enumerate(state.hands):
            if hand is not None and tile in hand:
                return f"The {tile} is in {self.names[seat]}'s hand."
        return f"The {tile} is not in the boneyard."

    def _after(self, m: Moment, action: Action, state: State) -> Moment:
        last_play = m.last_play
        if isinstance(action, Play):
            last_play = (action.seat, action.train, _laid_text(state, action))
        elif isinstance(action, StartRound):
            last_play = None
        return replace(
            m,
            state=state,
            stage=_stage_of(state),
            drawing=None,
            shown=() if isinstance(action, StartRound) else m.shown,
            actor=getattr(action, "seat", None),
            last_play=last_play,
            steps=_Step(action, m.steps),
        )

    def waiting_for(self, m: Moment) -> str:
        """A short sentence: what the table waits for when an input does not fit."""
        if m.stage == "lead":
            return "First choose who leads: the first seat to press DRAW."
        if m.stage == "deal":
            return "The deal is not finished: tap your dealt tiles on your own pad."
        if m.stage == "hunt":
            return f"First find the {self.next_engine(m.state)}: tap it on your own pad."
        if m.stage == "reveal":
            return "Tap your leftover tiles on your own pad, then PASS."
        if m.stage == "summary":
            return "The round is over: hold DRAW for the next round."
        if m.stage == "over":
            return "The game is over."
        return "Play goes on."


def _laid_text(state: State, action: Play) -> str:
    """The tile as it lies on its train or branch (oriented), for the screens."""
    pair = {action.tile.high, action.tile.low}
    nodes = [state.trains[action.train]]
    while nodes:
        node = nodes.pop()
        for laid in node.tiles:
            if {laid.first, laid.second} == pair:
                return str(laid)
        nodes.extend(node.branches)
    return str(action.tile)


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
        self._readers: dict[str, tuple[bool, str | None]] = {
            r.pad: (False, "starting") for r in config.readers
        }
        self._rejection: dict[str, Any] | None = None
        self._abandon_armed = False
        self._game: Game | None = None
        self._game_id: int | None = None
        self._history: list[Moment] = []
        opened = journal.open_game()
        if opened is not None:
            game_id, meta, entries = opened
            game = Game.from_meta(meta)
            self._history = game.replay(entries)
            self._game, self._game_id = game, game_id
            self._joined = [game.seats[game.leader]] + [
                s for s in game.seats if s != game.seats[game.leader]
            ]

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
            self._reject(self._view_seat(getattr(event, "seat", None)), str(refusal))
        except RulesError as err:
            m = self._moment()
            self._reject(m.state.turn if m is not None else None, self._speak(str(err)))
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
            raise Refused(f"Seat {seat} is not part of this table.")
        game, m = self._game, self._moment()
        if game is None or m is None:
            return self._lobby_button(seat, button, held=held)
        if m.stage == "over":
            if button is Button.DRAW and held:
                return self._new_game(same_seats=True)
            if button is Button.DRAW:
                self._game, self._history, self._game_id = None, [], None
                return self._lobby_button(seat, button, held=held)
            raise Refused("The game is over: hold DRAW for a new game with the same seats.")
        if seat not in game.seats:
            raise Refused(f"{self._name(seat)} is not in this game.")
        me = game.seats.index(seat)
        if held:
            if button is Button.PASS:
                return self._undo(by=me)
            if m.stage == "summary":
                return self._commit({"t": "next"})
            return False
        if m.stage == "lead":
            if button is Button.DRAW:
                return self._commit({"t": "lead", "seat": me})
            raise Refused("Press DRAW to lead this round.")
        if m.stage == "hunt":
            if button is Button.DRAW:
                return self._commit({"t": "hunt", "seat": me})
            raise Refused(game.waiting_for(m))
        if m.stage == "reveal":
            if button is Button.PASS:
                tiles = m.shown[me] if m.shown else ()
                return self._act(Reveal(me, tuple(tiles)))
            raise Refused("Tap your leftover tiles on your own pad, then PASS.")
        if m.stage != "play":
            raise Refused(game.waiting_for(m))
        if me != m.state.turn:
            turn = m.state.turn
            whose = self._name(game.seats[turn]) if turn is not None else "nobody"
            raise Refused(f"Not your turn: it's {whose}'s turn.")
        if m.drawing is not None:
            raise Refused(f"{self._name(seat)}: tap the tile you drew on your own pad.")
        if button is Button.PASS:
            return self._act(Pass(me))
        if not game.tracked:
            return self._act(Draw(me))
        if not any(isinstance(a, Draw) for a in legal_actions(m.state)):
            # The engine's own sentence says why drawing is not allowed now.
            apply(m.state, Draw(me))
            raise Refused(f"{self._name(seat)} cannot draw now.")
        return self._commit({"t": "drawing", "seat": me})

    def _lobby_button(self, seat: int, button: Button, *, held: bool) -> bool:
        if button is Button.PASS:
            raise Refused("Press DRAW to join or leave; hold DRAW to start.")
        if held:
            if seat not in self._joined:
                raise Refused(f"{self._name(seat)}: press DRAW to join first.")
            return self._new_game(same_seats=False)
        if seat in self._joined:
            self._joined.remove(seat)
        else:
            self._joined.append(seat)
        self._rejection = None
        return True

    def _tag(self, pad: str, uid: str) -> bool:
        binding = self._lookup(uid)
        if binding is None:
            raise Refused(f"Unknown tag {uid} on {self._pad_name(pad)}.")
        if binding.kind == "marker":
            self._markers.setdefault(pad, set()).add(binding.value)
            return True
        if binding.kind == "card":
            return self._card(binding.value)
        if binding.kind != "tile":
            raise Refused(f"Tag {uid} is bound to something the table does not use.")
        tile = Tile.parse(binding.value)
        game, m = self._game, self._moment()
        if game is None or m is None or m.stage == "over":
            raise Refused("No game is running: press DRAW to join, hold DRAW to start.")
        owner = self._pad_owner(game, pad)
        if m.stage == "deal":
            if owner is None:
                raise Refused("Tap your dealt tiles on your own pad.")
            return self._commit({"t": "dealt", "seat": owner, "tile": str(tile)})
        if m.stage == "hunt":
            if tile is not game.next_engine(m.state):
                raise Refused(game.waiting_for(m))
            if owner is None:
                raise Refused(f"Tap the {tile} on your own pad.")
            return self._commit({"t": "holder", "seat": owner})
        if m.stage == "reveal":
            if owner is None:
                raise Refused("Tap your leftover tiles on your own pad.")
            return self._commit({"t": "shown", "seat": owner, "tile": str(tile)})
        if m.stage != "play":
            raise Refused(game.waiting_for(m))
        turn = m.state.turn
        if turn is None:
            raise Refused(game.waiting_for(m))
        if m.drawing is not None:
            if owner != m.drawing:
                raise Refused(f"{game.names[m.drawing]}: tap the tile you drew on your own pad.")
            return self._act(Draw(m.drawing, tile))
        train: object = MEXICAN if pad == MEXICAN else owner
        if train is None:
            raise Refused(f"{self._pad_name(pad).capitalize()} is not a train of this game.")
        return self._play(game, m, Play(turn, tile, train))  # type: ignore[arg-type]

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

    def _card(self, card: str) -> bool:
        if card == "undo":
            return self._undo(by=None)
        if card == "next_preset":
            m = self._moment()
            if self._game is not None and m is not None and m.stage != "over":
                raise Refused("The preset can change between games only.")
            presets = list(self._config.presets) or [_preset_name(self._rules)]
            current = _preset_name(self._rules)
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
                raise Refused("A game is running: tap the new-game card again to abandon it.")
            self._abandon_armed = False
            self._finish(abandoned=True)
            self._game, self._history, self._game_id = None, [], None
            self._rejection = None
            return True
        raise Refused(f"The {card} card does nothing during play.")

    # --- accepted inputs ----------------------------------------------------------------

    def _act(self, action: Action) -> bool:
        return self._commit({"t": "action", "action": action_to_json(action)})

    def _commit(self, entry: dict[str, Any]) -> bool:
        game, m = self._game, self._moment()
        assert game is not None and m is not None and self._game_id is not None
        moment = game.advance(m, entry)
        self._abandon_armed = False
        self._journal.append(self._game_id, entry)
        self._history.append(moment)
        self._rejection = None
        if moment.stage == "over":
            self._finish(abandoned=False)
        return True

    def _undo(self, *, by: int | None) -> bool:
        game, m = self._game, self._moment()
        if game is None or m is None or self._game_id is None:
            raise Refused("There is nothing to undo.")
        if m.stage == "over":
            raise Refused("The game is over: nothing can be undone.")
        if len(self._history) < 2:
            raise Refused("There is nothing to undo.")
        if by is not None and m.actor != by:
            raise Refused(f"{game.names[by]} has nothing to undo: the last move was not yours.")
        self._abandon_armed = False
        self._journal.append(self._game_id, {"t": "undo"})
        self._history.pop()
        self._rejection = None
        return True

    def _new_game(self, *, same_seats: bool) -> bool:
        seats = list(self._game.seats) if same_seats and self._game else sorted(self._joined)
        if len(seats) < 2:
            raise Refused("At least two seats must join: press DRAW at your seat.")
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
            raise Refused(str(err)) from err
        self._game_id = self._journal.begin_game(game.meta())
        self._game, self._history = game, [opening]
        self._joined = [leader] + [s for s in seats if s != leader]
        self._rejection = None
        return True

    def _finish(self, *, abandoned: bool) -> None:
        game, m = self._game, self._moment()
        assert game is not None and m is not None and self._game_id is not None
        ranking = m.state.ranking
        self._journal.finish_game(
            self._game_id,
            {
                "ranking": list(ranking) if ranking is not None else None,
                "totals": list(m.state.totals),
                "winner": game.names[ranking[0]] if ranking and not abandoned else None,
                "abandoned": abandoned,
            },
        )

    def _reject(self, seat: int | None, text: str) -> None:
        self._rejection = {"seat": seat, "text": text}

    # --- small lookups ------------------------------------------------------------------

    def _moment(self) -> Moment | None:
        return self._history[-1] if self._history else None

    def _name(self, seat: int) -> str:
        config = self._seat_config.get(seat)
        return config.name if config else f"Seat {seat}"

    def _pad_name(self, pad: str) -> str:
        if pad == MEXICAN:
            return "the Mexican train's pad"
        return f"{self._name(int(pad))}'s pad" if pad.isdigit() else f"pad {pad!r}"

    @staticmethod
    def _pad_owner(game: Game, pad: str) -> int | None:
        """The game seat whose train (and hand) a pad belongs to."""
        if pad.isdigit() and int(pad) in game.seats:
            return game.seats.index(int(pad))
        return None

    def _speak(self, text: str) -> str:
        """The engine's sentence with the players' names for its seat numbers."""
        game = self._game
        if game is None:
            return text

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            return game.names[seat] if seat < game.players else match.group(0)

        return _SEAT.sub(name, text)

    def _view_seat(self, seat: int | None) -> int | None:
        """A table seat as the view numbers it: its place among the game's seats."""
        game = self._game
        if seat is None or game is None:
            return seat
        return game.seats.index(seat) if seat in game.seats else None

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
                    "joined": True,
                    "hand": self._hand(game, m, e),
                    "one_tile": started and e in state.one_tile,
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
            "alerts": self._alerts(game, m) if started else [],
            "scores": [list(row) for row in state.scores],
            "round_engines": list(m.engines[: len(state.scores)]),
            "totals": list(state.totals),
            "ranking": list(state.ranking) if state.ranking else None,
            "readers": self._reader_views(),
            "last_play": last_play,
        }

    def _lobby_view(self) -> dict[str, Any]:
        options = Options.from_json(self._rules)
        try:
            set_size = options.deal_for(max(2, len(self._joined)))[0]
        except RulesError:
            set_size = int(getattr(options, "set", None) or 12)
        rounds = getattr(options, "rounds", None)
        joined = len(self._joined)
        if joined == 0:
            prompt = "Press DRAW at your seat to join"
        elif joined == 1:
            prompt = "Press DRAW at your seat to join; two seats are needed"
        else:
            prompt = f"{joined} seats joined: hold DRAW or tap the new-game card to start"
        return {
            "version": VIEW_VERSION,
            "phase": "lobby",
            "preset": _preset_name(self._rules),
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
            "alerts": [],
            "scores": [],
            "round_engines": [],
            "totals": [],
            "ranking": None,
            "readers": self._reader_views(),
            "last_play": None,
        }

    def _reader_views(self) -> list[dict[str, Any]]:
        return [
            {"pad": pad, "online": online, "reason": reason}
            for pad, (online, reason) in self._readers.items()
        ]

    def _marker_sensed(self, seat: int) -> bool | None:
        pad = str(seat)
        online, _ = self._readers.get(pad, (False, None))
        return str(seat) in self._markers.get(pad, set()) if online else None


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

    def _prompt(self, game: Game, m: Moment) -> str | None:
        state, names = m.state, game.names
        if m.stage in ("lead", "deal", "hunt"):
            return self._deal_prompt(game, m)
        if m.stage == "reveal":
            waiting = ", ".join(
                f"{names[e]} {len(m.shown[e]) if m.shown else 0}/{state.hand_counts[e]}"
                for e in state.awaiting_reveal
            )
            return f"Tap your leftover tiles on your own pad, then PASS ({waiting})"
        if m.stage == "summary":
            how = f"{names[state.went_out]} went out" if state.went_out is not None else "blocked"
            return f"Round {state.round} over ({how}): hold DRAW for round {state.round + 1}"
        if m.stage == "over":
            winner = names[state.ranking[0]] if state.ranking else "nobody"
            return f"Game over: {winner} wins. Hold DRAW for a new game with the same seats"
        return self._play_prompt(game, m)

    def _deal_prompt(self, game: Game, m: Moment) -> str:
        state, names = m.state, game.names
        engine = game.next_engine(state)
        if m.stage == "lead":
            return (
                f"Round {state.round + 1}: put the {engine} in the hub; "
                "the first seat to press DRAW leads"
            )
        if m.stage == "deal":
            counts = ", ".join(
                f"{n} {len(h)}/{game.hand_size}" for n, h in zip(names, m.dealt, strict=True)
            )
            hub = f"put the {engine} in the hub, then " if game.set_aside else ""
            return f"Round {state.round + 1}: {hub}tap your dealt tiles on your own pad ({counts})"
        hunter = names[m.hunter or 0]
        return (
            f"Round {state.round + 1}: take {game.hand_size} tiles each. Whoever has the "
            f"{engine}, tap it on your own pad; nobody? {hunter}: press DRAW"
        )

    def _play_prompt(self, game: Game, m: Moment) -> str | None:
        state, names = m.state, game.names
        if state.turn is None:
            return None
        name = names[state.turn]
        last = m.steps.action if m.steps is not None else None
        fresh = ""
        if isinstance(last, StartRound):
            if not game.tracked:
                fresh += f"Each seat takes {game.hand_size} tiles. "
            if game.set_aside:
                fresh += f"Put the {state.engine} in the hub. "
        if m.drawing is not None:
            return f"{name}: tap the tile you drew on your own pad"
        if not state.engine_laid:
            return f"{name}: press DRAW to look for the {state.engine}"
        if state.pending_doubles:
            train_id, tile = state.pending_doubles[0]
            return f"{fresh}{name}: satisfy the {tile} on {self._train_title(game, train_id)}"
        if isinstance(last, Draw) and last.seat == state.turn:
            return f"{name}: play the drawn tile or PASS"
        if game.option("first_turn") == "train" and not state.first_turn_done[state.turn]:
            return f"{fresh}{name}: lay your train, then PASS"
        if state.boneyard_count == 0:
            return f"{fresh}{name}: play or PASS"
        return f"{fresh}{name}: play or DRAW"

    @staticmethod
    def _train_title(game: Game, train_id: object) -> str:
        if train_id == MEXICAN:
            return "the Mexican train"
        return f"{game.names[int(train_id)]}'s train"  # type: ignore[call-overload]

    def _alerts(self, game: Game, m: Moment) -> list[str]:
        state = m.state
        alerts = [f"{game.names[e]} has one tile left" for e in state.one_tile]
        if m.stage != "play":
            return alerts
        before = self._history[-2].state if len(self._history) > 1 else None
        for e, seat in enumerate(game.seats):
            expected = state.trains[e].open
            sensed = self._marker_sensed(seat)
            if sensed is None:
                # Without a reader on that pad the table can only remind at the change.
                was = before.trains[e].open if before is not None and before.round else expected
                if expected == was:
                    continue
                sensed = was
            if expected and not sensed:
                alerts.append(f"{game.names[e]}: put your marker out")
            elif sensed and not expected:
                alerts.append(f"{game.names[e]}: take your marker back")
        return alerts


_SEAT = re.compile(r"\b[Ss]eat (\d+)")

_PHASES = {
    "lead": "deal",
    "deal": "deal",
    "hunt": "deal",
    "play": "play",
    "reveal": "round_over",
    "summary": "round_over",
    "over": "game_over",
}


def _train_view(train: Any) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in train.tiles],
        "open": bool(train.open),
        "branches": [_branch_view(b) for b in getattr(train, "branches", ())],
    }


def _branch_view(branch: Any) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in branch.tiles],
        "branches": [_branch_view(b) for b in getattr(branch, "branches", ())],
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
