"""The rules of play: `apply(state, action)` and the checks it shares with the legal view."""

from __future__ import annotations

from typing import TypeVar

from firmware_py.rules.actions import (
    MEXICAN,
    Action,
    Draw,
    Pass,
    Play,
    Reveal,
    StartRound,
    TrainId,
)
from firmware_py.rules.errors import BadAction, IllegalMove
from firmware_py.rules.options import Options
from firmware_py.rules.state import Pending, State, Target, clone
from firmware_py.rules.tiles import Laid, Tile, set_tiles
from firmware_py.rules.trains import Path, Train

T = TypeVar("T")
_TILES = set_tiles(18)
# Bitmasks of tile indexes: the tiles carrying each number, and the doubles.
_SUIT_MASK = [sum(1 << t.index for t in _TILES if t.matches(v)) for v in range(19)]
_DOUBLES = sum(1 << t.index for t in _TILES if t.is_double)


def _put(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`items` with `items[i]` replaced (the quickest way CPython has)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


def _mask(tiles: tuple[Tile, ...]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t.index
    return m


def _set_mask(set_size: int) -> int:
    return (1 << ((set_size + 1) * (set_size + 2) // 2)) - 1


def _rounds_in_game(options: Options, set_size: int) -> int:
    return options.rounds if options.rounds is not None else set_size + 1


# ---- a new game ------------------------------------------------------------------------


def new_game(options: Options, players: int) -> State:
    """A game before its first round; `BadDeal` if the options cannot deal for `players`."""
    set_size, _ = options.deal_for(players)
    s = State.__new__(State)
    s.options = options
    s.players = players
    s.round = 0
    s.phase = "deal"
    s.turn = None
    s.engine = None
    s.engine_laid = False
    s.scores = ()
    s.totals = (0,) * players
    s.ranking = None
    s.awaiting_reveal = ()
    s.went_out = None
    s.blocked = False
    s._set_size = set_size
    s._trains = ()
    s._pending = ()
    s._hands = ((),) * players
    s._masks = (0,) * players
    s._counts = (0,) * players
    s._boneyard = ()
    s._bcount = 0
    s._first = (False,) * players
    s._passes = 0
    s._table = 0
    s._out = 0
    s._named = (0,) * players
    s._revealed = (None,) * players
    s._starter0 = None
    s._turn_no = 0
    _reset_turn(s)
    return s


def _reset_turn(s: State) -> None:
    s._laid = 0
    s._owe = False
    s._doubles = 0
    s._draws = 0
    s._drawn = None
    s._line = None
    s._legal = None
    s._tg = None
    s._plays = None


# ---- names for messages ----------------------------------------------------------------


def _train_name(s: State, index: int) -> str:
    return "the Mexican train" if index == s.players else f"seat {index}'s train"


def _train_index(s: State, train: TrainId) -> int:
    if train == MEXICAN:
        return s.players
    if isinstance(train, int) and not isinstance(train, bool) and 0 <= train < s.players:
        return train
    raise IllegalMove(f"There is no train {train!r} at this table.")


# ---- where the seat to act may lay a tile ----------------------------------------------


def pending_in_order(s: State) -> tuple[Pending, ...]:
    """The unsatisfied doubles in the order they must be satisfied."""
    if s.options.doubles_order == "reverse":
        return s._pending[::-1]
    return s._pending


def _carried(s: State) -> Pending | None:
    """The double this seat must satisfy before anything else, if any."""
    if not s.options.open_double_blocks:
        return None
    turn_no = s._turn_no
    carried = [p for p in s._pending if p.turn_no < turn_no]
    if not carried:
        return None
    return carried[-1] if s.options.doubles_order == "reverse" else carried[0]


def _ends(s: State, index: int) -> list[Target]:
    train = s._trains[index]
    if not train.branches:
        return [(index, None, train.open_end, ())]
    return [(index, k, end, path) for k, (path, end) in enumerate(train.ends())]


def _double_ends(s: State, p: Pending) -> list[Target]:
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


def _train_first_turn(s: State, seat: int) -> bool:
    return not s._first[seat] and s.options.first_turn == "train"


def _targets(s: State) -> tuple[list[Target], str, list[Target]]:
    tg = s._tg
    if tg is None:
        tg = s._tg = _find_targets(s)
    return tg


def _find_targets(s: State) -> tuple[list[Target], str, list[Target]]:
    """Where the seat to act may lay a tile now, why only there, and where a double may go.

    The reason is "double" (a carried double must be satisfied), "follow" (under
    on_double, a plain tile must satisfy the seat's own doubles of this turn, while
    another double may still go anywhere), "line" (a first-turn train under way),
    "first" (first turn, own train only) or "free".
    """
    if s._pending:
        carried = _carried(s)
        if carried is not None:
            ends = _double_ends(s, carried)
            return ends, "double", ends
        if s._owe and s.options.double_follow == "on_double":
            own = [p for p in s._pending if p.turn_no == s._turn_no]
            if own:
                return _double_ends(s, _first_own(s)), "follow", _free_targets(s)[0]
    out, why = _free_targets(s)
    return out, why, out


def _free_targets(s: State) -> tuple[list[Target], str]:
    seat = s.turn
    assert seat is not None
    if not s._first[seat]:
        if s._line is not None:
            return _ends(s, s._line), "line"
        if not s.options.first_turn_elsewhere:
            return _ends(s, seat), "first"
    out: list[Target] = []
    for index, train in enumerate(s._trains):
        if index == seat or train.owner is None or train.open:
            if train.branches:
                out += _ends(s, index)
            else:
                out.append((index, None, train.open_end, ()))
    return out, "free"


def _candidate_mask(s: State, seat: int) -> int:
    """Bitmask of the tiles the seat may be holding and may lay now."""
    if s._drawn is not None:
        return 1 << s._drawn.index
    if s._hands is not None:
        return s._masks[seat]
    if s._counts[seat] == 0:
        return 0
    barred = s._table | s._out
    for other, m in enumerate(s._named):
        if other != seat:
            barred |= m
    return _set_mask(s._set_size) & ~barred


def plays_now(s: State) -> list[Play]:
    """Every tile the seat to act may lay now (tiles it may hold, with open hands)."""
    plays = s._plays
    if plays is None:
        plays = s._plays = _find_plays(s)
    return plays


# Plays are interned per (seat, train): a legal view is mostly plays already seen.
_PLAY_ROWS: dict[tuple[int, TrainId], list[Play | None]] = {}
_TILE_COUNT = len(_TILES)


def _play_row(seat: int, train: TrainId) -> list[Play | None]:
    row = _PLAY_ROWS.get((seat, train))
    if row is None:
        row = _PLAY_ROWS[seat, train] = [None] * _TILE_COUNT
    return row


def _find_plays(s: State) -> list[Play]:
    seat = s.turn
    assert seat is not None
    cand = _candidate_mask(s, seat)
    if not cand:
        return []
    targets, _, double_targets = _targets(s)
    limit = s.options.doubles_per_turn
    doubles = 0 if limit is not None and s._doubles >= limit else cand & _DOUBLES
    plain = cand & ~_DOUBLES
    out: list[Play] = []
    if double_targets is targets:
        _add_plays(s, seat, targets, plain | doubles, out)
    else:
        _add_plays(s, seat, targets, plain, out)
        if doubles:
            _add_plays(s, seat, double_targets, doubles, out)
    return out


def _add_plays(s: State, seat: int, targets: list[Target], cand: int, out: list[Play]) -> None:
    """Append the plays of the tiles in `cand` on each of `targets`."""
    suits = _SUIT_MASK
    mexican = s.players
    for index, branch, end, _ in targets:
        m = cand & suits[end]
        if not m:
            continue
        train: TrainId = MEXICAN if index == mexican else index
        if branch is None:
            row = _play_row(seat, train)
            while m:
                low = m & -m
                i = low.bit_length() - 1
                m ^= low
                play = row[i]
                if play is None:
                    play = row[i] = Play(seat, _TILES[i], train)
                out.append(play)
        else:
            while m:
                low = m & -m
                m ^= low
                out.append(Play(seat, _TILES[low.bit_length() - 1], train, branch))


def draw_refusal(s: State, plays: list[Play]) -> str | None:
    """Why the seat to act may not draw now, or None if it may."""
    o = s.options
    if s._bcount == 0:
        return "The boneyard is empty."
    if s._laid and not s._owe:
        return "You have played this turn; press PASS to end your first turn."
    known = s._drawn is not None or s._hands is not None
    if s._draws:
        if o.draw != "until_playable" or (known and plays):
            return "You have already drawn this turn."
    elif known and o.must_play and plays:
        return f"You can play the {plays[0].tile}, so you may not draw."
    return None


def pass_refusal(s: State, plays: list[Play]) -> str | None:
    """Why the seat to act may not pass now, or None if it may."""
    o = s.options
    seat = s.turn
    assert seat is not None
    if s._laid and not s._owe and _train_first_turn(s, seat):
        return None
    known = s._drawn is not None or s._hands is not None
    if known and plays:
        if s._drawn is not None and o.drawn_tile == "must_play":
            return f"You must play the {s._drawn} you drew."
        if o.must_play:
            return f"You can play the {plays[0].tile}, so you must play."
    if s._bcount and not s._draws:
        if s._owe:
            return "Follow your double: play a tile or draw."
        return "Draw a tile before passing."
    if known and not plays and o.draw == "until_playable" and s._bcount:
        return "Keep drawing until you can play."
    return None


# ---- applying actions ------------------------------------------------------------------


def apply(s: State, action: Action) -> State:
    """The state after `action`, or `IllegalMove` saying why not; `s` is untouched."""
    kind = type(action)
    if kind is Play:
        return _play(s, action)  # type: ignore[arg-type]
    if kind is Draw:
        return _draw(s, action)  # type: ignore[arg-type]
    if kind is Pass:
        return _pass(s, action)  # type: ignore[arg-type]
    if kind is Reveal:
        return _reveal(s, action)  # type: ignore[arg-type]
    if kind is StartRound:
        return _start_round(s, action)  # type: ignore[arg-type]
    raise BadAction(f"{action!r} is not an action.")


def _check_turn(s: State, seat: int) -> None:
    if s.phase != "play":
        raise IllegalMove(_not_in_play(s))
    if not isinstance(seat, int) or not 0 <= seat < s.players:
        raise IllegalMove(f"There is no seat {seat!r} at this table.")
    if seat != s.turn:
        raise IllegalMove(f"It's seat {s.turn}'s turn.")


def _not_in_play(s: State) -> str:
    if s.phase == "game_over":
        return "The game is over."
    if s.phase == "deal":
        return "No round has started yet."
    if s.awaiting_reveal:
        return "The round is over: reveal the tiles left in your hand."
    return "The round is over."


def _play(s: State, a: Play) -> State:
    seat = a.seat
    _check_turn(s, seat)
    if not s.engine_laid:
        raise IllegalMove(f"Seat {seat} must draw to find the {s.engine}.")
    tile = a.tile
    hands = s._hands
    if hands is not None:
        if tile not in hands[seat]:
            raise IllegalMove(f"Seat {seat} doesn't hold the {tile}.")
    else:
        if s._counts[seat] == 0:
            raise IllegalMove(f"Seat {seat} has no tiles left.")
        _check_may_hold(s, seat, tile)
    if s._drawn is not None and tile is not s._drawn:
        raise IllegalMove(f"Seat {seat} may only play the {s._drawn} just drawn.")
    limit = s.options.doubles_per_turn
    if tile.is_double and limit is not None and s._doubles >= limit:
        raise IllegalMove(f"At most {limit} double(s) may be laid in one turn.")
    index = _train_index(s, a.train)
    targets, why, double_targets = _targets(s)
    if tile.is_double:
        targets = double_targets
    for target in targets:
        if target[0] == index and target[1] == a.branch:
            break
    else:
        raise IllegalMove(_refuse_target(s, index, a.branch, targets, why))
    end = target[2]
    if end != tile.high and end != tile.low:
        raise IllegalMove(
            f"That tile doesn't match the open {end} of {_train_name(s, index)}"
            + (f" (branch {a.branch})." if a.branch is not None else ".")
        )
    return _lay(s, seat, tile, target, why)


def _check_may_hold(s: State, seat: int, tile: Tile) -> None:
    """Open hands: refuse a tile that cannot be in this seat's hand."""
    bit = 1 << tile.index
    if not _set_mask(s._set_size) & bit:
        raise IllegalMove(f"The {tile} is not part of the double-{s._set_size} set.")
    if s._table & bit:
        raise IllegalMove(f"The {tile} is already on the table.")
    if s._out & bit:
        raise IllegalMove(f"The {tile} is out of play this round.")
    for other, m in enumerate(s._named):
        if other != seat and m & bit:
            raise IllegalMove(f"The {tile} is in seat {other}'s hand.")


def _first_own(s: State) -> Pending:
    own = [p for p in s._pending if p.turn_no == s._turn_no]
    return own[-1] if s.options.doubles_order == "reverse" else own[0]


def _refuse_target(
    s: State, index: int, branch: int | None, targets: list[Target], why: str
) -> str:
    seat = s.turn
    if why in ("double", "follow"):
        p = _carried(s) if why == "double" else _first_own(s)
        assert p is not None
        where = "" if p.train == seat else f" on {_train_name(s, p.train)}"
        return f"Seat {seat} must satisfy the {p.tile}{where} first."
    if why == "line" and index != s._line:
        return f"Seat {seat}'s first turn is a line on {_train_name(s, s._line or 0)}."
    if why == "first" and index != seat:
        return f"On a first turn seat {seat} may only play on its own train."
    train = s._trains[index]
    if index != seat and index != s.players and not train.open:
        return f"Seat {index}'s train is closed."
    if train.branches and branch is None:
        last = len(train.ends()) - 1
        return f"{_train_name(s, index).capitalize()} has branches: name one (0-{last})."
    if not train.branches and branch is not None:
        return f"{_train_name(s, index).capitalize()} has no branches."
    return f"{_train_name(s, index).capitalize()} has no branch {branch}."


def _lay(s: State, seat: int, tile: Tile, target: Target, why: str) -> State:
    o = s.options
    index, _, _, path = target
    n = clone(s)
    train = s._trains[index]
    # The owner laying on its own train takes its marker off; the Mexican train is open
    # from its first tile.
    opened = index == s.players or (train.open and index != seat)
    if path or train.branches:
        new = train.lay(path, tile, o.chicken_foot)
        if new.open != opened:
            new = new.with_open(opened)
    else:
        foot = o.chicken_foot and tile.is_double
        new = Train(
            train.owner,
            train.start,
            (*train.tiles, Laid(tile, train.open_end)),
            opened,
            tuple(Train(train.owner, tile.high) for _ in range(3)) if foot else (),
        )
    trains = s._trains
    n._trains = _put(trains, index, new)
    counts = s._counts
    n._counts = _put(counts, seat, counts[seat] - 1)
    hands = s._hands
    if hands is not None:
        hand = hands[seat]
        i = hand.index(tile)
        n._hands = _put(hands, seat, hand[:i] + hand[i + 1 :])
        masks = s._masks
        n._masks = _put(masks, seat, masks[seat] & ~(1 << tile.index))
    else:
        named = s._named
        if named[seat]:
            n._named = _put(named, seat, named[seat] & ~(1 << tile.index))
    n._table = s._table | (1 << tile.index)
    pending = s._pending
    if pending:
        pending = _unsatisfied(pending, index, path, new)
    if tile.is_double:
        pending = (*pending, Pending(index, path, tile, s._turn_no))
        n._doubles = s._doubles + 1
    if pending and o.dead_double_releases:
        pending = _alive(n, pending)
    n._pending = pending
    n._passes = 0
    n._laid = s._laid + 1
    train_first = _train_first_turn(s, seat)
    # A first-turn train owes nothing for its doubles (002: follow-ups from the second turn).
    n._owe = tile.is_double and not train_first
    n._draws = 0
    n._drawn = None
    if train_first and s._line is None and why != "double":
        n._line = index
    if n._counts[seat] == 0:
        if n._owe and not o.last_double_ends_round:
            return n  # still owes its double: it draws, or passes with nothing left
        return _went_out(n, seat)
    if tile.is_double or train_first:
        return n
    return _end_turn(n, False)


def _unsatisfied(
    pending: tuple[Pending, ...], index: int, path: Path, new: Train
) -> tuple[Pending, ...]:
    """The pending doubles still unsatisfied after a tile went on `index` at `path`."""
    out = []
    for p in pending:
        if p.train == index:
            if not new.branches:
                continue
            if (
                len(path) == len(p.path) + 1
                and path[:-1] == p.path
                and all(b.tiles for b in new.node(p.path).branches)
            ):
                continue
        out.append(p)
    return tuple(out) if len(out) != len(pending) else pending


def _live_mask(s: State) -> int:
    """Tiles that may still be laid this round: in a hand or the boneyard."""
    if s._hands is not None:
        m = _mask(s._boneyard or ())
        for hand in s._masks:
            m |= hand
        return m
    return _set_mask(s._set_size) & ~(s._table | s._out)


def _alive(s: State, pending: tuple[Pending, ...]) -> tuple[Pending, ...]:
    """`dead_double_releases`: drop the doubles nothing left can satisfy."""
    live = _live_mask(s)
    out = []
    for p in pending:
        need = len(_double_ends(s, p))
        if (live & _SUIT_MASK[p.tile.high]).bit_count() >= need:
            out.append(p)
    return tuple(out) if len(out) != len(pending) else pending


def _went_out(n: State, seat: int) -> State:
    if n.went_out is None:
        n.went_out = seat
    if n.options.first_turn_out_waits and not all(n._first[:seat] + n._first[seat + 1 :]):
        return _end_turn(n, False)
    return _finish_round(n, blocked=False)


def _end_turn(n: State, marker_up: bool) -> State:
    seat = n.turn
    assert seat is not None
    if marker_up and not n._trains[seat].open:
        trains = n._trains
        n._trains = _put(trains, seat, trains[seat].with_open(True))
    if not n._first[seat]:
        n._first = _put(n._first, seat, True)
    _reset_turn(n)
    n._turn_no += 1
    n.turn = (seat + 1) % n.players
    if n.went_out is not None and all(n._first):
        return _finish_round(n, blocked=False)
    if n._passes >= n.players:
        return _finish_round(n, blocked=True)
    return n


def _draw(s: State, a: Draw) -> State:
    seat = a.seat
    _check_turn(s, seat)
    if not s.engine_laid:
        return _hunt(s, a)
    refusal = draw_refusal(s, plays_now(s))
    if refusal is not None:
        raise IllegalMove(refusal)
    n = clone(s)
    tile = _take(s, n, seat, a.tile)
    n._draws = s._draws + 1
    n._drawn = tile
    if tile is not None:
        plays = plays_now(n)
        if not plays and draw_refusal(n, plays) is not None:
            return _pass_effects(n, seat)  # the drawn tile cannot be played: turn over
    return n


def _take(s: State, n: State, seat: int, named: Tile | None) -> Tile | None:
    """Move the boneyard's next tile into `seat`'s hand (in `n`); the tile if known."""
    counts = s._counts
    n._counts = _put(counts, seat, counts[seat] + 1)
    n._bcount = s._bcount - 1
    if s._boneyard:
        tile = s._boneyard[0]
        if named is not None and named is not tile:
            raise IllegalMove(f"The next tile in the boneyard is the {tile}, not the {named}.")
        n._boneyard = s._boneyard[1:]
        assert s._hands is not None
        hands = s._hands
        n._hands = _put(hands, seat, (*hands[seat], tile))
        masks = s._masks
        n._masks = _put(masks, seat, masks[seat] | (1 << tile.index))
        return tile
    if named is None:
        return None
    _check_may_hold(s, seat, named)
    masks = s._named
    n._named = _put(masks, seat, masks[seat] | (1 << named.index))
    return named


def _hunt(s: State, a: Draw) -> State:
    """`engine: holder` and nobody holds the engine: seats draw in turn until it turns up."""
    seat = a.seat
    if s._bcount == 0:
        raise IllegalMove("The boneyard is empty.")
    n = clone(s)
    tile = _take(s, n, seat, a.tile)
    if tile is not None and tile is s.engine:
        assert n._hands is not None
        hands = n._hands
        n._hands = _put(hands, seat, hands[seat][:-1])
        masks = n._masks
        n._masks = _put(masks, seat, masks[seat] & ~(1 << tile.index))
        counts = n._counts
        n._counts = _put(counts, seat, counts[seat] - 1)
        n.engine_laid = True
        n._table = 1 << tile.index
    else:
        n.turn = (seat + 1) % s.players
    n._turn_no += 1
    return n


def _pass(s: State, a: Pass) -> State:
    seat = a.seat
    _check_turn(s, seat)
    if not s.engine_laid:
        raise IllegalMove(f"Seat {seat} must draw to find the {s.engine}.")
    refusal = pass_refusal(s, plays_now(s))
    if refusal is not None:
        raise IllegalMove(refusal)
    return _pass_effects(clone(s), seat)


def _pass_effects(n: State, seat: int) -> State:
    """End the turn of `seat` without a further tile (after a draw, or PASS)."""
    n._passes = n._passes + 1 if not n._laid and not n._bcount else 0
    if n._counts[seat] == 0:
        return _went_out(n, seat)
    return _end_turn(n, not n._laid or n._owe)


# ---- the end of a round ----------------------------------------------------------------


def _finish_round(n: State, blocked: bool) -> State:
    n.blocked = blocked
    n.turn = None
    n.phase = "round_over"
    _reset_turn(n)
    if n._hands is not None:
        blank = n.options.double_blank
        return _score(n, tuple(sum(t.score(blank) for t in hand) for hand in n._hands))
    n.awaiting_reveal = tuple(seat for seat, c in enumerate(n._counts) if c)
    if not n.awaiting_reveal:
        return _score(n, (0,) * n.players)
    return n


def _score(n: State, row: tuple[int, ...]) -> State:
    n.scores = (*n.scores, row)
    n.totals = tuple(t + r for t, r in zip(n.totals, row, strict=True))
    if n.round >= _rounds_in_game(n.options, n._set_size):
        n.phase = "game_over"
        n.ranking = ranking(n.options, n.scores, n.totals)
    return n


def ranking(
    options: Options, scores: tuple[tuple[int, ...], ...], totals: tuple[int, ...]
) -> tuple[int, ...]:
    """Seats best first: lowest total, then the tie-breaks, then seat order."""

    def key(seat: int) -> tuple[int, ...]:
        rows = [row[seat] for row in scores]
        out = [totals[seat]]
        for rule in options.tie_break:
            if rule == "zero_rounds":
                out.append(-sum(1 for r in rows if r == 0))
            else:
                out.append(min((r for r in rows if r), default=0))
        out.append(seat)
        return tuple(out)

    return tuple(sorted(range(len(totals)), key=key))


def _reveal(s: State, a: Reveal) -> State:
    seat = a.seat
    if s.phase != "round_over" or seat not in s.awaiting_reveal:
        if s._hands is not None and s.phase == "round_over":
            raise IllegalMove("Hands are tracked: the table has scored them already.")
        if s.phase == "round_over" and 0 <= seat < s.players:
            raise IllegalMove(f"Seat {seat} has nothing to reveal.")
        raise IllegalMove(
            "Tiles are revealed only at the end of a round."
            if s.phase == "play"
            else _not_in_play(s)
        )
    if len(a.tiles) != s._counts[seat]:
        raise IllegalMove(f"Seat {seat} holds {s._counts[seat]} tile(s), not {len(a.tiles)}.")
    seen = 0
    for tile in a.tiles:
        bit = 1 << tile.index
        if seen & bit:
            raise IllegalMove(f"The {tile} is named twice.")
        seen |= bit
        _check_may_hold(s, seat, tile)
        for other, tiles in enumerate(s._revealed):
            if tiles is not None and tile in tiles:
                raise IllegalMove(f"The {tile} was revealed by seat {other}.")
    n = clone(s)
    revealed = s._revealed
    n._revealed = _put(revealed, seat, a.tiles)
    n.awaiting_reveal = tuple(x for x in s.awaiting_reveal if x != seat)
    if n.awaiting_reveal:
        return n
    blank = s.options.double_blank
    return _score(n, tuple(sum(t.score(blank) for t in tiles or ()) for tiles in n._revealed))


# ---- the start of a round --------------------------------------------------------------


def _start_round(s: State, a: StartRound) -> State:
    if s.phase == "game_over":
        raise IllegalMove("The game is over.")
    if s.phase == "play" or s.awaiting_reveal:
        raise IllegalMove("The round isn't over yet.")
    o = s.options
    players = s.players
    r = s.round + 1
    set_size = s._set_size
    e = set_size + 1 - r
    engine = Tile(e, e)
    if a.engine is not None and a.engine is not engine:
        raise BadAction(f"round {r} is played with the {engine} engine, not the {a.engine}")
    starter = a.starter
    if starter is None:
        starter = ((s._starter0 or 0) + r - 1) % players if o.starter == "rotate" else 0
    elif not isinstance(starter, int) or not 0 <= starter < players:
        raise BadAction(f"starter must be a seat from 0 to {players - 1}, got {starter!r}")
    n = clone(s)
    n.round = r
    n.phase = "play"
    n.engine = engine
    n.engine_laid = True
    n.turn = starter
    n.went_out = None
    n.blocked = False
    n.awaiting_reveal = ()
    n._trains = (*(Train(i, e) for i in range(players)), Train(None, e))
    n._pending = ()
    n._first = (False,) * players
    n._passes = 0
    n._table = 1 << engine.index
    n._named = (0,) * players
    n._revealed = (None,) * players
    if s._starter0 is None:
        n._starter0 = starter
    n._turn_no = s._turn_no + 1
    _reset_turn(n)
    hands = a.hands
    if hands is not None and len(hands) != players:
        raise BadAction(f"{len(hands)} hands dealt for {players} players")
    if hands is not None and any(isinstance(h, tuple) for h in hands):
        _deal_known(n, hands, a.boneyard, engine, starter)
    else:
        _deal_open(n, hands, a.boneyard, engine, starter)
    return n


def _deal_known(
    n: State,
    hands: tuple[tuple[Tile, ...] | int | None, ...],
    boneyard: tuple[Tile, ...] | None,
    engine: Tile,
    starter: int,
) -> None:
    set_size = n._set_size
    known: list[tuple[Tile, ...]] = []
    for i, h in enumerate(hands):
        if not isinstance(h, tuple):
            raise BadAction(f"hands[{i}] is a count but other hands list tiles")
        known.append(h)
    bone = boneyard or ()
    set_size_mask = _set_mask(set_size)
    seen = 1 << engine.index if n.options.engine == "set_aside" else 0
    for where, tiles in [*((f"hands[{i}]", h) for i, h in enumerate(known)), ("boneyard", bone)]:
        for tile in tiles:
            bit = 1 << tile.index
            if not set_size_mask & bit:
                raise BadAction(f"{where}: {tile} is not part of the double-{set_size} set")
            if seen & bit:
                what = "the engine, set aside" if tile is engine else "dealt twice"
                raise BadAction(f"{where}: {tile} is {what}")
            seen |= bit
    n._out = set_size_mask & ~seen
    n._boneyard = bone
    n._bcount = len(bone)
    if n.options.engine == "holder":
        holder = next((i for i, h in enumerate(known) if engine in h), None)
        if holder is not None:
            i = known[holder].index(engine)
            known[holder] = known[holder][:i] + known[holder][i + 1 :]
            n.turn = holder
        elif engine in bone:
            n.engine_laid = False
            n._table = 0
        else:
            raise BadAction(f"the engine {engine} is in no hand and not in the boneyard")
    n._hands = tuple(known)
    n._masks = tuple(_mask(h) for h in known)
    n._counts = tuple(len(h) for h in known)


def _deal_open(
    n: State,
    hands: tuple[tuple[Tile, ...] | int | None, ...] | None,
    boneyard: tuple[Tile, ...] | None,
    engine: Tile,
    starter: int,
) -> None:
    o = n.options
    set_size, size = o.deal_for(n.players)
    if boneyard is not None:
        raise BadAction("open hands (counts) take no boneyard list: give null")
    counts: list[int] = []
    for i, h in enumerate(hands or (None,) * n.players):
        c = size if h is None else h
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise BadAction(f"hands[{i}] must be a list of tiles or a count, got {c!r}")
        counts.append(c)
    total = (set_size + 1) * (set_size + 2) // 2
    left = total - sum(counts) - (1 if o.engine == "set_aside" else 0)
    if left < 0:
        raise BadAction(f"{sum(counts)} tiles dealt from a set of {total}")
    if o.engine == "holder":
        # With open hands the table only sees the engine laid: the starter laid it.
        if counts[starter] < 1:
            raise BadAction(f"seat {starter} lays the engine but holds no tile")
        counts[starter] -= 1
    n._hands = None
    n._masks = (0,) * n.players
    n._boneyard = None
    n._bcount = left
    n._out = 0
    n._counts = tuple(counts)
