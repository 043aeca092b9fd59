"""Numbers and words side by side on the wall stay apart: a row of round scores drawn
edge to edge ("29162313") reads as one number from across the room, and the "Total"
and "Place" headings of a Persian wall ran together as one phrase."""

import copy

import pytest
from sample_views import as_view

from display import text, wall_layout

LANGUAGES = ("en", "fa", "ar", "lt", "el", "te")
PHASES = ("play", "reveal", "summary", "game_over")
SIZES = ((1920, 1080), (1280, 800))


def in_language(view: dict, lang: str) -> dict:
    view = copy.deepcopy(view)
    view["language"] = view["wall_language"] = lang
    return view


def extent(item: text.Text) -> tuple[int, int]:
    """Where the text's ink runs from and to, left to right on the screen."""
    x, _, w, _ = item.box
    drawn = max(text.text_width(line, item.size, item.rtl) for line in item.lines)
    if item.align == "left":
        return x, x + drawn
    if item.align == "right":
        return x + w - drawn, x + w
    return x + (w - drawn) // 2, x + (w - drawn) // 2 + drawn


def crowded(items: list[text.Text]) -> list[str]:
    """Pairs of texts on one line whose ink stands closer than a fifth of their size
    (about a space's width)."""
    upright = [t for t in items if t.angle == 0 and t.lines and any(t.lines)]
    faults = []
    for i, a in enumerate(upright):
        for b in upright[i + 1:]:
            ay, ah, by, bh = a.box[1], a.box[3], b.box[1], b.box[3]
            middle_a, middle_b = ay + ah / 2, by + bh / 2
            if not (by <= middle_a <= by + bh or ay <= middle_b <= ay + ah):
                continue  # not on one line
            (a0, a1), (b0, b1) = extent(a), extent(b)
            gap = max(b0 - a1, a0 - b1)
            if gap < max(3, min(a.size, b.size) // 5):
                faults.append(f"{a.lines} and {b.lines} stand {gap}px apart")
    return faults


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seats", (2, 8, 14))
@pytest.mark.parametrize("phase", PHASES)
def test_wall_texts_on_one_line_stand_apart(phase, seats, lang, size, view):
    lay = wall_layout.layout(as_view(in_language(view(f"{phase}_{seats}"), lang)), size)
    faults = crowded(list(lay.texts))
    assert not faults, faults[:5]
