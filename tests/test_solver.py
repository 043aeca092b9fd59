"""The longest-train solver: exact on every small hand, laid the way a player would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.rules import Laid, Tile, set_tiles
from firmware_py.rules.solver import longest_train

DOUBLE_SIX = set_tiles(6)


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def shown(chain: tuple[Laid, ...]) -> list[str]:
    return [str(laid) for laid in chain]


def brute_force_best(hand: list[Tile], end: int) -> tuple[int, int]:
    """(tiles, pips) of the best chain, by trying every chain there is."""
    best = (0, 0)

    def walk(at: int, left: list[Tile], count: int, pips: int) -> None:
        nonlocal best
        best = max(best, (count, pips))
        for i, tile in enumerate(left):
            if tile.matches(at):
                walk(tile.other(at), left[:i] + left[i + 1 :], count + 1, pips + tile.pips)

    walk(end, hand, 0, 0)
    return best


def assert_lays_from(chain: tuple[Laid, ...], hand: list[Tile], end: int) -> None:
    used = [laid.tile for laid in chain]
    assert len(set(used)) == len(used), "a tile laid twice"
    assert set(used) <= set(hand), "a tile not in the hand"
    for laid in chain:
        assert laid.first == end, f"{laid} does not touch the open {end}"
        end = laid.second


@settings(max_examples=400, deadline=None)
@given(
    hand=st.lists(st.sampled_from(DOUBLE_SIX), min_size=0, max_size=8, unique=True),
    end=st.integers(min_value=0, max_value=6),
)
def test_the_chain_is_as_long_and_heavy_as_any_chain_the_hand_can_lay(
    hand: list[Tile], end: int
) -> None:
    chain = longest_train(hand, end)
    assert_lays_from(chain, hand, end)
    assert (len(chain), sum(laid.tile.pips for laid in chain)) == brute_force_best(hand, end)


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(set_tiles(12)), min_size=10, max_size=20, unique=True),
    end=st.integers(min_value=0, max_value=12),
)
def test_chains_from_large_hands_are_laid_from_the_open_end(hand: list[Tile], end: int) -> None:
    chain = longest_train(hand, end)
    assert_lays_from(chain, hand, end)
    # Whatever is left cannot extend the chain: its last open end matches nothing left.
    last = chain[-1].second if chain else end
    left = set(hand) - {laid.tile for laid in chain}
    assert not any(tile.matches(last) for tile in left)


def test_tiles_are_oriented_as_laid_from_the_end() -> None:
    assert shown(longest_train(tiles("5-12 3-5"), 12)) == ["12-5", "5-3"]


def test_a_longer_chain_beats_a_heavier_one() -> None:
    # From 6: 6-12 alone weighs 18; 6-1, 1-2, 2-0 is three tiles.
    assert shown(longest_train(tiles("12-6 6-1 2-1 2-0"), 6)) == ["6-1", "1-2", "2-0"]


def test_between_chains_of_equal_length_the_heavier_wins() -> None:
    assert shown(longest_train(tiles("4-1 4-11 1-0 11-10"), 4)) == ["4-11", "11-10"]


def test_doubles_are_laid_where_their_number_is_open() -> None:
    chain = longest_train(tiles("3-3 3-8 8-8 8-1"), 3)
    assert shown(chain) == ["3-3", "3-8", "8-8", "8-1"]


def test_a_double_of_the_open_end_alone_is_a_chain() -> None:
    assert shown(longest_train(tiles("9-9 4-2"), 9)) == ["9-9"]


def test_a_loop_through_the_end_is_used_before_leaving_it() -> None:
    # 5-7, 7-2, 2-5 come back to 5, then 5-0 leaves: all four tiles.
    assert len(longest_train(tiles("5-0 5-7 7-2 2-5"), 5)) == 4


def test_nothing_to_lay() -> None:
    assert longest_train([], 4) == ()
    assert longest_train(tiles("1-2 3-3"), 4) == ()
