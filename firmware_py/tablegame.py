"""A game at the table as a series of moments, one per accepted input.

`Game` holds what stays fixed during one game (rules, hand mode, seats); a `Moment` is
the whole game at one point: the engine's state plus what the table waits for (who
leads, the deal, the hunt for the engine, a drawn tile, leftover tiles, the summary).
`Game.advance(moment, entry)` is the only way from one moment to the next; the entry is
what the journal keeps, one JSON object per accepted input, in order:

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
of the game. A finished game is closed in the journal: after a restart the table shows
its final ranking again if it was played out, and the lobby if it was abandoned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from firmware_py import RoundhouseError
from firmware_py import messages as say
from firmware_py.messages import Message, message
from firmware_py.render import render
from firmware_py.rules import (
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
    action_from_json,
    apply,
    new_game,
    set_tiles,
)
from firmware_py.rules.refusals import BONEYARD_EMPTY

if TYPE_CHECKING:
    from firmware_py.rules import Action


class TableError(RoundhouseError):
    """The journal holds a game this controller cannot rebuild."""


class Refused(RoundhouseError):
    """An input the table does not accept now: `message` is shown to the players, and
    `str()` is its English sentence (seats by number)."""

    def __init__(self, message_id: str | Message, **args: Any) -> None:
        self.message = (
            message(message_id, **args) if isinstance(message_id, str) else message_id
        )
        super().__init__(render(self.message, "en"))


def preset_name(rules: str | Mapping[str, object]) -> str:
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
    last_play: tuple[int, TrainId, str] | None = None
    steps: _Step | None = None

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
            raise Refused(say.UNEXPECTED, text=repr(kind))
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
                raise Refused(say.TURN_OF, seat=m.state.turn or 0)
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

    def _hunt(self, m: Moment, seat: int) -> Moment:
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

    def _shown(self, m: Moment, seat: int, tile: Tile) -> Moment:
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

    def _act(self, m: Moment, action: Action) -> Moment:
        if isinstance(action, StartRound):
            raise Refused(say.ROUNDS_START)
        if isinstance(action, Reveal):
            if m.stage != "reveal":
                raise Refused(say.LEFTOVER_AT_END)
        elif m.stage != "play":
            raise Refused(self.waiting_for(m))
        elif m.drawing is not None and not (
            isinstance(action, Draw) and action.seat == m.drawing and action.tile is not None
        ):
            raise Refused(say.TAP_DRAWN_FIRST, seat=m.drawing)
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
            last_play = (action.seat, action.train, _laid_text(state, action))
        elif isinstance(action, StartRound):
            last_play = None
        return replace(
            m,
            state=state,
            stage=_stage_of(state),
            drawing=None,
            shown=() if isinstance(action, StartRound) else m.shown,
            # A round is started by the input that completed its setup: that seat acted.
            actor=m.actor if isinstance(action, StartRound) else getattr(action, "seat", None),
            last_play=last_play,
            steps=_Step(action, m.steps),
        )

    def waiting_for(self, m: Moment) -> Message:
        """What the table waits for, said when an input does not fit."""
        if m.stage == "lead":
            return message(say.WAIT_LEAD)
        if m.stage == "deal":
            return message(say.WAIT_DEAL)
        if m.stage == "hunt":
            return message(say.WAIT_HUNT, tile=str(self.next_engine(m.state)))
        if m.stage == "reveal":
            return message(say.WAIT_REVEAL)
        if m.stage == "summary":
            return message(say.WAIT_SUMMARY)
        if m.stage == "over":
            return message(say.WAIT_OVER)
        return message(say.WAIT_PLAY)


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
