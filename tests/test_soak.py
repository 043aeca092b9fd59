"""Soak: bots play every preset at every table size its deal table supports, and after
every action no tile is lost or doubled and the counts add up; every round is scored
by the pips left in the hands; a round ends blocked only when no seat can lay a tile
(checked where `must_play` keeps seats from passing while they could).

Games are shortened to two rounds (`rounds: 2`) to keep the whole soak within about a
minute: the first round, and the passage to the next with its new deal and engine; the
later rounds of a full game differ from the second only in the engine's number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from firmware_py.bots import Bot, GreedyBot, RandomBot, play_game
from firmware_py.rules import (
    MEXICAN,
    PRESETS,
    Action,
    Draw,
    Options,
    Pass,
    StartRound,
    State,
    Tile,
    Train,
    set_tiles,
)

SEEDS = range(10)
DOUBLE_BLANK = Tile(0, 0)


def tables() -> Iterator[tuple[str, int]]:
    for name, options in PRESETS.items():
        for players in sorted({row[0] for row in options.deal}):
            yield name, players


def train_tiles(train: Train) -> Iterator[Tile]:
    for laid in train.tiles:
        yield laid.tile
    for branch in train.branches:
        yield from train_tiles(branch)


class Auditor:
    """Checks a game after every action, knowing only the deal it was dealt."""

    def __init__(self, options: Options, players: int) -> None:
        self.options = options
        self.full = set(set_tiles(options.deal_for(players)[0]))
        self.deal: StartRound | None = None
        self.rounds_scored = 0
        self.actions = 0
        self.owed: Tile | None = None  # the double the seat to act owes from an earlier turn
        self.drawn: Tile | None = None  # the tile it drew last this turn

    def __call__(self, before: State, action: Action, after: State) -> None:
        self.actions += 1
        if isinstance(action, StartRound):
            self.deal = action
        assert self.deal is not None and self.deal.boneyard is not None
        self.check_places(after, self.deal.boneyard)
        self.check_duty(before, action, after)
        if before.phase == "play" and after.phase != "play":
            self.check_scores(after)
            if after.blocked and self.options.must_play:
                self.check_blocked(after)

    def check_places(self, s: State, dealt_boneyard: tuple[Tile, ...]) -> None:
        hands = [hand or () for hand in s.hands]
        assert s.hand_counts == tuple(len(hand) for hand in hands)
        boneyard = dealt_boneyard[len(dealt_boneyard) - s.boneyard_count :]
        on_table = [t for train in s.trains.values() for t in train_tiles(train)]
        assert s.engine is not None
        hub = [s.engine] if s.engine_laid else []
        dealt = {t for hand in self.deal_hands() for t in hand} | set(dealt_boneyard)
        out_of_play = self.full - dealt - {s.engine}
        places = Counter([*(t for hand in hands for t in hand), *boneyard, *on_table, *hub])
        places.update(out_of_play)
        doubled = sorted(str(t) for t, n in places.items() if n > 1)
        assert not doubled, f"in two places at once: {doubled}"
        assert set(places) == self.full, f"lost: {sorted(map(str, self.full - set(places)))}"
        total = sum(s.hand_counts) + s.boneyard_count + len(on_table) + len(hub)
        assert total + len(out_of_play) == len(self.full)

    def check_duty(self, before: State, action: Action, after: State) -> None:
        """docs/rules.md, core rule 9 over `drawn_tile`: a seat that owes a double left by an
        earlier turn never passes keeping a drawn tile that satisfies it (the Lithuanian
        text "Tai turi būti daroma", it must be done)."""
        if isinstance(action, Pass) and self.owed is not None and self.drawn is not None:
            assert not self.drawn.matches(self.owed.high), (
                f"seat {action.seat} kept the {self.drawn} it drew and passed on {self.owed}"
            )
        if isinstance(action, Draw) and after.turn == before.turn and after.engine_laid:
            seat = action.seat
            new = Counter(after.hands[seat] or ()) - Counter(before.hands[seat] or ())
            self.drawn = next(iter(new), None)
        elif not isinstance(action, Draw):
            self.drawn = None
        if after.turn != before.turn or isinstance(action, StartRound):
            # At the start of a turn every pending double is carried: the first in
            # `doubles_order` is the one owed.
            pending = after.pending_doubles
            blocks = self.options.open_double_blocks and after.phase == "play"
            self.owed = pending[0][1] if pending and blocks else None
            self.drawn = None

    def deal_hands(self) -> list[tuple[Tile, ...]]:
        assert self.deal is not None and self.deal.hands is not None
        return [hand for hand in self.deal.hands if isinstance(hand, tuple)]

    def check_scores(self, s: State) -> None:
        self.rounds_scored += 1
        assert len(s.scores) == s.round == self.rounds_scored
        blank = self.options.double_blank
        left = tuple(
            sum(blank if t is DOUBLE_BLANK and blank else t.pips for t in hand or ())
            for hand in s.hands
        )
        assert s.scores[-1] == left
        if s.went_out is not None:
            assert s.scores[-1][s.went_out] == 0


    def check_blocked(self, s: State) -> None:
        """docs/rules.md, core rule 10: a round is blocked only when no seat can play (with
        `must_play`, no seat passes while it could)."""
        assert s.boneyard_count == 0
        pending = s.pending_doubles
        for seat, hand in enumerate(s.hands):
            if not s.first_turn_done[seat]:
                continue
            if pending and self.options.open_double_blocks:
                ends = {pending[0][1].high}
            else:
                ends = set()
                for train_id, train in s.trains.items():
                    if train_id in (seat, MEXICAN) or train.open:
                        ends |= {end for _, end in train.ends()}
            playable = [str(t) for t in hand or () if t.high in ends or t.low in ends]
            assert not playable, f"blocked, yet seat {seat} can lay {playable} on {ends}"


def seats(players: int, seed: int) -> list[Bot]:
    return [GreedyBot() if (seed + seat) % 2 else RandomBot() for seat in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), list(tables()))
def test_no_tile_is_lost_and_every_round_is_scored_by_the_hands(preset: str, players: int) -> None:
    options = Options.preset(preset, rounds=2)
    for seed in SEEDS:
        auditor = Auditor(options, players)
        game = play_game(options, seats(players, seed), seed, watch=auditor)
        assert auditor.rounds_scored == game.result.rounds == 2
        assert auditor.actions == len(game.history)


HOUSE_RULES: list[tuple[str, dict[str, object], int]] = [
    ("tournament", {"chicken_foot": True}, 4),
    ("classic", {"chicken_foot": True, "double_blank": 25}, 4),
    ("classic", {"draw": "until_playable"}, 4),
    ("tournament", {"double_follow": "on_double", "doubles_order": "reverse"}, 4),
    ("hub", {"doubles_per_turn": 1, "drawn_tile": "must_play"}, 4),
    ("family", {"first_turn": "train", "open_double_blocks": False}, 4),
    # first_turn_draw the other way round from each preset's own.
    ("classic", {"first_turn_draw": True}, 4),
    ("tournament", {"first_turn_draw": False}, 4),
    ("family", {"first_turn": "train", "first_turn_draw": False}, 6),
    # last_double_ends_round off (every preset has it on).
    ("classic", {"last_double_ends_round": False}, 4),
    ("tournament", {"last_double_ends_round": False, "first_turn_draw": False}, 3),
    ("hub", {"last_double_ends_round": False}, 5),
    # must_play and drawn_tile in every combination.
    ("simple", {"drawn_tile": "must_play"}, 5),
    ("classic", {"must_play": False}, 4),
    ("tournament", {"must_play": False, "drawn_tile": "must_play"}, 4),
    ("family", {"must_play": False, "drawn_tile": "may_play"}, 4),
    # hand_size: three of classic on a double-12 set, and a short hand.
    ("classic", {"set": 12, "hand_size": 14}, 3),
    ("tournament", {"hand_size": 5}, 6),
    ("simple", {"set": 15, "hand_size": 9}, 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "overrides", "players"), HOUSE_RULES)
def test_house_rules_lose_no_tile_either(
    preset: str, overrides: dict[str, object], players: int
) -> None:
    options = Options.preset(preset, rounds=2, **overrides)
    for seed in SEEDS:
        auditor = Auditor(options, players)
        play_game(options, seats(players, seed), seed, watch=auditor)
        assert auditor.rounds_scored == 2
