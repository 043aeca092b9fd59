"""Both screens draw every sample view, at every screen size, the same way every time."""

import copy
import json
from pathlib import Path

import pygame
import pytest
from sample_views import as_view, plain

from display import shaping, table_screen, text, theme, wall_screen
from display.table_layout import layout as table_layout
from display.wall_layout import layout as wall_layout
from display.wall_layout import standings
from roundhouse.view import View, ViewError, load_view

VIEWS = Path(__file__).resolve().parents[1] / "views"
NAMES = sorted(p.stem for p in VIEWS.glob("*.json"))
SIZES = ((1920, 1080), (1080, 1920), (1280, 800), (800, 480))


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize("name", NAMES)
def test_every_sample_view_renders_on_both_screens(name, view):
    sample = view(name)
    before = copy.deepcopy(sample)
    for size in ((1920, 1080), (800, 480)):
        surface = pygame.Surface(size)
        table_screen.render(surface, as_view(sample))
        wall_screen.render(surface, as_view(sample))
    assert sample == before, "drawing must not change the view"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", [2, 5, 9, 14])
def test_big_tables_render_at_every_size(seats, size, stress_view):
    surface = pygame.Surface(size)
    table_screen.render(surface, as_view(stress_view(seats)))
    wall_screen.render(surface, as_view(stress_view(seats)))


def test_same_view_same_pixels(view):
    sample = view("busy_8")
    first, second = pygame.Surface((1280, 800)), pygame.Surface((1280, 800))
    table_screen.render(first, as_view(sample))
    table_screen.render(second, as_view(json.loads(json.dumps(sample))))
    assert pixels(first) == pixels(second)


def test_only_the_newest_tile_moves_with_time(view):
    sample = view("two_pending_5")
    frames = []
    for now in (0.0, 0.4, 5.0, 9.0):
        surface = pygame.Surface((1280, 800))
        table_screen.render(surface, as_view(sample), now=now)
        frames.append(pixels(surface))
    assert frames[0] != frames[1], "the newest tile pulses after it is laid"
    assert frames[2] == frames[3], "then it stays still"
    quiet = dict(sample, last_play=None)
    still = []
    for now in (0.0, 0.4):
        surface = pygame.Surface((1280, 800))
        table_screen.render(surface, as_view(quiet), now=now)
        still.append(pixels(surface))
    assert still[0] == still[1]


def colour_at(surface: pygame.Surface, rect: tuple[int, int, int, int]) -> tuple[int, int, int]:
    # Just inside the rectangle's corner, clear of the rounded border and the text.
    x, y, w, h = rect
    return tuple(surface.get_at((x + min(w, h) // 4, y + h // 2 if w > h else y + h // 4)))[:3]


def test_whose_turn_and_one_tile_light_up_their_panels(view):
    sample = view("play_6")
    surface = pygame.Surface((1920, 1080))
    table_screen.render(surface, as_view(sample))
    lay = table_layout(as_view(sample), (1920, 1080))
    panels = {p.seat: p for p in lay.panels}
    assert colour_at(surface, panels[sample["turn"]].rect) == theme.GOLD
    lonely = next(s["seat"] for s in sample["seats"] if s["one_tile"])
    assert colour_at(surface, panels[lonely].rect) == theme.ALERT
    quiet = next(s["seat"] for s in sample["seats"]
                 if not s["one_tile"] and s["seat"] != sample["turn"])
    assert colour_at(surface, panels[quiet].rect) == theme.PANEL


def test_the_hub_shows_prompt_and_rejection_and_the_panel_its_offline_reader(view):
    sample = view("reader_offline_6")
    sample["rejection"] = {"seat": sample["turn"], "message": {
        "id": "rules.no_match", "args": {"end": 6, "train": "0"}}}
    lay = table_layout(as_view(sample), (1280, 800))
    hub = pygame.Rect(lay.hub)
    said = plain(" ".join(" ".join(t.lines) for t in lay.texts if hub.contains(t.box)))
    turn = sample["seats"][sample["turn"]]["name"]
    assert f"{turn}: satisfy the" in said
    assert "doesn't match the open 6 of Bo's train" in said
    assert f"Round {sample['round']} of {sample['rounds']}" in said
    assert {kind for _, kind in lay.notice_boxes} == {"alert"}
    panel = pygame.Rect(next(p.rect for p in lay.panels if p.seat == 2))
    assert "The reader of Dalia's pad is offline" in plain(" ".join(
        " ".join(t.lines) for t in lay.texts if panel.contains(t.box)))


def digits_drawn(item: text.Text) -> int:
    """How tall the digits of a key number stand as drawn: the ink of all ten digits of
    its script in the font and size its runs are written in."""
    from display import shaping
    from roundhouse.render import digits

    tallest = 0
    for run in shaping.runs(item.lines[0], item.rtl):
        if not any(c.isdigit() for c in run.text):
            continue
        face = shaping.run_font(run, item.size)
        ten = "0123456789" if run.text.isascii() else digits("0123456789", "fa"
                                                             if "۰" <= run.text[0] <= "۹"
                                                             else "ar")
        ink = face.render(ten, True, (255, 255, 255)).get_bounding_rect(min_alpha=128)
        tallest = max(tallest, ink.height)
    return tallest


@pytest.mark.parametrize("lang", ["en", "fa", "ar"])
def test_wall_key_numbers_read_from_across_the_room(lang, view, stress_view):
    """Totals and places stand at least 40 px tall as drawn at 1920x1080, in every
    language's digits: Persian and Arabic totals of a 14-seat wall stood 31 px."""
    samples = [view(n) for n in NAMES if not n.startswith("lobby")] + [stress_view(14)]
    for sample in samples:
        sample["wall_language"] = lang
        lay = wall_layout(as_view(sample), (1920, 1080))
        assert lay.key_numbers
        for item in lay.key_numbers:
            if not any(c.isdigit() for c in item.lines[0]):
                continue
            height = digits_drawn(item)
            assert height >= 40, f"{item.lines} is only {height} px tall"
        for item in lay.texts:
            assert text.fits(item), f"{item.lines} overflows {item.box}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_wall_texts_fit_at_every_size(size, view):
    for name in ("play_14", "game_over_14", "game_over_8", "lobby_6", "busy_8"):
        for item in wall_layout(as_view(view(name)), size).texts:
            assert text.fits(item), f"{name}: {item.lines} overflows {item.box}"


def test_wall_has_a_column_per_round_with_its_engine_and_highlights_winners(view):
    sample = view("play_14")  # double-18, round 3: two rounds scored, the third under way
    lay = wall_layout(as_view(sample), (1920, 1080))
    engines = [(t.a, t.b) for t in lay.tiles]
    expected = [tuple(map(int, e.split("-"))) for e in sample["round_engines"]]
    assert engines == [*expected, tuple(map(int, sample["engine"].split("-")))]
    winners = [c for c in lay.cells if c.kind == "winner"]
    assert len(winners) == sum(row.count(min(row)) for row in sample["scores"])
    assert [c.kind for c in lay.cells].count("turn") == 1


def test_wall_shows_nineteen_rounds_of_a_double_eighteen_game(view):
    sample = view("game_over_14")
    sample["phase"] = "round_over"
    lay = wall_layout(as_view(sample), (1920, 1080))
    assert len(lay.tiles) == 19
    for item in lay.texts:
        assert text.fits(item)


def test_game_over_lists_the_final_ranking(view):
    sample = view("game_over_8")
    lay = wall_layout(as_view(sample), (1920, 1080))
    names = [s["name"] for s in sample["seats"]]
    shown = [t.lines[0] for t in lay.texts if t.lines and t.lines[0] in names]
    assert shown == [names[s] for s in sample["ranking"]]
    assert [c.kind for c in lay.cells].count("first") >= 1


def test_equal_totals_share_a_place():
    assert standings([30, 12, 30, 7]) == [3, 2, 3, 1]


def test_a_broken_view_is_refused_with_the_field_named(tmp_path):
    with pytest.raises(ViewError, match="version"):
        View.from_json({"version": 2})
    bad = json.loads((VIEWS / "play_4.json").read_text())
    bad["trains"][0]["tiles"][0] = "12-x"
    with pytest.raises(ViewError, match=r"trains\[0\]\.tiles\[0\]"):
        View.from_json(bad)
    path = tmp_path / "v.json"
    path.write_text("{not json")
    with pytest.raises(ViewError, match="not a JSON view"):
        load_view(path)


def test_sample_views_are_what_the_generator_writes(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_views", VIEWS / "make_views.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.write(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in VIEWS.glob("*.json"))
    for path in written:
        assert path.read_text() == (VIEWS / path.name).read_text(), path.name
        View.from_json(json.loads(path.read_text()))


def no_two_overlap(boxes: list[tuple[int, int, int, int]]) -> None:
    rects = [pygame.Rect(b) for b in boxes]
    for i, rect in enumerate(rects):
        hits = [rects[j] for j in rect.collidelistall(rects) if j != i]
        assert not hits, f"text box {rect} overlaps {hits}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_two_texts_share_room(size, view, stress_view):
    for sample in [view(n) for n in NAMES] + [stress_view(14)]:
        no_two_overlap([t.box for t in wall_layout(as_view(sample), size).texts])
        no_two_overlap([t.box for t in table_layout(as_view(sample), size).texts])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda v: v.update(totals=[1, 2]), "view.totals"),
        (lambda v: v.update(ranking=[0, 99]), "view.ranking"),
        (lambda v: v["pending_doubles"][0].pop("order"), "order"),
        (lambda v: v.update(last_play={"seat": 1, "train": "1", "tile": "x"}), "last_play"),
        (lambda v: v.update(turn=17), "view.turn"),
        (lambda v: v["seats"][0].update(hand=True), "hand"),
    ],
)
def test_a_view_the_screens_cannot_draw_is_refused_before_drawing(change, field):
    sample = json.loads((VIEWS / "play_4.json").read_text())
    change(sample)
    with pytest.raises(ViewError, match=field):
        View.from_json(sample)


@pytest.mark.parametrize("name,missing", [
    ("Ana", ""), ("Żaneta", ""), ("Жанна", ""), ("فاطمة", ""), ("Zoë O'Neil", ""),
    ("రాము", ""), ("Nguyễn", ""), ("太郎", "太郎"), ("Ana 太郎", "太郎"), ("राम", "राम"),
])
def test_letters_no_screen_font_has_are_named(name, missing):
    assert text.unshown(name) == missing


def test_names_in_arabic_script_are_written_not_boxed(view):
    name = "فرید"
    runs = shaping.runs(f"{name}: satisfy the 6-6", False)  # in an English panel
    assert [(r.text, r.face, r.rtl) for r in runs] == [
        (name, shaping.DEJAVU, True), (": satisfy the 6-6", shaping.DEFAULT, False)]
    # The default font has no Arabic letters: every one comes out as the same box.
    boxes = {text.font(40).metrics(ch)[0] for ch in name}
    assert len(boxes) == 1
    shaped = [m for m in shaping.run_font(runs[0], 40).metrics(name) if m]
    assert len({m for m in shaped}) > 1
    lay = table_layout(as_view(view("names_5")), (1280, 800))
    assert any(name in line for t in lay.texts for line in t.lines)
    for item in lay.texts:
        assert text.fits(item)
