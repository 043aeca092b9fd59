"""`roundhouse display --view league`: the room's wall with the league's standings.

    roundhouse display --view league --broker HOST:PORT [--username U --password-file F]
                       [--size WxH] [--fullscreen] [--screen N] [--frames DIR] [--lang L]
                       [--qr URL]

The same command as a table's screens, drawn with the same type and colours
(display.text, display.theme), but following the league's retained standings on the
broker instead of a table's view socket: the title with the number of tables online,
then one row per player, most wins first (place, name, games, wins, points). It redraws
when the standings change; before the first it says it waits.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pygame

from display import DisplayError, text, theme
from display import qr as qr_code
from display.client import FrameSink, ScreenError, Sink, WindowSink, parse_size
from gamenight.league_client import StandingsFollower
from gamenight.mqtt import BrokerError, add_broker_options, broker_of
from roundhouse import messages as say
from roundhouse.address import page_url
from roundhouse.messages import message
from roundhouse.render import languages, number, render

MAX_ROWS = 16  # the wall is read across the room: the top of the league


def draw(surface: pygame.Surface, rows: list[dict[str, Any]] | None, tables_online: int,
         lang: str, *, beside: int = 0) -> None:
    """The standings; `beside` pixels on the reader's end side are left for the QR code."""
    full_width, height = surface.get_size()
    width = full_width - beside
    surface.fill(theme.FELT)
    rtl = text.reads_rtl(lang)
    bar = height // 9
    pygame.draw.rect(surface, theme.HUB, (0, 0, full_width, bar))
    title = render(message(say.WEB_LEAGUE), lang)
    if rows is not None:
        online = render(message(say.WEB_TABLES_ONLINE, n=tables_online), lang)
        title = f"{title} · {online}"
    else:
        title = f"{title} · {render(message(say.SCREEN_WAITING_TABLE), lang)}"
    text.draw(surface, text.fit(title, (width // 60, 0, width * 58 // 60, bar), max_size=bar,
                                min_size=12, colour=theme.INK, align="left", lang=lang))
    if not rows:
        return
    shown = rows[:MAX_ROWS]
    header = [say.SCREEN_PLACE, say.SCREEN_PLAYER, say.WEB_GAMES, say.WEB_WINS,
              say.SCREEN_TOTAL]
    # Column shares of the width, in reading order.
    shares = (0.1, 0.45, 0.15, 0.15, 0.15)
    row_h = (height - bar) // (len(shown) + 1)
    lines = [[render(message(h), lang) for h in header]] + [
        [number(place, lang), str(r["player"]), number(int(r["games"]), lang),
         number(int(r["wins"]), lang), number(int(r["points"]), lang)]
        for place, r in enumerate(shown, start=1)]
    header_size = min(
        text.fit(cell, (0, 0, int(share * width) - width // 40, row_h), max_size=row_h // 2,
                 min_size=10, lang=lang).size
        for cell, share in zip(lines[0], shares, strict=True))
    for index, cells in enumerate(lines):
        top = bar + index * row_h
        if index:
            fill = theme.GOLD if index == 1 else (theme.PANEL if index % 2 else theme.FELT_DARK)
            start = beside if rtl else 0
            pygame.draw.rect(surface, fill, (start + width // 120, top + 2, width - width // 60,
                                             row_h - 4), border_radius=max(3, height // 200))
        ink = theme.INK_DIM if index == 0 else (theme.DARK_INK if index == 1 else theme.INK)
        left = 0.0
        for column, (cell, share) in enumerate(zip(cells, shares, strict=True)):
            span = int(share * width)
            x = int(full_width - left * width - span) if rtl else int(left * width)
            left += share
            align = "left" if column == 1 else "center"
            # The headers share one size, the smallest that fits them all.
            biggest = row_h * 3 // 4 if index else header_size
            text.draw(surface, text.fit(cell, (x + width // 80, top, span - width // 40, row_h),
                                        max_size=biggest, min_size=10, colour=ink,
                                        align=align, lang=lang))


def _room_for(surface: pygame.Surface, modules: tuple[tuple[bool, ...], ...] | None,
              lang: str) -> int:
    """The width the QR code's card takes at the side, with its margins."""
    if not modules:
        return 0
    size = surface.get_size()
    (_left, _top, side, _full), _module = qr_code.placement(size, len(modules),
                                                            text.reads_rtl(lang))
    return side + size[1] // 30


def configure_display(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--view", choices=["league"], required=True)
    add_broker_options(parser, required=True)
    parser.add_argument("--size", type=str, help="window or picture size, e.g. 1920x1080")
    parser.add_argument("--fullscreen", action="store_true", help="fill the whole screen")
    parser.add_argument("--screen", type=int,
                        default=int(os.environ.get("ROUNDHOUSE_SCREEN", "0") or 0),
                        help="which connected screen to use, from 0")
    parser.add_argument("--frames", type=Path, metavar="DIR",
                        help="no window: one PNG per change of the standings")
    parser.add_argument("--lang", choices=languages(), default="en",
                        help="the wall's language (default: en)")
    parser.add_argument("--qr", metavar="URL",
                        help="a QR code of this address in the corner ('auto': this Pi's "
                        "LAN address, port 8080)")


def run_display(args: argparse.Namespace) -> int:
    try:
        broker = broker_of(args)
        assert broker is not None  # --broker is required
        size = parse_size(args.size) if args.size else None
        url = (page_url() if args.qr == "auto" else args.qr) if args.qr else None
        modules = qr_code.matrix(url) if url else None
        changed = threading.Event()
        changed.set()  # the first picture: waiting for the league
        league = StandingsFollower(broker, changed.set, who="roundhouse display")
        sink: Sink
        if args.frames:
            sink = FrameSink(args.frames, size or (1920, 1080), "league")
        else:
            sink = WindowSink(size, args.fullscreen, args.screen)
    except (BrokerError, DisplayError) as err:
        print(f"roundhouse display: {err}", file=sys.stderr)
        return 1 if isinstance(err, ScreenError) else 2
    shown = 0
    try:
        while sink.events():
            if changed.wait(0.25):
                changed.clear()
                draw(sink.surface, league.rows, league.tables_online, args.lang,
                     beside=_room_for(sink.surface, modules, args.lang))
                if url and modules:
                    qr_code.draw(sink.surface, url, args.lang, modules)
                shown += 1
                sink.show(f"{shown:06d}")
    finally:
        league.stop()
    return 0
