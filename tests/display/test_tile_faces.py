"""A tile's face is drawn on a copy of a blank face kept between faces: whatever faces
were drawn before it, at whatever sizes and either way round, a face is the one drawn
with nothing kept, and its pips are where a domino has them."""

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import theme, tiles

# Few sizes, so that faces drawn before share sizes (and halves) with the one checked.
faces = st.tuples(st.integers(0, 13), st.integers(0, 13), st.sampled_from((9, 20, 33)),
                  st.booleans(), st.booleans(), st.sampled_from((0, 90, 180, 270)))


def drawn(a: int, b: int, short: int, upright: bool, a_first: bool, facing: int) -> bytes:
    w, h = (short, 2 * short) if upright else (2 * short, short)
    return pygame.image.tobytes(tiles.face(a, b, w, h, a_first, facing), "RGBA")


def forget() -> None:
    for cached in (tiles.face, tiles._blank):
        cached.cache_clear()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=st.lists(faces, max_size=6), face=faces)
def test_a_face_is_the_same_whatever_was_drawn_before_it(before, face):
    pygame.init()
    forget()
    alone = drawn(*face)
    forget()
    for other in before:
        drawn(*other)
    tiles.face.cache_clear()  # the blank faces kept, the face itself drawn again
    assert drawn(*face) == alone


def test_each_half_shows_its_number_of_pips():
    pygame.init()
    forget()
    short = 40
    for value in range(1, 10):
        face = tiles.face(value, 0, short, 2 * short, True, 0)
        inside = face.subsurface((3, 3, short - 6, short - 6))  # the half, not its edge
        pips = pygame.mask.from_threshold(inside, theme.PIP_COLOURS[value], (40, 40, 40, 255))
        assert len(pips.connected_components(minimum=8)) == value, value
