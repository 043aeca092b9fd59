"""The deterministic shuffle and deal of a round."""

from __future__ import annotations

import random

from firmware_py.rules.actions import StartRound
from firmware_py.rules.errors import IllegalMove
from firmware_py.rules.state import State
from firmware_py.rules.tiles import Tile, set_tiles


def deal(state: State, seed: int) -> StartRound:
    """The next round's deal (known hands) from `seed`, by the options' deal table."""
    if state.phase == "game_over":
        raise IllegalMove("The game is over.")
    o = state.options
    set_size, hand = o.deal_for(state.players)
    e = set_size - state.round
    engine = Tile(e, e)
    pool = list(set_tiles(set_size))
    if o.engine == "set_aside":
        pool.remove(engine)
    random.Random(seed).shuffle(pool)
    hands = tuple(tuple(pool[i * hand : (i + 1) * hand]) for i in range(state.players))
    return StartRound(hands, tuple(pool[state.players * hand :]), None, engine)
