"""Turning inputs into intents: button presses and pad taps become the game's inputs.

Buttons act when they are released, unless they were held: holding PASS (undo) or DRAW
(start a game, next round) must not first act as a plain press. So a press is the pair
`ButtonPressed`, `ButtonReleased`; a hold is `ButtonPressed`, `ButtonHeld`,
`ButtonReleased`. A tap is a tag placed on a pad: a tile played or tallied, a marker
sensed, a command card. What cannot be taken now raises `Refused` with the message that
says why; what can goes to the game's flow (`firmware_py.table`). docs/table.md tells
the players' side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from firmware_py import messages as say
from firmware_py.render import languages
from firmware_py.rules import (
    MEXICAN,
    Draw,
    IllegalMove,
    Pass,
    Play,
    Reveal,
    RulesError,
    Tile,
    TrainId,
    apply,
    legal_actions,
)
from firmware_py.tablegame import Game, Moment, Refused, preset_name
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
    from collections.abc import Callable

    from firmware_py.config import Config, SeatConfig
    from firmware_py.messages import Message
    from firmware_py.pads import Pads
    from firmware_py.rules import Action


class Binding(Protocol):
    """What a tag is bound to (hardware.tags): a tile, a marker or a card."""

    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> str: ...


class Inputs:
    """The part of `Table` that reads the players' inputs."""

    if TYPE_CHECKING:
        # The table's state, and the game's flow this part hands accepted inputs to.
        _config: Config
        _lookup: Callable[[str], Binding | None]
        _seat_config: dict[int, SeatConfig]
        _rules: str | dict[str, object]
        _joined: list[int]
        _held: set[tuple[int, Button]]
        _pads: Pads
        _rejection: dict[str, Any] | None
        _languages: dict[int, str]
        _abandon_armed: bool
        _game: Game | None
        _game_id: int | None
        _history: list[Moment]

        def _moment(self) -> Moment | None: ...
        def _name(self, seat: int) -> str: ...
        def _pad_name(self, pad: str) -> Message: ...
        def _view_seat(self, seat: int | None) -> int | None: ...
        def _language(self, seat: int) -> str: ...
        def _act(self, action: Action) -> bool: ...
        def _commit(self, entry: dict[str, Any]) -> bool: ...
        def _undo(self, *, by: int | None) -> bool: ...
        def _new_game(self, *, same_seats: bool) -> bool: ...
        def _finish(self, *, abandoned: bool) -> None: ...

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
                self._pads.marker_removed(event.pad, binding.value)
                return True
            return False
        if isinstance(event, ReaderOnline):
            self._pads.online(event.pad)
            return True
        if isinstance(event, ReaderOffline):
            self._pads.offline(event.pad, event.reason)
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
            self._pads.marker_placed(pad, binding.value)
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
        owner = pad_owner(game, pad)
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


def pad_owner(game: Game, pad: str) -> int | None:
    """The game seat whose train (and hand) a pad belongs to."""
    if pad.isdigit() and int(pad) in game.seats:
        return game.seats.index(int(pad))
    return None
