"""The deterministic shuffle and deal of a round."""

from __future__ import annotations

import random

from firmware_py.rules.actions import StartRound
from firmware_py.rules.errors import IllegalMove
from firmware_py.rules.state import State
from firmware_py.rules.tiles import Tile, set_tiles
from roundhouse.refusals import GAME_OVER


def deal(state: State, seed: int) -> StartRound:
    """The next round's deal (known hands) from `seed`, by the options' deal table."""
    if state.phase == "game_over":
        raise IllegalMove(GAME_OVER)
    o = state.options
    set_size, hand = o.deal_for(state.players)
    e = set_size - state.round
    engine = Tile(e, e)
    pool = list(set_tiles(set_size))
    if o.engine == "set_aside":
        pool.remove(engine)
    _shuffle(pool, seed)
    hands = tuple(tuple(pool[i * hand : (i + 1) * hand]) for i in range(state.players))
    return StartRound(hands, tuple(pool[state.players * hand :]), None, engine)


def _shuffle(pool: list[Tile], seed: int) -> None:
    """`random.Random(seed).shuffle(pool)`, step for step (the same draws of the same
    generator, so the same deal), without its per-swap method calls: a deal is a large
    part of a simulated round."""
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(pool) - 1, 0, -1):
        # random's _randbelow(i + 1): draw k bits until the number is below i + 1.
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        pool[i], pool[j] = pool[j], pool[i]
