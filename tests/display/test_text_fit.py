"""The size a text is fitted at: the largest that fits its box, found by trying first
the size its measure at the smallest size points to (each size tried opens a font), so
the search must land where trying every size from the top would."""

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import text

# Words of the six languages, a tile, a number between isolates: what the screens fit.
WORDS = ("Ana:", "play", "the", "drawn", "tile", "or", "PASS", "12-12", "\u206833\u2069",
         "Boneyard", "Νίκος", "παίζει", "Jono", "traukinio", "نوبت", "علی", "దొమినో",
         "ఆట", "Venkata", "Lakshmi", "—", "·")


def largest_by_trying_each(words: str, width: int, height: int, low: int, high: int,
                           lines: int, rtl: bool) -> int | None:
    """The largest size at which the text is wrapped into the box, trying every size."""
    for keep in (True, False):
        for size in range(high, low - 1, -1):
            if text._lines_at(words, size, width, height, lines, rtl, keep) is not None:
                return size
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join),
       width=st.integers(20, 700), height=st.integers(10, 300),
       low=st.integers(6, 30), span=st.integers(0, 90), lines=st.integers(1, 4),
       lang=st.sampled_from(("en", "fa", "te")))
def test_a_text_is_fitted_at_the_largest_size_that_fits(words, width, height, low, span,
                                                        lines, lang):
    pygame.font.init()
    box = (0, 0, width, height)
    item = text.fit(words, box, max_size=low + span, min_size=low, max_lines=lines,
                    lang=lang)
    expected = largest_by_trying_each(words, width, height, low, low + span, lines,
                                      text.reads_rtl(lang))
    if expected is None:  # nothing fits whole: written at the smallest size, cut to fit
        assert item.size == low
    else:
        assert item.size == expected, (item.size, expected, item.lines)
        assert text.fits(item), item


@given(low=st.integers(1, 40), span=st.integers(0, 120), data=st.data())
def test_the_search_tries_few_sizes_when_the_guess_is_near(low, span, data):
    """Each size tried opens a font; a guess a few sizes off costs a few more tries, not a
    search of the whole range (trying from both ends of 6-110 would open a dozen fonts)."""
    high = low + span
    guess = data.draw(st.integers(low, high), label="guess")
    largest = data.draw(st.integers(low - 1, high), label="largest that fits")  # low - 1: none
    tried: list[int] = []

    def lines_at(size: int) -> tuple[str, ...] | None:
        tried.append(size)
        return ("fits",) if size <= largest else None

    found = text._largest(lines_at, low, high, guess)
    assert (found[0] if found else low - 1) == largest
    assert len(tried) == len(set(tried)), tried
    assert len(tried) <= 2 * (abs(largest - guess) + 1).bit_length(), tried
