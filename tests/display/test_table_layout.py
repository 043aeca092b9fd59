"""Geometry of the table screen, checked on the layout itself: every tile on screen and
in its own lane, no two tiles overlapping, every text inside its box, for every table
size and every screen size."""

import math

import pygame
import pytest
from sample_views import as_view, plain

from display import ink, shaping, text
from display.table_layout import (
    MIN_SIZE,
    MIN_TEXT,
    SIDE_ANGLE,
    TableLayout,
    distribute,
    fits_table,
    ink_goal,
    layout,
    loud_floor,
    mark_floor,
    table_floor,
    text_floor,
)
from roundhouse.messages import message

SIZES = ((1920, 1080), (1080, 1920), (1280, 800), (800, 480))


def inside(rect: tuple[int, int, int, int], area: tuple[int, int, int, int]) -> bool:
    return pygame.Rect(area).contains(pygame.Rect(rect))


def check_geometry(lay: TableLayout) -> None:
    screen = (0, 0, *lay.size)
    laid = [t.rect for t in lay.tiles] + [m.rect for m in lay.markers] + [c.rect for c in lay.chips]
    for rect in laid:
        assert inside(rect, screen), f"{rect} runs off the {lay.size} screen"
    rects = [pygame.Rect(r) for r in laid]
    for i, rect in enumerate(rects):
        hits = [j for j in rect.collidelistall(rects) if j != i]
        assert not hits, f"{rect} overlaps {[rects[j] for j in hits]}"
    lanes = {lane.train: lane.rect for lane in lay.lanes}
    for tile in lay.tiles:
        if tile.train != "engine":
            assert inside(tile.rect, lanes[tile.train]), f"a tile of {tile.train} left its lane"
    for m in lay.markers:
        assert inside(m.rect, lanes[m.train])
    for item in lay.texts:
        assert text.fits(item), f"{item.lines} overflows {item.box} at size {item.size}"
        assert item.size >= MIN_TEXT, f"{item.lines} drawn at an unreadable size {item.size}"
        assert inside(item.box, screen)
    for badge in lay.badges:
        assert text.fits(badge.label)
        x, y = badge.centre
        r = badge.radius
        assert inside((x - r, y - r, 2 * r, 2 * r), screen)
        # The disc numbers the double beside it and hides none of its pips: over the
        # tile's corner it covered half a 12-12 at the lane's edge.
        for double in lay.tiles:
            if double.pending is not None:
                dx, dy, dw, dh = double.rect
                nearest = (min(max(x, dx), dx + dw), min(max(y, dy), dy + dh))
                assert math.dist(nearest, badge.centre) >= r - 1, (
                    f"badge {badge.label.lines} hides a pending double")
    for a, b in zip(lay.lanes, lay.lanes[1:], strict=False):
        assert not pygame.Rect(a.rect).colliderect(b.rect)


def count_tiles(train: dict) -> int:
    return len(train["tiles"]) + sum(count_tiles(b) for b in train.get("branches") or [])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", range(2, 15))
def test_every_table_size_fits_every_screen(seats, size, view, stress_view):
    for sample in (view(f"play_{seats}"), stress_view(seats)):
        lay = layout(as_view(sample), size)
        check_geometry(lay)
        # Every tile of the view is either drawn or counted in a "+N".
        shown = sum(1 for t in lay.tiles if t.train != "engine")
        hidden = sum(int(c.label.lines[0].lstrip("+")) for c in lay.chips)
        assert shown + hidden == sum(count_tiles(t) for t in sample["trains"])


@pytest.mark.parametrize("name", ["busy_8", "long_trains_4", "chicken_foot_4", "two_pending_5",
                                  "full_14", "empty_4", "lobby_6", "game_over_14"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sample_views_fit(name, size, view):
    check_geometry(layout(as_view(view(name)), size))


def test_twenty_tile_trains_are_all_drawn_at_full_hd(view):
    lay = layout(as_view(view("long_trains_4")), (1920, 1080))
    assert not lay.chips
    assert sum(1 for t in lay.tiles if t.train in "0123") == 80


def test_seats_go_clockwise_from_the_bottom():
    order = distribute(4)
    assert order["bottom"][0] == 0
    assert order["left"] == [1]
    assert order["top"][0] == 2
    assert order["right"] == [3]
    assert sum(len(v) for v in distribute(14).values()) == 15


def places(lay):
    """Each seat's side of the screen and its rank along that side, clockwise."""
    out = {}
    for lane in lay.lanes:
        if lane.seat is None:
            continue
        x, y, _, _ = next(p.rect for p in lay.panels if p.seat == lane.seat)
        along = {"bottom": -x, "left": -y, "top": x, "right": y}[lane.side]
        out[lane.seat] = (lane.side, along)
    ranked = {}
    for seat, (side, along) in out.items():
        ranked[seat] = (side, sorted(a for s, a in out.values() if s == side).index(along))
    return ranked


@pytest.mark.parametrize("seats", [4, 8, 13, 14])
def test_a_seat_keeps_its_place_at_every_screen_size(seats, view):
    """Where a seat's panel is follows where the seat sits at the table, never the
    screen: at 13 seats Eli (seat 4) was on the bottom edge at 1080p and on the left
    edge at 800p."""
    sample = view(f"play_{seats}")
    seen = {size: places(layout(as_view(sample), size)) for size in (*SIZES, (1280, 720))}
    first = seen[SIZES[0]]
    for size, found in seen.items():
        assert found == first, f"seats moved at {size}"
    if seats == 13:
        assert first[4][0] == "bottom"


def test_trains_run_outward_toward_their_seat_with_doubles_crosswise(view):
    sample = view("busy_8")
    lay = layout(as_view(sample), (1920, 1080))
    panels = {p.seat: p for p in lay.panels}
    hub = pygame.Rect(lay.hub)
    for lane in lay.lanes:
        train = next(t for t in sample["trains"] if t["id"] == lane.train)
        tiles = [t for t in lay.tiles if t.train == lane.train]
        assert [(t.a, t.b) for t in tiles] == [tuple(map(int, s.split("-"))) for s in
                                               train["tiles"]]
        # The first tile is nearer the hub than the seat's panel is.
        if lane.seat is not None:
            panel = pygame.Rect(panels[lane.seat].rect)
            first = pygame.Rect(tiles[0].rect)
            if lane.side in ("bottom", "top"):
                assert abs(first.centery - hub.centery) < abs(panel.centery - hub.centery)
        flow_vertical = lane.side in ("bottom", "top")
        for t in tiles:
            long_vertical = t.rect[3] > t.rect[2]
            assert long_vertical == (flow_vertical != (t.a == t.b))


def test_pending_doubles_are_numbered_in_order(view):
    lay = layout(as_view(view("two_pending_5")), (1280, 800))
    assert sorted(b.label.lines for b in lay.badges) == [("1",), ("2",)]
    pending = {t.train: t.pending for t in lay.tiles if t.pending}
    assert pending == {"2": 1, "3": 2}


def test_open_trains_carry_a_marker_and_closed_ones_do_not(view):
    sample = view("busy_8")
    lay = layout(as_view(sample), (1920, 1080))
    marked = {m.train for m in lay.markers}
    open_trains = {t["id"] for t in sample["trains"] if t["open"] and t["tiles"]}
    assert marked == open_trains


def test_text_near_a_seat_faces_that_seat(view):
    sample = view("play_8")
    lay = layout(as_view(sample), (1920, 1080))
    for panel in lay.panels:
        mine = [t for t in lay.texts if pygame.Rect(panel.rect).contains(t.box)]
        assert mine
        assert {t.angle for t in mine} == {panel.angle}
        side = next(ln.side for ln in lay.lanes if ln.seat == panel.seat)
        assert panel.angle == SIDE_ANGLE[side]


def test_the_hub_turns_to_face_the_seat_whose_turn_it_is(view):
    sample = view("play_4")
    for turn, angle in ((0, 0), (1, 270), (2, 180), (3, 90)):
        sample["turn"] = turn
        lay = layout(as_view(sample), (1920, 1080))
        assert lay.hub_angle == angle
        assert [ln.seat for ln in lay.lanes if ln.turn] == [turn]


def test_branches_of_a_chicken_foot_are_laid(view):
    sample = view("chicken_foot_4")
    lay = layout(as_view(sample), (1920, 1080))
    foot = [t for t in lay.tiles if t.train == "0"]
    assert len(foot) == count_tiles(sample["trains"][0])
    # Three branch lines plus the trunk: the tracks of train 0 start at the foot double.
    double = next(t for t in foot if t.a == t.b and t.a == int(
        sample["trains"][0]["tiles"][-1].split("-")[0]))
    centre = pygame.Rect(double.rect).center
    starts = [pts[0] for pts, _ in lay.tracks if pygame.Rect(double.rect).collidepoint(pts[0])]
    assert len(starts) == 3
    assert all(abs(s[0] - centre[0]) <= 1 and abs(s[1] - centre[1]) <= 1 for s in starts)


def test_loud_states_reach_the_panel_texts(view):
    sample = view("play_6")
    lay = layout(as_view(sample), (1280, 800))
    lines = [line for t in lay.texts for line in t.lines]
    assert "ONE TILE!" in lines
    assert "YOUR TURN" in lines


def panel_texts(lay, seat):
    rect = pygame.Rect(next(p.rect for p in lay.panels if p.seat == seat))
    return [t for t in lay.texts if rect.contains(t.box)]


def hub_words(lay):
    hub = pygame.Rect(lay.hub)
    return plain(" ".join(" ".join(t.lines) for t in lay.texts if hub.contains(t.box)))


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800), (1080, 1920)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_seat_s_own_news_is_in_its_own_panel_facing_it(size, view):
    sample = view("reader_offline_6")  # seat 2's reader is offline, seat 3's marker is in
    sample["rejection"] = {"seat": 4, "message": {"id": "rules.no_match",
                                                  "args": {"end": 6, "train": "0"}}}
    lay = layout(as_view(sample), size)
    angles = {p.seat: p.angle for p in lay.panels}
    for seat, news in ((2, "The reader of Dalia's pad is offline"),
                       (3, "Eleni: put your marker out"), (4, "doesn't match the open 6")):
        mine = panel_texts(lay, seat)
        assert news in plain(" ".join(" ".join(t.lines) for t in mine)), (seat, news)
        assert {t.angle for t in mine} == {angles[seat]}
    hub = hub_words(lay)
    for elsewhere in ("offline", "marker", "doesn't match", "has one tile left"):
        assert elsewhere not in hub
    # The hub holds only what concerns the seat to act: no score strip either.
    assert not any(s["name"] + " " + str(s["total"]) in hub for s in sample["seats"])
    assert lay.notice_boxes == ()


def test_a_refused_move_of_the_seat_to_act_is_in_the_hub(view):
    sample = view("open_hands_6")
    assert sample["rejection"]["seat"] == sample["turn"]
    lay = layout(as_view(sample), (1280, 800))
    assert "doesn't match" in hub_words(lay)
    assert [kind for _, kind in lay.notice_boxes] == ["alert"]


def test_the_mexican_train_s_reader_offline_is_the_table_s_news(view):
    sample = view("play_6")
    sample["readers"][-1] = {"pad": "mexican", "online": False, "reason": None}
    sample["alerts"].append({"seat": None, "message": {
        "id": "alert.reader_offline", "args": {"pad": {"id": "pad.mexican", "args": {}}}}})
    lay = layout(as_view(sample), (1280, 800))
    assert "The reader of the Mexican train's pad is offline" in hub_words(lay)
    notices = [t for t in lay.texts if t.lines and "is offline" in t.lines[0]]
    assert all(len(t.lines) == 1 for t in notices)


FLOOR_SIZES = ((1920, 1080), (1080, 1920), (1280, 800), (1280, 720))


def short_runs(item: text.Text, capitals: int) -> list[tuple[str, int, int]]:
    """The runs of `item` whose letters stand under the goal as drawn, by their scripts'
    measure (a capital; for a script without capitals the x-height of a Latin line with
    capitals `capitals` px tall): (run, measured, needed)."""
    out = []
    for line in item.lines:
        for run in shaping.runs(line, item.rtl):
            if not any(c.isalnum() for c in run.text):
                continue
            measured, needed = ink.run_height(run, item.size), ink.goal(capitals, run.script)
            if measured < needed:
                out.append((run.text, measured, needed))
    return out


def seat_lines(lay, sample):
    """What the seats need to read: every text of their panels, the hub's prompt and a
    refusal in the hub."""

    out = []
    for info in sample["seats"]:
        out += panel_texts(lay, info["seat"])
    hub = pygame.Rect(lay.hub)
    for t in lay.texts:
        if hub.contains(t.box) and len(" ".join(t.lines)) > 24:
            out.append(t)
    return out


def ink_goal_px(seats, size):
    return round((14 if seats <= 8 else 10) * min(size) / 1080)


@pytest.mark.parametrize("size", FLOOR_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", [2, 4, 8, 9, 14])
@pytest.mark.parametrize("lang", ["en", "fa", "te", "el"])
def test_every_line_a_seat_needs_stands_tall_enough_as_drawn(seats, size, lang, view):
    """Measured as ink, not as a nominal size: up to 8 seats every line a seat needs
    has 14 px capitals at 1920x1080 and from 9 seats 10 px (in proportion on a smaller
    screen); Persian and Telugu, without capitals, have the x-height of such a line."""
    sample = view(f"play_{seats}")
    sample["language"] = lang
    for seat in sample["seats"]:
        seat["language"] = lang
    lay = layout(as_view(sample), size)
    goal = ink_goal_px(seats, size)
    assert ink_goal(seats, size) == goal
    lines = seat_lines(lay, sample)
    assert len(lines) >= 2 * seats
    for item in lines:
        assert not short_runs(item, goal), (item.lines, item.size, short_runs(item, goal))


def test_the_goal_is_the_drawn_height_not_the_nominal_size():
    # At one nominal size Persian letters stand far smaller than Latin capitals: the
    # floor of a Persian reader is larger.
    size = (1920, 1080)
    assert text_floor(8, size, "fa") > text_floor(8, size, "en")
    latin = text.fit("Bo", (0, 0, 400, 200), max_size=text_floor(8, size, "en"),
                     min_size=text_floor(8, size, "en"))
    assert not short_runs(latin, 14)
    smaller = text.fit("Bo", (0, 0, 400, 200), max_size=text_floor(8, size, "en") - 2,
                       min_size=12)
    assert short_runs(smaller, 14)


@pytest.mark.parametrize("size", FLOOR_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", range(2, 15))
def test_text_is_never_smaller_than_the_floor_and_counts_and_states_are_largest(
        seats, size, view, stress_view):
    floor, loud = text_floor(seats, size), loud_floor(seats, size)
    assert floor >= MIN_TEXT
    for sample in (view(f"play_{seats}"), stress_view(seats)):
        lay = layout(as_view(sample), size)
        for item in seat_lines(lay, sample):
            assert item.size >= floor, f"{item.lines} at {item.size} px under {floor}"
        for item in lay.texts:
            assert item.size >= table_floor(seats, size), item.lines
        for info in sample["seats"]:
            mine = panel_texts(lay, info["seat"])
            count = next(t for t in mine if t.lines[0].endswith(("tiles", "tile")))
            state = [t for t in mine if t.lines[0] in ("YOUR TURN", "ONE TILE!")]
            rest = [t for t in mine if t is not count and t not in state]
            # The count and the state are the largest type of the panel.
            for t in (count, *state):
                assert t.size >= loud, t.lines
                assert t.size >= max(o.size for o in rest), t.lines
        assert sum(1 for t in lay.texts if t.lines == ("ONE TILE!",)) == sum(
            1 for s in sample["seats"] if s["one_tile"])


def test_one_tile_never_runs_into_the_points(view):
    sample = view("play_8")
    for size in FLOOR_SIZES:
        lay = layout(as_view(sample), size)
        lonely = next(s["seat"] for s in sample["seats"] if s["one_tile"])
        boxes = [pygame.Rect(t.box) for t in panel_texts(lay, lonely)]
        assert len(boxes) >= 3
        for i, a in enumerate(boxes):
            assert not any(a.colliderect(b) for b in boxes[i + 1:])
        for t in panel_texts(lay, lonely):
            assert text.fits(t)


@pytest.mark.parametrize("size", FLOOR_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", range(2, 15))
def test_pending_discs_and_open_train_tokens_read_from_the_far_side(
        seats, size, stress_view):
    lay = layout(as_view(stress_view(seats)), size)
    least = mark_floor(size)
    assert least >= min(size) // 30
    assert lay.badges and lay.markers
    for badge in lay.badges:
        assert 2 * badge.radius >= least
    for marker in lay.markers:
        assert min(marker.rect[2:]) >= least


def test_the_7_inch_screen_is_too_small_for_the_table():
    assert not fits_table((800, 480)) and not fits_table((1024, 600))
    assert fits_table(MIN_SIZE) and fits_table((1280, 800)) and fits_table((1080, 1920))
    # The smallest size is where the capitals of a table of 14 still stand 7 px tall.
    assert ink_goal(14, MIN_SIZE) >= 7 > ink_goal(14, (1280, 640))


def test_a_sentence_too_long_for_its_box_is_cut_not_spilled():
    long = "That tile doesn't match the open 6 of Bo's train, " * 6
    item = text.fit(long, (0, 0, 200, 40), max_size=40, min_size=12, max_lines=2)
    assert text.fits(item)
    assert item.lines[-1].endswith("…")


def test_nobody_is_lit_when_it_is_nobodys_turn(view):
    for name in ("lobby_6", "game_over_8", "round_over_5"):
        sample = view(name)
        sample["turn"] = None
        lay = layout(as_view(sample), (1280, 800))
        assert not [ln for ln in lay.lanes if ln.turn]
        assert not [p for p in lay.panels if p.state == "turn"]


def test_hints_say_what_the_table_will_do(view):
    lobby = layout(as_view(view("lobby_4_empty")), (1920, 1080))
    assert "Double-12" in hub_words(lobby)  # the set four players are dealt
    aside = view("deal_set_aside_4")
    words = hub_words(layout(as_view(aside), (1920, 1080)))
    assert "put the 12-12 in the hub" in words and "Looking for" not in words
    hunt = view("deal_4")  # the engine's holder lays it: the table looks for it
    assert "Looking for the 12-12" in hub_words(layout(as_view(hunt), (1920, 1080)))
    for name in ("summary_2", "summary_8", "round_over_5", "game_over_8"):
        sample = view(name)
        words = hub_words(layout(as_view(sample), (1920, 1080)))
        over = "Game over" if name.startswith("game") else f"Round {sample['round']} over"
        assert words.count(over) == 1, (name, words)


def test_a_refusal_is_said_once_where_its_seat_reads_it(view):
    sample = view("lobby_6")
    sample["rejection"] = {"seat": 2, "message": {"id": "rules.no_match",
                                                  "args": {"end": 6, "train": "0"}}}
    lay = layout(as_view(sample), (1280, 800))
    said = [" ".join(t.lines) for t in lay.texts]
    assert sum("doesn't match" in s for s in said) == 1
    assert "doesn't match" in " ".join(" ".join(t.lines) for t in panel_texts(lay, 2))
    sample["rejection"]["seat"] = None  # nobody to name: the hub says it
    lay = layout(as_view(sample), (1280, 800))
    assert "doesn't match" in hub_words(lay)


@pytest.mark.parametrize("lang", ["en", "fa", "ar", "lt", "el", "te"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800), (1280, 720)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", range(2, 15))
def test_no_panel_text_is_cut_short(seats, size, lang, view):
    """Every word of the panels is written whole, in every language: at 14 seats
    "Venkata Lakshmi" was cut to "Venkata Laks…" beside a "0 pts" twice its size, the
    Mexican train's label to "MEKSIKOS TRAUKI…", and at 10-13 seats a Lithuanian seat's
    state to "VIENAS KAULIU…" and a Greek seat's points to "44 πόν…"."""
    sample = view(f"play_{seats}")
    sample["language"] = lang
    for seat in sample["seats"]:
        seat["language"] = lang
    lay = layout(as_view(sample), size)
    names = {s["name"] for s in sample["seats"]}
    # A name longer than its panel at the goal size keeps its first word (a crowded
    # Persian table at 1280x720 reads "Venkata Laks…"); nothing else is cut.
    cut = [t.lines for t in lay.texts if any("…" in line for line in t.lines)
           and not any(n.startswith(t.lines[0].rstrip("…")) and " " in t.lines[0]
                       for n in names)]
    assert not cut, f"cut short at {size}: {cut}"
    written = plain(" ".join(" ".join(t.lines) for t in lay.texts))
    for seat in sample["seats"]:
        assert seat["name"].split()[0] in written, f"{seat['name']!r} is not written"


@pytest.mark.parametrize("lang", ["en", "fa", "ar"])
def test_the_hubs_round_and_boneyard_read_in_their_readers_order(lang, view):
    """The round comes first as its reader reads (left in English, right in Persian and
    Arabic), the boneyard last, at one size: unmirrored, a Persian hub put the boneyard
    first, in larger type, run into the round as one phrase."""
    from roundhouse.render import render

    sample = view("summary_8")
    sample["turn"] = 0  # the hub upright, facing the bottom seat
    sample["seats"][0]["language"] = lang
    lay = layout(as_view(sample), (1280, 800))
    assert lay.hub_angle == 0
    said_round = render(message("screen.round_of", round=sample["round"],
                                rounds=sample["rounds"]), lang)
    said_boneyard = render(message("screen.boneyard", count=sample["boneyard"]), lang)
    (rnd,) = [t for t in lay.texts if tuple(map(plain, t.lines)) == (said_round,)]
    (bone,) = [t for t in lay.texts if tuple(map(plain, t.lines)) == (said_boneyard,)]
    assert rnd.size == bone.size
    if lang == "en":
        assert rnd.box[0] < bone.box[0]
    else:
        assert rnd.box[0] > bone.box[0]


@pytest.mark.parametrize("lang", ["fa", "ar", "lt", "el", "te"])
def test_an_unnamed_seat_is_called_a_seat_in_its_readers_language(lang, view):
    """The configuration calls a seat it names nobody "Seat 5"; a Telugu lobby wrote that
    English on its panel and the wall."""
    from display import wall_layout
    from roundhouse.render import render

    sample = view("lobby_6")
    assert sample["seats"][4]["name"] == "Seat 5"
    sample["language"] = sample["wall_language"] = lang
    for seat in sample["seats"]:
        seat["language"] = lang
    said = render(message("seat.numbered", number=5), lang)
    panels = " ".join(line for t in layout(as_view(sample), (1280, 800)).texts for line in t.lines)
    assert "Seat 5" not in panels
    assert said[:1].upper() + said[1:] in panels
    sample["phase"] = "play"  # the wall names every seat on its board
    wall = " ".join(line for t in wall_layout.layout(as_view(sample), (1280, 800)).texts
                    for line in t.lines)
    assert "Seat 5" not in wall and said[:1].upper() + said[1:] in wall


@pytest.mark.parametrize("lang", ["en", "fa", "ar", "lt", "el", "te"])
@pytest.mark.parametrize("name", ["deal_set_aside_4", "deal_4", "reader_offline_6", "lobby_6",
                                  "two_pending_5", "round_over_5", "game_over_14",
                                  "summary_14", "reveal_14", "full_14"])
def test_no_sample_screen_cuts_its_words(name, lang, view):
    """The hub's prompt and the panels' news are written whole at every size: a Greek
    deal prompt ended "Dalia 0/15, Ele…" at 1280x800."""
    sample = view(name)
    sample["language"] = lang
    for seat in sample["seats"]:
        seat["language"] = lang
    names = {s["name"] for s in sample["seats"]}
    for size in ((1920, 1080), (1280, 800), (1280, 720)):
        texts = layout(as_view(sample), size).texts
        # A name too long for its panel keeps its first word; nothing else is cut.
        cut = [t.lines for t in texts if any("…" in ln for ln in t.lines)
               and not any(n.startswith(t.lines[0].rstrip("…")) and " " in t.lines[0]
                           for n in names)]
        assert not cut, f"cut short at {size}: {cut}"


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hub_turned_to_a_side_seat_writes_its_prompt_large(size, view):
    """Facing a seat at the left or right edge, the hub's prompt uses the hub's room (it
    stood at the floor while half the hub was empty)."""
    sample = view("play_4")  # seat 1, Cyrus, sits at the left edge and is to play
    lay = layout(as_view(sample), size)
    assert lay.hub_angle in (90, 270)
    prompt = next(t for t in lay.texts if "satisfy" in " ".join(t.lines))
    assert prompt.size >= 1.5 * text_floor(4, size)
    assert text.fits(prompt)
