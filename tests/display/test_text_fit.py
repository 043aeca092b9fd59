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


def lines_by_measuring_each_start(words: list[str], size: int, width: int,
                                  rtl: bool) -> list[str] | None:
    """Each line the longest start of the words left that fits, trying every start."""
    lines: list[str] = []
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and text.text_width(" ".join(words[start:end + 1]), size,
                                                   rtl) <= width:
            end += 1
        if end == start:
            return None  # a word alone is too wide
        lines.append(" ".join(words[start:end]))
        start = end
    return lines or [""]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), max_size=30), size=st.integers(6, 60),
       width=st.integers(-5, 900), lang=st.sampled_from(("en", "fa", "te")))
def test_a_line_break_falls_where_measuring_every_start_puts_it(words, size, width, lang):
    """Where a line ends is guessed from its words' widths: the guess is only where the
    measuring starts, and the lines are those of measuring each longer start."""
    pygame.font.init()
    rtl = text.reads_rtl(lang)
    assert text._greedy(words, size, width, rtl) == lines_by_measuring_each_start(
        words, size, width, rtl)


SEATS = ("Ana", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal", "Ida", "Kit", "Lu", "Mo", "Ned",
         "Ola")


def reveal_prompt(tapped: int, totals: list[int]) -> str:
    """A reveal's prompt as the screen says it, a seat for each of `totals` (its leftover
    tiles), the first seat having tapped `tapped` of them and the others none."""
    return ("Tap your leftover tiles on your own pad, then PASS ("
            + ", ".join(f"\u2068{name}\u2069 \u2068{tapped if i == 0 else 0}\u2069/"
                        f"\u2068{total}\u2069"
                        for i, (name, total) in enumerate(zip(SEATS, totals, strict=False)))
            + ")")


def test_a_reveal_tap_rewraps_its_prompt_measuring_little_more_than_the_prompt(monkeypatch):
    """A reveal's prompt at a full table names every seat with its count, and each tap
    changes one count. Halving the words measured half of everything left for each line,
    several times: five times the prompt's length here, at each size tried. Now the
    prompt is measured once whole, and each line about twice; its words come back from
    the prompt before the tap."""
    pygame.font.init()

    def prompt(tapped: int) -> str:
        return reveal_prompt(tapped, [i % 7 + 1 for i in range(len(SEATS))])

    kept: dict[tuple[str, int, bool], int] = {}  # as the screen keeps them
    measured: list[str] = []
    real = text.text_width.__wrapped__

    def measure(line: str, size: int, rtl: bool = False) -> int:
        if (line, size, rtl) not in kept:
            measured.append(line)
            kept[line, size, rtl] = real(line, size, rtl)
        return kept[line, size, rtl]

    monkeypatch.setattr(text, "text_width", measure)
    text._greedy(prompt(0).split(), 30, 600, False)
    measured.clear()
    lines = text._greedy(prompt(1).split(), 30, 600, False)
    assert lines is not None and len(lines) >= 3
    assert sum(map(len, measured)) <= 3 * len(prompt(1)), (len(prompt(1)), measured)


def test_a_prompt_fitted_again_after_a_tap_tries_two_sizes(monkeypatch):
    """The size a text is likely to take is a few sizes off for a long prompt in a box of
    several lines, and each size tried wraps the whole prompt. A reveal's prompt changes
    with every tap: fitted again in its box, it starts where the last one came out."""
    pygame.font.init()

    def prompt(tapped: int) -> str:
        return reveal_prompt(tapped, [i + 2 for i in range(7)])

    box = (0, 0, 439, 99)
    first = text.fit(prompt(0), box, max_size=64, min_size=28, max_lines=4)
    tried: list[int] = []
    real = text._lines_at

    def lines_at(words: str, size: int, *args: object, **kwargs: object) -> object:
        tried.append(size)
        return real(words, size, *args, **kwargs)

    monkeypatch.setattr(text, "_lines_at", lines_at)
    again = text.fit(prompt(1), box, max_size=64, min_size=28, max_lines=4)
    assert again.size == first.size and len(again.lines) > 1
    assert tried == [first.size, first.size + 1], tried
