"""Where the screens break their sentences: a tile stays on one line with the words
around it. "Cyrus: satisfy the / 12-12 on Bo's train" leaves "12-12" at the start of a
line, where it reads as a score, and "the" hanging at the end of the one before."""

import copy
import re

import pygame
import pytest
from sample_views import as_view, plain

from display import table_layout, text, wall_layout

TILE = re.compile(r"\d+-\d+")
LANGUAGES = ("en", "fa", "ar", "lt", "el", "te")
VIEWS = ("play_2", "play_8", "play_14", "two_pending_5", "busy_8", "reader_offline_6")
SIZES = ((1920, 1080), (1280, 800))


def in_language(view: dict, lang: str) -> dict:
    view = copy.deepcopy(view)
    view["language"] = view["wall_language"] = lang
    for seat in view["seats"]:
        seat["language"] = lang
    return view


def broken_at_a_tile(item: text.Text) -> list[str]:
    """The line breaks of `item` that fall right before or right after a tile."""
    faults = []
    for upper, lower in zip(item.lines, item.lines[1:], strict=False):
        if upper.split() and TILE.search(upper.split()[-1]):
            faults.append(f"{upper!r} ends on a tile before {lower!r}")
        if lower.split() and TILE.search(lower.split()[0]):
            faults.append(f"{lower!r} starts on a tile after {upper!r}")
    return faults


def test_the_example_from_the_hub_keeps_the_tile_with_its_words():
    item = text.fit("Cyrus: satisfy the 12-12 on Bo's train", (0, 0, 420, 130),
                    max_size=48, min_size=12, max_lines=3)
    assert len(item.lines) > 1 and not broken_at_a_tile(item), item.lines


def test_a_sentence_too_long_to_keep_its_tile_whole_is_still_drawn():
    item = text.fit("12-12 13-13 14-14 15-15", (0, 0, 60, 200), max_size=30, min_size=12,
                    max_lines=6)
    assert text.fits(item) and len(item.lines) > 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", VIEWS)
def test_no_screen_breaks_a_line_at_a_tile(name, lang, size, view, stress_view):
    samples = [as_view(in_language(view(name), lang))]
    if name.startswith("play_"):
        samples.append(as_view(in_language(stress_view(int(name.split("_")[1])), lang)))
    for sample in samples:
        items = list(table_layout.layout(sample, size).texts)
        wall = wall_layout.layout(sample, size)
        items += [*wall.texts, *([wall.prompt] if wall.prompt else [])]
        faults = [f for item in items for f in broken_at_a_tile(item)]
        assert not faults, faults


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sentence_in_two_clauses_breaks_between_them(lang, view):
    """A panel's "The reader of Dalia's pad is offline: no answer from /dev/ttyUSB2"
    breaks after the colon, not as "…offline: no / answer from…"; where the reason does
    not fit (Lithuanian, Greek) the panel says the reader is offline, whole, without it."""
    sample = as_view(in_language(view("reader_offline_6"), lang))
    for size in SIZES:
        lay = table_layout.layout(sample, size)
        offline = next(a.seat for a in sample.alerts
                       if a.message.id == "alert.reader_offline_why")
        (panel,) = [p.rect for p in lay.panels if p.seat == offline]
        mine = [t for t in lay.texts if pygame.Rect(panel).contains(t.box)]
        alert = max(mine, key=lambda t: len(" ".join(t.lines)))
        assert not any("…" in line for line in alert.lines), alert.lines
        if "ttyUSB" in " ".join(alert.lines):
            assert len(alert.lines) == 2 and alert.lines[0].endswith(":"), alert.lines
            assert plain(alert.lines[1]) == "no answer from /dev/ttyUSB2"


def test_a_clause_break_costs_no_extra_line():
    """A clause is ended early only where the text still takes as few lines."""
    words = "Ab: cd ef gh ij kl mn op qr st uv wx yz"
    greedy_rows = len(text.fit(words.replace(":", ""), (0, 0, 200, 400), max_size=20,
                               min_size=20, max_lines=9).lines)
    item = text.fit(words, (0, 0, 200, 400), max_size=20, min_size=20, max_lines=9)
    assert len(item.lines) == greedy_rows and item.lines[0] != "Ab:"


@pytest.mark.parametrize("words", ["ఫర్హాన్ తర్వాత స్త్రీ క్షేత్రం", "Ζωή Ἀΐδιος", "می‌شود بازیکن‌ها",
                                   "Zoë José Nguyễn"])
def test_an_ellipsis_never_cuts_inside_a_letter(words):
    """The ellipsis cut Telugu inside a letter cluster, leaving a stray virama ("…తర్");
    it cuts between letters as they are seen."""
    import unicodedata

    from display import text

    for width in range(20, 400, 7):
        item = text.fit(words, (0, 0, width, 40), max_size=24, min_size=24)
        line = item.lines[-1]
        if not line.endswith("…") or len(line) < 2:
            continue
        before = line[:-1].rstrip()
        if not before:
            continue
        cut = len(before)
        assert cut in text.cluster_ends(words) or words[cut:cut + 1] == " "
        follows = words[cut:cut + 1]
        # No virama left hanging before the consonant it joins.
        assert unicodedata.combining(before[-1]) != 9 or not follows.isalpha(), line
        assert not follows or unicodedata.category(follows) not in ("Mn", "Mc"), line
