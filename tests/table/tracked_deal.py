"""A tracked deal for the table tests: four seats, tournament, every tile tapped."""

from __future__ import annotations

from firmware_py.rules import Tile, set_tiles

# Ana holds 12-11 .. 12-0, Bo 11-11 .. 11-0, Cy 10-10 .. 10-0 and 9-9, Di 9-8 .. 8-6.
TILES = [t for t in reversed(set_tiles(12)) if t is not Tile(12, 12)]
HANDS = [TILES[12 * e : 12 * e + 12] for e in range(4)]


def dealt(rig_factory, *, rules="tournament"):
    """A started four-seat game with tracked hands, every hand tapped in."""
    rig = rig_factory(rules=rules, hand_mode="tracked")
    rig.start(0, 1, 2, 3)
    for e, hand in enumerate(HANDS):
        for tile in hand:
            rig.tap(e, str(tile))
    return rig
