"""The longest train a hand can lay from an open end.

A hand is a graph whose vertices are the numbers (suits) and whose edges are the tiles; a
train laid from an end is a trail (no tile twice) starting at that end, and a double is a
self-loop. The search is exact: a depth-first search over (current end, tiles used),
memoised on that pair because the value of what can still follow depends on nothing
else.

A double is always laid as soon as its number is the open end: moving a double to the
first moment its number is open keeps the chain valid and never makes it shorter, so
the search never needs to branch on when to lay one.

The number of (end, tiles used) pairs grows exponentially with the hand: a 16-tile hand
takes about a millisecond, a 24-tile hand up to about a tenth of a second, and each four
more tiles about ten times as long (benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from firmware_py.rules.tiles import Laid, Tile


def longest_train(hand: Iterable[Tile], end: int) -> tuple[Laid, ...]:
    """The longest chain of tiles from `hand` that can be laid from `end`, as laid.

    Longest means most tiles; among chains of equal length, most pips. Among chains
    equal on both, heavier tiles come first.
    """
    tiles = sorted(dict.fromkeys(hand), key=lambda t: (-t.pips, t.index))
    # Scores pack (tiles, pips) into one int: a tile is worth more than all pips together.
    per_tile = sum(t.pips for t in tiles) + 1
    edges: dict[int, list[tuple[int, int, int]]] = {}  # number -> [(bit, other end, value)]
    loops: dict[int, tuple[int, int]] = {}  # number -> (bit, value) of its double
    for i, tile in enumerate(tiles):
        bit, value = 1 << i, per_tile + tile.pips
        if tile.is_double:
            loops[tile.high] = (bit, value)
        else:
            edges.setdefault(tile.high, []).append((bit, tile.low, value))
            edges.setdefault(tile.low, []).append((bit, tile.high, value))
    no_edges: list[tuple[int, int, int]] = []
    memo: dict[int, int] = {}

    def best(at: int, used: int) -> int:
        """The score of the best chain that can still follow `used` from `at`."""
        key = used << 5 | at  # numbers run up to 18
        found = memo.get(key)
        if found is not None:
            return found
        loop = loops.get(at)
        if loop is not None and not used & loop[0]:
            score = loop[1] + best(at, used | loop[0])
        else:
            score = 0
            for bit, other, value in edges.get(at, no_edges):
                if not used & bit:
                    candidate = value + best(other, used | bit)
                    if candidate > score:
                        score = candidate
        memo[key] = score
        return score

    chain: list[Laid] = []
    at, used = end, 0
    remaining = best(at, used)
    while remaining:
        loop = loops.get(at)
        if loop is not None and not used & loop[0]:
            step: tuple[int, int, int] = (loop[0], at, loop[1])
        else:
            step = next(
                e
                for e in edges.get(at, no_edges)
                if not used & e[0] and e[2] + best(e[1], used | e[0]) == remaining
            )
        bit, other, value = step
        chain.append(Laid(tiles[bit.bit_length() - 1], at))
        at, used, remaining = other, used | bit, remaining - value
    return tuple(chain)
