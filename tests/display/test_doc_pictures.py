"""The docs' pictures are what `docs/pictures.py` draws from the sample views today, so
no guide can show old controls or an old look. After an intended change of the look:
`python docs/pictures.py`, then look at the pictures."""

import importlib.util
import re
from pathlib import Path

import pygame
import pytest
from sample_views import as_view

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHANNEL_TOLERANCE = 40  # per colour channel: fonts are smoothed a little differently
PIXEL_SHARE = 0.005  # on other machines; at most this share of pixels may differ


def load_pictures(name: str = "pictures"):
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PICTURES = load_pictures()
# The phone page's and the league wall's pictures (tests/night checks them).
NIGHT = load_pictures("phone_pictures")


def differing(a: pygame.Surface, b: pygame.Surface) -> int:
    tolerance = (CHANNEL_TOLERANCE,) * 3 + (255,)
    similar = pygame.transform.threshold(None, a, None, threshold=tolerance,
                                         set_behavior=0, search_surf=b)
    return a.get_width() * a.get_height() - similar


@pytest.mark.parametrize("picture", PICTURES.PICTURES, ids=lambda p: p.path)
def test_each_doc_picture_is_what_the_script_draws(picture):
    path = DOCS / picture.path
    assert path.exists(), f"{picture.path} is missing: run python docs/pictures.py"
    kept = pygame.image.load(str(path))
    assert kept.get_size() == picture.size
    drawn = PICTURES.draw(picture)
    assert differing(drawn, kept) <= PIXEL_SHARE * picture.size[0] * picture.size[1], (
        f"{picture.path} is not what the screens draw now: run python docs/pictures.py"
    )


def test_every_picture_in_the_docs_comes_from_the_script():
    made = {p.path for p in PICTURES.PICTURES}
    made |= {p.path for p in NIGHT.PICTURES} | {NIGHT.LEAGUE_WALL}
    kept = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.png")}
    assert kept == made, "a picture in docs/ that docs/pictures.py does not draw"
    for guide in [*DOCS.glob("*.md"), ROOT / "README.md"]:
        for ref in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", guide.read_text()):
            target = (guide.parent / ref).resolve()
            assert target.is_relative_to(DOCS.resolve()), ref
            assert str(target.relative_to(DOCS.resolve())) in made, f"{guide.name}: {ref}"


def test_the_game_over_picture_teaches_the_controls_the_program_has(view):
    from display.wall_layout import layout

    game_over = next(p for p in PICTURES.PICTURES if p.path == "wall-game-over.png")
    words = " ".join(" ".join(t.lines) for t in layout(as_view(view(game_over.view)),
                                                        game_over.size).texts)
    assert "Hold DRAW for a new game with the same seats" in words
    assert "PASS at seat 1" not in words


def test_the_comparison_catches_a_changed_picture():
    picture = next(p for p in PICTURES.PICTURES if p.path == "wall-game-over.png")
    drawn = PICTURES.draw(picture)
    other = PICTURES.draw(picture._replace(view="game_over_14"))
    assert differing(drawn, other) > PIXEL_SHARE * picture.size[0] * picture.size[1]
