"""What the players mean: button presses and pad taps turned into intents.

Buttons act when they are released, unless they were held: holding PASS (undo) or DRAW
(start a game, next round) must not first act as a plain press. So a press is the pair
`ButtonPressed`, `ButtonReleased`; a hold is `ButtonPressed`, `ButtonHeld`,
`ButtonReleased`. A tap is a tag placed on a pad: a tile played or tallied, a marker
sensed, a command card.

`Intents.read(event, table)` says what an event means at the table's stage: a journal
entry for the game (`Enter`), one of the table's own commands (join, start, undo, ...),
something the pads sensed, or nothing. It checks only what it needs to understand the
input (whose seat, which pad); whether the input is allowed now is `Game.advance`'s to
decide. What cannot mean anything now raises `Refused` with the message that says why.
docs/table.md tells the players' side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from firmware_py.entries import Act, Dealt, Drawing, Holder, Hunt, Lead, Next, Shown, Step, Undo
from firmware_py.game import Game, Moment, Refused
from firmware_py.rules import Draw, Pass, Play, Reveal, Tile
from firmware_py.stages import Stage
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
    is_random_uid,
)
from hardware.tags import player_of
from roundhouse import messages as say
from roundhouse.message import Message
from roundhouse.value import Value
from roundhouse.vocabulary import MEXICAN, TrainKey, pad_seat


class Binding(Protocol):
    """What a tag is bound to (hardware.tags): a tile, a marker or a card."""

    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> str: ...


class TableNow(Protocol):
    """What the table is doing, as the intents read it."""

    @property
    def game(self) -> Game | None: ...
    @property
    def moment(self) -> Moment | None: ...
    @property
    def joined(self) -> tuple[int, ...]: ...

    def pad_name(self, pad: str) -> Message: ...


# --- the intents -------------------------------------------------------------------------


class Enter(Value):
    """An input of the game: the first of `entries` that the game takes is journaled
    (a tile tapped on a chicken-foot train goes to the first open end it fits)."""

    __match_args__ = ("entries",)
    __slots__ = __match_args__
    entries: tuple[Step, ...]

    def __init__(self, entries: tuple[Step, ...]) -> None:
        object.__setattr__(self, "entries", entries)


class TakeBack(Value):
    """Undo the last move: by the seat that held PASS, or by the undo card (None)."""

    __match_args__ = ("undo",)
    __slots__ = __match_args__
    undo: Undo

    def __init__(self, undo: Undo) -> None:
        object.__setattr__(self, "undo", undo)


class JoinOrLeave(Value):
    """DRAW pressed at a seat in the lobby: it joins the next game, or leaves it."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int  # a table seat

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class StartGame(Value):
    """DRAW held in the lobby or after the ranking: a game starts."""

    __match_args__ = ("same_seats",)
    __slots__ = __match_args__
    same_seats: bool  # the seats of the game just over, else those that joined

    def __init__(self, same_seats: bool) -> None:
        object.__setattr__(self, "same_seats", same_seats)


class LeaveGame(Value):
    """From the final ranking back to the lobby; `seat` (a table seat) leaves it."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int | None

    def __init__(self, seat: int | None) -> None:
        object.__setattr__(self, "seat", seat)


class NewGameCard(Value):
    """The new-game card: a game in the lobby or after the ranking; during a game the
    first tap asks for a second, which abandons it."""

    __slots__ = ()


class NextPreset(Value):
    """The next-preset card: the next rules of the cycle for the next game."""

    __slots__ = ()


class NextLanguage(Value):
    """The language card on a seat's own pad: that seat reads the next language."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int  # a table seat

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class SeatPlayer(Value):
    """A player card on a seat's own pad in the lobby: that player sits there."""

    __match_args__ = ("seat", "name", "language", "card")
    __slots__ = __match_args__
    seat: int  # a table seat
    name: str
    language: str | None  # None: the player reads the seat's language
    card: str  # the card's UID: one card, one player, whatever the name

    def __init__(self, seat: int, name: str, language: str | None, card: str = "") -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "language", language)
        object.__setattr__(self, "card", card)


class MarkerPlaced(Value):
    """A train marker sensed on a pad."""

    __match_args__ = ("pad", "marker")
    __slots__ = __match_args__
    pad: str
    marker: str

    def __init__(self, pad: str, marker: str) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "marker", marker)


class MarkerLifted(Value):
    """A train marker gone from a pad."""

    __match_args__ = ("pad", "marker")
    __slots__ = __match_args__
    pad: str
    marker: str

    def __init__(self, pad: str, marker: str) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "marker", marker)


class ReaderUp(Value):
    """A pad's reader came online."""

    __match_args__ = ("pad",)
    __slots__ = __match_args__
    pad: str

    def __init__(self, pad: str) -> None:
        object.__setattr__(self, "pad", pad)


class ReaderDown(Value):
    """A pad's reader went offline, and why."""

    __match_args__ = ("pad", "reason")
    __slots__ = __match_args__
    pad: str
    reason: str | None

    def __init__(self, pad: str, reason: str | None) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "reason", reason)


class Nothing(Value):
    """An event that means nothing by itself (a button going down, a tile lifted)."""

    __slots__ = ()


Intent = (
    Enter | TakeBack | JoinOrLeave | StartGame | LeaveGame | NewGameCard | NextPreset
    | NextLanguage | SeatPlayer | MarkerPlaced | MarkerLifted | ReaderUp | ReaderDown
    | Nothing
)
# Intents that leave a pending abandon armed: the pads' own news is no input of a player.
PAD_NEWS = (MarkerPlaced, MarkerLifted, ReaderUp, ReaderDown, Nothing)


# A tile or card read again on the same pad this soon after it was reported removed is
# the same dip, not a second tap: its frames paused for the removal time (a card at the
# edge of the coil; an MFRC522-class reader misses a resting tag now and then). A tap
# that confirms another (the new-game card's second tap, a second undo) must be a
# gesture of its own.
SAME_DIP_S = 0.5


class Intents:
    """Reads the players' inputs at one table (its seats and tag registry)."""

    def __init__(self, seats: Mapping[int, str],
                 lookup: Callable[[str], Binding | None]) -> None:
        """`seats`: the table's seats and their names."""
        self._seats = seats
        self._lookup = lookup
        self._held: set[tuple[int, Button]] = set()
        # When each tile or card was last reported removed from a pad: (pad, uid) -> `at`.
        self._removed: dict[tuple[str, str], float] = {}
        # Each handler takes the event of its key's type.
        self._events: dict[type[Event], Callable[[Any, TableNow], Intent]] = {
            ButtonPressed: lambda _event, _table: Nothing(),
            ButtonHeld: self._button_held,
            ButtonReleased: self._button_released,
            TagPlaced: self._tag_placed,
            TagRemoved: self._tag_removed,
            ReaderOnline: self._reader_online,
            ReaderOffline: self._reader_offline,
        }

    def read(self, event: Event, table: TableNow) -> Intent:
        reader = self._events.get(type(event))
        return reader(event, table) if reader is not None else Nothing()

    @staticmethod
    def _reader_online(event: ReaderOnline, table: TableNow) -> Intent:
        return ReaderUp(event.pad)

    @staticmethod
    def _reader_offline(event: ReaderOffline, table: TableNow) -> Intent:
        return ReaderDown(event.pad, event.reason)

    # --- buttons ----------------------------------------------------------------------

    def _button_held(self, event: ButtonHeld, table: TableNow) -> Intent:
        self._held.add((event.seat, event.button))
        return self._button(event.seat, event.button, True, table)

    def _button_released(self, event: ButtonReleased, table: TableNow) -> Intent:
        if (event.seat, event.button) in self._held:
            self._held.discard((event.seat, event.button))
            return Nothing()
        return self._button(event.seat, event.button, False, table)

    def _button(self, seat: int, button: Button, held: bool, table: TableNow) -> Intent:
        if seat not in self._seats:
            raise Refused(say.NOT_AT_TABLE, number=seat)
        game, m = table.game, table.moment
        if game is None or m is None:
            return self._lobby_button(seat, button, held, table)
        if m.stage is Stage.OVER:
            if button is Button.DRAW:
                return StartGame(same_seats=True) if held else LeaveGame(seat)
            raise Refused(say.OVER_HOLD_DRAW)
        me = game.seat_of(seat)
        if me is None:
            raise Refused(say.NOT_IN_GAME, text=self._seats[seat])
        if held:
            if button is Button.PASS:
                return TakeBack(Undo(by=me))
            if m.stage is Stage.SUMMARY:
                return Enter((Next(),))
            # Held, DRAW does nothing here; a plain press would have.
            raise Refused(say.HOLD_DRAW_NOTHING)
        return _PRESSES[m.stage](game, m, me, button)

    def _lobby_button(self, seat: int, button: Button, held: bool, table: TableNow) -> Intent:
        if button is Button.PASS:
            raise Refused(say.LOBBY_PASS)
        if held:
            if seat not in table.joined:
                raise Refused(say.JOIN_FIRST, seat=_lobby_seat(seat, self._seats))
            return StartGame(same_seats=False)
        return JoinOrLeave(seat)

    # --- tags -------------------------------------------------------------------------

    def _tag_removed(self, event: TagRemoved, table: TableNow) -> Intent:
        binding = self._lookup(event.uid)
        if binding is not None and binding.kind == "marker":
            return MarkerLifted(event.pad, binding.value)
        self._removed[event.pad, event.uid] = event.at
        return Nothing()

    def _tag_placed(self, event: TagPlaced, table: TableNow) -> Intent:
        pad = event.pad
        binding = self._lookup(event.uid)
        if binding is not None and binding.kind == "marker":
            return MarkerPlaced(pad, binding.value)
        removed = self._removed.pop((pad, event.uid), None)
        if removed is not None and 0 <= event.at - removed < SAME_DIP_S:
            return Nothing()
        if binding is None and is_random_uid(event.uid):
            # Reported once while it lies (hardware.events.RANDOM_UID), said once.
            raise Refused(say.RANDOM_CARD, pad=table.pad_name(pad))
        if binding is None:
            raise Refused(say.UNKNOWN_TAG, text=event.uid, pad=table.pad_name(pad))
        if binding.kind == "card":
            return self._card(binding.value, pad)
        if binding.kind == "player":
            return self._player(binding.value, event.uid, pad, table)
        if binding.kind != "tile":
            raise Refused(say.TAG_UNUSED, text=event.uid)
        tile = Tile.parse(binding.value)
        game, m = table.game, table.moment
        if game is None or m is None:
            raise Refused(say.NO_GAME)
        if m.stage is Stage.OVER:
            raise Refused(say.OVER_HOLD_DRAW)
        owner = _pad_owner(game, pad)
        return _TAPS.get(m.stage, _tap_waiting)(game, m, pad, owner, tile, table)

    def _player(self, value: str, uid: str, pad: str, table: TableNow) -> Intent:
        seat = pad_seat(pad)
        if table.game is not None or seat is None or seat not in self._seats:
            raise Refused(say.PLAYER_LOBBY)
        name, lang = player_of(value)
        return SeatPlayer(seat, name, lang, uid)

    def _card(self, card: str, pad: str) -> Intent:
        if card == "language":
            seat = pad_seat(pad)
            if seat is None or seat not in self._seats:
                raise Refused(say.LANGUAGE_OWN_PAD)
            return NextLanguage(seat)
        if card == "undo":
            return TakeBack(Undo())
        if card == "next_preset":
            return NextPreset()
        if card == "new_game":
            return NewGameCard()
        raise Refused(say.CARD_UNUSED, text=card)


def _lobby_seat(seat: int, seats: Mapping[int, str]) -> int | None:
    """A table seat as the lobby's view numbers it."""
    ordered = sorted(seats)
    return ordered.index(seat) if seat in ordered else None


def _pad_owner(game: Game, pad: str) -> int | None:
    """The game seat whose train (and hand) a pad belongs to."""
    seat = pad_seat(pad)
    return None if seat is None else game.seat_of(seat)


# --- what a press means at each stage ------------------------------------------------------


def _press_lead(game: Game, m: Moment, me: int, button: Button) -> Intent:
    if button is Button.DRAW:
        return Enter((Lead(me),))
    raise Refused(say.PRESS_DRAW_LEAD)


def _press_hunt(game: Game, m: Moment, me: int, button: Button) -> Intent:
    if button is Button.DRAW:
        return Enter((Hunt(me),))
    raise Refused(game.waiting_for(m))


def _press_reveal(game: Game, m: Moment, me: int, button: Button) -> Intent:
    if button is Button.PASS:
        return Enter((Act(Reveal(me, m.shown_by(me))),))
    raise Refused(say.WAIT_REVEAL)


def _press_play(game: Game, m: Moment, me: int, button: Button) -> Intent:
    if button is Button.PASS:
        return Enter((Act(Pass(me)),))
    # Tracked hands: the drawn tile is tapped next, on the seat's own pad.
    return Enter((Drawing(me),) if game.tracked else (Act(Draw(me)),))


def _press_waiting(game: Game, m: Moment, me: int, button: Button) -> Intent:
    raise Refused(game.waiting_for(m))


_PRESSES: dict[Stage, Callable[[Game, Moment, int, Button], Intent]] = {
    Stage.LEAD: _press_lead,
    Stage.DEAL: _press_waiting,
    Stage.HUNT: _press_hunt,
    Stage.PLAY: _press_play,
    Stage.REVEAL: _press_reveal,
    Stage.SUMMARY: _press_waiting,
}


# --- what a tapped tile means at each stage ------------------------------------------------

Tap = Callable[[Game, Moment, str, "int | None", Tile, TableNow], Intent]


def _tap_deal(game: Game, m: Moment, pad: str, owner: int | None, tile: Tile,
              table: TableNow) -> Intent:
    if owner is None:
        raise Refused(say.DEAL_OWN_PAD)
    return Enter((Dealt(owner, tile),))


def _tap_hunt(game: Game, m: Moment, pad: str, owner: int | None, tile: Tile,
              table: TableNow) -> Intent:
    if tile is not game.next_engine(m.state):
        raise Refused(game.waiting_for(m))
    if owner is None:
        raise Refused(say.ENGINE_OWN_PAD, tile=str(tile))
    return Enter((Holder(owner),))


def _tap_reveal(game: Game, m: Moment, pad: str, owner: int | None, tile: Tile,
                table: TableNow) -> Intent:
    if owner is None:
        raise Refused(say.REVEAL_OWN_PAD)
    return Enter((Shown(owner, tile),))


def _tap_play(game: Game, m: Moment, pad: str, owner: int | None, tile: Tile,
              table: TableNow) -> Intent:
    turn = m.state.turn
    if turn is None:
        raise Refused(game.waiting_for(m))
    if m.drawing is not None:
        if owner != m.drawing:
            raise Refused(say.TAP_DRAWN_FIRST, seat=m.drawing)
        return Enter((Act(Draw(m.drawing, tile)),))
    train: TrainKey | None = MEXICAN if pad == MEXICAN else owner
    if train is None:
        raise Refused(say.NOT_A_TRAIN, pad=table.pad_name(pad))
    play = Play(turn, tile, train)
    ends = m.state.trains[train].ends()
    if len(ends) > 1:
        # A chicken-foot train: the first open end the tile fits.
        return Enter(tuple(Act(Play(turn, tile, train, k)) for k in range(len(ends))))
    return Enter((Act(play),))


def _tap_waiting(game: Game, m: Moment, pad: str, owner: int | None, tile: Tile,
                 table: TableNow) -> Intent:
    raise Refused(game.waiting_for(m))


_TAPS: dict[Stage, Tap] = {
    Stage.DEAL: _tap_deal,
    Stage.HUNT: _tap_hunt,
    Stage.REVEAL: _tap_reveal,
    Stage.PLAY: _tap_play,
}
