"""`roundhouse web`'s server as phones meet it, raw: its event stream, the bound on how
many phones follow at once, a phone that closes the page, the QR code of the page."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from xml.etree import ElementTree

import pytest
from night_services import free_port

from gamenight import web as page
from gamenight.follow import Signal, TableFollower
from gamenight.samples import serve_views
from roundhouse.view import load_view

VIEWS = Path(__file__).resolve().parents[1] / "views"
TILE = re.compile(rb"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")
STARTUP_S = 20.0


@asynccontextmanager
async def _serving(tmp_path: Path, views: list[Path]) -> AsyncIterator[
        tuple[page.PageService, int]]:
    """The page's server as `roundhouse web` runs it, following a table that shows
    `views`."""
    sock = tmp_path / "view.sock"
    table = await serve_views(sock, [json.dumps(json.loads(p.read_text())) for p in views])
    follower = TableFollower(sock)
    service = page.PageService(follower, default_lang="en", url="http://table1.local:8080/")
    runner = page.page_runner(service)
    await runner.setup()
    port = free_port()
    await page.web.TCPSite(runner, "127.0.0.1", port).start()
    follow = asyncio.create_task(follower.run())
    try:
        yield service, port
    finally:
        follow.cancel()
        await runner.cleanup()
        table.close()


async def _until(condition: Callable[[], bool], what: str) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    try:
        await asyncio.wait_for(poll(), STARTUP_S)
    except TimeoutError:
        raise AssertionError(f"{what}: not within {STARTUP_S:g} s") from None


async def _get(port: int, path: str) -> tuple[
        asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A request; the answer's status line and headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: table1\r\n\r\n".encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), STARTUP_S)
    return reader, writer, head


async def _body(reader: asyncio.StreamReader, head: bytes) -> bytes:
    found = re.search(rb"Content-Length: (\d+)", head)
    assert found is not None
    return await asyncio.wait_for(reader.readexactly(int(found[1])), STARTUP_S)


async def _first_board(reader: asyncio.StreamReader) -> bytes:
    return await asyncio.wait_for(reader.readuntil(b"event: board\n"), STARTUP_S)


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


def test_a_phone_that_closes_the_page_frees_its_place_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No heartbeat would find it: the closed connection itself ends the stream.
    monkeypatch.setattr(page, "HEARTBEAT_S", 3600.0)

    async def scenario() -> None:
        async with _serving(tmp_path, [VIEWS / "play_6.json"]) as (service, port):
            reader, writer, head = await _get(port, "/events?lang=en")
            assert head.startswith(b"HTTP/1.1 200")
            await _first_board(reader)
            assert service.streams == 1
            writer.close()
            await _until(lambda: service.streams == 0, "the closed stream's place freed")

    _run(scenario)


def test_two_hundred_phones_follow_and_one_more_is_asked_to_wait(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _serving(tmp_path, [VIEWS / "play_6.json"]) as (service, port):
            phones = []
            for _ in range(page.MAX_STREAMS):
                reader, writer, head = await _get(port, "/events")
                assert head.startswith(b"HTTP/1.1 200")
                phones.append((reader, writer))
            assert page.MAX_STREAMS == 200 and service.streams == 200
            reader, writer, head = await _get(port, "/events")
            assert head.startswith(b"HTTP/1.1 503")
            body = await _body(reader, head)
            assert b"too many phones follow this table now; try again" in body
            writer.close()
            # One phone leaves: the next one is let in.
            phones.pop()[1].close()
            await _until(lambda: service.streams == 199, "a phone's place freed")
            reader, writer, head = await _get(port, "/events")
            assert head.startswith(b"HTTP/1.1 200")
            await _first_board(reader)
            writer.close()
            for _, phone in phones:
                phone.close()

    _run(scenario)


@pytest.mark.parametrize("steps", range(6))
def test_streams_cancelled_twice_leave_the_signal_working(steps: int) -> None:
    """A phone's stream is cancelled when it closes and again when the server shuts down.
    The second cancellation, `steps` turns of the loop after the first, must not leave
    the signal's lock taken: then every other stream and every change would wait on it
    for good (the server hung at its shutdown, the phones stopped following)."""

    async def scenario() -> None:
        signal = Signal()
        streams = [asyncio.create_task(signal.wait(0, 60.0)) for _ in range(5)]
        for _ in range(3):
            await asyncio.sleep(0)  # every stream waits
        for stream in streams:
            stream.cancel()
        for _ in range(steps):
            await asyncio.sleep(0)
        for stream in streams:
            stream.cancel()
        await asyncio.wait_for(asyncio.gather(*streams, return_exceptions=True), STARTUP_S)
        follower = asyncio.create_task(signal.wait(0, 60.0))
        await asyncio.sleep(0)
        await asyncio.wait_for(signal.bump(), STARTUP_S)
        assert await asyncio.wait_for(follower, STARTUP_S) == 1

    _run(scenario)


@pytest.mark.parametrize("name", sorted(p.name for p in VIEWS.glob("*.json")))
def test_the_raw_stream_never_carries_a_tile_but_engines_and_open_doubles(
        tmp_path: Path, name: str) -> None:
    view = load_view(VIEWS / name)
    # Public, all of them: the open doubles, this round's engine and every round's.
    allowed = ({d.tile for d in view.pending_doubles} | {view.engine} | set(view.round_engines)
               ) - {None}

    async def scenario() -> None:
        async with _serving(tmp_path, [VIEWS / name]) as (_service, port):
            reader, writer, _ = await _get(port, "/events?lang=en")
            sent = b""
            # Events until the table's own board (the first may say it waits for it).
            while b'"seats"' not in sent.rpartition(b"event: board")[2]:
                sent += await asyncio.wait_for(reader.readuntil(b"\n\n"), STARTUP_S)
            writer.close()
            tiles = {f"{a.decode()}-{b.decode()}" for a, b in TILE.findall(sent)}
            assert tiles <= {str(t) for t in allowed}, tiles

    _run(scenario)


def test_the_qr_code_is_the_pages_address(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _serving(tmp_path, [VIEWS / "lobby_6.json"]) as (_service, port):
            reader, writer, head = await _get(port, "/qr.svg")
            assert b"Content-Type: image/svg+xml" in head
            svg = await _body(reader, head)
            writer.close()
            # An SVG image of the page's configured address, not of any other.
            root = ElementTree.fromstring(svg)
            assert root.tag.endswith("svg") and root.get("width") == root.get("height")
            assert svg == page.qr_svg("http://table1.local:8080/")
            assert svg != page.qr_svg("http://table2.local:8080/")

    _run(scenario)
