"""Players for service tests: they act only through the table's inputs (button presses,
tags on pads) and decide from what the table itself knows, so they can pick a game up
again after any restart, as people at a real table would."""

from __future__ import annotations

import random
import time
from typing import Any


class Players:
    """Four players who act only through the table's inputs and read only the table."""

    def __init__(self, service: Any, rng: random.Random) -> None:
        from hardware.tags import set_plan

        self.service = service
        self.table = service.table
        self.rng = rng
        self._tapped = 0.0  # when the last tap was laid
        self.uids: dict[str, str] = {}
        registry = service.registry
        for n, binding in enumerate(set_plan(12, len(service.config.seats))):
            uid = registry.uid_of(binding) or f"{0xC0DE0000 + n:08X}00"
            registry.bind(uid, binding.kind, binding.value)
            self.uids[f"{binding.kind}:{binding.value}"] = uid

    def play(self) -> None:
        while True:
            game, m = self.table.game, self.table.moment
            if game is None:
                self.lobby()
            elif m.stage == "over":
                return
            elif m.stage == "lead":
                self.act(self.press, game.seats[self.rng.randrange(game.players)], "draw")
            elif m.stage == "summary":
                self.act(self.hold, game.seats[0], "draw")
            elif m.stage == "reveal":
                self.reveal(game, m)
            elif m.stage == "play":
                self.move(game, m)
            else:
                raise AssertionError(f"the players do not know the stage {m.stage!r}")

    def lobby(self) -> None:
        joined = self.table.joined
        for seat in self.table.seat_numbers:
            if seat not in joined:
                self.act(self.press, seat, "draw")
                return
        self.act(self.hold, joined[0], "draw")

    def move(self, game: Any, m: Any) -> None:
        from firmware_py.rules import MEXICAN, Draw, Play, legal_actions

        actions = list(legal_actions(m.state))
        plays = [a for a in actions if isinstance(a, Play)]
        others = [a for a in actions if not isinstance(a, Play)]
        # With open hands any unseen tile may be played: a seat that always played would
        # lay its whole hand in its first turn. Half the time it draws or passes instead.
        action = self.rng.choice(plays if plays and (not others or self.rng.random() < 0.5)
                                 else others)
        seat = game.seats[action.seat]
        if isinstance(action, Play):
            pad = MEXICAN if action.train == MEXICAN else str(game.seats[int(action.train)])
            self.act(self.tap, pad, f"tile:{action.tile}")
        else:
            self.act(self.press, seat, "draw" if isinstance(action, Draw) else "pass")

    def reveal(self, game: Any, m: Any) -> None:
        state = m.state
        e = state.awaiting_reveal[0]
        shown = m.shown or ((),) * game.players
        if len(shown[e]) < state.hand_counts[e]:
            seen = {t for train in state.trains.values() for t in _laid(train)}
            seen |= {t for hand in shown for t in hand} | {state.engine}
            unseen = [t for t in game.set_tiles() if t not in seen]
            self.act(self.tap, str(game.seats[e]), f"tile:{self.rng.choice(unseen)}")
        else:
            self.act(self.press, game.seats[e], "pass")

    # --- the table's inputs ----------------------------------------------------------

    def press(self, seat: int, button: str) -> None:
        from hardware.events import Button, ButtonPressed, ButtonReleased

        self.service.events.put(ButtonPressed(seat, Button(button)))
        self.service.events.put(ButtonReleased(seat, Button(button)))

    def hold(self, seat: int, button: str) -> None:
        from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased

        for event in (ButtonPressed, ButtonHeld, ButtonReleased):
            self.service.events.put(event(seat, Button(button)))

    def tap(self, pad: str, tag: str) -> None:
        """A tap of its own: laid a second after the last tap (one dip is one tap)."""
        from hardware.events import TagPlaced, TagRemoved

        at = self._tapped = max(time.monotonic(), self._tapped + 1.0)
        self.service.events.put(TagPlaced(pad, self.uids[tag], at))
        self.service.events.put(TagRemoved(pad, self.uids[tag], at + 0.1))

    def act(self, how: Any, *args: Any) -> None:
        before = (self.table.moment, self.table.rejection, self.table.joined)
        how(*args)
        deadline = time.monotonic() + 10
        while (self.table.moment, self.table.rejection, self.table.joined) == before:
            if self.service.finished.is_set() or time.monotonic() > deadline:
                raise AssertionError("the table stopped answering")
            time.sleep(0.0005)
        rejection = self.table.rejection
        if rejection is not None and rejection is not before[1]:
            raise AssertionError(f"the table refused a player: {rejection}")


def _laid(train: Any) -> list[Any]:
    from firmware_py.rules import Tile

    tiles = [Tile.parse(str(laid)) for laid in train.tiles]
    for branch in train.branches:
        tiles += _laid(branch)
    return tiles
