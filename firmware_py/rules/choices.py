"""What the seat to act may do now: where a tile may go, which tiles, draw or pass.

Shared by `apply` (engine.py) and the legal view (legal.py), so they cannot disagree.
"""

from __future__ import annotations

from typing import Final, TypeVar

from firmware_py.rules.actions import MEXICAN, Play, TrainId
from firmware_py.rules.errors import IllegalMove, quoted
from firmware_py.rules.memo import Picked, Playable, Targets
from firmware_py.rules.position import DEAL, GAME_OVER, Pending, Position
from firmware_py.rules.tiles import Tile, set_tiles
from firmware_py.rules.trains import Target
from roundhouse import refusals as say_

T = TypeVar("T")
# Final: compiled, a module constant is read as a C variable, not from the module's dict.
_TILES: Final = set_tiles(18)
# Bitmasks of tile indexes: the tiles carrying each number, and the doubles.
SUIT_MASK: Final = [sum(1 << t.index for t in _TILES if t.matches(v)) for v in range(19)]
_DOUBLES: Final = sum(1 << t.index for t in _TILES if t.is_double)
_DOUBLE_BLANK: Final = _TILES[0]


def put(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`items` with `items[i]` replaced (the quickest way CPython has)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


# Each tile's bit and its pips, by tile: compiled, a dictionary look-up by identity is
# quicker than reading a field of a `Tile`, which stays a Python class.
_BIT: Final = {t: 1 << t.index for t in _TILES}
_PIPS: Final = {t: t.pips for t in _TILES}


def mask_of(tiles: tuple[Tile, ...]) -> int:
    bits = _BIT
    m = 0
    for t in tiles:
        m |= bits[t]
    return m


def hand_score(hand: tuple[Tile, ...], double_blank: int) -> int:
    """What the tiles left in a hand cost (`Tile.score` of each, summed)."""
    pips = _PIPS
    total = 0
    for t in hand:
        total += double_blank if t is _DOUBLE_BLANK and double_blank else pips[t]
    return total


def set_mask(set_size: int) -> int:
    return (1 << ((set_size + 1) * (set_size + 2) // 2)) - 1


# ---- names for messages ----------------------------------------------------------------


def train_id(s: Position, index: int) -> TrainId:
    """The train id (a seat or "mexican") of a train's index in the state."""
    return MEXICAN if index == s.players else index


def train_index(s: Position, train: TrainId) -> int:
    if train == MEXICAN:
        return s.players
    if isinstance(train, int) and not isinstance(train, bool) and 0 <= train < s.players:
        return train
    raise IllegalMove(say_.NO_SUCH_TRAIN, text=quoted(train))


def not_in_play(s: Position) -> IllegalMove:
    if s.phase is GAME_OVER:
        return IllegalMove(say_.GAME_OVER)
    if s.phase is DEAL:
        return IllegalMove(say_.NO_ROUND)
    if s.awaiting_reveal:
        return IllegalMove(say_.ROUND_OVER_REVEAL)
    return IllegalMove(say_.ROUND_OVER)


def check_may_hold(s: Position, seat: int, tile: Tile) -> None:
    """Open hands: refuse a tile that cannot be in this seat's hand."""
    bit = 1 << tile.index
    if not set_mask(s._set_size) & bit:
        raise IllegalMove(say_.NOT_IN_SET, tile=tile, set=s._set_size)
    if s._table & bit:
        raise IllegalMove(say_.ON_TABLE, tile=tile)
    if s._out & bit:
        raise IllegalMove(say_.OUT_OF_PLAY, tile=tile)
    for other, m in enumerate(s._named):
        if other != seat and m & bit:
            raise IllegalMove(say_.IN_OTHER_HAND, tile=tile, other_seat=other)


# ---- where the seat to act may lay a tile ----------------------------------------------


def carried_double(s: Position) -> Pending | None:
    """The double this seat must satisfy before anything else, if any."""
    if not s._flags.open_double_blocks:
        return None
    turn_no = s._turn_no
    carried = [p for p in s._pending if p.turn_no < turn_no]
    if not carried:
        return None
    return carried[-1] if s._flags.doubles_reverse else carried[0]


def _ends(s: Position, index: int) -> list[Target]:
    return s._trains[index].targets(index)


def double_ends(s: Position, p: Pending) -> list[Target]:
    """The ends that satisfy pending double `p`."""
    train = s._trains[p.train]
    if not train.branches:
        return [(p.train, None, p.tile.high, ())]
    node = train.node(p.path)
    depth = len(p.path) + 1
    return [
        (p.train, k, end, path)
        for k, (path, end) in enumerate(train.ends())
        if len(path) == depth and path[:-1] == p.path and not node.branches[path[-1]].tiles
    ]


def train_first_turn(s: Position, seat: int) -> bool:
    return not s._first[seat] and s._flags.first_turn_train


def line_unstarted(s: Position, seat: int) -> bool:
    """Whether `seat`, on a `train` first turn, has laid tiles this turn but only on a
    carried double, not yet its own line. A seat that then cannot start its train is as
    one that laid nothing: it draws once under `first_turn_draw`, and its turn ends with
    its marker up (satisfying a double uses up neither the draw nor the duty to start)."""
    return (s._laid > 0 and s._line is None and train_first_turn(s, seat)
            and s._flags.readings >= 3)  # before rules version 3: a PASS, no marker


def first_own(s: Position) -> Pending:
    own = [p for p in s._pending if p.turn_no == s._turn_no]
    return own[-1] if s._flags.doubles_reverse else own[0]


def targets_now(s: Position) -> Targets:
    tg = s._memo.targets
    if tg is None:
        tg = s._memo.targets = _find_targets(s)
    return tg


def _find_targets(s: Position) -> Targets:
    """Where the seat to act may lay a tile now, why only there, and where a double may go.

    The reason is "double" (a carried double must be satisfied), "follow" (under
    on_double, a plain tile must satisfy the seat's own doubles of this turn, while
    another double may still go anywhere), "line" (a first-turn train under way),
    "first" (first turn, own train only) or "free".
    """
    if s._pending:
        carried = carried_double(s)
        if carried is not None:
            ends = double_ends(s, carried)
            return ends, "double", ends
        if s._owe and s._flags.double_follow_on_double:
            own = [p for p in s._pending if p.turn_no == s._turn_no]
            if own:
                return double_ends(s, first_own(s)), "follow", _free_targets(s)[0]
    out, why = _free_targets(s)
    return out, why, out


def _free_targets(s: Position) -> tuple[list[Target], str]:
    seat = s.turn
    assert seat is not None
    if not s._first[seat]:
        if s._line is not None:
            ends = _ends(s, s._line)
            if s._trains[s._line].branches:  # only the ends the line's last tile left
                ends = [t for t in ends if t[3] in s._line_ends]
            return ends, "line"
        if not s._flags.first_turn_elsewhere:
            return _ends(s, seat), "first"
    out: list[Target] = []
    for index, train in enumerate(s._trains):
        if index == seat or train.owner is None or train.open:
            out += train._targets or train.targets(index)
    return out, "free"


def held_mask(s: Position, seat: int) -> int:
    """Bitmask of the tiles the seat holds (known hands) or may be holding (open hands)."""
    if s._hands is not None:
        return s._masks[seat]
    if s._counts[seat] == 0:
        return 0
    barred = s._table | s._out
    for other, m in enumerate(s._named):
        if other != seat:
            barred |= m
    return set_mask(s._set_size) & ~barred


def fitting_mask(s: Position) -> int:
    """Bitmask of every tile the seat to act could lay now if it held it."""
    targets, _, double_targets = targets_now(s)
    suits = SUIT_MASK
    plain = 0
    for target in targets:
        plain |= suits[target[2]]
    doubles = 0
    limit = s._flags.doubles_per_turn
    if limit is None or s._doubles < limit:
        for target in double_targets:
            doubles |= suits[target[2]]
    return (plain & ~_DOUBLES) | (doubles & _DOUBLES)


def _candidate_mask(s: Position, seat: int) -> int:
    """Bitmask of the tiles the seat may be holding and may lay now."""
    if s._drawn is not None:
        return 1 << s._drawn.index
    return held_mask(s, seat)


def plays_now(s: Position) -> list[Play]:
    """Every tile the seat to act may lay now (tiles it may hold, with open hands)."""
    plays = s._memo.plays
    if plays is None:
        plays = s._memo.plays = _find_plays(s)
    return plays


def play_count(s: Position) -> int:
    """How many plays `plays_now` lists, without building them."""
    return (s._memo.playable or _playable(s))[0]


def play_at(s: Position, i: int) -> Picked:
    """`plays_now(s)[i]` for `0 <= i < play_count(s)`, building only that play, with the
    end it goes on and the reason for the ends open (as `_find_targets` gives it)."""
    suits = SUIT_MASK
    for targets, cand in (s._memo.playable or _playable(s))[1]:
        for target in targets:
            m = cand & suits[target[2]]
            c = m.bit_count()
            if i < c:
                for _ in range(i):
                    m &= m - 1
                seat = s.turn
                assert seat is not None and s._memo.targets is not None
                play = _play(s, seat, target[0], target[1], (m & -m).bit_length() - 1)
                return play, target, s._memo.targets[1]
            i -= c
    raise IndexError("play index out of range")


def _playable(s: Position) -> Playable:
    """How many plays there are and where: (targets, tiles) pairs in the legal view's
    order, each tile of the mask on each target whose end it matches."""
    seat = s.turn
    assert seat is not None
    known = s._drawn is None and s._hands is not None  # the common case, without a call
    cand = s._masks[seat] if known else _candidate_mask(s, seat)
    if not cand:
        s._memo.playable = _NO_PLAYS
        return _NO_PLAYS
    tg = s._memo.targets
    if tg is None:
        tg = s._memo.targets = _find_targets(s)
    targets, _, double_targets = tg
    limit = s._flags.doubles_per_turn
    doubles = 0 if limit is not None and s._doubles >= limit else cand & _DOUBLES
    groups: tuple[tuple[list[Target], int], ...]
    if double_targets is targets:
        groups = ((targets, cand if doubles else cand & ~_DOUBLES),)
    elif doubles:
        groups = ((targets, cand & ~_DOUBLES), (double_targets, doubles))
    else:
        groups = ((targets, cand & ~_DOUBLES),)
    suits = SUIT_MASK
    count = 0
    for group_targets, tiles in groups:
        for target in group_targets:
            count += (tiles & suits[target[2]]).bit_count()
    playable = s._memo.playable = (count, groups)
    return playable


_NO_PLAYS: Final[Playable] = (0, ())


# Plays are interned per (seat, train): a legal view is mostly plays already seen.
# Keyed by seat and train in one int (`seat << 8 | train`, 255 for the Mexican train: no
# deal seats 255 players), hashed without a tuple.
_PLAY_ROWS: Final[dict[int, list[Play | None]]] = {}
_TILE_COUNT: Final = len(_TILES)


def _play(s: Position, seat: int, index: int, branch: int | None, tile_index: int) -> Play:
    mexican = index == s.players
    if branch is not None:
        return Play(seat, _TILES[tile_index], MEXICAN if mexican else index, branch)
    key = seat << 8 | (255 if mexican else index)
    row = _PLAY_ROWS.get(key)
    if row is None:
        row = _PLAY_ROWS[key] = [None] * _TILE_COUNT
    play = row[tile_index]
    if play is None:
        play = row[tile_index] = Play(seat, _TILES[tile_index], MEXICAN if mexican else index)
    return play


def _find_plays(s: Position) -> list[Play]:
    out: list[Play] = []
    seat = s.turn
    assert seat is not None
    suits = SUIT_MASK
    for targets, cand in (s._memo.playable or _playable(s))[1]:
        for index, branch, end, _ in targets:
            m = cand & suits[end]
            while m:
                low = m & -m
                m ^= low
                out.append(_play(s, seat, index, branch, low.bit_length() - 1))
    return out


def say(refusal: str, s: Position) -> IllegalMove:
    """A refusal of `draw_refusal` or `pass_refusal` with its tile, if it names one."""
    if refusal == say_.MUST_PLAY_DRAWN:
        return IllegalMove(refusal, tile=s._drawn)
    if refusal == say_.SATISFY_DRAWN:
        p = carried_double(s)
        assert p is not None
        return IllegalMove(refusal, tile=s._drawn, double_tile=p.tile, train=train_id(s, p.train))
    if "{tile}" in say_.REFUSALS[refusal].singular:
        plays = plays_now(s)
        return IllegalMove(refusal, tile=plays[0].tile if plays else None)
    return IllegalMove(refusal)


# The refusals `draw_refusal` and `pass_refusal` answer with, as module constants (Final:
# compiled, a C variable each, not a look-up of `say_` and then of the name in it).
_BONEYARD_EMPTY: Final = say_.BONEYARD_EMPTY
_CAN_PLAY_NO_DRAW: Final = say_.CAN_PLAY_NO_DRAW
_CAN_PLAY_NO_PASS: Final = say_.CAN_PLAY_NO_PASS
_DRAWN_ALREADY: Final = say_.DRAWN_ALREADY
_DRAW_FIRST: Final = say_.DRAW_FIRST
_FOLLOW_DOUBLE: Final = say_.FOLLOW_DOUBLE
_KEEP_DRAWING: Final = say_.KEEP_DRAWING
_MUST_PLAY_DRAWN: Final = say_.MUST_PLAY_DRAWN
_NO_FIRST_TURN_DRAW: Final = say_.NO_FIRST_TURN_DRAW
_PLAYED_PASS: Final = say_.PLAYED_PASS
_SATISFY_DRAWN: Final = say_.SATISFY_DRAWN


def draw_refusal(s: Position, plays: bool) -> str | None:
    """Why the seat to act may not draw now (a refusal for `say`), or None if it may;
    `plays`: whether it has a tile to lay."""
    f = s._flags
    seat = s.turn
    assert seat is not None
    if s._bcount == 0:
        return _BONEYARD_EMPTY
    if s._laid and not s._owe and not line_unstarted(s, seat):
        return _PLAYED_PASS
    known = s._drawn is not None or s._hands is not None
    if s._draws:
        if not f.draw_until_playable or (known and plays):
            return _DRAWN_ALREADY
    elif known and f.must_play and plays:
        return _CAN_PLAY_NO_DRAW
    elif no_first_turn_draw(s):
        return _NO_FIRST_TURN_DRAW
    return None


def no_first_turn_draw(s: Position) -> bool:
    """Whether the seat to act is on a `train` first turn that may not draw to start its
    train (`first_turn_draw` off: the Lithuanian text "they do not draw from the
    boneyard"; the Greek text). A carried double is still owed a draw before the seat has
    laid a tile (rule 9 of the core); once it has satisfied one, a draw could only be for
    its own train, and there is none."""
    seat = s.turn
    assert seat is not None
    if s._flags.readings < 3:  # the seat that had satisfied a double simply passed
        return (not s._flags.first_turn_draw and train_first_turn(s, seat) and not s._laid
                and not s._draws and carried_double(s) is None)
    return (
        not s._flags.first_turn_draw
        and train_first_turn(s, seat)
        and s._line is None
        and not s._draws
        and (s._laid > 0 or carried_double(s) is None)
    )


def pass_refusal(s: Position, plays: bool) -> str | None:
    """Why the seat to act may not pass now (a refusal for `say`), or None if it may;
    `plays`: whether it has a tile to lay."""
    f = s._flags
    seat = s.turn
    assert seat is not None
    known = s._drawn is not None or s._hands is not None
    # A line may stop at any tile; a seat that satisfied a carried double and holds a tile
    # to go on may stop too. One that cannot start its train is treated below as a seat
    # that has laid nothing: it draws first under `first_turn_draw`. With open hands the
    # table cannot tell the two apart while a tile it has not seen could go on: the PASS is
    # the seat's word that it holds one, as a PASS under `must_play` is.
    if (
        s._laid
        and not s._owe
        and train_first_turn(s, seat)
        and (s._line is not None or (plays and not s._draws) or s._flags.readings < 3)
    ):
        return None
    if known and plays:
        # `must_play` is about drawing: a tile just drawn is `drawn_tile`'s alone.
        if s._drawn is not None:
            if f.drawn_tile_must_play:
                return _MUST_PLAY_DRAWN
            # Core rule 9 before `drawn_tile`: a seat owing a double left by an earlier turn lays a
            # drawn tile that satisfies it (the Lithuanian text "Tai turi būti daroma", it must be
            # done; the Greek text "απαιτείται να τοποθετήσει", he is required to lay). While such a
            # double is owed the only ends open are its own, so a drawn tile that plays is one that
            # satisfies it.
            if carried_double(s) is not None:
                return _SATISFY_DRAWN
        elif f.must_play:
            return _CAN_PLAY_NO_PASS
    if not s._bcount or no_first_turn_draw(s):
        return None
    if not s._draws:
        if s._owe:
            return _FOLLOW_DOUBLE
        return _DRAW_FIRST
    if known and not plays and f.draw_until_playable:
        return _KEEP_DRAWING
    return None
