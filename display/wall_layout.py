"""The wall screen's geometry: the scoreboard, seen from across the room.

A title bar (round, engine, whose turn), then one row per player: a column per round
played headed by that round's engine, the running total and the standing. The round's
winner (the lowest score of the round) is highlighted in its column. Once the game is
over the screen shows the final ranking instead. Pure: (view, size) -> boxes and texts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from display import text, theme
from display.table_layout import TilePlace
from display.text import Text
from display.views import View, parse_tile
from firmware_py.messages import message
from firmware_py.render import render

Rect = tuple[int, int, int, int]
MIN_TEXT = 14


@dataclass(frozen=True)
class Cell:
    rect: Rect
    kind: str  # "title", "header", "row", "row_alt", "turn", "winner", "current", "first"


@dataclass(frozen=True)
class WallLayout:
    size: tuple[int, int]
    cells: tuple[Cell, ...]
    tiles: tuple[TilePlace, ...]
    texts: tuple[Text, ...]
    key_numbers: tuple[Text, ...]  # totals and places: the numbers read from afar


def standings(totals: list[int]) -> list[int]:
    """Place of each seat by running total, lowest first; equal totals share a place."""
    return [1 + sum(1 for other in totals if other < mine) for mine in totals]


def _language(view: View) -> str:
    """The wall's language: its own, or the table's."""
    return str(view.get("wall_language") or view.get("language") or "en")


def _place(n: int, lang: str) -> str:
    """A standing as the wall writes it: "1st" in English, the number in the wall's own
    digits otherwise."""
    return _ordinal(n) if lang == "en" else text.numerals(n, lang)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _say(view: View, message_id: str, **args: Any) -> str:
    """One of the wall's words, in the wall's language."""
    lang = _language(view)
    names = [text.isolated(str(s["name"]), lang) for s in view["seats"]]
    return render(message(message_id, **args), lang, names)


def _title(view: View, rect: Rect, texts: list[Text], lang: str) -> None:
    x, y, w, h = rect
    pad = h // 8
    phase = view["phase"]
    if phase == "lobby":
        left = _say(view, "screen.title")
    elif phase == "game_over":
        ranking = view.get("ranking") or []
        left = (_say(view, "screen.winner", seat=ranking[0]) if ranking
                else _say(view, "screen.game_over"))
    elif phase == "round_over":
        left = _say(view, "screen.round_over", round=view.get("round", 0))
    else:
        left = _say(view, "screen.round_of", round=view.get("round", 0),
                    rounds=view.get("rounds", 0))
    left_w = w * (9 if phase == "game_over" else 4) // 10 - 2 * pad
    texts.append(text.fit(left, (x + pad, y + pad, left_w, h - 2 * pad), max_size=140,
                          min_size=MIN_TEXT, colour=theme.INK, align="left", lang=lang))
    engine = view.get("engine")
    if engine and phase != "game_over":
        texts.append(text.fit(_say(view, "screen.engine", tile=engine),
                              (x + w * 4 // 10, y + pad, w * 25 // 100,
                              h - 2 * pad), max_size=120, min_size=MIN_TEXT,
                              colour=theme.INK_DIM, lang=lang))
    turn = view.get("turn")
    if turn is not None and phase == "play":
        texts.append(text.fit(_say(view, "screen.turn", seat=turn), (x + w * 65 // 100, y + pad,
                              w * 35 // 100 - pad, h - 2 * pad), max_size=140,
                              min_size=MIN_TEXT, colour=theme.GOLD, align="right", lang=lang))


def _scoreboard(view: View, rect: Rect, cells: list[Cell], tiles: list[TilePlace],
                texts: list[Text], keys: list[Text], lang: str) -> None:
    x, y, w, h = rect
    seats = view["seats"]
    scores: list[list[int]] = view.get("scores") or []
    engines: list[str] = view.get("round_engines") or []
    totals = view.get("totals") or [s.get("total", 0) for s in seats]
    current = view["phase"] in ("play", "deal") and view.get("round", 0) > len(scores)
    rounds = len(scores) + (1 if current else 0)
    # The header row is a little lower than a player's row.
    row_h = int(h / (len(seats) + 0.8))
    head_h = h - row_h * len(seats)
    name_w = w * 22 // 100
    total_w = w * 11 // 100
    place_w = w * 8 // 100
    round_w = (w - name_w - total_w - place_w) // max(1, rounds) if rounds else 0
    round_w = min(round_w, w // 8)
    # Few rounds leave room: give some to the names, centre the rest.
    spare = w - (name_w + round_w * rounds + total_w + place_w)
    name_w += min(spare, w * 18 // 100)
    x += (w - (name_w + round_w * rounds + total_w + place_w)) // 2
    total_x = x + name_w + round_w * rounds
    place_x = total_x + total_w
    pad = max(2, row_h // 24)
    cells.append(Cell((x, y, place_x + place_w - x, head_h), "header"))
    texts.append(text.fit(_say(view, "screen.player"), (x + pad, y + pad, name_w - 2 * pad,
                                                        head_h - 2 * pad),
                          max_size=70, min_size=MIN_TEXT, colour=theme.INK_DIM, align="left",
                          lang=lang))
    for r in range(rounds):
        cx = x + name_w + r * round_w
        if r == len(scores):
            cells.append(Cell((cx, y, round_w, h), "current"))
        engine = engines[r] if r < len(engines) else view.get("engine")
        label_h = (head_h - 2 * pad) * 2 // 5
        texts.append(text.fit(text.numerals(r + 1, lang), (cx + 1, y + pad, round_w - 2,
                              label_h), max_size=48, min_size=MIN_TEXT - 4,
                              colour=theme.INK_DIM, lang=lang))
        if engine:
            value = parse_tile(engine, "view.round_engines")[0]
            short = max(4, min((head_h - 2 * pad - label_h) * 9 // 10, (round_w - 4) // 2))
            tx = cx + (round_w - 2 * short) // 2
            ty = y + pad + label_h + (head_h - 2 * pad - label_h - short) // 2
            tiles.append(TilePlace((tx, ty, 2 * short, short), value, value, False, True, 0,
                                   f"round {r + 1}"))
    texts.append(text.fit(_say(view, "screen.total"), (total_x + pad, y + pad, total_w - 2 * pad,
                                                       head_h - 2 * pad),
                          max_size=70, min_size=MIN_TEXT, colour=theme.INK_DIM, lang=lang))
    texts.append(text.fit(_say(view, "screen.place"), (place_x + pad, y + pad, place_w - 2 * pad,
                                                       head_h - 2 * pad),
                          max_size=70, min_size=MIN_TEXT, colour=theme.INK_DIM, lang=lang))
    places = standings(totals)
    turn = view.get("turn") if view["phase"] == "play" else None
    columns: dict[str, list[tuple[str, Rect]]] = {"name": [], "total": [], "place": [],
                                                  "score": []}
    colours: dict[str, list[theme.Colour]] = {k: [] for k in columns}

    def put(column: str, value: str, box: Rect, colour: theme.Colour) -> None:
        columns[column].append((value, box))
        colours[column].append(colour)

    for i, seat in enumerate(seats):
        ry = y + head_h + i * row_h
        kind = "turn" if turn == i else ("row_alt" if i % 2 else "row")
        cells.append(Cell((x, ry, place_x + place_w - x, row_h), kind))
        ink = theme.DARK_INK if kind == "turn" else theme.INK
        inner_h = row_h - 2 * pad
        put("name", seat["name"], (x + pad, ry + pad, name_w - 2 * pad, inner_h),
            ink if kind == "turn" else theme.seat_colour(i))
        for r, row in enumerate(scores):
            cx = x + name_w + r * round_w
            low = min(row)
            if row[i] == low:
                cells.append(Cell((cx + 1, ry + 1, round_w - 2, row_h - 2), "winner"))
            put("score", text.numerals(row[i], lang),
                (cx + pad, ry + pad, round_w - 2 * pad, inner_h),
                theme.DARK_INK if row[i] == low or kind == "turn" else theme.INK)
        put("total", text.numerals(totals[i], lang),
            (total_x + pad, ry + pad, total_w - 2 * pad, inner_h), ink)
        put("place", _place(places[i], lang), (place_x + pad, ry + pad, place_w - 2 * pad, inner_h),
            theme.GOLD if places[i] == 1 and kind != "turn" else ink)
    texts += text.fit_column(columns["name"], max_size=110, min_size=MIN_TEXT,
                             colours=colours["name"], align="left", lang=lang)
    texts += text.fit_column(columns["score"], max_size=90, min_size=MIN_TEXT - 4,
                             colours=colours["score"], lang=lang)
    for column in ("total", "place"):
        fitted = text.fit_column(columns[column], max_size=130, min_size=MIN_TEXT,
                                 colours=colours[column], lang=lang)
        texts += fitted
        keys += fitted


def _ranking(view: View, rect: Rect, cells: list[Cell], texts: list[Text],
             keys: list[Text], lang: str) -> None:
    x, y, w, h = rect
    seats = view["seats"]
    ranking: list[int] = view.get("ranking") or list(range(len(seats)))
    totals = view.get("totals") or [s.get("total", 0) for s in seats]
    places = standings(totals)
    columns = 1 if len(ranking) <= 8 or h > w else 2
    per_column = -(-len(ranking) // columns)
    col_w = w // columns
    row_h = h // per_column
    pad = max(3, row_h // 10)
    entries: dict[str, list[tuple[str, Rect]]] = {"place": [], "name": [], "total": []}
    inks: list[theme.Colour] = []
    for n, seat in enumerate(ranking):
        cx = x + (n // per_column) * col_w
        ry = y + (n % per_column) * row_h
        first = places[seat] == 1
        cells.append(Cell((cx + pad, ry + pad // 2, col_w - 2 * pad, row_h - pad),
                          "first" if first else ("row_alt" if n % 2 else "row")))
        inks.append(theme.DARK_INK if first else theme.INK)
        inner = row_h - 2 * pad
        ix, iw = cx + 2 * pad, col_w - 4 * pad
        entries["place"].append((_place(places[seat], lang), (ix, ry + pad, iw * 18 // 100, inner)))
        entries["name"].append((seats[seat]["name"],
                                (ix + iw * 20 // 100, ry + pad, iw * 56 // 100, inner)))
        entries["total"].append((text.numerals(totals[seat], lang),
                                 (ix + iw * 78 // 100, ry + pad, iw * 22 // 100, inner)))
    for column, align in (("place", "left"), ("name", "left"), ("total", "right")):
        fitted = text.fit_column(entries[column], max_size=140, min_size=MIN_TEXT,
                                 colours=inks, align=align, lang=lang)
        texts += fitted
        if column != "name":
            keys += fitted


def _lobby(view: View, rect: Rect, texts: list[Text], lang: str) -> None:
    x, y, w, h = rect
    # Each name closed against the wall's direction: a list of Latin names on an Arabic
    # wall then runs right to left like the wall, not as one left-to-right phrase.
    joined = [text.isolated(str(s["name"]), lang) for s in view["seats"]
              if s.get("joined", True)]
    texts.append(text.fit(_say(view, "screen.waiting", joined=len(joined), n=len(view["seats"])),
                          (x, y, w, h // 4), max_size=120, min_size=MIN_TEXT,
                          colour=theme.GOLD, lang=lang))
    texts.append(text.fit("  ·  ".join(joined) or _say(view, "screen.nobody_yet"),
                          (x, y + h // 4, w, h // 2),
                          max_size=110, min_size=MIN_TEXT, colour=theme.INK, max_lines=4,
                          lang=lang))


def layout(view: View, size: tuple[int, int]) -> WallLayout:
    """Every box and text of the wall screen for `view` at `size` (pure)."""
    width, height = size
    m = max(4, min(width, height) // 90)
    title_h = max(40, height // 11)
    cells: list[Cell] = [Cell((0, 0, width, title_h), "title")]
    tiles: list[TilePlace] = []
    texts: list[Text] = []
    keys: list[Text] = []
    lang = _language(view)
    _title(view, (m, 0, width - 2 * m, title_h), texts, lang)
    body = (m, title_h + m, width - 2 * m, height - title_h - 2 * m)
    prompt = view.get("prompt")
    # With more than ten players every pixel goes to the rows; the prompt is on the table.
    if prompt and len(view["seats"]) <= 10:
        foot_h = max(24, height // 16)
        body = (body[0], body[1], body[2], body[3] - foot_h - m)
        names = [text.isolated(str(s["name"]), lang) for s in view["seats"]]
        said = render(prompt, lang, names)
        texts.append(text.fit(said, (m, height - m - foot_h, width - 2 * m, foot_h),
                              max_size=80, min_size=MIN_TEXT, colour=theme.INK_DIM, lang=lang))
    if view["phase"] == "lobby":
        _lobby(view, body, texts, lang)
    elif view["phase"] == "game_over":
        _ranking(view, body, cells, texts, keys, lang)
    else:
        _scoreboard(view, body, cells, tiles, texts, keys, lang)
    wall = WallLayout(size, tuple(cells), tuple(tiles), tuple(texts), tuple(keys))
    return _mirrored(wall) if text.reads_rtl(lang) else wall


def _mirrored(wall: WallLayout) -> WallLayout:
    """The wall for a right-to-left reader: every box mirrored left to right, so the
    names stand at the right and the rounds run leftwards (the texts were already fitted
    and aligned for that reader; the tiles are doubles, the same either way round)."""
    width = wall.size[0]

    def flip(rect: Rect) -> Rect:
        x, y, w, h = rect
        return (width - x - w, y, w, h)

    return WallLayout(
        wall.size,
        tuple(replace(c, rect=flip(c.rect)) for c in wall.cells),
        tuple(replace(t, rect=flip(t.rect), a_first=not t.a_first) for t in wall.tiles),
        tuple(replace(t, box=flip(t.box)) for t in wall.texts),
        tuple(replace(t, box=flip(t.box)) for t in wall.key_numbers),
    )
