"""Draws every picture of the docs from the named sample views of tests/views/.

    python docs/pictures.py            # writes them all into docs/
    python docs/pictures.py FOLDER     # or somewhere else, to look at them first

This is the only way the docs' pictures are made: tests/display/test_doc_pictures.py
draws them again and compares, so a picture in the docs always shows what the screens
draw today (their controls and words included). After an intended change of the look,
run this script and look at what changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NamedTuple

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VIEWS = ROOT / "tests" / "views"
sys.path.insert(0, str(ROOT))

from display import table_screen, wall_screen  # noqa: E402
from roundhouse.view import load_view  # noqa: E402

SCREENS = {"table": table_screen.render, "wall": wall_screen.render}


class Picture(NamedTuple):
    path: str  # relative to docs/
    screen: str  # "table" or "wall"
    view: str  # a file of tests/views/ without ".json"
    size: tuple[int, int]


FULL_HD, LAPTOP = (1920, 1080), (1280, 800)

PICTURES: list[Picture] = [
    # The pictures the guides show.
    Picture("table-4-seats.png", "table", "play_4", FULL_HD),
    Picture("table-8-seats.png", "table", "busy_8", FULL_HD),
    Picture("wall-4-seats.png", "wall", "play_4", FULL_HD),
    Picture("wall-8-seats.png", "wall", "busy_8", FULL_HD),
    Picture("wall-summary.png", "wall", "summary_8", FULL_HD),
    Picture("wall-game-over.png", "wall", "game_over_8", FULL_HD),
    Picture("table-1280x720.png", "table", "play_14", (1280, 720)),
]
# Every screen at 2, 8 and 14 seats, on a full-HD screen and a laptop's.
for _seats in (2, 8, 14):
    for _w, _h in (FULL_HD, LAPTOP):
        PICTURES.append(Picture(f"screens/table-play-{_seats}-{_w}x{_h}.png", "table",
                                f"play_{_seats}", (_w, _h)))
        for _phase in ("play", "reveal", "summary", "game_over"):
            PICTURES.append(Picture(f"screens/wall-{_phase.replace('_', '-')}-{_seats}-"
                                    f"{_w}x{_h}.png", "wall", f"{_phase}_{_seats}", (_w, _h)))


def draw(picture: Picture) -> pygame.Surface:
    view = load_view(VIEWS / f"{picture.view}.json")
    surface = pygame.Surface(picture.size)
    SCREENS[picture.screen](surface, view)
    return surface


def write(folder: Path) -> list[Path]:
    written = []
    for picture in PICTURES:
        path = folder / picture.path
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(draw(picture), str(path))
        written.append(path)
    return written


if __name__ == "__main__":
    for out in write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(out)
