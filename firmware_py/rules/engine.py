"""The rules of play: `apply(state, action)`; a turn's plays, draws and passes."""

from __future__ import annotations

from firmware_py.rules.actions import MEXICAN, Action, Draw, Pass, Play, Reveal, StartRound
from firmware_py.rules.choices import (
    SUIT_MASK,
    carried_double,
    check_may_hold,
    double_ends,
    draw_refusal,
    first_own,
    fitting_mask,
    held_mask,
    line_unstarted,
    not_in_play,
    pass_refusal,
    play_count,
    put,
    say,
    set_mask,
    targets_now,
    train_first_turn,
    train_id,
    train_index,
)
from firmware_py.rules.errors import BadAction, IllegalMove, quoted
from firmware_py.rules.memo import Memo
from firmware_py.rules.position import PLAY, Draft, Pending, Position
from firmware_py.rules.rounds import finish_round, reveal, start_round
from firmware_py.rules.tiles import _LAID, Tile
from firmware_py.rules.trains import Path, Target, Train
from roundhouse import refusals as say_


def apply(s: Position, action: Action) -> Position:
    """The position after `action` (a draft for `state.freeze`), or `IllegalMove` saying
    why not; `s` is untouched."""
    kind = type(action)
    if kind is Play:
        return _play(s, action)  # type: ignore[arg-type]
    if kind is Draw:
        return _draw(s, action)  # type: ignore[arg-type]
    if kind is Pass:
        return _pass(s, action)  # type: ignore[arg-type]
    if kind is Reveal:
        return reveal(s, action)  # type: ignore[arg-type]
    if kind is StartRound:
        return start_round(s, action)  # type: ignore[arg-type]
    raise BadAction(f"{action!r} is not an action.")


def _check_turn(s: Position, seat: int) -> None:
    if s.phase is not PLAY:
        raise not_in_play(s)
    if not isinstance(seat, int) or not 0 <= seat < s.players:
        raise IllegalMove(say_.NO_SUCH_SEAT, text=quoted(seat))
    if seat != s.turn:
        raise IllegalMove(say_.NOT_YOUR_TURN, seat=s.turn)


def _play(s: Position, a: Play) -> Draft:
    seat, tile, train, branch = a.seat, a.tile, a.train, a.branch
    if seat != s.turn or s.phase is not PLAY or type(seat) is not int:
        _check_turn(s, seat)
    picked = s._memo.picked
    if picked is not None and picked[0] is a:
        return _lay(s, seat, tile, picked[1], picked[2])
    if not s.engine_laid:
        raise IllegalMove(say_.MUST_FIND_ENGINE, seat=seat, tile=s.engine)
    if s._hands is not None:
        if type(tile) is not Tile or not s._masks[seat] >> tile.index & 1:
            raise IllegalMove(say_.NOT_HELD, seat=seat, tile=tile)
    else:
        if s._counts[seat] == 0:
            raise IllegalMove(say_.NO_TILES_LEFT, seat=seat)
        check_may_hold(s, seat, tile)
    drawn = s._drawn
    if drawn is not None and tile is not drawn:
        raise IllegalMove(say_.ONLY_DRAWN, seat=seat, tile=drawn)
    if tile.is_double:
        limit = s._flags.doubles_per_turn
        if limit is not None and s._doubles >= limit:
            raise IllegalMove(say_.DOUBLES_LIMIT, n=limit)
    if train == MEXICAN:
        index = s.players
    elif type(train) is int and 0 <= train < s.players:
        index = train
    else:
        index = train_index(s, train)
    targets, why, double_targets = s._memo.targets or targets_now(s)
    if tile.is_double:
        targets = double_targets
    for target in targets:
        if target[0] == index and target[1] == branch:
            break
    else:
        raise _refuse_target(s, index, branch, targets, why)
    end = target[2]
    if end != tile.high and end != tile.low:
        if branch is None:
            raise IllegalMove(say_.NO_MATCH, end=end, train=train_id(s, index))
        raise IllegalMove(say_.NO_MATCH_BRANCH, end=end, train=train_id(s, index), branch=branch)
    return _lay(s, seat, tile, target, why)


def _refuse_target(
    s: Position, index: int, branch: int | None, targets: list[Target], why: str
) -> IllegalMove:
    seat = s.turn
    if why in ("double", "follow"):
        p = carried_double(s) if why == "double" else first_own(s)
        assert p is not None
        if p.train == seat:
            return IllegalMove(say_.SATISFY_FIRST, seat=seat, tile=p.tile)
        return IllegalMove(
            say_.SATISFY_FIRST_ON, seat=seat, tile=p.tile, train=train_id(s, p.train)
        )
    # (Another train, or a branch of its own that the line did not reach: a line goes on
    # from its last tile only.)
    if why == "line" and (
        index != s._line or (branch is not None and branch < len(s._trains[index].ends()))
    ):
        return IllegalMove(say_.FIRST_TURN_LINE, seat=seat, train=train_id(s, s._line or 0))
    if why == "first" and index != seat:
        return IllegalMove(say_.FIRST_TURN_OWN, seat=seat)
    train = s._trains[index]
    here = train_id(s, index)
    if index != seat and index != s.players and not train.open:
        return IllegalMove(say_.TRAIN_CLOSED, train=here)
    if train.branches and branch is None:
        return IllegalMove(say_.NAME_BRANCH, train=here, last=len(train.ends()) - 1)
    if not train.branches and branch is not None:
        return IllegalMove(say_.NO_BRANCHES, train=here)
    return IllegalMove(say_.NO_SUCH_BRANCH, train=here, branch=branch)


def _lay(s: Position, seat: int, tile: Tile, target: Target, why: str) -> Draft:
    f = s._flags
    index, _, _, path = target
    n = s.draft()
    trains = list(s._trains)
    train = trains[index]
    double = tile.is_double
    # The owner laying on its own train takes its marker off; the Mexican train is open
    # from its first tile.
    opened = index == s.players or (train.open and index != seat)
    if path or train.branches:
        new = train.lay(path, tile, f.chicken_foot)
        if new.open != opened:
            new = new.with_open(opened)
    else:
        new = Train(
            train.owner,
            train.start,
            # `laid_against(tile, train.open_end)`, inlined.
            (*train.tiles, _LAID[tile.index * 2 + (train.open_end != tile.high)]),
            opened,
            tuple(Train(train.owner, tile.high) for _ in range(3))
            if double and f.chicken_foot
            else (),
        )
    # Tuples with one item replaced, written out: this is the engine's hottest path.
    trains[index] = new
    n._trains = tuple(trains)
    counts = list(s._counts)
    left = counts[seat] = counts[seat] - 1
    n._counts = tuple(counts)
    bit = 1 << tile.index
    hands = s._hands
    if hands is not None:
        hand = hands[seat]
        # By identity: `hand.index` compares with `==`, which `Tile`'s ordering sends
        # through Python's slow comparison slot for every tile before it.
        i = 0
        for held_tile in hand:
            if held_tile is tile:
                break
            i += 1
        held = list(hands)
        held[seat] = hand[:i] + hand[i + 1 :]
        n._hands = tuple(held)
        masks = list(s._masks)
        masks[seat] &= ~bit
        n._masks = tuple(masks)
    else:
        named = s._named
        if named[seat]:
            n._named = put(named, seat, named[seat] & ~bit)
    n._table = s._table | bit
    pending = s._pending
    if pending:
        pending = _unsatisfied(pending, index, path, new)
    if double:
        pending = (*pending, Pending(index, path, tile, s._turn_no))
        n._doubles = s._doubles + 1
    if pending and f.dead_double_releases:
        pending = _alive(n, pending)
    n._pending = pending
    n._passes = 0
    n._laid = s._laid + 1
    train_first = not s._first[seat] and f.first_turn_train  # `train_first_turn`
    # A first-turn train owes nothing for its doubles (the Lithuanian text: follow-ups from the
    # second turn).
    owe = n._owe = double and not train_first
    n._draws = 0
    n._drawn = None
    if train_first and why != "double":
        if s._line is None:
            n._line = index
        # The line goes on from its last tile; a chicken-foot double grows three ends and the line
        # takes one of them (docs/rules.md, "The options", `first_turn`: "one connected line").
        n._line_ends = tuple((*path, k) for k in range(3)) if double and f.chicken_foot else (path,)
    if not left:
        if owe and not f.last_double_ends_round:
            return n  # still owes its double: it draws, or passes with nothing left
        return _went_out(n, seat)
    if double or train_first:
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


def _live_mask(s: Position) -> int:
    """Tiles that may still be laid this round: in a hand or the boneyard, that is, neither
    on the table nor out of play."""
    return set_mask(s._set_size) & ~(s._table | s._out)


def _alive(s: Position, pending: tuple[Pending, ...]) -> tuple[Pending, ...]:
    """`dead_double_releases`: drop the doubles nothing left can satisfy."""
    live = _live_mask(s)
    out = []
    for p in pending:
        need = len(double_ends(s, p))
        if (live & SUIT_MASK[p.tile.high]).bit_count() >= need:
            out.append(p)
    return tuple(out) if len(out) != len(pending) else pending


def _went_out(n: Draft, seat: int) -> Draft:
    if n.went_out is None:
        n.went_out = seat
    if n.options.first_turn_out_waits and not all(n._first[:seat] + n._first[seat + 1 :]):
        return _end_turn(n, False)
    return finish_round(n, blocked=False)


def _end_turn(n: Draft, marker_up: bool) -> Draft:
    seat = n.turn
    assert seat is not None
    if marker_up and not n._trains[seat].open:
        trains = n._trains
        n._trains = put(trains, seat, trains[seat].with_open(True))
    first = n._first
    if not first[seat]:
        firsts = list(first)
        firsts[seat] = True
        n._first = tuple(firsts)
    # `n.new_turn()`, inlined: a turn ends on most moves.
    n._laid = n._doubles = n._draws = 0
    n._owe = False
    n._drawn = n._line = None
    n._line_ends = ()
    n._memo = Memo()
    n._turn_no += 1
    n.turn = (seat + 1) % n.players
    if n.went_out is not None and all(n._first):
        return finish_round(n, blocked=False)
    if n._passes >= n.players and (n._flags.readings < 3 or not _someone_can_play(n)):
        return finish_round(n, blocked=True)
    return n


def _someone_can_play(n: Draft) -> bool:
    """Whether a seat holds a tile it could lay on a turn of its own now. A run of turns
    without a tile on an empty boneyard blocks the round only when none does (core rule
    10): without `must_play` a seat may pass, or draw the last tile, while it holds one.
    With open hands the table cannot see the hands, and the run of passes is its word."""
    if n._hands is None:
        return False
    probe = n.draft()
    for seat in range(n.players):
        if n._masks[seat]:
            probe.turn = seat
            probe._memo.forget()
            if play_count(probe):
                return True
    return False


def _draw(s: Position, a: Draw) -> Draft:
    seat = a.seat
    if seat != s.turn or s.phase is not PLAY or type(seat) is not int:
        _check_turn(s, seat)
    if not s.engine_laid:
        return _hunt(s, a)
    refusal = draw_refusal(s, play_count(s) > 0)
    if refusal is not None:
        raise say(refusal, s)
    n = s.draft()
    n._memo.targets = s._memo.targets  # a draw changes no train and no duty: the same ends are open
    tile = _take(s, n, seat, a.tile)
    if tile is None and s._lacks[seat]:
        n._lacks = put(s._lacks, seat, 0)  # an unseen tile may be any of them
    n._draws = s._draws + 1
    n._drawn = tile
    if tile is not None and not play_count(n) and draw_refusal(n, False) is not None:
        return _pass_effects(n, seat)  # the drawn tile cannot be played: turn over
    return n


def _take(s: Position, n: Draft, seat: int, named: Tile | None) -> Tile | None:
    """Move the boneyard's next tile, or the one named, into `seat`'s hand (in `n`); the
    tile if known."""
    counts = s._counts
    n._counts = put(counts, seat, counts[seat] + 1)
    n._bcount = s._bcount - 1
    bone = s._boneyard
    if bone:
        # A named tile is the one the table saw drawn (tracked hands tap it): the
        # face-down order is the table's guess, the tap is what happened.
        if named is None or named is bone[0]:
            tile = bone[0]
            n._boneyard = bone[1:]
        elif named in bone:
            tile = named
            i = bone.index(named)
            n._boneyard = bone[:i] + bone[i + 1 :]
        else:
            raise IllegalMove(say_.NOT_IN_BONEYARD, tile=named)
        assert s._hands is not None
        hands = s._hands
        n._hands = put(hands, seat, (*hands[seat], tile))
        masks = s._masks
        n._masks = put(masks, seat, masks[seat] | (1 << tile.index))
        return tile
    if named is None:
        return None
    check_may_hold(s, seat, named)
    masks = s._named
    n._named = put(masks, seat, masks[seat] | (1 << named.index))
    return named


def _hunt(s: Position, a: Draw) -> Draft:
    """`engine: holder` and nobody holds the engine: seats draw in turn until it turns up."""
    seat = a.seat
    if s._bcount == 0:
        raise IllegalMove(say_.BONEYARD_EMPTY)
    n = s.draft()
    tile = _take(s, n, seat, a.tile)
    if tile is not None and tile is s.engine:
        assert n._hands is not None
        hands = n._hands
        n._hands = put(hands, seat, hands[seat][:-1])
        masks = n._masks
        n._masks = put(masks, seat, masks[seat] & ~(1 << tile.index))
        counts = n._counts
        n._counts = put(counts, seat, counts[seat] - 1)
        n.engine_laid = True
        n._table = 1 << tile.index
    else:
        n.turn = (seat + 1) % s.players
    n._turn_no += 1
    return n


def _pass(s: Position, a: Pass) -> Draft:
    seat = a.seat
    if seat != s.turn or s.phase is not PLAY or type(seat) is not int:
        _check_turn(s, seat)
    if not s.engine_laid:
        raise IllegalMove(say_.MUST_FIND_ENGINE, seat=seat, tile=s.engine)
    plays = play_count(s) > 0
    refusal = pass_refusal(s, plays)
    if refusal is not None:
        raise say(refusal, s)
    n = s.draft()
    if (
        s._hands is None
        and s._flags.must_play
        and not s._draws
        and not (s._laid and not s._owe and train_first_turn(s, seat))
    ):
        # Open hands: under `must_play` a seat passing without a draw holds no tile that
        # fits the ends open to it (a first-turn line may stop at will: that says nothing).
        n._lacks = put(s._lacks, seat, s._lacks[seat] | fitting_mask(s))
    # A seat that keeps a drawn tile it may play (`drawn_tile: may_play`) can still play:
    # its pass does not count towards a blocked round.
    declined = plays and s._draws > 0 and s._flags.drawn_tile_may_play
    # A first-turn seat that satisfied a carried double and could go on but stops there
    # has not shown it cannot start its train: no marker. With open hands a PASS without
    # a draw says it could go on only where the same PASS from a seat that could not
    # would have been refused (it would owe a draw: `first_turn_draw`, a tile left).
    stopped = (line_unstarted(s, seat) and plays and not s._draws
               and (s._hands is not None or pass_refusal(s, False) is not None))
    return _pass_effects(n, seat, declined, not stopped)


def _pass_effects(n: Draft, seat: int, can_play: bool = False, unstarted: bool = True) -> Draft:
    """End the turn of `seat` without a further tile (after a draw, or PASS); `can_play`:
    it keeps a tile it could have laid; `unstarted`: a first turn that laid tiles only on
    a carried double ends here because the seat could not start its train."""
    # The marker goes up on a turn without a tile, a double left unfollowed, and a `train`
    # first turn that could not start the seat's own train, whatever it laid elsewhere.
    marker_up = not n._laid or n._owe or (unstarted and line_unstarted(n, seat))
    if n._laid or n._bcount or can_play:
        n._passes = 0
    elif marker_up and not n._trains[seat].open and _opens_a_play(n, seat):
        n._passes = 1  # the seats that passed before it get another turn
    else:
        n._passes += 1
    if n._counts[seat] == 0:
        return _went_out(n, seat)
    return _end_turn(n, marker_up)


def _opens_a_play(n: Draft, seat: int) -> bool:
    """Whether the train `seat`'s marker is about to open ends in a number that a seat
    which passed before it, in this run of passes, holds or may hold: the round is not
    blocked while a seat can still play (docs/rules.md, core rule 10). With open hands a seat
    may hold any tile not seen elsewhere, except those it showed it lacks by passing on
    them under `must_play`. A pending double that blocks every train opens nothing."""
    if n._pending and n._flags.open_double_blocks:
        return False
    suits = 0
    for target in n._trains[seat].targets(seat):
        suits |= SUIT_MASK[target[2]]
    for back in range(1, n._passes + 1):
        other = (seat - back) % n.players
        if held_mask(n, other) & ~n._lacks[other] & suits:
            return True
    return False
