"""The table screen's geometry: (view, size) -> every rectangle and text the screen draws.

Seats sit around the edge of the screen in clockwise order (bottom, left, top, right),
the hub with the engine double in the middle. Each seat has a panel on its edge (name,
hand, alerts, turned to face it) and a lane between the hub and that panel where its
train is laid; the Mexican train gets a lane of its own. Lanes never overlap, so no
train can cover another, and one tile size is chosen for the whole table: the largest
at which every train fits its lane. A train that does not fit even at the smallest
readable size shows its newest tiles and a "+N" for the ones nearest the hub.

Nothing here draws: `table_screen` paints what this module decides, and the tests check
the geometry directly.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from display import ink, text, theme
from display.names import names, say, seat_name
from display.text import Text, to_screen
from display.trains import Flow, Item, LaneFrame, Node, Sizes, elide, fits, lay_train
from roundhouse.messages import Message, message
from roundhouse.view import TrainView, View
from roundhouse.vocabulary import tile_pips

Rect = tuple[int, int, int, int]
Point = tuple[int, int]

SIDES = ("bottom", "left", "top", "right")
# Text turned (counter-clockwise degrees) to face someone sitting on that side.
SIDE_ANGLE = {"bottom": 0, "left": 270, "top": 180, "right": 90}
FLOW = {"bottom": "down", "left": "left", "top": "up", "right": "right"}
MEXICAN = "mexican"
COMPACT_FROM = 9  # seats; from here on the panels are one thin strip
MIN_TEXT = 12  # px font size; below this nobody reads it across a table


@dataclass(frozen=True)
class TilePlace:
    rect: Rect
    a: int  # the number touching the previous tile
    b: int
    vertical: bool  # long side vertical on screen
    a_first: bool  # `a` at the top (vertical) or left (horizontal)
    facing: int  # numerals turned like the text of the train's seat
    train: str
    pending: int | None = None  # order of a pending double
    newest: bool = False


@dataclass(frozen=True)
class MarkerPlace:
    rect: Rect
    train: str
    colour: theme.Colour


@dataclass(frozen=True)
class ChipPlace:
    rect: Rect
    label: Text


@dataclass(frozen=True)
class Badge:
    """The order of a pending double, in a disc over the tile's corner."""

    centre: Point
    radius: int
    label: Text


@dataclass(frozen=True)
class LanePlace:
    rect: Rect
    train: str
    seat: int | None
    side: str
    colour: theme.Colour
    turn: bool


@dataclass(frozen=True)
class PanelPlace:
    rect: Rect
    seat: int | None  # None for the Mexican train's label
    angle: int
    state: str  # "normal", "turn", "one_tile", "empty" or "mexican"
    colour: theme.Colour


@dataclass(frozen=True)
class Rail:
    points: tuple[Point, ...]
    colour: theme.Colour
    turn: bool  # leads to the seat whose turn it is


@dataclass(frozen=True)
class TableLayout:
    size: tuple[int, int]
    tile_short: int
    hub: Rect
    hub_angle: int
    lanes: tuple[LanePlace, ...]
    panels: tuple[PanelPlace, ...]
    tiles: tuple[TilePlace, ...]  # the engine first (when laid), then the trains
    markers: tuple[MarkerPlace, ...]
    chips: tuple[ChipPlace, ...]
    badges: tuple[Badge, ...]
    rails: tuple[Rail, ...]
    tracks: tuple[tuple[tuple[Point, ...], theme.Colour], ...]  # the line each train follows
    texts: tuple[Text, ...]
    notice_boxes: tuple[tuple[Rect, str], ...]  # hub boxes painted behind loud texts


# The table the seats sit around, its long sides at the top and bottom of the screen
# (as on a full-HD screen). Where a seat sits follows from its number alone, not the size
# of the screen, so the same seat is in the same place at every resolution.
TABLE_SHAPE = (16, 9)


def distribute(seats: int) -> dict[str, list[int | str]]:
    """Which lanes sit on which side, each side listed in clockwise order.

    Seats go where a side of the table has the most room per seat; the Mexican train
    then takes the roomiest side, after that side's seats."""
    width, height = TABLE_SHAPE
    length = {"bottom": width, "top": width, "left": height, "right": height}
    count = dict.fromkeys(SIDES, 0)
    for _ in range(seats):
        side = max(("bottom", "top", "left", "right"), key=lambda s: length[s] / (count[s] + 1))
        count[side] += 1
    order: dict[str, list[int | str]] = {s: [] for s in SIDES}
    seat = 0
    for side in SIDES:
        for _ in range(count[side]):
            order[side].append(seat)
            seat += 1
    mex_side = max(("left", "right", "top", "bottom"), key=lambda s: length[s] / (count[s] + 1))
    order[mex_side].append(MEXICAN)
    return order


# The height of letters as drawn (docs/screens.md): a capital letter's (or for scripts
# without capitals the x-height's) pixels at 1920x1080, scaled by the screen's short side.
INK_ROOMY = 14  # up to 8 seats
INK_COMPACT = 10  # from 9 seats on
REFERENCE_SHORT = 1080


def ink_goal(seats: int, size: tuple[int, int]) -> int:
    """How tall, in pixels, the smallest letters a seat needs stand on a screen of
    `size`: 14 px capitals up to 8 seats and 10 px up to 14 at 1920x1080, less on a
    smaller screen in proportion to its short side."""
    goal = INK_ROOMY if seats < COMPACT_FROM else INK_COMPACT
    return max(1, round(goal * min(size) / REFERENCE_SHORT))


@lru_cache(maxsize=256)
def text_floor(seats: int, size: tuple[int, int], lang: str | None = "en") -> int:
    """The smallest nominal type of the table screen for a reader of `lang`: the size at
    which that script's letters, and the Latin names and tiles in its sentences, stand
    `ink_goal` tall (never under MIN_TEXT)."""
    goal = ink_goal(seats, size)
    return max(MIN_TEXT, ink.size_for(goal, lang), ink.size_for(goal, "en"))


@lru_cache(maxsize=256)
def table_floor(seats: int, size: tuple[int, int]) -> int:
    """The smallest type of the table's own words, which no seat needs in order to play
    (the round and the boneyard in the hub, the Mexican train's label, the banner between
    rounds): a share of the screen's short side, a little less for a crowded table, and
    never more than a seat's own floor."""
    share = round(min(size) * (0.02 if seats < COMPACT_FROM else 0.017))
    return max(MIN_TEXT, min(share, text_floor(seats, size)))


@lru_cache(maxsize=256)
def loud_floor(seats: int, size: tuple[int, int], lang: str | None = "en") -> int:
    """The smallest type of a seat's tile count and state (YOUR TURN, ONE TILE!): a
    quarter above the floor of Latin letters, and never under the reader's own floor
    (Persian and Arabic, set larger for their small bodies, are loud at their floor)."""
    return max(text_floor(seats, size, lang), round(text_floor(seats, size) * 1.25))


def mark_floor(size: tuple[int, int]) -> int:
    """The smallest diameter of a pending double's disc and of an open train's token."""
    return max(16, min(size) // 30)


# The smallest screen for the table: the smallest common one on which the capitals of a
# table of 14 still stand 7 px tall (two thirds of the full-HD goal). The display refuses
# to start the table screen on a smaller one (the wall screen has no such limit).
MIN_SIZE = (1280, 720)


def fits_table(size: tuple[int, int]) -> bool:
    """Whether the table screen can be read from every seat on a screen of `size`
    (either way up)."""
    return min(size) >= min(MIN_SIZE) and max(size) >= max(MIN_SIZE)


def reading_size(box: Rect, angle: int) -> tuple[int, int]:
    return (box[3], box[2]) if angle in (90, 270) else (box[2], box[3])


@dataclass(frozen=True)
class _Strip:
    key: int | str
    side: str
    lane: LaneFrame
    panel: Rect


def _split(start: int, total: int, keys: list[int | str], gap: int) -> list[tuple[int, int]]:
    """One span of [start, start + total) per key with `gap` between them; the Mexican
    train's label needs less room than a seat's panel."""
    if not keys:
        return []
    weights = [0.6 if k == MEXICAN and len(keys) > 1 else 1.0 for k in keys]
    room = total - gap * (len(keys) - 1)
    spans, at = [], start
    for i, w in enumerate(weights):
        each = int(room * w / sum(weights)) if i < len(keys) - 1 else start + total - at
        spans.append((at, each))
        at += each + gap
    return spans


@lru_cache(maxsize=8)  # one table on a screen or two
def _table(seats: int, width: int, height: int) -> tuple[Rect, tuple[_Strip, ...], int]:
    """The hub, the lanes and panels, and the rails' spacing of a table of `seats`."""
    hub, strips, rail_step = _strips(distribute(seats), width, height, seats >= COMPACT_FROM)
    return hub, tuple(strips), rail_step


def _strips(
    order: dict[str, list[int | str]], width: int, height: int, compact: bool
) -> tuple[Rect, list[_Strip], int]:
    """The hub, each lane with its panel, and the spacing of the rails: the top and
    bottom seats share the full width, the side seats the band beside the hub."""
    m = max(3, min(width, height) // 120)
    short_side = min(width, height)
    panel = max(30, round(short_side * (0.095 if compact else 0.105)))
    # The side panels are short along their edge: they get depth instead.
    side_panel = max(panel, round(short_side * 0.15))
    b, l_, t, r = (len(order[s]) for s in SIDES)
    rail_step = max(3, m)
    corridor_b = rail_step * (b // 2 + 2) if b else 0
    corridor_t = rail_step * (t // 2 + 2) if t else 0
    # The side lanes are long and can be thin; the top and bottom lanes need length,
    # or their trains bend after two tiles.
    if width >= height:
        band_weight = max(0.9, 0.35 + 0.35 * max(l_, r, 1))
    else:
        band_weight = 0.4 + 0.6 * max(l_, r, 1)
    if min(width, height) < 600:
        # On a small screen the hub's words need the room more than the lanes do.
        band_weight += 0.3
    weights = (1.0 if t else 0.0) + (1.0 if b else 0.0) + band_weight
    avail = height - 2 * m - corridor_b - corridor_t
    region = round(avail / weights)
    top_h = region if t else 0
    bottom_h = region if b else 0
    band_y0 = m + top_h + corridor_t
    band_h = height - m - bottom_h - corridor_b - band_y0
    hub_w = round(width * (0.24 if width >= height else 0.36) * (1.25 if width < 1000 else 1))
    hub = ((width - hub_w) // 2, band_y0, hub_w, band_h)
    hub_cx = width // 2
    strips: list[_Strip] = []
    # Each train's first column is the one nearest the hub; it fills away from there.
    for side, (y0, h) in (("bottom", (height - m - bottom_h, bottom_h)), ("top", (m, top_h))):
        keys = order[side]
        # Clockwise along the bottom edge runs right to left.
        spans = _split(m, width - 2 * m, keys[::-1] if side == "bottom" else keys, m)
        if side == "bottom":
            spans = spans[::-1]
        for key, (x, w) in zip(keys, spans, strict=True):
            lane_h = h - panel - m
            if side == "bottom":
                lane_rect = (x, y0, w, lane_h)
                panel_rect = (x, y0 + lane_h + m, w, panel)
            else:
                panel_rect = (x, y0, w, panel)
                lane_rect = (x, y0 + panel + m, w, lane_h)
            frame = LaneFrame(lane_rect, FLOW[side], x + w // 2 < hub_cx)
            strips.append(_Strip(key, side, frame, panel_rect))
    band_cy = band_y0 + band_h // 2
    for side in ("left", "right"):
        keys = order[side]
        # Clockwise up the left edge runs bottom to top.
        spans = _split(band_y0, band_h, keys[::-1] if side == "left" else keys, m)
        if side == "left":
            spans = spans[::-1]
        for key, (y, h) in zip(keys, spans, strict=True):
            if side == "left":
                panel_rect = (m, y, side_panel, h)
                lane_rect = (m + side_panel + m, y, hub[0] - 2 * m - side_panel - m, h)
            else:
                lane_x = hub[0] + hub_w + m
                lane_rect = (lane_x, y, width - m - side_panel - m - lane_x, h)
                panel_rect = (width - m - side_panel, y, side_panel, h)
            frame = LaneFrame(lane_rect, FLOW[side], y + h // 2 < band_cy)
            strips.append(_Strip(key, side, frame, panel_rect))
    return hub, strips, rail_step


def max_short(width: int, height: int) -> int:
    """The tiles' short side at its largest on a screen of this size (a round's start)."""
    return max(8, min(width, height) // 32)


# A new view usually changes one train: the others are laid from these caches.
@lru_cache(maxsize=64)
def _node(train: TrainView) -> Node:
    return Node.from_view(train)


@lru_cache(maxsize=256)
def _fit_lane(frame: LaneFrame, node: Node, lead: tuple[Item, ...], low: int, high: int) -> int:
    """The largest tile short side in [low, high] at which the train fits, or 0."""
    best = 0
    while low <= high:
        mid = (low + high) // 2
        if fits(frame, node, list(lead), Sizes.of(mid)):
            best, low = mid, mid + 1
        else:
            high = mid - 1
    return best


@lru_cache(maxsize=64)
def _lay_with_elision(frame: LaneFrame, node: Node, marker: bool, sizes: Sizes) -> Flow:
    """Lay the train, hiding as few tiles nearest the hub as needed (shown as "+N")."""
    lead = [Item("marker")] if marker else []
    flow = lay_train(frame, node, lead, sizes)
    if flow is not None:
        return flow
    # Keep at least the newest trunk tile (a chicken foot's double, with its branches).
    for hidden in range(1, len(node.tiles)):
        flow = lay_train(frame, elide(node, hidden), [*lead, Item("chip", hidden=hidden)],
                         sizes)
        if flow is not None:
            return flow
    # Not even that fits: show the marker and how many tiles the train holds.
    flow = lay_train(frame, Node((), ()), [*lead, Item("chip", hidden=node.count())], sizes)
    return flow or Flow()


def _seat_state(view: View, seat: int) -> str:
    info = view.seats[seat]
    if view.phase == "lobby" and not info.joined:
        return "empty"
    if info.one_tile:
        return "one_tile"
    if view.turn == seat:
        return "turn"
    return "normal"


def _language(view: View, seat: object) -> str:
    """The language of a seat's reader, or the table's for no seat."""
    seats = view.seats
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return str(seats[seat].language or view.language or "en")
    return str(view.language or "en")


def _say(view: View, reader: object, message_id: str, **args: Any) -> str:
    """One of the screens' own words, in the language of the seat `reader`."""
    lang = _language(view, reader)
    return say(message(message_id, **args), lang, names(view, lang))


def seat_notes(view: View, seat: int, brief: bool = False) -> list[str]:
    """What concerns one seat alone, written in its own panel in its own language: the
    table's alerts for it (its marker to put out or take back, its pad's reader offline)
    and a move of its that was refused while another seat is to act. A seat down to one
    tile shows ONE TILE! instead of its alert. `brief` leaves out why a reader is
    offline (the system's words, for the installer)."""
    lang = _language(view, seat)
    said = names(view, lang)
    notes = [say(_briefly(alert.message) if brief else alert.message, lang, said)
             for alert in view.alerts or []
             if alert.seat == seat and alert.message.id != "alert.one_tile"]
    rejection = view.rejection
    if rejection and rejection.seat == seat and view.turn != seat:
        notes.append(say(rejection.message, lang, said))
    return notes


def seat_instruction(view: View, seat: int) -> str | None:
    """What a seat must do between rounds, told in its own panel in its own language (the
    hub, facing one edge, speaks one language): at the reveal, each seat still to show
    its tiles; at the summary and once the game is over, every seat, as any may hold DRAW."""
    if view.phase == "round_over" and view.revealed is not None:
        if seat < len(view.revealed) and view.revealed[seat] is None:
            return _say(view, seat, "screen.show_tiles")
        return None
    if view.phase == "round_over":
        return _say(view, seat, "screen.hold_next")
    if view.phase == "game_over":
        return _say(view, seat, "screen.hold_new_game")
    return None


def _briefly(said: Message) -> Message:
    if said.id == "alert.reader_offline_why":
        return message("alert.reader_offline", pad=said.get("pad"))
    return said


def _panel_texts(
    view: View, strip: _Strip, state: str, colour: theme.Colour, floor: int, loud_min: int,
    angle: int | None = None,
) -> list[Text]:
    """A seat's name, its tiles in hand and its state in the largest type (the count and
    YOUR TURN / ONE TILE! are what matter mid-round), its points smaller, and what
    concerns that seat alone; all facing the seat (or turned by `angle`)."""
    if angle is None:
        angle = SIDE_ANGLE[strip.side]
    rw, rh = reading_size(strip.panel, angle)
    pad = max(2, rh // 14)
    loud = state in ("turn", "one_tile")
    pen = theme.DARK_INK if state == "turn" else theme.INK
    lang = _language(view, None if strip.key == MEXICAN else int(strip.key))
    # A right-to-left reader's panel is mirrored: the name starts at the right.
    rtl = text.reads_rtl(lang)

    def box(lx: int, ly: int, lw: int, lh: int) -> Rect:
        return to_screen(strip.panel, angle, (rw - lx - lw if rtl else lx, ly, lw, lh))

    def fit(words: str, local: Rect, colour: theme.Colour, *, cap: int = 90,
            least: int = floor, align: str = "left", lines: int = 1) -> Text:
        return text.fit(words, box(*local), max_size=max(cap, least), min_size=least,
                        angle=angle, colour=colour, align=align, max_lines=lines, lang=lang)

    inner_w, inner_h = rw - 2 * pad, rh - 2 * pad
    if strip.key == MEXICAN:
        top = inner_h * 11 // 20
        title = _say(view, None, "screen.mexican_title")
        if rw < 2.6 * rh:  # a short panel: the title on two lines, and nothing else
            label = fit(title, (pad, pad, inner_w, inner_h), theme.INK, cap=80,
                        align="center", lines=2)
            if rw < rh and angle == SIDE_ANGLE[strip.side] and any(
                    "…" in line for line in label.lines):
                # The Mexican train's label is everybody's: where it does not fit across
                # the panel's short side ("MEKSIKOS TRAUKI…") it reads along the long one.
                turned = 0 if strip.side in ("left", "right") else 90
                return _panel_texts(view, strip, state, colour, floor, loud_min, turned)
            return [label]
        return [
            fit(title, (pad, pad, inner_w, top), theme.INK, cap=80, align="center"),
            fit(_say(view, None, "screen.open_to_all"), (pad, pad + top, inner_w,
                inner_h - top), theme.INK_DIM, cap=60, align="center"),
        ]
    seat = int(strip.key)
    info = view.seats[seat]
    name = seat_name(view, seat, lang)

    def say(message_id: str, **args: Any) -> str:
        return _say(view, seat, message_id, **args)

    name_colour = pen if loud else colour
    notes = seat_notes(view, seat)
    told = seat_instruction(view, seat)
    if told and not notes:
        notes = [told]
    if state == "one_tile":
        status, status_colour = say("screen.one_tile"), theme.INK
    elif state == "turn":
        status, status_colour = say("screen.your_turn"), pen
    elif view.phase == "lobby":
        status = say("screen.empty_seat" if state == "empty" else "screen.joined")
        status_colour = theme.INK_DIM
    else:
        status, status_colour = "", pen
    note = "  ·  ".join(notes)
    in_game = view.phase != "lobby" and state != "empty"
    hand = say("screen.tiles", n=info.hand)
    wide = rw >= 2.6 * rh
    out: list[Text] = []
    if wide:
        # Name | tiles in hand, above state | points.
        left_w = (inner_w - pad) * 56 // 100
        right_w = inner_w - pad - left_w
        top_h = inner_h * 48 // 100
        low_h = inner_h - top_h
        rx = pad + left_w + pad
        count_box = (rx, pad, right_w, top_h)
        state_box = (pad, pad + top_h, left_w, low_h)
        points_box: Rect | None = (rx, pad + top_h, right_w, low_h)
        name_box = (pad, pad, left_w, top_h)
        if note:
            # The seat's news takes the whole row at the floor; the points go (they are
            # on the wall).
            state_box, points_box = (pad, pad + top_h, inner_w, low_h), None
    else:
        # Name, then tiles in hand, then the state (or else the points), each a row of
        # its own across the whole panel.
        name_h, count_h = inner_h * 30 // 100, inner_h * 38 // 100
        if note:
            # The seat's news takes two lines' room.
            name_h, count_h = inner_h * 26 // 100, inner_h * 30 // 100
        name_box = (pad, pad, inner_w, name_h)
        count_box = (pad, pad + name_h, inner_w, count_h)
        state_box = (pad, pad + name_h + count_h, inner_w, inner_h - name_h - count_h)
        points_box = state_box
        name_lines = 1
        if not (note or status) and text.text_width(name, floor, rtl) > inner_w:
            # A long name on a short panel ("Venkata Lakshmi" at 14 seats) takes two
            # lines and the points' row; the points go.
            state_h = inner_h - name_h - count_h
            name_box = (pad, pad, inner_w, name_h + state_h)
            count_box = (pad, pad + name_h + state_h, inner_w, count_h)
            points_box, name_lines = None, 2
        elif note or status:
            # The state takes the points' row: they go beside the name, which takes what
            # it needs at the floor ("Venkata Lakshmi" was cut to "Venkata Laks…" while
            # "0 pts" beside it stood twice as tall), and leaves the points theirs; where
            # both do not fit, the points go and the name has the row.
            name_w = (inner_w - pad) * 60 // 100
            points_w = text.text_width(say("screen.points", n=info.total),
                                       floor, rtl)
            name_w = max(name_w, text.text_width(name, floor, rtl))
            if name_w + pad + points_w > inner_w:
                name_box, points_box = (pad, pad, inner_w, name_h), None
            else:
                name_box = (pad, pad, name_w, name_h)
                points_box = (2 * pad + name_w, pad, inner_w - pad - name_w, name_h)
    count = fit(hand, count_box, pen, cap=110, least=loud_min,
                align="left" if not wide else "right") if in_game else None
    if count and any("…" in line for line in count.lines):
        # Too narrow for "8 tiles" at its size: the number alone, which is what counts.
        count = fit(text.numerals(info.hand, lang), count_box, pen, cap=110, least=loud_min,
                    align="left" if not wide else "right")
    big = count.size if count else 90
    shown: Text | None = None
    if note:
        # What concerns this seat is what it must read first; its panel still glows.
        shown = fit(note, state_box, theme.INK if loud else theme.GOLD, cap=big, lines=2)
        if any("…" in line for line in shown.lines):
            # Cut short, the seat's news loses its end; without the system's reason
            # ("no answer from /dev/tty…") it is read whole.
            shown = fit("  ·  ".join(seat_notes(view, seat, brief=True)), state_box,
                        theme.INK if loud else theme.GOLD, cap=big, lines=2)
    elif status:
        shown = fit(status, state_box, status_colour, cap=110,
                    least=loud_min if loud else floor)
        if state == "one_tile" and any("…" in line for line in shown.lines):
            # The red panel and the count of 1 say it where the words do not fit.
            shown = None
    # The name is never larger than the count or the seat's state.
    cap = min(big, shown.size) if shown is not None and loud else big
    out.append(fit(name, name_box, name_colour, cap=cap, lines=name_lines if not wide else 1))
    if count:
        out.append(count)
        if points_box is not None:
            points = fit(say("screen.points", n=info.total), points_box,
                         pen if loud else theme.INK_DIM, cap=max(floor, cap * 3 // 4),
                         align="right" if wide or note or status else "left")
            # Points that do not fit at the floor go: they are on the wall, and what the
            # seat needs keeps its size.
            if not any("…" in line for line in points.lines):
                out.append(points)
    if shown is not None:
        out.append(shown)
    return out


# A new view changes one or two panels: the others' words are those of the last views.
_PANELS: OrderedDict[tuple[Any, ...], tuple[Text, ...]] = OrderedDict()
PANEL_CACHE = 64  # a table's panels for the last few views


def _kept_panel_texts(
    view: View, strip: _Strip, state: str, colour: theme.Colour, floor: int, loud_min: int,
) -> list[Text]:
    """`_panel_texts`, kept by what a panel's words are made of: its seat, the seat's
    reader and the names in that reader's language, and what the view says of that seat
    alone (its alerts, a refusal, whether it is to act, what it must do between
    rounds)."""
    seat = None if strip.key == MEXICAN else int(strip.key)
    lang = _language(view, seat)
    key: tuple[Any, ...] = (strip, state, colour, floor, loud_min, lang,
                            tuple(names(view, lang)))
    if seat is not None:
        rejection = view.rejection
        revealed = view.revealed
        key += (view.seats[seat], view.phase, view.turn == seat,
                tuple(a for a in view.alerts or () if a.seat == seat),
                rejection if rejection is not None and rejection.seat == seat else None,
                None if revealed is None else seat < len(revealed) and revealed[seat] is None)
    kept = _PANELS.get(key)
    if kept is None:
        kept = tuple(_panel_texts(view, strip, state, colour, floor, loud_min))
        _PANELS[key] = kept
        if len(_PANELS) > PANEL_CACHE:
            _PANELS.popitem(last=False)
    else:
        _PANELS.move_to_end(key)
    return list(kept)


def _trains_by_id(view: View) -> dict[str, TrainView]:
    return {str(t.id): t for t in view.trains or []}


@dataclass(frozen=True)
class _Placed:
    """One lane's train as it is drawn: its tiles, marker, "+N" chip and pending discs,
    where it starts at the hub's side and the lines it follows."""

    tiles: tuple[TilePlace, ...]
    markers: tuple[MarkerPlace, ...]
    chips: tuple[ChipPlace, ...]
    badges: tuple[Badge, ...]
    start: Point
    tracks: tuple[tuple[Point, ...], ...]


# A new view usually changes one train (or none: a refusal, the reveal): the others are
# placed as they were.
@lru_cache(maxsize=64)
def _place(
    frame: LaneFrame,
    node: Node,
    marker: bool,
    sizes: Sizes,
    train_id: str,
    facing: int,
    colour: theme.Colour,
    pending: tuple[tuple[int, int], ...],  # (the double's number, its order) on this train
    newest: frozenset[int] | None,  # the numbers of the tile just laid, if on this train
    marks: int,
) -> _Placed:
    flow = _lay_with_elision(frame, node, marker, sizes)
    orders = dict(pending)
    tiles: list[TilePlace] = []
    markers: list[MarkerPlace] = []
    chips: list[ChipPlace] = []
    badges: list[Badge] = []
    for p in flow.placed:
        rect = frame.to_screen(p.u, p.v, p.du, p.dv)
        item = p.item
        if item.kind == "marker":
            markers.append(MarkerPlace(rect, train_id, colour))
            continue
        if item.kind == "chip":
            label = text.fit(f"+{item.hidden}", _inset(rect, 2), max_size=60, min_size=8,
                             angle=facing, colour=theme.DARK_INK)
            chips.append(ChipPlace(rect, label))
            continue
        order = orders.get(item.a) if item.double else None
        is_new = newest is not None and newest == frozenset((item.a, item.b))
        vertical = frame.flow_vertical != item.double
        a_first = p.outward == frame.low_u_first
        tiles.append(TilePlace(rect, item.a, item.b, vertical, a_first, facing, train_id,
                               order, is_new))
    laid = [t.rect for t in tiles] + [m.rect for m in markers] + [c.rect for c in chips]
    for t in tiles:
        if t.pending is not None:
            badges.append(_badge(t.rect, frame.rect, t.pending, sizes, facing, marks, laid))
    start = _flow_start(frame, flow)
    tracks = tuple(
        tuple(([start] if i == 0 else []) + [frame.to_screen(u, v, 0, 0)[:2] for u, v in line])
        for i, line in enumerate(flow.tracks()))
    return _Placed(tuple(tiles), tuple(markers), tuple(chips), tuple(badges), start, tracks)


def _needed(words: str, width: int, size: int, lang: str) -> int:
    """How many lines `words` take at `size` in a row `width` wide (at most 8)."""
    return len(text.fit(words, (0, 0, width, 8 * text.line_height(size)), max_size=size,
                        min_size=size, max_lines=8, lang=lang).lines)


def _inset(rect: Rect, d: int) -> Rect:
    x, y, w, h = rect
    return (x + d, y + d, max(1, w - 2 * d), max(1, h - 2 * d))


def _overlap(a: Rect, b: Rect) -> int:
    """The area two rectangles share."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


def _badge(tile: Rect, lane: Rect, order: int, sizes: Sizes, facing: int,
           least: int, laid: list[Rect]) -> Badge:
    """The disc beside the double, touching it: a disc over the tile's corner hid half
    its pips ("12|1" at 14 seats), and the double is what the players must read. It goes
    where it covers the least of the lane's tiles, the double first."""
    radius = max(least // 2, sizes.short * 9 // 20)
    x, y, w, h = tile
    lx, ly, lw, lh = lane
    corner = round(radius * 0.72)
    spots = [(x + w + corner, y - corner), (x + w + radius, y + h // 2),
             (x - corner, y - corner), (x + w // 2, y - radius),
             (x + w + corner, y + h + corner), (x - radius, y + h // 2),
             (x + w // 2, y + h + radius), (x - corner, y + h + corner)]

    def covered(spot: Point) -> tuple[int, int]:
        disc = (spot[0] - radius, spot[1] - radius, 2 * radius, 2 * radius)
        own = _overlap(disc, tile)
        return own, sum(_overlap(disc, r) for r in laid) - own

    inside = [(min(max(cx, lx + radius), lx + lw - radius),
               min(max(cy, ly + radius), ly + lh - radius)) for cx, cy in spots]
    cx, cy = min(inside, key=covered)  # the first of the least covering spots
    side = int(radius * 1.4)
    box = (cx - side // 2, cy - side // 2, side, side)
    label = text.fit(str(order), box, max_size=80, min_size=8, angle=facing, colour=theme.INK)
    return Badge((cx, cy), radius, label)


def _rail(hub: Rect, strip: _Strip, start: Point, slot: int, step: int) -> tuple[Point, ...]:
    """The line from the hub's edge to the first tile of a lane: straight when the lane
    faces the hub, else along the corridor between the band and the lane's region."""
    hx, hy, hw, hh = hub
    sx, sy = start
    if strip.side in ("left", "right"):
        edge = hx if strip.side == "left" else hx + hw
        return ((edge, sy), (sx, sy))
    edge_y = hy + hh if strip.side == "bottom" else hy
    sign = 1 if strip.side == "bottom" else -1
    if hx + step <= sx <= hx + hw - step:
        return ((sx, edge_y), (sx, sy))
    # Lanes further from the hub leave it nearer its corner and use the corridor line
    # nearest the hub, so no two rails cross.
    exit_x = hx + step * (slot + 1) if sx < hx else hx + hw - step * (slot + 1)
    corridor_y = edge_y + sign * step * (slot + 1)
    return ((exit_x, edge_y), (exit_x, corridor_y), (sx, corridor_y), (sx, sy))


def _flow_start(frame: LaneFrame, flow: Flow) -> Point:
    """Where the train touches the hub side of its lane (middle of its first column)."""
    if flow.placed:
        first = flow.placed[0]
        v_mid = first.v + first.dv // 2
    else:
        v_mid = frame.width // 2
    x, y, _, _ = frame.to_screen(0, v_mid, 1, 1)
    return (x, y)


def _rail_slots(
    strips: Sequence[_Strip], starts: dict[int | str, Point], hub: Rect
) -> dict[int | str, int]:
    """Rank the off-hub lanes of each region by distance from the hub (farthest first)."""
    slots: dict[int | str, int] = {}
    hx, _, hw, _ = hub
    for side in ("bottom", "top"):
        for left in (True, False):
            keys = [s.key for s in strips if s.side == side and
                    ((starts[s.key][0] < hx) if left else (starts[s.key][0] > hx + hw))]
            keys.sort(key=lambda k: abs(starts[k][0] - (hx if left else hx + hw)), reverse=True)
            for i, key in enumerate(keys):
                slots[key] = i
    return slots


@dataclass(frozen=True)
class _Lanes:
    """The lanes of a view's table and the train each holds, before any tile size."""

    hub: Rect
    strips: tuple[_Strip, ...]
    rail_step: int
    nodes: dict[int | str, Node]
    leads: dict[int | str, bool]  # the train's marker is laid ahead of its tiles
    laid: frozenset[int | str]  # the lanes that hold a train
    floor: int  # the smallest tile short side
    # Each train's pending doubles (the double's number, its order) and newest tile.
    pending: dict[str, tuple[tuple[int, int], ...]]
    newest: tuple[str, frozenset[int]] | None


def _lanes(view: View, size: tuple[int, int]) -> _Lanes:
    width, height = size
    hub, strips, rail_step = _table(len(view.seats), width, height)
    trains = _trains_by_id(view)
    nodes: dict[int | str, Node] = {}
    leads: dict[int | str, bool] = {}
    for s in strips:
        train = trains.get(str(s.key))
        nodes[s.key] = _node(train) if train else Node((), ())
        started = bool(train and (train.tiles or s.key != MEXICAN))
        leads[s.key] = bool(train and train.open and started)
    # Never so small that an open train's token (two short sides) falls under its floor.
    floor = max(6, max_short(width, height) // 2, -(-mark_floor(size) // 2))
    laid = frozenset(s.key for s in strips if str(s.key) in trains)
    pending: dict[str, tuple[tuple[int, int], ...]] = {}
    for p in view.pending_doubles or []:
        pending[str(p.train)] = (*pending.get(str(p.train), ()),
                                 (tile_pips(p.tile)[0], int(p.order)))
    last = view.last_play
    newest = (str(last.train), frozenset(tile_pips(last.tile))) if last else None
    return _Lanes(hub, strips, rail_step, nodes, leads, laid, floor, pending, newest)


def _colour(key: int | str) -> theme.Colour:
    """The colour of a lane's seat (the Mexican train's own for its lane)."""
    return theme.MEXICAN if key == MEXICAN else theme.seat_colour(int(key))


def _lead(lanes: _Lanes, key: int | str) -> tuple[Item, ...]:
    return (Item("marker"),) if lanes.leads[key] else ()


def _tile_short(lanes: _Lanes, size: tuple[int, int]) -> int:
    """The largest tile short side at which every train fits its lane (or the floor)."""
    short = max_short(*size)
    for s in lanes.strips:
        best = _fit_lane(s.lane, lanes.nodes[s.key], _lead(lanes, s.key), lanes.floor, short)
        short = max(lanes.floor, min(short, best)) if best else lanes.floor
    return short


def _grown(node: Node, double: bool) -> Node:
    """The train with one more tile at its end (made up: only its size matters), on its
    first branch when it has branches."""
    if node.branches:
        first, *rest = node.branches
        return Node(node.tiles, (_grown(first, double), *rest), node.first_index)
    end = node.tiles[-1][1] if node.tiles else 0
    return Node((*node.tiles, (end, end if double else end + 1)), (), node.first_index)


def smaller_tiles(view: View, size: tuple[int, int]) -> tuple[int, ...]:
    """The tile short sides the trains would shrink to if one of them grew by a tile or
    by a double, the likeliest first (a double counts a third of another tile)."""
    lanes = _lanes(view, size)
    short = _tile_short(lanes, size)
    sizes = Sizes.of(short)
    counts: dict[int, int] = {}
    for s in lanes.strips:
        if s.key not in lanes.laid:
            continue
        lead = _lead(lanes, s.key)
        # A double is less likely than any other tile: it weighs less.
        for double, weight in ((False, 3), (True, 1)):
            grown = _grown(lanes.nodes[s.key], double)
            if fits(s.lane, grown, list(lead), sizes):
                continue  # most trains: no search needed
            # Not kept: made-up trains would push real ones out of the cache.
            best = _fit_lane.__wrapped__(s.lane, grown, lead, lanes.floor, short - 1)
            smaller = max(lanes.floor, best) if best else lanes.floor
            if smaller < short:
                counts[smaller] = counts.get(smaller, 0) + weight
    return tuple(sorted(counts, key=lambda k: (-counts[k], -k)))


def _placed(lanes: _Lanes, strip: _Strip, sizes: Sizes, size: tuple[int, int]) -> _Placed:
    """The train of one lane placed at `sizes`, with its pending doubles and newest tile."""
    train_id = str(strip.key)
    newest = lanes.newest[1] if lanes.newest and lanes.newest[0] == train_id else None
    return _place(strip.lane, lanes.nodes[strip.key], lanes.leads[strip.key], sizes, train_id,
                  SIDE_ANGLE[strip.side], _colour(strip.key), lanes.pending.get(train_id, ()),
                  newest, mark_floor(size))


def tiles_at(view: View, size: tuple[int, int], short: int) -> Iterator[tuple[TilePlace, ...]]:
    """The tiles of the trains laid `short` pixels across, a lane at a time (each lane
    kept for a layout at that size)."""
    lanes, sizes = _lanes(view, size), Sizes.of(short)
    for strip in lanes.strips:
        yield _placed(lanes, strip, sizes, size).tiles


def layout(view: View, size: tuple[int, int]) -> TableLayout:
    """Every rectangle and text of the table screen for `view` at `size` (pure)."""
    steps = layout_steps(view, size)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return cast(TableLayout, done.value)


def layout_steps(view: View, size: tuple[int, int]) -> Generator[None, None, TableLayout]:
    """`layout`, pausing after each lane with its panel and before the hub: a screen
    that lays out ahead while the table waits (`table_screen.Painter.ahead`) stops
    between two of them for a view that came, where a whole layout of a stage's first
    view could keep it waiting several milliseconds."""
    seats = view.seats
    trains = _lanes(view, size)
    hub, strips, rail_step = trains.hub, trains.strips, trains.rail_step
    turn = view.turn
    short = _tile_short(trains, size)
    sizes = Sizes.of(short)

    tiles: list[TilePlace] = []
    markers: list[MarkerPlace] = []
    chips: list[ChipPlace] = []
    badges: list[Badge] = []
    lanes: list[LanePlace] = []
    panels: list[PanelPlace] = []
    texts: list[Text] = []
    tracks: list[tuple[tuple[Point, ...], theme.Colour]] = []
    starts: dict[int | str, Point] = {}
    for s in strips:
        angle = SIDE_ANGLE[s.side]
        seat = None if s.key == MEXICAN else int(s.key)
        colour = _colour(s.key)
        train_id = str(s.key)
        placed = _placed(trains, s, sizes, size)
        tiles += placed.tiles
        markers += placed.markers
        chips += placed.chips
        badges += placed.badges
        starts[s.key] = placed.start
        tracks += [(line, colour) for line in placed.tracks]
        state = "mexican" if seat is None else _seat_state(view, seat)
        lanes.append(LanePlace(s.lane.rect, train_id, seat, s.side, colour,
                               seat is not None and turn == seat))
        panels.append(PanelPlace(s.panel, seat, angle, state, colour))
        reader = _language(view, seat)
        # The Mexican train's label is the table's own word, not a seat's.
        least = (table_floor(len(seats), size) if seat is None
                 else text_floor(len(seats), size, reader))
        texts += _kept_panel_texts(view, s, state, colour, least,
                                   loud_floor(len(seats), size, reader))
        yield

    slots = _rail_slots(strips, starts, hub)
    # Before the first deal there is no train to lead to.
    rails = tuple(
        Rail(_rail(hub, s, starts[s.key], slots.get(s.key, 0), rail_step),
             _colour(s.key),
             s.key == turn)
        for s in strips
    ) if view.trains else ()
    hub_angle = 0
    for s in strips:
        if s.key == turn:
            hub_angle = SIDE_ANGLE[s.side]
    engine_tile, hub_texts, notices = _hub(view, hub, hub_angle,
                                           lambda lang: text_floor(len(seats), size, lang),
                                           table_floor(len(seats), size))
    return TableLayout(
        size=size,
        tile_short=short,
        hub=hub,
        hub_angle=hub_angle,
        lanes=tuple(lanes),
        panels=tuple(panels),
        tiles=tuple(([engine_tile] if engine_tile else []) + tiles),
        markers=tuple(markers),
        chips=tuple(chips),
        badges=tuple(badges),
        rails=rails,
        tracks=tuple(tracks),
        texts=tuple(texts + hub_texts),
        notice_boxes=tuple(notices),
    )


def _banner(view: View, seat: object) -> str | None:
    phase = view.phase
    seats = view.seats
    prompt = view.prompt
    if phase == "lobby":
        joined = sum(1 for s in seats if s.joined)
        return _say(view, seat, "screen.waiting", joined=joined, n=len(seats))
    if phase == "deal":
        engine = view.engine
        set_aside = view.option("engine") == "set_aside"
        # Set aside, the engine is not looked for: the prompt asks to put it in the hub.
        if engine and not view.engine_laid and not set_aside:
            return _say(view, seat, "screen.looking_for", tile=engine)
        return _say(view, seat, "screen.dealing")
    # The summary's and the final ranking's prompts say the round or game is over.
    if phase == "round_over" and (view.revealed is not None or not prompt):
        return _say(view, seat, "screen.round_over", round=view.round)
    if phase == "game_over" and not prompt:
        ranking = view.ranking or ()
        if ranking:
            return _say(view, seat, "screen.winner", seat=ranking[0])
        return _say(view, seat, "screen.game_over")
    return None


def _notices(view: View) -> list[str]:
    """The table's alerts for no seat in particular (the Mexican train's reader)."""
    lang = _language(view, None)
    return [say(alert.message, lang, names(view, lang))
            for alert in view.alerts or [] if alert.seat is None]


def _hub(
    view: View, hub: Rect, angle: int, floor_of: Callable[[str], int], own: int
) -> tuple[TilePlace | None, list[Text], list[tuple[Rect, str]]]:
    """The engine double and what concerns the seat to act, turned to face it: the
    round, the prompt, a move of its that was refused, the table's own notices. Each
    seat's own news is in its panel, and the scores are on the panels and the wall."""
    rw, rh = reading_size(hub, angle)
    pad = max(4, min(rw, rh) // 30)
    inner_w = rw - 2 * pad
    rows: list[tuple[str, float]] = [("header", 1.0)]
    engine = view.engine
    if engine:
        rows.append(("engine", 2.0))
    # The hub faces the seat whose turn it is: it speaks that seat's language.
    facing = view.turn
    lang = _language(view, facing)
    floor = floor_of(lang)
    banner = _banner(view, facing)
    if banner:
        rows.append(("banner", 1.3))
    # Said once: a reveal's prompt names every seat with its count.
    prompt = say(view.prompt, lang, names(view, lang)) if view.prompt else ""
    if view.prompt:
        rows.append(("prompt", 2.2))
    rejection = view.rejection
    # A refused move of the seat to act, or of nobody the table can name, is the hub's;
    # any other seat reads its own in its panel.
    if rejection and rejection.seat in range(len(view.seats)) and (
            rejection.seat != view.turn):
        rejection = None
    if rejection:
        rows.append(("rejection", 1.8))
    notices = _notices(view)
    if notices:
        rows.append(("notices", 1.2 * len(notices)))
    avail = rh - pad * (len(rows) + 1)
    prompt_lines = rejection_lines = 3
    # The prompt and a refusal are what the seat to act must read: each row gets the
    # height its words need at the floor, whole, and the other rows share what is left.
    needs: dict[str, int] = {}
    if view.prompt:
        needs["prompt"] = _needed(prompt, inner_w, floor, lang)
        # More lines than the floor needs let a roomy hub (turned to a side seat, half
        # of it empty) write the prompt larger.
        prompt_lines = max(needs["prompt"], 4)
    if rejection:
        refused = _language(view, rejection.seat)
        needs["rejection"] = _needed(say(rejection.message, refused, names(view, refused)),
                                     inner_w - pad, floor_of(refused), refused)
        rejection_lines = max(needs["rejection"], 3)
    total = sum(w for _, w in rows)
    heights = {n: int(avail * w / total) for n, w in rows}
    # Rows that can give room keep at least one line of the table's own type.
    least_h = {n: text.line_height(own) + 2 for n, _ in rows if n not in needs}
    for row, lines in needs.items():
        least = floor if row == "prompt" else floor_of(_language(view, rejection.seat
                                                                  if rejection else None))
        need = lines * text.line_height(least) + (pad if row == "rejection" else 0) + 2
        spare = {n: heights[n] - h for n, h in least_h.items() if heights[n] > h}
        take = min(max(0, need - heights[row]), sum(spare.values()))
        if take:
            room = sum(spare.values())
            for n, extra in spare.items():
                heights[n] -= take * extra // room + 1
            heights[row] += take
    y = pad
    texts: list[Text] = []
    boxes: list[tuple[Rect, str]] = []
    engine_place: TilePlace | None = None

    def box(lx: int, ly: int, lw: int, lh: int) -> Rect:
        return to_screen(hub, angle, (lx, ly, lw, lh))

    def fit(words: str, area: Rect, colour: theme.Colour, cap: int, lines: int = 1,
            align: str = "center", speaks: str = lang, least: int | None = None) -> Text:
        least = floor_of(speaks) if least is None else least
        return text.fit(words, area, max_size=max(cap, least), min_size=least, angle=angle,
                        colour=colour, max_lines=lines, align=align, lang=speaks)

    for name, _ in rows:
        h = heights[name]
        if name == "header":
            rnd, rounds = view.round, view.rounds
            left = (_say(view, facing, "screen.round_of", round=rnd, rounds=rounds) if rnd
                    else _say(view, facing, "screen.set", set=view.set))
            right = ("" if view.phase == "lobby"
                     else _say(view, facing, "screen.boneyard", count=view.boneyard))
            half = (inner_w - pad) // 2
            first, second = (pad, y, half, h), (2 * pad + half, y, inner_w - half - pad, h)
            if text.reads_rtl(lang):
                # Mirrored as the reader reads: the round at the right, the boneyard at
                # the left (unmirrored, the two met mid-hub as one phrase).
                first, second = (rw - pad - half, y, half, h), (pad, y, second[2], h)
            # One size for both, so neither reads as the headline.
            size = min(fit(left, box(*first), theme.INK, 56, least=own).size,
                       fit(right, box(*second), theme.INK_DIM, 56, least=own).size)
            texts.append(fit(left, box(*first), theme.INK, size, align="left", least=own))
            texts.append(fit(right, box(*second), theme.INK_DIM, size, align="right",
                             least=own))
        elif name == "engine" and engine:
            short = max(6, min(h - 2, inner_w // 4))
            value = tile_pips(engine)[0]
            lw, lh = 2 * short, short
            local = (pad + (inner_w - lw) // 2, y + (h - lh) // 2, lw, lh)
            engine_place = TilePlace(box(*local), value, value, angle in (90, 270), True,
                                     angle, "engine", None, False)
            if not view.engine_laid:
                engine_place = None
                texts.append(fit(_say(view, facing, "screen.engine", tile=engine),
                                 box(pad, y, inner_w, h), theme.INK_DIM, 70))
        elif name == "banner" and banner:
            texts.append(fit(banner, box(pad, y, inner_w, h), theme.GOLD, 80, lines=2,
                             least=own))
        elif name == "prompt":
            texts.append(fit(prompt, box(pad, y, inner_w, h), theme.INK, 64,
                             lines=prompt_lines))
        elif name == "rejection" and rejection:
            area = box(pad, y, inner_w, h)
            boxes.append((area, "alert"))
            refused = _language(view, rejection.seat)
            said = say(rejection.message, refused, names(view, refused))
            texts.append(fit(said, _inset(area, pad // 2), theme.INK, 56,
                             lines=rejection_lines, speaks=refused))
        elif name == "notices":
            area = box(pad, y, inner_w, h)
            boxes.append((area, "warning"))
            line_h = (area[3] if angle in (0, 180) else area[2]) // len(notices)
            for k, notice in enumerate(notices):
                local = (pad + pad // 2, y + k * line_h + pad // 4, inner_w - pad,
                         line_h - pad // 2)
                texts.append(fit(notice, box(*local), theme.DARK_INK, 48, lines=1,
                                 least=own))
        y += h + pad
    return engine_place, texts, boxes
