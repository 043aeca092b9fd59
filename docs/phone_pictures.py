"""Takes the phone page's pictures of the docs in Debian's chromium (through Playwright),
from the named sample views of tests/views/ served as a table would serve them.

    python docs/phone_pictures.py            # writes them into docs/
    python docs/phone_pictures.py FOLDER     # or somewhere else, to look at them first

Needs the `night` extra (`pip install -e '.[night]'`, the test extra has it) and
/usr/bin/chromium. Browsers draw text with the machine's fonts, so the page's pictures
are not compared pixel by pixel in the tests (tests/night/test_web_page.py checks the
page); the league's wall, drawn by pygame, is (tests/night/test_doc_pictures_night.py).
"""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"


class Picture(NamedTuple):
    path: str  # relative to docs/
    view: str  # a file of tests/views/ without ".json"
    lang: str
    size: tuple[int, int]


PICTURES = (
    Picture("phone-play.png", "play_6", "en", (360, 780)),
    Picture("phone-game-over-fa.png", "game_over_8", "fa", (360, 780)),
    Picture("phone-tablet-ar.png", "game_over_8", "ar", (800, 1000)),
)


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _take(picture: Picture, folder: Path, browser: object, work: Path) -> Path:
    from aiohttp import web

    from gamenight.follow import TableFollower
    from gamenight.samples import serve_views
    from gamenight.web import PageService

    sock = work / f"{picture.view}.sock"
    line = (ROOT / "tests" / "views" / f"{picture.view}.json").read_text().replace("\n", " ")
    server = await serve_views(sock, [line])
    follower = TableFollower(sock)
    follow = asyncio.create_task(follower.run())
    runner = web.AppRunner(PageService(follower, default_lang="en", url="").app(),
                           shutdown_timeout=0.5)
    await runner.setup()
    port = _port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        width, height = picture.size
        page = await browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        await page.goto(f"http://127.0.0.1:{port}/?lang={picture.lang}")
        await page.wait_for_function("window.roundhouseBoards > 0 && document.body.dataset.phase")
        out = folder / picture.path
        await page.screenshot(path=str(out), full_page=True)
        await page.close()
        return out
    finally:
        follow.cancel()
        await runner.cleanup()
        server.close()


# The league's wall (roundhouse display --view league), drawn by pygame from standings
# as the league publishes them.
LEAGUE_WALL = "league-wall.png"
LEAGUE = [
    {"player": "Ana", "games": 3, "wins": 2, "rounds": 39, "points": 812},
    {"player": "Gintarė", "games": 3, "wins": 1, "rounds": 39, "points": 955},
    {"player": "Farid", "games": 2, "wins": 0, "rounds": 26, "points": 640},
    {"player": "Ελένη", "games": 3, "wins": 0, "rounds": 39, "points": 1204},
    {"player": "Bo", "games": 1, "wins": 0, "rounds": 13, "points": 388},
]


def draw_league_wall() -> object:
    """The league's wall picture as a pygame surface."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display import qr
    from gamenight.wall import _room_for, draw

    surface = pygame.Surface((1280, 720))
    url = "http://192.168.1.20:8080/"
    modules = qr.matrix(url)
    draw(surface, LEAGUE, 5, "en", beside=_room_for(surface, modules, "en"))
    qr.draw(surface, url, "en", modules)
    return surface


def league_wall(folder: Path) -> Path:
    import pygame

    out = folder / LEAGUE_WALL
    surface = draw_league_wall()
    assert isinstance(surface, pygame.Surface)
    pygame.image.save(surface, str(out))
    return out


async def write(folder: Path) -> list[Path]:
    from playwright.async_api import async_playwright

    folder.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            with tempfile.TemporaryDirectory() as work:
                taken = [await _take(pic, folder, browser, Path(work)) for pic in PICTURES]
                return [*taken, league_wall(folder)]
        finally:
            await browser.close()


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for path in asyncio.run(write(target)):
        print(path)
