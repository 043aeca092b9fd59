"""A game at the table as a series of moments, one per accepted input.

`Game` holds what stays fixed during one game (rules, hand mode, seats); a `Moment` is
the whole game at one point: the engine's state plus what the table waits for (who
leads, the deal, the hunt for the engine, a drawn tile, leftover tiles, the summary),
named by its `Stage`. `Game.advance(moment, entry)` is the only way from one moment to
the next and the only place an input is checked, live and when the journal is replayed
alike: the entries (firmware_py.entries) are what the journal keeps, and each stage
takes only the entries `firmware_py.stages.GAME_INPUTS` gives it.

Seats in entries, moves and the view during a game are the game's seats (0..players-1,
clockwise among the seats that joined); the table's own seat numbers name the buttons
and the pads. Starting a round (`StartRound`) is never an entry: it follows from the
game's meta and the entries before it, so replaying the entries rebuilds every moment
of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from firmware_py.entries import (
    Act,
    BadEntry,
    Dealt,
    Drawing,
    Holder,
    Hunt,
    Lead,
    Next,
    Shown,
    Step,
    Undo,
    entry_from_json,
    entry_name,
)
from firmware_py.rules import (
    RULES_VERSION,
    Action,
    Draw,
    IllegalMove,
    Options,
    Play,
    Reveal,
    RulesError,
    StartRound,
    State,
    Tile,
    TrainId,
    apply,
    legal_actions,
    new_game,
    options_as_of,
    set_tiles,
)
from firmware_py.stages import GAME_INPUTS, Stage
from roundhouse import messages as say
from roundhouse.errors import RoundhouseError
from roundhouse.message import Message, message
from roundhouse.refusals import BONEYARD_EMPTY
from roundhouse.render import render
from roundhouse.value import Value, frozen


class TableError(RoundhouseError):
    """The journal holds a game this controller cannot rebuild."""


class Refused(RoundhouseError):
    """An input the table does not accept now: `message` is shown to the players, and
    `str()` is its English sentence (seats by number)."""

    def __init__(self, message_id: str | Message, **args: object) -> None:
        self.message = (
            message(message_id, **args) if isinstance(message_id, str) else message_id
        )
        super().__init__(render(self.message, "en"))


class Replayed(Value):
    """A journaled game rebuilt from its entries, as far as they replay: the first
    `replayed` entries gave `history`, and `failure` (if not None) says why the next
    one cannot be replayed."""

    __match_args__ = ("game", "history", "replayed", "failure")
    __slots__ = __match_args__
    game: Game
    history: list[Moment]
    replayed: int
    failure: TableError | None

    def __init__(self, game: Game, history: list[Moment], replayed: int,
                 failure: TableError | None) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "replayed", replayed)
        object.__setattr__(self, "failure", failure)


def replay_journaled(meta: Mapping[str, Any], stored: Sequence[object]) -> Replayed:
    """A journaled game as far as it replays. A game whose meta names its rules only
    (journaled before every option was) is replayed under each rules version's reading
    of them, the oldest first: the first under which every entry replays is the one it
    was played by; if none, the one that replays furthest. `TableError` if the meta
    cannot be read at all. A game whose meta has its options is replayed by them under
    its own rules version's readings; should that fail, under the others' (newest
    first), so that a version's readings corrected later still find the game."""
    if "options" in meta:
        replayed = Game.from_meta(meta).replay_until(stored)
        if replayed.failure is None:
            return replayed
        own = replayed.game.rules_version
        versions = [v for v in range(RULES_VERSION, 0, -1) if v != own]
        best: Replayed | None = replayed
    else:
        versions, best = list(range(1, RULES_VERSION + 1)), None
    for version in versions:
        replayed = Game.from_meta(meta, version=version).replay_until(stored)
        if replayed.failure is None:
            return replayed
        if best is None or replayed.replayed > best.replayed:
            best = replayed
    assert best is not None
    return best


def _quoted(obj: object, most: int = 100) -> str:
    """An entry as a message quotes it: whole if short, else its start."""
    text = str(obj)
    return text if len(text) <= most else text[:most] + "…"


def preset_name(rules: str | Mapping[str, object]) -> str:
    return rules if isinstance(rules, str) else str(rules["preset"])


# --- one moment of a game -------------------------------------------------------------


@frozen
class Steps(Value):
    """The engine actions of a game so far, newest first, shared between moments."""

    action: Action
    before: Steps | Earlier | None


class Earlier:
    """The actions before a moment taken up from a snapshot (firmware_py.snapshots):
    replayed from the journal only when someone asks for them."""

    __slots__ = ("_load",)

    def __init__(self, load: Callable[[], Steps | None]) -> None:
        self._load = load

    def steps(self) -> Steps | None:
        return self._load()


class LastPlay(Value):
    """The last tile played: by whom, on which train, as it lies."""

    __match_args__ = ("seat", "train", "tile")
    __slots__ = __match_args__
    seat: int
    train: TrainId
    tile: str  # as it lies on its train or branch

    def __init__(self, seat: int, train: TrainId, tile: str) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "train", train)
        object.__setattr__(self, "tile", tile)


@frozen
class Moment(Value):
    """The whole game at one point: the engine state plus what the table waits for."""

    state: State
    stage: Stage
    starter: int | None = None  # who leads (or hunts first in) the current round
    dealt: tuple[tuple[Tile, ...], ...] = ()
    hunted: tuple[int, ...] = ()  # open-hands hunt: tiles each seat drew
    hunter: int | None = None
    drawing: int | None = None
    shown: tuple[tuple[Tile, ...], ...] = ()
    engines: tuple[str, ...] = ()
    actor: int | None = None  # the seat whose input made this moment
    last_play: LastPlay | None = None
    steps: Steps | None = None

    @property
    def last_action(self) -> Action | None:
        return self.steps.action if self.steps is not None else None

    def actions(self) -> list[Action]:
        out: list[Action] = []
        step: Steps | Earlier | None = self.steps
        while step is not None:
            if isinstance(step, Earlier):
                step = step.steps()
                continue
            out.append(step.action)
            step = step.before
        out.reverse()
        return out

    def shown_by(self, seat: int) -> tuple[Tile, ...]:
        return self.shown[seat] if self.shown else ()


def _stage_of(state: State) -> Stage:
    if state.phase == "play":
        return Stage.PLAY
    if state.awaiting_reveal:
        return Stage.REVEAL
    return Stage.OVER if state.phase == "game_over" else Stage.SUMMARY


class Game:
    """What stays fixed during one game: its rules, hand mode and seats."""

    def __init__(
        self,
        rules: str | dict[str, object],
        hand_mode: str,
        seats: Sequence[int],
        names: Sequence[str],
        leader: int,
        options: Options | None = None,
        rules_version: int = RULES_VERSION,
    ) -> None:
        self.rules = rules  # as the configuration names them: a preset, or with overrides
        self.hand_mode = hand_mode
        self.seats = tuple(seats)  # the table seat of each game seat, clockwise
        self.names = tuple(names)
        self.leader = leader  # the game seat that pressed DRAW first in the lobby
        # What the game is played by: the rules' every option, as of `rules_version`.
        self.options = Options.from_json(rules) if options is None else options
        self.rules_version = rules_version
        self.set_size, self.hand_size = self.options.deal_for(len(self.seats))
        self._steps: dict[type[Step], Callable[[Moment, Any], Moment]] = {
            Act: self._act, Lead: self._lead, Dealt: self._dealt, Drawing: self._drawing,
            Shown: self._shown, Next: self._next, Hunt: self._hunt, Holder: self._holder,
        }

    @property
    def preset(self) -> str:
        return preset_name(self.rules)

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
            "options": self.options.to_full_json(),
            "rules_version": self.rules_version,
            "hand_mode": self.hand_mode,
        }

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any], *, version: int | None = None) -> Game:
        """The game a journal's meta describes; `TableError` if it cannot be read.
        `version`: the rules version whose readings it is played by (None: the meta's
        own). A meta written before every option was journaled names its rules only;
        they are then read by that version's presets (the current one if None)."""
        try:
            names = [str(n) for n in meta["players"]]
            rules = meta["rules"]
            if "options" in meta:
                if version is None:
                    version = int(meta.get("rules_version", RULES_VERSION))
                # Played as its version read the rules, whatever the engine reads now.
                options = replace(Options.from_json(meta["options"]), readings=version)
            else:
                version = RULES_VERSION if version is None else version
                options = options_as_of(rules, version)
            return cls(
                rules=rules,
                hand_mode=str(meta.get("hand_mode", "open")),
                seats=[int(s) for s in meta.get("seats", range(len(names)))],
                names=names,
                leader=int(meta.get("leader", 0)),
                options=options,
                rules_version=version,
            )
        except (RulesError, KeyError, TypeError, ValueError) as err:
            raise TableError(f"the game's description {dict(meta)} cannot be read: {err}") from err

    def next_engine(self, state: State) -> Tile:
        pips = self.set_size - state.round
        return Tile(pips, pips)

    def set_tiles(self) -> tuple[Tile, ...]:
        return set_tiles(self.set_size)

    def seat_of(self, table_seat: int) -> int | None:
        """The game seat of a table seat (its buttons, its pad), None if it does not play."""
        return self.seats.index(table_seat) if table_seat in self.seats else None

    # --- the reducer: (moment, entry) -> next moment ----------------------------------

    def opening(self) -> Moment:
        return self._setup(Moment(state=new_game(self.options, self.players),
                                  stage=Stage.LEAD))

    def replay(self, stored: Sequence[object]) -> list[Moment]:
        """Every moment still in force after the journal's `stored` entries (undone ones
        are dropped); `TableError` names the first one that cannot be replayed."""
        replayed = self.replay_until(stored)
        if replayed.failure is not None:
            raise replayed.failure
        return replayed.history

    def replay_until(self, stored: Sequence[object]) -> Replayed:
        """The moments as far as the journal's `stored` entries replay."""
        history = [self.opening()]
        for index, obj in enumerate(stored):
            try:
                entry = entry_from_json(obj)
                if isinstance(entry, Undo):
                    self.check_undo(history, entry)
                    history.pop()
                else:
                    history.append(self.advance(history[-1], entry))
            except (RulesError, Refused, BadEntry) as err:
                # Entries are numbered from 1, as the journal numbers them.
                failure = TableError(f"journal entry {index + 1} ({_quoted(obj)}) cannot "
                                     f"be replayed: {err}")
                return Replayed(self, history, index, failure)
        return Replayed(self, history, len(stored), None)

    @staticmethod
    def check_undo(history: Sequence[Moment], undo: Undo) -> None:
        """Refuse an undo with nothing to take back, or of another seat's move."""
        if len(history) < 2:
            raise Refused(say.NOTHING_TO_UNDO)
        if undo.by is not None and history[-1].actor != undo.by:
            raise Refused(say.NOT_YOURS_TO_UNDO, seat=undo.by)

    def advance(self, m: Moment, entry: Step) -> Moment:
        """The moment after one input; raises `Refused` or a `RulesError` otherwise."""
        takes = GAME_INPUTS[m.stage]
        kind = type(entry)
        if kind not in takes:
            if isinstance(entry, Act):
                # A move out of play says what the table waits for in the rules' words.
                self._out_of_play(m, entry.action)
            raise Refused(self.waiting_for(m))
        if not isinstance(entry, Act | Next) and not 0 <= entry.seat < self.players:
            raise Refused(say.UNEXPECTED, text=repr(entry_name(kind)))
        after = self._steps[kind](m, entry)
        # The stages say where each input may lead; anywhere else is a fault of ours.
        assert after.stage in takes[kind], (m.stage, entry, after.stage)
        return after

    def _out_of_play(self, m: Moment, action: Action) -> None:
        if isinstance(action, StartRound):
            raise Refused(say.ROUNDS_START)
        if isinstance(action, Reveal):
            raise Refused(say.LEFTOVER_AT_END)

    def _next(self, m: Moment, entry: Next) -> Moment:
        return self._setup(replace(m, actor=None))

    def _lead(self, m: Moment, entry: Lead) -> Moment:
        return self._deal(replace(m, actor=entry.seat), entry.seat)

    def _holder(self, m: Moment, entry: Holder) -> Moment:
        hands = tuple(self.hand_size + k for k in m.hunted)
        return self._start(replace(m, actor=entry.seat),
                           StartRound(hands, None, starter=entry.seat))

    def _drawing(self, m: Moment, entry: Drawing) -> Moment:
        seat = entry.seat
        self._check_turn(m, seat)
        if not any(isinstance(a, Draw) for a in legal_actions(m.state)):
            # The engine's own sentence says why drawing is not allowed now.
            apply(m.state, Draw(seat))
            raise Refused(say.CANNOT_DRAW, seat=seat)
        return replace(m, drawing=seat, actor=seat)

    def _check_turn(self, m: Moment, seat: int) -> None:
        turn = m.state.turn
        if seat != turn:
            if turn is None:
                raise Refused(say.NOBODYS_TURN)
            raise Refused(say.NOT_YOUR_TURN, seat=turn)
        if m.drawing is not None:
            raise Refused(say.TAP_DRAWN_FIRST, seat=m.drawing)

    def _setup(self, m: Moment) -> Moment:
        """Prepare the next round: choose who leads, then deal."""
        base = replace(
            m, stage=Stage.LEAD, dealt=(), hunted=(), hunter=None, shown=(), drawing=None,
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
            return replace(m, stage=Stage.DEAL, dealt=((),) * self.players)
        if not self.set_aside:
            return replace(m, stage=Stage.HUNT, hunted=(0,) * self.players, hunter=starter)
        return self._start(m, StartRound(None, None, starter=starter))

    def _dealt(self, m: Moment, entry: Dealt) -> Moment:
        seat, tile = entry.seat, entry.tile
        engine = self.next_engine(m.state)
        if tile.high > self.set_size:
            raise Refused(say.NOT_IN_SET, tile=str(tile), set=self.set_size)
        if tile is engine and self.set_aside:
            raise Refused(say.ENGINE_TO_HUB, tile=str(tile))
        # Hands are hidden (tracked hands are no open hands): a refusal never names
        # where a tile is, not even the tapping seat's own hand.
        if any(tile in hand for hand in m.dealt):
            raise Refused(say.ALREADY_DEALT, tile=str(tile))
        if len(m.dealt[seat]) >= self.hand_size:
            raise Refused(say.HAND_FULL, seat=seat, n=self.hand_size)
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

    def _hunt(self, m: Moment, entry: Hunt) -> Moment:
        seat = entry.seat
        if seat != m.hunter:
            raise Refused(say.HUNT_TURN, seat=m.hunter or 0)
        left = len(self.set_tiles()) - self.players * self.hand_size - sum(m.hunted)
        if left <= 0:
            raise Refused(BONEYARD_EMPTY)
        hunted = tuple(k + (i == seat) for i, k in enumerate(m.hunted))
        return replace(m, hunted=hunted, hunter=(seat + 1) % self.players, actor=seat)

    def _start(self, m: Moment, action: StartRound) -> Moment:
        state = apply(m.state, action)
        started = replace(m, engines=(*m.engines, str(state.engine)))
        return self._after(started, action, state)

    def _shown(self, m: Moment, entry: Shown) -> Moment:
        seat, tile = entry.seat, entry.tile
        if tile.high > self.set_size:
            raise Refused(say.NOT_IN_SET, tile=str(tile), set=self.set_size)
        for other in range(self.players):
            if other != seat and tile in m.shown_by(other):
                raise Refused(say.SHOWN_BY_OTHER, tile=str(tile), other_seat=other)
        if seat not in m.state.awaiting_reveal:
            raise Refused(say.SHOWN_ALREADY, seat=seat)
        shown = list(m.shown or ((),) * self.players)
        hand = shown[seat]
        if tile in hand:
            shown[seat] = tuple(t for t in hand if t is not tile)
        elif len(hand) >= m.state.hand_counts[seat]:
            raise Refused(say.ONLY_LEFT, seat=seat, n=m.state.hand_counts[seat])
        else:
            shown[seat] = (*hand, tile)
        return replace(m, shown=tuple(shown), actor=seat)

    def _act(self, m: Moment, entry: Act) -> Moment:
        action = entry.action
        if isinstance(action, StartRound):
            raise Refused(say.ROUNDS_START)
        if isinstance(action, Reveal):
            if m.stage is not Stage.REVEAL:
                raise Refused(say.LEFTOVER_AT_END)
        elif m.stage is not Stage.PLAY:
            raise Refused(self.waiting_for(m))
        elif m.drawing is not None:
            if not (isinstance(action, Draw) and action.seat == m.drawing
                    and action.tile is not None):
                raise Refused(say.TAP_DRAWN_FIRST, seat=m.drawing)
        else:
            self._check_turn(m, action.seat)
        if isinstance(action, Draw) and action.tile is not None and self.tracked:
            return self._draw_named(m, action)
        return self._after(m, action, apply(m.state, action))

    def _draw_named(self, m: Moment, draw: Draw) -> Moment:
        """Tracked hands: the tile tapped is the tile drawn, wherever it lay face down."""
        try:
            return self._after(m, draw, apply(m.state, draw))
        except IllegalMove as refusal:
            if any(hand is not None and draw.tile in hand for hand in m.state.hands):
                # Whose hand holds it stays hidden.
                raise Refused(say.DRAWN_DEALT, tile=str(draw.tile)) from refusal
            raise

    def _after(self, m: Moment, action: Action, state: State) -> Moment:
        last_play = m.last_play
        if isinstance(action, Play):
            last_play = LastPlay(action.seat, action.train, _laid_text(state, action))
        elif isinstance(action, StartRound):
            last_play = None
        return replace(
            m,
            state=state,
            stage=_stage_of(state),
            drawing=None,
            shown=() if isinstance(action, StartRound) else m.shown,
            # A round is started by the input that completed its setup: that seat acted.
            actor=m.actor if isinstance(action, StartRound) else action.seat,
            last_play=last_play,
            steps=Steps(action, m.steps),
        )

    def waiting_for(self, m: Moment) -> Message:
        """What the table waits for, said when an input does not fit."""
        if m.stage is Stage.HUNT:
            return message(say.WAIT_HUNT, tile=str(self.next_engine(m.state)))
        return message(_WAITING[m.stage])


_WAITING = {
    Stage.LEAD: say.WAIT_LEAD,
    Stage.DEAL: say.WAIT_DEAL,
    Stage.PLAY: say.WAIT_PLAY,
    Stage.REVEAL: say.WAIT_REVEAL,
    Stage.SUMMARY: say.WAIT_SUMMARY,
    Stage.OVER: say.WAIT_OVER,
}


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
