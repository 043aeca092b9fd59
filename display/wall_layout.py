"""The wall screen's geometry: the scoreboard, seen from across the room.

A title bar (the round, its engine, whose turn or who went out), then one row per
player: a column per round played headed by that round's engine, the round under way
(it fills in as the seats show their leftover tiles), each player's tiles in hand
("one tile!" in red), the running total and the standing. Each round's winner (the
lowest score of the round) has a cell of its own colour, visible on the gold row of the
seat whose turn it is. At the round summary and once the game is over a line chart
of every player's running total over the rounds stands beside the board, in the seat
colours; at the end the rows are in the order of the final ranking. The prompt of the
moment runs along the bottom at every table size. Pure: (view, size) -> boxes and texts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from display import text, theme
from display.names import names, say, seat_name
from display.table_layout import TilePlace
from display.text import Text
from roundhouse.declension import Name
from roundhouse.messages import message
from roundhouse.view import View
from roundhouse.vocabulary import tile_pips

Rect = tuple[int, int, int, int]
Point = tuple[int, int]
MIN_TEXT = 14
MIN_PROMPT_SHARE = 40  # the prompt's type is at least 1/40 of the screen's height


@dataclass(frozen=True)
class Cell:
    rect: Rect
    kind: str  # "title", "header", "row", "row_alt", "turn", "winner", "current",
    #            "first", "one_tile", "chart"


@dataclass(frozen=True)
class Series:
    """One player's running total after each round, as a line on the chart."""

    seat: int
    colour: theme.Colour
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Chart:
    rect: Rect  # the chart's panel
    plot: Rect  # the area the lines are drawn in
    grid: tuple[tuple[Point, Point], ...]  # horizontal guide lines
    series: tuple[Series, ...]
    line_width: int


@dataclass(frozen=True)
class WallLayout:
    size: tuple[int, int]
    cells: tuple[Cell, ...]
    tiles: tuple[TilePlace, ...]
    texts: tuple[Text, ...]
    key_numbers: tuple[Text, ...]  # totals and places: the numbers read from afar
    chart: Chart | None = None
    prompt: Text | None = None


def standings(totals: list[int]) -> list[int]:
    """Place of each seat by running total, lowest first; equal totals share a place."""
    return [1 + sum(1 for other in totals if other < mine) for mine in totals]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _place(n: int, lang: str) -> str:
    """A standing as the wall writes it: "1st" in English, the number in the wall's own
    digits otherwise."""
    return _ordinal(n) if lang == "en" else text.numerals(n, lang)


def _names(view: View) -> tuple[Name, ...]:
    """The names as the wall's sentences take them, closed in the wall's direction."""
    return names(view, _language(view))


def _language(view: View) -> str:
    """The wall's language: its own, or the table's."""
    return str(view.wall_language or view.language or "en")


def _fitters(view: View) -> tuple[Any, Any]:
    """`text.fit` and `text.fit_column` writing in the wall's language."""
    lang = _language(view)
    return partial(text.fit, lang=lang), partial(text.fit_column, lang=lang)


def _say(view: View, message_id: str, **args: Any) -> str:
    """One of the wall's words, in the wall's language."""
    return say(message(message_id, **args), _language(view), _names(view))


def _title(view: View, rect: Rect, texts: list[Text]) -> None:
    fit, _ = _fitters(view)
    x, y, w, h = rect
    pad = h // 8
    phase = view.phase
    rnd = view.round
    if phase == "lobby":
        left = _say(view, "screen.title")
    elif phase == "game_over":
        ranking = view.ranking or ()
        left = (_say(view, "screen.winner", seat=ranking[0]) if ranking
                else _say(view, "screen.game_over"))
    elif phase == "round_over":
        out = view.went_out
        left = (_say(view, "screen.round_over_blocked", round=rnd) if out is None
                else _say(view, "screen.round_over_out", round=rnd, seat=out))
    else:
        left = _say(view, "screen.round_of", round=rnd, rounds=view.rounds)
    wide = phase in ("game_over", "round_over")
    left_w = w * (9 if wide else 4) // 10 - 2 * pad
    texts.append(fit(left, (x + pad, y + pad, left_w, h - 2 * pad), max_size=140,
                          min_size=MIN_TEXT, colour=theme.INK, align="left"))
    engine = view.engine
    if engine and not wide:
        texts.append(fit(_say(view, "screen.engine", tile=engine),
                              (x + w * 4 // 10, y + pad, w * 25 // 100,
                              h - 2 * pad), max_size=120, min_size=MIN_TEXT,
                              colour=theme.INK_DIM))
    turn = view.turn
    if turn is not None and phase == "play":
        texts.append(fit(_say(view, "screen.turn", seat=turn), (x + w * 65 // 100, y + pad,
                              w * 35 // 100 - pad, h - 2 * pad), max_size=140,
                              min_size=MIN_TEXT, colour=theme.GOLD, align="right"))


def _largest_size(height: int, cap: int) -> int:
    """The largest font size whose line fits `height` pixels."""
    size = MIN_TEXT
    while size < cap and text.line_height(size + 1) <= height:
        size += 1
    return size


@dataclass(frozen=True)
class _Board:
    """What the scoreboard shows: rows in order, the round columns and their values."""

    order: list[int]
    scores: list[list[int]]
    engines: list[str | None]
    current: list[str] | None  # the round under way, one entry per seat
    tiles: bool


def _board(view: View) -> _Board:
    phase = view.phase
    seats = view.seats
    scores: list[list[int]] = [list(r) for r in view.scores or []]
    engines: list[str | None] = list(view.round_engines or [])
    engines += [None] * (len(scores) - len(engines))
    current: list[str] | None = None
    revealed = view.revealed
    if phase in ("play", "deal") and view.round > len(scores):
        current = [""] * len(seats)
    elif phase == "round_over" and revealed is not None:
        lang = _language(view)
        current = ["…" if r is None else text.numerals(r, lang) for r in revealed]
    if current is not None:
        engines.append(view.engine)
    order = list(view.ranking or []) if phase == "game_over" else []
    if sorted(order) != list(range(len(seats))):
        order = list(range(len(seats)))
    return _Board(order, scores, engines, current, tiles=phase in ("play", "deal") or
                  (phase == "round_over" and revealed is not None))


def _label(largest: int, names: int, floor: int = MIN_TEXT - 4) -> int:
    """The largest size of a label (a heading, the chart's words): `largest`, never
    above the names it labels, and never below `floor`."""
    return max(floor, min(largest, names))


def _scoreboard(view: View, rect: Rect, cells: list[Cell], tiles: list[TilePlace],
                texts: list[Text], keys: list[Text]) -> int:
    """Lays out the board; returns the size its names are set at (the largest: a long
    name shrunk to fit its cell does not shrink the chart), which the chart's words
    beside it never exceed."""
    fit, fit_column = _fitters(view)
    lang = _language(view)
    x, y, w, h = rect
    seats = view.seats
    board = _board(view)
    scores = board.scores
    totals = list(view.totals or [s.total for s in seats])
    rounds = len(scores) + (1 if board.current is not None else 0)
    # The header row is a little lower than a player's row; a few players get rows no
    # taller than a sixth of the board, the board centred in its room.
    row_h = min(int(h / (len(seats) + 0.7)), h // 6)
    head_h = min(h - row_h * len(seats), row_h)
    y += (h - head_h - row_h * len(seats)) // 2
    h = head_h + row_h * len(seats)
    pad = max(2, row_h // 24)
    inner_h = row_h - 2 * pad
    # The totals and places are read from across the room: their columns are as wide
    # as their numbers at the largest size the rows allow.
    key_size = _largest_size(inner_h, 130)
    # Each cell keeps `side` pixels clear at either end, so that two neighbours' words
    # stand at least a fifth of their size apart (edge to edge, "29162313" read as one
    # number and a Persian "Total" and "Place" as one phrase).
    side = max(pad, -(-key_size // 10))
    rtl = text.reads_rtl(lang)
    widest = max(text.text_width(text.numerals(888, lang), key_size, rtl),
                 text.text_width("888", key_size))
    total_w = min(w * 14 // 100, widest + 2 * side + 2 * pad)
    place_w = min(w * 11 // 100, max(text.text_width(_place(14, lang), key_size, rtl),
                                     text.text_width("14th", key_size)) + 2 * side + 2 * pad)
    tiles_w = w * 12 // 100 if board.tiles else 0
    name_w = w * 20 // 100
    round_w = (w - name_w - tiles_w - total_w - place_w) // max(1, rounds)
    round_w = min(round_w, w // 8)
    score_side = max(pad, round_w // 6)
    # Few rounds leave room: give some to the names, centre the rest.
    spare = w - (name_w + round_w * rounds + tiles_w + total_w + place_w)
    name_w += min(spare, w * 12 // 100)
    x += (w - (name_w + round_w * rounds + tiles_w + total_w + place_w)) // 2
    tiles_x = x + name_w + round_w * rounds
    total_x = tiles_x + tiles_w
    place_x = total_x + total_w
    right = place_x + place_w
    cells.append(Cell((x, y, right - x, head_h), "header"))
    head = (head_h - 2 * pad)
    head_side = max(pad, -(-head // 9))

    headings: list[tuple[str, Rect, str]] = []
    numbers: list[tuple[str, Rect]] = []  # the rounds' numbers, heading their columns

    def heading(label: str, hx: int, hw: int, align: str = "center") -> None:
        headings.append((label, (hx + head_side, y + pad, hw - 2 * head_side, head), align))

    heading(_say(view, "screen.player"), x, name_w, "left")
    for r in range(rounds):
        cx = x + name_w + r * round_w
        if r == len(scores):
            cells.append(Cell((cx, y, round_w, h), "current"))
        label_h = head * 2 // 5
        numbers.append((text.numerals(r + 1, lang), (cx + 1, y + pad, round_w - 2, label_h)))
        engine = board.engines[r] if r < len(board.engines) else None
        if engine:
            value = tile_pips(engine)[0]
            short = max(4, min((head - label_h) * 9 // 10, (round_w - 4) // 2))
            tx = cx + (round_w - 2 * short) // 2
            ty = y + pad + label_h + (head - label_h - short) // 2
            tiles.append(TilePlace((tx, ty, 2 * short, short), value, value, False, True, 0,
                                   f"round {r + 1}"))
    if tiles_w:
        heading(_say(view, "screen.hand"), tiles_x, tiles_w)
    heading(_say(view, "screen.total"), total_x, total_w)
    heading(_say(view, "screen.place"), place_x, place_w)
    places = standings(totals)
    turn = view.turn if view.phase == "play" else None
    went_out = view.went_out if view.phase == "round_over" else None
    columns: dict[str, list[tuple[str, Rect]]] = {
        "name": [], "total": [], "place": [], "score": [], "tiles": [], "alarm": []}
    colours: dict[str, list[theme.Colour]] = {k: [] for k in columns}
    game_over = view.phase == "game_over"

    def put(column: str, value: str, box: Rect, colour: theme.Colour) -> None:
        columns[column].append((value, box))
        colours[column].append(colour)

    for n, i in enumerate(board.order):
        seat = seats[i]
        ry = y + head_h + n * row_h
        first = game_over and places[i] == 1
        kind = "turn" if turn == i else "first" if first else ("row_alt" if n % 2 else "row")
        cells.append(Cell((x, ry, right - x, row_h), kind))
        lit = kind in ("turn", "first")
        ink = theme.DARK_INK if lit else theme.INK
        put("name", seat_name(view, i, lang), (x + pad, ry + pad, name_w - pad - side, inner_h),
            ink if lit else theme.seat_colour(i))
        values = [row[i] for row in scores]
        for r, value in enumerate(values):
            cx = x + name_w + r * round_w
            low = value == min(scores[r])
            if low:
                cells.append(Cell((cx + 2, ry + 2, round_w - 4, row_h - 4), "winner"))
            put("score", text.numerals(value, lang),
                (cx + score_side, ry + pad, round_w - 2 * score_side, inner_h),
                theme.DARK_INK if low or lit else theme.INK)
        if board.current is not None:
            cx = x + name_w + len(scores) * round_w
            if went_out == i:
                cells.append(Cell((cx + 2, ry + 2, round_w - 4, row_h - 4), "winner"))
            if board.current[i]:
                put("score", board.current[i],
                    (cx + score_side, ry + pad, round_w - 2 * score_side, inner_h),
                    theme.DARK_INK if went_out == i or lit else theme.INK)
        if tiles_w:
            box = (tiles_x + side, ry + pad, tiles_w - 2 * side, inner_h)
            if seat.one_tile:
                cells.append(Cell((tiles_x + 2, ry + 2, tiles_w - 4, row_h - 4), "one_tile"))
                put("alarm", _say(view, "screen.one_tile"), box, theme.INK)
            else:
                put("tiles", text.numerals(seat.hand, lang), box, ink)
        put("total", text.numerals(totals[i], lang),
            (total_x + side, ry + pad, total_w - 2 * side, inner_h), ink)
        put("place", _place(places[i], lang),
            (place_x + side, ry + pad, place_w - 2 * side, inner_h),
            theme.GOLD if places[i] == 1 and not lit else ink)
    # Each name as large as it fits: one long name does not shrink the others.
    totals_fitted = fit_column(columns["total"], max_size=130, min_size=MIN_TEXT,
                               colours=colours["total"])
    key = totals_fitted[0].size if totals_fitted else 130
    cap = max(MIN_TEXT, key * 4 // 5)
    named = [fit(name, box, max_size=cap, min_size=MIN_TEXT, colour=colour, align="left")
             for (name, box), colour in zip(columns["name"], colours["name"], strict=True)]
    texts += named
    # A round's scores never outsize the totals beside them (on the 800x480 wall the
    # totals stood smaller than the scores).
    texts += fit_column(columns["score"], max_size=min(90, key), min_size=MIN_TEXT - 4,
                        colours=colours["score"])
    texts += fit_column(columns["tiles"], max_size=110, min_size=MIN_TEXT,
                        colours=colours["tiles"])
    texts += fit_column(columns["alarm"], max_size=90, min_size=MIN_TEXT - 4,
                        colours=colours["alarm"])
    for column in ("total", "place"):
        fitted = totals_fitted if column == "total" else fit_column(
            columns[column], max_size=130, min_size=MIN_TEXT, colours=colours[column])
        texts += fitted
        keys += fitted
    # The headings label the columns: never larger than the names they head ("Player"
    # stood twice the names' size at 800x480, the rounds' numbers above the names of a
    # Persian one).
    least_name = min((t.size for t in named), default=70)
    for label, box, align in headings:
        texts.append(fit(label, box, max_size=_label(70, least_name),
                         min_size=MIN_TEXT - 4, colour=theme.INK_DIM, align=align))
    for label, box in numbers:
        texts.append(fit(label, box, max_size=_label(48, least_name),
                         min_size=MIN_TEXT - 4, colour=theme.INK_DIM))
    return max((t.size for t in named), default=70)


def _chart(view: View, rect: Rect, cells: list[Cell], texts: list[Text],
           names: int) -> Chart:
    """Every player's running total after each round, a line in the seat's colour. Its
    words label it, as the board's headings do: none larger than the board's names, set
    at size `names` (on a Persian 800x480 wall the rounds' numbers under the chart stood
    half as large again as the names)."""
    fit, _ = _fitters(view)
    lang = _language(view)
    x, y, w, h = rect
    cells.append(Cell(rect, "chart"))
    seats = view.seats
    scores = [list(row) for row in view.scores]
    pad = max(4, min(w, h) // 30)
    label_h = max(MIN_TEXT + 4, h // 14)
    texts.append(fit(_say(view, "screen.running_totals"),
                          (x + pad, y + pad, w - 2 * pad, label_h),
                          max_size=_label(70, names, MIN_TEXT), min_size=MIN_TEXT,
                          colour=theme.INK_DIM, align="left"))
    running = [[0] * len(seats)]
    for row in scores:
        running.append([a + b for a, b in zip(running[-1], row, strict=True)])
    top = max(max(r) for r in running) or 1
    step = _nice_step(top)
    top = -(-top // step) * step
    axis_w = text.text_width(str(top), max(MIN_TEXT, label_h * 3 // 4)) + pad
    # Half a label of room above the top guide line and below the lowest one: their
    # numbers sit centred on them.
    plot = (x + pad + axis_w, y + 2 * pad + label_h * 3 // 2, w - 3 * pad - axis_w,
            h - 4 * pad - label_h * 3)
    px, py, pw, ph = plot
    grid: list[tuple[Point, Point]] = []
    for value in range(0, top + 1, step):
        gy = py + ph - round(ph * value / top)
        grid.append(((px, gy), (px + pw, gy)))
        texts.append(fit(text.numerals(value, lang),
                         (x + pad // 2, gy - label_h // 2, axis_w - pad // 2,
                              label_h), max_size=_label(48, names),
                              min_size=MIN_TEXT - 4,
                              colour=theme.INK_DIM, align="right"))
    rounds = len(running) - 1
    slot = pw // max(1, rounds)
    # Number every round, or every second or third one when their numbers would touch.
    label_size = _label(_largest_size(label_h, 48), names)
    every = max(1, -(-text.text_width(f"{rounds}  ", label_size) // max(1, slot)))
    for r in range(1, rounds + 1, every):
        rx = px + round(pw * r / max(1, rounds))
        half = min(slot * every // 2, rx - px, x + w - rx)
        texts.append(fit(text.numerals(r, lang),
                         (rx - half, py + ph + label_h // 2 + pad // 2, 2 * half,
                                       label_h),
                              max_size=label_size, min_size=MIN_TEXT - 4,
                              colour=theme.INK_DIM))
    series = tuple(
        Series(seat, theme.seat_colour(seat), tuple(
            (px + round(pw * r / max(1, rounds)), py + ph - round(ph * totals[seat] / top))
            for r, totals in enumerate(running)))
        for seat in range(len(seats))
    )
    return Chart(rect, plot, tuple(grid), series, max(2, min(w, h) // 120))


def _nice_step(top: int) -> int:
    """A round step for four to eight guide lines up to `top`."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top / step <= 6:
            return step
    return -(-top // 6)


def _lobby(view: View, rect: Rect, texts: list[Text]) -> None:
    fit, _ = _fitters(view)
    lang = _language(view)
    x, y, w, h = rect
    # Each name isolated: a list of Latin names on an Arabic wall then runs right to left
    # like the wall, not as one left-to-right phrase.
    said = names(view, lang)
    joined = [text.isolated(said[i].text) for i, s in enumerate(view.seats) if s.joined]
    texts.append(fit(_say(view, "screen.waiting", joined=len(joined), n=len(view.seats)),
                          (x, y, w, h // 4), max_size=120, min_size=MIN_TEXT,
                          colour=theme.GOLD))
    texts.append(fit("  ·  ".join(joined) or _say(view, "screen.nobody_yet"),
                          (x, y + h // 4, w, h // 2),
                          max_size=110, min_size=MIN_TEXT, colour=theme.INK, max_lines=4))


def prompt_text(view: View) -> str | None:
    """The prompt in the wall's language."""
    prompt: Any = view.prompt
    return None if prompt is None else say(prompt, _language(view), _names(view))


def layout(view: View, size: tuple[int, int]) -> WallLayout:
    """Every box and text of the wall screen for `view` at `size` (pure)."""
    fit, _ = _fitters(view)
    lang = _language(view)
    width, height = size
    m = max(4, min(width, height) // 120)
    seats = len(view.seats)
    # Many rows want the height: the title bar gives some of its own.
    title_h = max(40, height // (11 if seats <= 10 else 15))
    cells: list[Cell] = [Cell((0, 0, width, title_h), "title")]
    tiles: list[TilePlace] = []
    texts: list[Text] = []
    keys: list[Text] = []
    _title(view, (m, 0, width - 2 * m, title_h), texts)
    body = (m, title_h + m, width - 2 * m, height - title_h - 2 * m)
    prompt = prompt_text(view)
    prompt_item = None
    if prompt:
        # At every table size; on a small screen or a crowded one in two lines.
        floor = max(MIN_TEXT, height // MIN_PROMPT_SHARE)
        foot_h = max(text.line_height(floor) + 2, height // (16 if seats <= 10 else 20))
        body = (body[0], body[1], body[2], body[3] - foot_h - m)
        prompt_item = fit(prompt, (m, height - m - foot_h, width - 2 * m, foot_h),
                               max_size=80, min_size=floor, colour=theme.INK_DIM)
        texts.append(prompt_item)
    chart = None
    if view.phase == "lobby":
        _lobby(view, body, texts)
    else:
        scored = bool(view.scores)
        summary = view.phase == "game_over" or (
            view.phase == "round_over" and view.revealed is None)
        board = body
        room: Rect | None = None
        if scored and summary:
            bx, by, bw, bh = body
            if bw >= bh:
                chart_w = bw * 36 // 100
                board = (bx, by, bw - chart_w - m, bh)
                room = (bx + bw - chart_w, by, chart_w, bh)
            else:
                chart_h = bh * 34 // 100
                board = (bx, by, bw, bh - chart_h - m)
                room = (bx, by + bh - chart_h, bw, chart_h)
        names_size = _scoreboard(view, board, cells, tiles, texts, keys)
        if room is not None:
            chart = _chart(view, room, cells, texts, names_size)
    wall = WallLayout(size, tuple(cells), tuple(tiles), tuple(texts), tuple(keys), chart,
                      prompt_item)
    return _mirrored(wall) if text.reads_rtl(lang) else wall


def _mirrored(wall: WallLayout) -> WallLayout:
    """The wall for a right-to-left reader: every box mirrored left to right, so the
    names stand at the right and the rounds run leftwards, the chart's too (the texts
    were already fitted and aligned for that reader; the tiles are doubles, the same
    either way round)."""
    width = wall.size[0]

    def flip(rect: Rect) -> Rect:
        x, y, w, h = rect
        return (width - x - w, y, w, h)

    def point(p: Point) -> Point:
        return (width - p[0], p[1])

    chart = wall.chart
    if chart is not None:
        chart = Chart(flip(chart.rect), flip(chart.plot),
                      tuple((point(a), point(b)) for a, b in chart.grid),
                      tuple(replace(s, points=tuple(point(p) for p in s.points))
                            for s in chart.series), chart.line_width)
    prompt = wall.prompt
    flipped = {id(t): replace(t, box=flip(t.box)) for t in wall.texts}
    return WallLayout(
        wall.size,
        tuple(replace(c, rect=flip(c.rect)) for c in wall.cells),
        tuple(replace(t, rect=flip(t.rect), a_first=not t.a_first) for t in wall.tiles),
        tuple(flipped[id(t)] for t in wall.texts),
        tuple(flipped.get(id(t), replace(t, box=flip(t.box))) for t in wall.key_numbers),
        chart,
        None if prompt is None else flipped.get(id(prompt), replace(prompt, box=flip(prompt.box))),
    )
