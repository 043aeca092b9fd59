"""Where the screens break their sentences: a tile stays on one line with the words
around it. "Cyrus: satisfy the / 12-12 on Bo's train" leaves "12-12" at the start of a
line, where it reads as a score, and "the" hanging at the end of the one before."""

import copy
import re

import pytest

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
    samples = [in_language(view(name), lang)]
    if name.startswith("play_"):
        samples.append(in_language(stress_view(int(name.split("_")[1])), lang))
    for sample in samples:
        items = list(table_layout.layout(sample, size).texts)
        wall = wall_layout.layout(sample, size)
        items += [*wall.texts, *([wall.prompt] if wall.prompt else [])]
        faults = [f for item in items for f in broken_at_a_tile(item)]
        assert not faults, faults
