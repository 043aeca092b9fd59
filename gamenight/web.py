"""`roundhouse web`: the phone page of a table, live over Server-Sent Events.

    roundhouse web [--config FILE | --socket PATH] [--host H] [--port P] [--lang L]
                   [--url URL] [--broker HOST:PORT ...]

A separate service beside the table service: it follows the view socket, as a screen
does, and serves

- `/` the page, in the phone's language (`?lang=xx`, remembered in a cookie, else the
  browser's Accept-Language, else `--lang`);
- `/events?lang=xx` the stream the page follows: one `board` event with everything
  the page shows (gamenight.board) after every change of the table, and a `league`
  event with the standings when a league is followed (`--broker`);
- `/board.json?lang=xx` the same content once; `/qr.svg` a QR code of the page's
  address (`--url`, else found from the Pi's LAN address).

The table service keeps no network socket of its own: a phone never reaches it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import sys
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from gamenight.board import board, labels, language_choices, league_board, negotiate, waiting
from gamenight.follow import Signal, TableFollower
from roundhouse.address import PAGE_PORT, page_url
from roundhouse.errors import RoundhouseError
from roundhouse.render import direction, languages
from roundhouse.tablefile import DEFAULT_SOCKET, TableFileError, view_socket

DEFAULT_PORT = PAGE_PORT
# Phones of one game night: a bound keeps a crowd (or a misbehaving page) from using the
# Pi's memory; one more gets "503, try again".
MAX_STREAMS = 200
# A phone that closes the page is let go at once (the runner cancels its stream when the
# connection closes); a comment line this often finds the phones that vanished without
# closing it (out of the Wi-Fi's reach).
HEARTBEAT_S = 15.0
LANG_COOKIE = "roundhouse_lang"


class WebError(RoundhouseError):
    """The page cannot be served: a port in use, a configuration that cannot be read."""


class League(Protocol):
    """The league's standings as the page shows them (gamenight.league_client)."""

    rows: list[dict[str, Any]] | None
    tables_online: int


def _static(name: str) -> str:
    return resources.files("gamenight").joinpath("static", name).read_text(encoding="utf-8")


class PageService:
    def __init__(self, follower: TableFollower, *, default_lang: str, url: str,
                 league: League | None = None) -> None:
        self.follower = follower
        self.signal: Signal = follower.signal
        self.default_lang = default_lang
        self.url = url
        self.league = league
        self.streams = 0
        self._page = _static("page.html")

    # --- content ----------------------------------------------------------------------

    def lang_of(self, request: web.Request) -> str:
        chosen = request.query.get("lang") or request.cookies.get(LANG_COOKIE)
        if chosen in languages():
            return str(chosen)
        return negotiate(request.headers.get("Accept-Language"), self.default_lang)

    def content(self, lang: str) -> dict[str, Any]:
        view = self.follower.view
        shown = board(view, lang) if view is not None else waiting(lang)
        shown["online"] = self.follower.online
        return shown

    def league_content(self, lang: str) -> dict[str, Any] | None:
        if self.league is None or self.league.rows is None:
            return None
        return league_board(self.league.rows, self.league.tables_online, lang)

    # --- handlers ---------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        lang = self.lang_of(request)
        words = labels(lang)
        options = "".join(
            f'<option value="{c["code"]}"{" selected" if c["code"] == lang else ""}>'
            f'{html.escape(c["name"])}</option>'
            for c in language_choices())
        text = (self._page
                .replace("{lang}", lang).replace("{dir}", direction(lang))
                .replace("{title}", html.escape(words["title"]))
                .replace("{language}", html.escape(words["language"]))
                .replace("{options}", options)
                # Inside <script>, only "<" could end it early: written as \u003c.
                .replace("{labels}",
                         json.dumps(words, ensure_ascii=False).replace("<", "\\u003c")))
        response = web.Response(text=text, content_type="text/html", charset="utf-8")
        if request.query.get("lang") in languages():
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Lax")
        return response

    async def board_json(self, request: web.Request) -> web.Response:
        lang = self.lang_of(request)
        return web.json_response({"board": self.content(lang),
                                  "league": self.league_content(lang)},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def events(self, request: web.Request) -> web.StreamResponse:
        if self.streams >= MAX_STREAMS:
            raise web.HTTPServiceUnavailable(text="too many phones follow this table now; "
                                             "try again in a minute")
        lang = self.lang_of(request)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        self.streams += 1
        try:
            await response.prepare(request)
            async for chunk in self._stream(lang):
                await response.write(chunk)
        except ConnectionResetError:
            pass  # the heartbeat found the phone gone
        finally:
            self.streams -= 1
        return response

    async def _stream(self, lang: str) -> AsyncIterator[bytes]:
        seen = -1
        last: tuple[str, str] | None = None
        while True:
            if seen == self.signal.count and last is not None:
                yield b": ping\n\n"
            seen = self.signal.count
            now = (_event("board", self.content(lang)),
                   _event("league", self.league_content(lang)))
            for old, new in zip(last or ("", ""), now, strict=True):
                if new != old:
                    yield new.encode()
            last = now
            await self.signal.wait(seen, HEARTBEAT_S)

    async def qr(self, request: web.Request) -> web.Response:
        return web.Response(body=qr_svg(self.url), content_type="image/svg+xml")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = {"page.js": "text/javascript", "page.css": "text/css"}[name]
        return web.Response(text=_static(name), content_type=kind, charset="utf-8")

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes([
            web.get("/", self.page),
            web.get("/events", self.events),
            web.get("/board.json", self.board_json),
            web.get("/qr.svg", self.qr),
            web.get("/static/{name:page\\.(js|css)}", self.static),
        ])
        return app


def page_runner(service: PageService) -> web.AppRunner:
    """The page's server. `handler_cancellation`: a phone's stream ends (and frees its
    place among the MAX_STREAMS) as soon as the phone closes the connection."""
    return web.AppRunner(service.app(), shutdown_timeout=1.0, handle_signals=True,
                         handler_cancellation=True)


def _event(name: str, data: object) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {text}\n\n"


def qr_svg(url: str) -> bytes:
    """A QR code of `url` as an SVG image (dark modules on white, a quiet zone)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    return out.getvalue()


# --- the command ----------------------------------------------------------------------


def configure_web(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--config", type=Path, help="the table's configuration file (its "
                       "[service] socket is followed)")
    where.add_argument("--socket", type=Path, help=f"the view socket (default {DEFAULT_SOCKET})")
    parser.add_argument("--host", default="0.0.0.0",
                        help="the address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--lang", default="en", choices=languages(),
                        help="the page's language when the phone asks for none we speak")
    parser.add_argument("--url", default=None,
                        help="the page's address for the QR code (default: "
                        "http://LAN-ADDRESS:PORT/)")
    from gamenight.mqtt import add_broker_options

    add_broker_options(parser, required=False)


def socket_of(args: argparse.Namespace) -> Path:
    if args.socket is not None:
        return Path(args.socket)
    if args.config is not None:
        return view_socket(args.config)
    return DEFAULT_SOCKET


def run_web(args: argparse.Namespace) -> int:
    try:
        follower = TableFollower(socket_of(args))
    except TableFileError as err:
        print(f"roundhouse web: {err}", file=sys.stderr)
        return 2
    url = args.url or page_url(args.port)
    try:
        asyncio.run(_serve(follower, args, url))
    except RoundhouseError as err:  # a port in use, a broker's address or password file
        print(f"roundhouse web: {err}", file=sys.stderr)
        return 2
    return 0


async def _serve(follower: TableFollower, args: argparse.Namespace, url: str) -> None:
    from gamenight.mqtt import broker_of

    broker = broker_of(args)
    league = None
    stop_league: Callable[[], None] = lambda: None  # noqa: E731
    if broker is not None:
        from gamenight.league_client import StandingsFollower

        loop = asyncio.get_running_loop()
        woken: set[asyncio.Future[None]] = set()

        def wake() -> None:
            future = asyncio.ensure_future(follower.signal.bump())
            woken.add(future)
            future.add_done_callback(woken.discard)

        def news() -> None:  # in paho's thread
            loop.call_soon_threadsafe(wake)

        league = StandingsFollower(broker, news, who="roundhouse web")
        stop_league = league.stop
    service = PageService(follower, default_lang=args.lang, url=url, league=league)
    runner = page_runner(service)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port)
    try:
        await site.start()
    except OSError as err:
        await runner.cleanup()
        raise WebError(f"cannot listen on {args.host}:{args.port}: {err.strerror} "
                       "(--port chooses another)") from None
    print(f"roundhouse web: the page is at {url} (following {follower.socket})", flush=True)
    follow = asyncio.create_task(follower.run())
    try:
        await asyncio.Event().wait()
    finally:
        follow.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follow
        stop_league()
        await runner.cleanup()
