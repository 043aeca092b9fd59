"""Rounds and the game: the start of a round, its end, scores and ranking."""

from __future__ import annotations

from firmware_py.rules.actions import Reveal, StartRound
from firmware_py.rules.choices import (
    check_may_hold,
    hand_score,
    mask_of,
    not_in_play,
    put,
    set_mask,
)
from firmware_py.rules.errors import BadAction, IllegalMove
from firmware_py.rules.options import Options
from firmware_py.rules.position import GAME_OVER, PLAY, ROUND_OVER, Draft, Position
from firmware_py.rules.tiles import MAX_PIPS, Tile, set_tiles
from firmware_py.rules.trains import Train
from roundhouse import refusals as say_


def _rounds_in_game(options: Options, set_size: int) -> int:
    return options.rounds if options.rounds is not None else set_size + 1


# ---- the end of a round ----------------------------------------------------------------


def finish_round(n: Draft, blocked: bool) -> Draft:
    n.blocked = blocked
    n.turn = None
    n.phase = ROUND_OVER
    n.new_turn()
    if n._hands is not None:
        blank = n.options.double_blank
        return _score(n, tuple(hand_score(hand, blank) for hand in n._hands))
    n.awaiting_reveal = tuple(seat for seat, c in enumerate(n._counts) if c)
    if not n.awaiting_reveal:
        return _score(n, (0,) * n.players)
    return n


def _score(n: Draft, row: tuple[int, ...]) -> Draft:
    n.scores = (*n.scores, row)
    n.totals = tuple(t + r for t, r in zip(n.totals, row, strict=True))
    if n.round >= _rounds_in_game(n.options, n._set_size):
        n.phase = GAME_OVER
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


def reveal(s: Position, a: Reveal) -> Draft:
    seat = a.seat
    if s.phase is not ROUND_OVER or seat not in s.awaiting_reveal:
        if s._hands is not None and s.phase is ROUND_OVER:
            raise IllegalMove(say_.TRACKED_SCORED)
        if s.phase is ROUND_OVER and 0 <= seat < s.players:
            raise IllegalMove(say_.NOTHING_TO_REVEAL, seat=seat)
        raise IllegalMove(say_.REVEAL_AT_END) if s.phase is PLAY else not_in_play(s)
    if len(a.tiles) != s._counts[seat]:
        raise IllegalMove(say_.REVEAL_COUNT, seat=seat, n=s._counts[seat], given=len(a.tiles))
    seen = 0
    for tile in a.tiles:
        bit = 1 << tile.index
        if seen & bit:
            raise IllegalMove(say_.NAMED_TWICE, tile=tile)
        seen |= bit
        check_may_hold(s, seat, tile)
        for other, tiles in enumerate(s._revealed):
            if tiles is not None and tile in tiles:
                raise IllegalMove(say_.REVEALED_BY_OTHER, tile=tile, other_seat=other)
    # A tile seen going into this hand (a named draw) and not laid since is still in it.
    missing = s._named[seat] & ~seen
    if missing:
        tile = set_tiles(MAX_PIPS)[(missing & -missing).bit_length() - 1]
        raise IllegalMove(say_.DRAWN_NOT_REVEALED, seat=seat, tile=tile)
    n = s.draft()
    revealed = s._revealed
    n._revealed = put(revealed, seat, a.tiles)
    n.awaiting_reveal = tuple(x for x in s.awaiting_reveal if x != seat)
    if n.awaiting_reveal:
        return n
    blank = s.options.double_blank
    return _score(n, tuple(sum(t.score(blank) for t in tiles or ()) for tiles in n._revealed))


# ---- the start of a round --------------------------------------------------------------


def start_round(s: Position, a: StartRound) -> Draft:
    if s.phase is GAME_OVER:
        raise IllegalMove(say_.GAME_OVER)
    if s.phase is PLAY or s.awaiting_reveal:
        raise IllegalMove(say_.ROUND_NOT_OVER)
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
    n = s.draft()
    n.round = r
    n.phase = PLAY
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
    n._lacks = (0,) * players
    n._revealed = (None,) * players
    if s._starter0 is None:
        n._starter0 = starter
    n._turn_no = s._turn_no + 1
    n.new_turn()
    hands = a.hands
    if hands is not None and len(hands) != players:
        raise BadAction(f"{len(hands)} hands dealt for {players} players")
    if hands is not None and any(isinstance(h, tuple) for h in hands):
        _deal_known(n, hands, a.boneyard, engine, starter)
    else:
        _deal_open(n, hands, a.boneyard, engine, starter)
    return n


def _deal_known(
    n: Draft,
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
    set_size_mask = set_mask(set_size)
    aside = 1 << engine.index if n.options.engine == "set_aside" else 0
    masks = [mask_of(h) for h in known]
    seen = aside
    for m, tiles in zip((*masks, mask_of(bone)), (*known, bone), strict=True):
        # A tile outside the set, dealt twice or set aside: say which, in deal order.
        if m & ~set_size_mask or m & seen or m.bit_count() != len(tiles):
            _refuse_deal(known, bone, engine, set_size, aside)
        seen |= m
    n._out = set_size_mask & ~seen
    n._boneyard = bone
    n._bcount = len(bone)
    if n.options.engine == "holder":
        holder = next((i for i, h in enumerate(known) if engine in h), None)
        if holder is not None:
            i = known[holder].index(engine)
            known[holder] = known[holder][:i] + known[holder][i + 1 :]
            masks[holder] &= ~(1 << engine.index)
            n.turn = holder
        elif engine in bone:
            n.engine_laid = False
            n._table = 0
        # Otherwise the record describes a position with the engine already in the hub
        # (laid by the starter, who leads), as it would be under `set_aside`.
    n._hands = tuple(known)
    n._masks = tuple(masks)
    n._counts = tuple(len(h) for h in known)


def _refuse_deal(
    known: list[tuple[Tile, ...]],
    bone: tuple[Tile, ...],
    engine: Tile,
    set_size: int,
    seen: int,
) -> None:
    """Raise `BadAction` for the first tile of the deal outside the set or seen before."""
    for where, tiles in [*((f"hands[{i}]", h) for i, h in enumerate(known)), ("boneyard", bone)]:
        for tile in tiles:
            bit = 1 << tile.index
            if not set_mask(set_size) & bit:
                raise BadAction(f"{where}: {tile} is not part of the double-{set_size} set")
            if seen & bit:
                what = "the engine, set aside" if tile is engine else "dealt twice"
                raise BadAction(f"{where}: {tile} is {what}")
            seen |= bit


def _deal_open(
    n: Draft,
    hands: tuple[tuple[Tile, ...] | int | None, ...] | None,
    boneyard: tuple[Tile, ...] | None,
    engine: Tile,
    starter: int,
) -> None:
    o = n.options
    set_size = n._set_size
    specs = hands or (None,) * n.players
    # Counts written out describe a position; a missing one is the deal table's size.
    size = o.deal_for(n.players)[1] if any(h is None for h in specs) else 0
    if boneyard is not None:
        raise BadAction("open hands (counts) take no boneyard list: give null")
    counts: list[int] = []
    for i, h in enumerate(specs):
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
