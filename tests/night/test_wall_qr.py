"""The wall shows a QR code of the phone page's address in the lobby, module for module,
with the words under it in the wall's language."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
import segno
from night_services import Processes, wait_until

from display import qr
from gamenight.samples import serve_views

VIEWS = Path(__file__).resolve().parents[1] / "views"
URL = "http://192.168.1.20:8080/"


@pytest.fixture
def table_socket(tmp_path: Path) -> Iterator[Path]:
    """A socket serving one saved view, as an idle table would."""
    sock = tmp_path / "view.sock"
    loop = asyncio.new_event_loop()
    line = (VIEWS / "lobby_6.json").read_text().replace("\n", " ")
    server = loop.run_until_complete(serve_views(sock, [line]))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield sock
    finally:
        loop.call_soon_threadsafe(server.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)


def test_the_wall_shows_the_page_address_as_a_qr_code(
    processes: Processes, tmp_path: Path, table_socket: Path
) -> None:
    frames = tmp_path / "frames"
    processes.roundhouse("display", "display", "--view", "wall", "--socket", str(table_socket),
                         "--frames", str(frames), "--size", "1280x720", "--qr", URL,
                         "--lang", "fa")
    drawn = lambda: [p for p in frames.glob("wall-0*.png")] if frames.exists() else []  # noqa: E731
    wait_until(lambda: bool(drawn()), "the wall's first frame")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    picture = pygame.image.load(str(drawn()[0]))
    code = segno.make(URL, error="m").matrix
    (left, top, _side, _full), module = qr.placement((1280, 720), len(code), rtl=True)
    # Right to left: the card is in the reader's end corner, bottom left.
    assert left < 1280 // 2
    for y, row in enumerate(code):
        for x, dark in enumerate(row):
            centre = (left + (qr.QUIET + x) * module + module // 2,
                      top + (qr.QUIET + y) * module + module // 2)
            shade = sum(picture.get_at(centre)[:3]) / 3
            assert (shade < 128) == bool(dark), (x, y)
    # The quiet zone is light all round.
    assert sum(picture.get_at((left + module // 2, top + module // 2))[:3]) / 3 > 128


def test_qr_is_for_the_wall(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_py.cli import main

    assert main(["display", "--view", "table", "--qr", URL, "--frames", "/nonexistent"]) == 2
    assert "--qr is for the wall" in capsys.readouterr().err
