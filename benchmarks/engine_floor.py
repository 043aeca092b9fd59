"""A lower bound for engine_speed.py: how fast can any engine built this way go?

    python benchmarks/engine_floor.py [--seconds S]

The same loop as engine_speed.py (4 seats, double-12, a random choice among the legal
actions through a sequence view, a new immutable state for every action) over a
stripped engine written for speed alone. It knows only the core of the classic rules:
set-aside engine, own train first, markers, one pending double that must be
satisfied, draw one, a drawn tile that cannot be played ends the turn, a round ends
when a seat goes out or nobody can move. It checks nothing, says nothing, and knows no
options, no open hands, no chicken foot, no scores. Whatever it reaches is more than
the real engine can, which does all of that as well; the figures are in
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from engine_speed import timed  # this folder is first on the path when run

from firmware_py.rules.tiles import Tile, set_tiles

TILES = set_tiles(12)
SUIT = [sum(1 << t.index for t in TILES if t.matches(v)) for v in range(13)]
SEATS = 4
MEXICAN = SEATS
# The trains the seat to act may play on, by (open trains bitmask << 2 | seat).
FREE = [
    tuple(i for i in range(SEATS + 1) if i in (seat, MEXICAN) or open_ >> i & 1)
    for open_ in range(1 << (SEATS + 1))
    for seat in range(SEATS)
]
_new = object.__new__


class S:
    """One moment of a round; never mutated once returned."""

    __slots__ = ("bone", "counted", "drawn", "ends", "first", "hands", "masks", "open",
                 "over", "passes", "pending", "trains", "turn")
    bone: tuple[Tile, ...]
    counted: tuple[int, tuple[int, ...], int, bool] | None
    drawn: Tile | None
    ends: tuple[int, ...]
    first: int
    hands: tuple[tuple[Tile, ...], ...]
    masks: tuple[int, ...]
    open: int
    passes: int
    pending: int | None
    turn: int
    trains: tuple[tuple[tuple[Tile, int], ...], ...]
    over: bool


def put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    changed = list(items)
    changed[i] = value
    return tuple(changed)


def copy(s: S) -> S:
    n = _new(S)
    n.bone, n.drawn, n.ends, n.first, n.hands = s.bone, s.drawn, s.ends, s.first, s.hands
    n.masks, n.open, n.passes, n.pending, n.turn = s.masks, s.open, s.passes, s.pending, s.turn
    n.trains, n.over, n.counted = s.trains, s.over, None
    return n


def count(s: S) -> tuple[int, tuple[int, ...], int, bool]:
    """Plays, the trains open to them, the tiles that may be laid, and whether DRAW is
    allowed (else PASS)."""
    seat = s.turn
    cand = s.masks[seat] if s.drawn is None else 1 << s.drawn.index
    if s.pending is not None:
        trains: tuple[int, ...] = (s.pending,)
    elif not s.first >> seat & 1:
        trains = (seat,)
    else:
        trains = FREE[s.open << 2 | seat]
    ends = s.ends
    plays = 0
    for t in trains:
        plays += (cand & SUIT[ends[t]]).bit_count()
    counted = s.counted = (plays, trains, cand, bool(s.bone) and s.drawn is None and not plays)
    return counted


class View:
    __slots__ = ("s",)

    def __init__(self, s: S) -> None:
        self.s = s

    def __len__(self) -> int:
        plays, _, _, draw = self.s.counted or count(self.s)
        return plays + (draw or not plays)

    def __getitem__(self, i: int) -> tuple[int, Tile | None, int]:
        s = self.s
        _, trains, cand, draw = s.counted or count(s)
        ends = s.ends
        for t in trains:
            m = cand & SUIT[ends[t]]
            c = m.bit_count()
            if i < c:
                for _ in range(i):
                    m &= m - 1
                return t, TILES[(m & -m).bit_length() - 1], 0
            i -= c
        return -1, None, 1 if draw else 2  # DRAW or PASS


def apply(s: S, action: tuple[int, Tile | None, int]) -> S:
    train, tile, kind = action
    seat = s.turn
    n = copy(s)
    if kind == 0:
        assert tile is not None
        end = s.ends[train]
        n.ends = put(s.ends, train, tile.low if tile.high == end else tile.high)
        n.trains = put(s.trains, train, (*s.trains[train], (tile, end)))
        hand = s.hands[seat]
        i = hand.index(tile)
        n.hands = put(s.hands, seat, hand[:i] + hand[i + 1:])
        n.masks = put(s.masks, seat, s.masks[seat] & ~(1 << tile.index))
        n.pending = train if tile.is_double else None
        n.drawn = None
        n.passes = 0
        if train == seat:
            n.open = s.open & ~(1 << seat)
        if len(hand) == 1 and not tile.is_double:
            n.over = True
            return n
        if tile.is_double:
            return n  # the seat follows its double
        return end_turn(n, seat)
    if kind == 1:
        tile = s.bone[0]
        n.bone = s.bone[1:]
        n.hands = put(s.hands, seat, (*s.hands[seat], tile))
        n.masks = put(s.masks, seat, s.masks[seat] | 1 << tile.index)
        n.drawn = tile
        if count(n)[0]:
            n.counted = None
            return n
    n.passes = s.passes + 1 if not s.bone else 0
    n.open = n.open | 1 << seat
    return end_turn(n, seat)


def end_turn(n: S, seat: int) -> S:
    n.first |= 1 << seat
    n.drawn = None
    n.counted = None
    n.turn = (seat + 1) % SEATS
    if n.passes >= SEATS:
        n.over = True
    return n


def deal(seed: int) -> S:
    pool = list(TILES[:-1])  # the 12-12 is set aside as the engine
    random.Random(seed).shuffle(pool)
    s = _new(S)
    s.hands = tuple(tuple(pool[i * 15:(i + 1) * 15]) for i in range(SEATS))
    s.masks = tuple(sum(1 << t.index for t in h) for h in s.hands)
    s.bone = tuple(pool[SEATS * 15:])
    s.ends = (12,) * (SEATS + 1)
    s.trains = ((),) * (SEATS + 1)
    s.open = 1 << MEXICAN
    s.first = s.passes = s.turn = 0
    s.pending = s.drawn = s.counted = None
    s.over = False
    return s


def play_round(rng: random.Random) -> int:
    s = deal(rng.getrandbits(32))
    actions = 0
    while not s.over:
        s = apply(s, rng.choice(View(s)))
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = timed(play_round, args.seconds, args.seed)
    print(f"stripped classic core, 4 seats, double-12, random choices: {figures}")


if __name__ == "__main__":
    main()
