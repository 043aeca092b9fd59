"""The wall scoreboard through a game: every round played stays up at every phase, the
round under way fills in as seats show their tiles, the chart of running totals at the
summary and the end, tile counts and "one tile!", the prompt at every table size."""

import itertools

import pygame
import pytest
from sample_views import as_view, plain

from display import text, theme, wall_screen
from display.wall_layout import layout
from roundhouse.message import Message
from roundhouse.render import render

SIZES = ((1920, 1080), (1080, 1920), (1280, 800), (800, 480))


def said(lay) -> list[str]:
    return [plain(line) for t in lay.texts for line in t.lines]


def row_texts(lay, sample, seat: int) -> list[str]:
    """The texts on a seat's row, left to right."""
    name = next(t for t in lay.texts if t.lines == (sample["seats"][seat]["name"],))
    _, y, _, h = name.box
    mid = y + h // 2
    on_row = [t for t in lay.texts if t.box[1] <= mid < t.box[1] + t.box[3]]
    return [t.lines[0] for t in sorted(on_row, key=lambda t: t.box[0])]


@pytest.mark.parametrize("phase", ["play", "reveal", "summary", "game_over"])
@pytest.mark.parametrize("seats", [2, 8, 14])
def test_every_round_played_stays_on_the_wall(phase, seats, view):
    sample = view(f"{phase}_{seats}")
    lay = layout(as_view(sample), (1920, 1080))
    for seat in range(seats):
        row = row_texts(lay, sample, seat)
        scores = [str(r[seat]) for r in sample["scores"]]
        assert row[1:1 + len(scores)] == scores, (seat, row)
        assert str(sample["totals"][seat]) in row[1 + len(scores):]
    under_way = phase in ("play", "reveal")
    assert len(lay.tiles) == len(sample["scores"]) + under_way  # an engine atop each column


@pytest.mark.parametrize("seats", [2, 8, 14])
def test_the_round_fills_in_as_seats_show_their_tiles_and_says_who_went_out(seats, view):
    sample = view(f"reveal_{seats}")
    lay = layout(as_view(sample), (1920, 1080))
    out = sample["seats"][sample["went_out"]]["name"]
    assert said(lay)[0] == f"Round {sample['round']} over: {out} went out"
    played = len(sample["scores"])
    for seat, points in enumerate(sample["revealed"]):
        row = row_texts(lay, sample, seat)
        assert row[1 + played] == ("…" if points is None else str(points))
    # The seat that went out has the winner's cell in the round under way.
    column = next(c for c in lay.cells if c.kind == "current").rect
    winners = [c for c in lay.cells if c.kind == "winner"
               and column[0] <= c.rect[0] < column[0] + column[2]]
    assert len(winners) == 1


def test_a_blocked_round_says_so(view):
    sample = view("reveal_8")
    sample["went_out"] = None
    assert said(layout(as_view(sample), (1280, 800)))[0] == f"Round {sample['round']} over: blocked"


@pytest.mark.parametrize("seats", [2, 8, 14])
def test_game_over_ranks_the_players_with_every_rounds_scores(seats, view):
    sample = view(f"game_over_{seats}")
    lay = layout(as_view(sample), (1920, 1080))
    names = [s["name"] for s in sample["seats"]]
    shown = [line for line in said(lay) if line in names]
    assert shown == [names[s] for s in sample["ranking"]]
    rounds = len(sample["scores"])
    for seat in sample["ranking"]:
        assert row_texts(lay, sample, seat)[1:rounds + 1] == [str(r[seat]) for r in
                                                               sample["scores"]]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["summary_2", "summary_8", "summary_14", "game_over_2",
                                  "game_over_8", "game_over_14"])
def test_the_chart_draws_each_running_total_in_the_seat_colours(name, size, view):
    sample = view(name)
    lay = layout(as_view(sample), size)
    chart = lay.chart
    assert chart is not None
    assert [s.colour for s in chart.series] == [theme.seat_colour(i) for i in
                                                range(len(sample["seats"]))]
    px, py, pw, ph = chart.plot
    totals = sample["totals"]
    for series in chart.series:
        assert len(series.points) == len(sample["scores"]) + 1
        assert series.points[0][1] == py + ph  # everyone starts at 0
        ys = [y for _, y in series.points]
        assert ys == sorted(ys, reverse=True), "running totals only grow"
        for x, y in series.points:
            assert px <= x <= px + pw and py <= y <= py + ph
    # Higher totals are drawn higher on the chart.
    ends = [s.points[-1][1] for s in chart.series]
    for a in range(len(totals)):
        for b in range(len(totals)):
            if totals[a] < totals[b]:
                assert ends[a] >= ends[b]
    board = [c.rect for c in lay.cells if c.kind in ("row", "row_alt", "turn", "first")]
    assert not any(pygame.Rect(chart.rect).colliderect(r) for r in board)


@pytest.mark.parametrize("name", ["play_8", "reveal_8", "busy_8", "lobby_6"])
def test_no_chart_while_a_round_is_played_or_shown(name, view):
    assert layout(as_view(view(name)), (1920, 1080)).chart is None


def test_the_chart_is_painted(view):
    sample = view("summary_8")
    surface = pygame.Surface((1920, 1080))
    wall_screen.render(surface, as_view(sample))
    chart = layout(as_view(sample), (1920, 1080)).chart
    for series in chart.series:
        x, y = series.points[-1]
        assert tuple(surface.get_at((x, y)))[:3] in {s.colour for s in chart.series}


@pytest.mark.parametrize("seats", [2, 8, 14])
def test_each_player_s_tiles_and_one_tile_show_during_play(seats, view):
    sample = view(f"play_{seats}")
    lonely = [s["seat"] for s in sample["seats"] if s["one_tile"]]
    assert lonely
    for i in range(2):
        sample["seats"][i]["one_tile"] = True
        sample["seats"][i]["hand"] = 1
    lonely = [s["seat"] for s in sample["seats"] if s["one_tile"]]
    lay = layout(as_view(sample), (1920, 1080))
    assert said(lay).count("ONE TILE!") == len(lonely)
    assert len([c for c in lay.cells if c.kind == "one_tile"]) == len(lonely)
    for seat in sample["seats"]:
        row = row_texts(lay, sample, seat["seat"])
        assert ("ONE TILE!" if seat["one_tile"] else str(seat["hand"])) in row


def test_a_round_winner_stays_visible_on_the_gold_row(view):
    sample = view("play_8")
    turn = sample["turn"]
    sample["scores"][0][turn] = 0  # the seat to act won round 1
    surface = pygame.Surface((1920, 1080))
    wall_screen.render(surface, as_view(sample))
    lay = layout(as_view(sample), (1920, 1080))
    row = next(c.rect for c in lay.cells if c.kind == "turn")
    cell = next(c.rect for c in lay.cells if c.kind == "winner"
                and pygame.Rect(row).contains(c.rect))
    assert tuple(surface.get_at((cell[0] + 3, cell[1] + 3)))[:3] == theme.IVORY
    assert tuple(surface.get_at((row[0] + 3, row[1] + row[3] // 2)))[:3] == theme.GOLD


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", range(2, 15))
def test_the_prompt_stays_readable_up_to_fourteen_seats(seats, size, view):
    sample = view(f"play_{seats}")
    lay = layout(as_view(sample), size)
    names = [s["name"] for s in sample["seats"]]
    assert lay.prompt is not None
    said = render(Message.from_json(sample["prompt"]), "en", names)
    assert plain(" ".join(lay.prompt.lines)) == said
    assert lay.prompt.size >= max(14, size[1] // 40)
    assert text.fits(lay.prompt)


def test_the_wall_s_new_words_are_in_the_wall_s_language(view):
    sample = view("reveal_8")
    sample["wall_language"] = "lt"
    words = said(layout(as_view(sample), (1920, 1080)))
    out = sample["seats"][sample["went_out"]]["name"]
    assert words[0] == f"Raundas {sample['round']} baigtas: {out} išėjo"
    assert "Plytelės" in words
    summary = view("summary_8")
    summary["wall_language"] = "lt"
    assert "Sumos po kiekvieno raundo" in said(layout(as_view(summary), (1920, 1080)))


@pytest.mark.parametrize("name", ["game_over_2", "game_over_8", "game_over_14", "summary_8"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_board_reads_names_and_totals_before_its_headings(name, size, view):
    """On the 800x480 wall at game over "Player" was the largest text, the names half
    its size and the totals smaller than the rounds' scores."""
    from display.names import seat_name

    sample = view(name)
    lay = layout(as_view(sample), size)
    parsed = as_view(sample)
    names = {seat_name(parsed, i, "en") for i in range(len(sample["seats"]))}
    sized = {" ".join(t.lines): t.size for t in lay.texts}
    heading = sized["Player"]
    assert all(heading <= sized[n] for n in names if n in sized)
    totals = [t for t in lay.key_numbers if t.lines[0].isdigit()]
    rows = {t.box[1] for t in totals}
    scores = [t.size for t in lay.texts if t not in lay.key_numbers
              and t.lines[0].isdigit() and t.box[1] in rows]
    assert scores and max(scores) <= min(t.size for t in totals)


@pytest.mark.parametrize("lang", ["en", "fa", "ar", "te", "el", "lt"])
@pytest.mark.parametrize("name", ["game_over_2", "game_over_8", "game_over_14", "summary_8"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_heading_of_the_board_outsizes_the_names_in_any_language(lang, name, size, view):
    """The rounds' numbers head their columns as "Player" heads the names: on a Persian
    800x480 wall they stood larger than the names."""
    from display.names import seat_name

    sample = view(name)
    sample["wall_language"] = lang
    parsed = as_view(sample)
    lay = layout(parsed, size)
    header = pygame.Rect(next(c.rect for c in lay.cells if c.kind == "header"))
    names = {seat_name(parsed, i, lang) for i in range(len(sample["seats"]))}
    named = [t.size for t in lay.texts if " ".join(t.lines) in names]
    headings = [t for t in lay.texts if header.contains(t.box)]
    assert len(named) == len(names) and len(headings) > 3
    assert max(t.size for t in headings) <= min(named), [
        (t.lines, t.size) for t in headings if t.size > min(named)]


def _ink(line: str, size: int, rtl: bool = False) -> int:
    """How tall `line` is drawn, in pixels of ink."""
    image = text.line_image(line, size, (255, 255, 255), rtl)
    return image.get_bounding_rect(min_alpha=128).height


@pytest.mark.parametrize("lang", ["en", "fa", "ar", "te", "el", "lt"])
@pytest.mark.parametrize("name", ["game_over_2", "game_over_8", "game_over_14", "summary_8"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_chart_s_words_never_outsize_the_names(lang, name, size, view):
    """The chart's title and the numbers on its axes label it as the headings label the
    board: on a Persian 800x480 wall the rounds' numbers under the chart stood half as
    large again as the names. (Compared with the names' size, not with one long name
    shrunk to fit.)"""
    from display.names import seat_name

    sample = view(name)
    sample["wall_language"] = lang
    parsed = as_view(sample)
    lay = layout(parsed, size)
    names = {seat_name(parsed, i, lang) for i in range(len(sample["seats"]))}
    named = [t.size for t in lay.texts if " ".join(t.lines) in names]
    charted = [t for t in lay.texts if pygame.Rect(lay.chart.rect).contains(t.box)]
    assert len(named) == len(names) and len(charted) > 4
    assert max(t.size for t in charted) <= max(named), [
        (t.lines, t.size) for t in charted if t.size > max(named)]
    # As drawn: a Persian digit stands taller than a Latin capital of one size.
    capital = _ink("H", max(named))
    header = pygame.Rect(next(c.rect for c in lay.cells if c.kind == "header"))
    numbers = [t for t in lay.texts if t.lines[0].isdigit()
               and (t in charted or header.contains(t.box))]
    assert len(numbers) > 6
    rtl = text.reads_rtl(lang)
    assert all(_ink(t.lines[0], t.size, rtl) <= capital for t in numbers), [
        (t.lines[0], _ink(t.lines[0], t.size, rtl), capital) for t in numbers]


@pytest.mark.parametrize("lang", ["en", "fa", "ar", "te"])
@pytest.mark.parametrize("name", ["game_over_8", "game_over_14"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rounds_under_the_chart_stand_apart(lang, name, size, view):
    """The rounds' numbers under the chart are read one by one: between two of them is at
    least a space, in every script's digits (touching, Persian "۱۹" and "۱۷" would read
    as "۱۹۱۷")."""
    sample = view(name)
    sample["wall_language"] = lang
    lay = layout(as_view(sample), size)
    _, plot_y, _, plot_h = lay.chart.plot
    under = [t for t in lay.texts if t.box[1] >= plot_y + plot_h
             and pygame.Rect(lay.chart.rect).contains(t.box)]
    assert len(under) > 3
    drawn = sorted((x, x + img.get_bounding_rect().right)
                   for t in under for img, (x, _) in text.placed_lines(t))
    gap = text.text_width(" ", under[0].size)
    assert all(right + gap <= left
               for (_, right), (left, _) in itertools.pairwise(drawn)), drawn
