"""The screens sleep when the table does: with no game in play and nothing happening they
dim, then blank; a new view or a touch wakes them at once; during a game never."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest
from fakes import Clock, QueueFeed
from sample_views import as_view, load

from display import sleep
from display.client import Follower, FrameSink
from roundhouse.tablefile import SleepSettings, TableFileError, sleep_from

SETTINGS = SleepSettings(dim_after_s=60, blank_after_s=120, dim_to=0.25)


def brightness(path) -> float:
    picture = pygame.image.load(str(path))
    return pygame.transform.average_color(picture)[:3]


@pytest.fixture
def table(tmp_path):
    clock, feed = Clock(), QueueFeed()
    sink = FrameSink(tmp_path, (640, 400), "wall")
    follower = Follower(feed, sink, "wall", animate=False, sleep_settings=SETTINGS,
                        clock=clock)
    return follower, feed, sink, clock, tmp_path


def test_an_idle_lobby_dims_then_blanks_and_a_new_view_wakes_it(table):
    follower, feed, _sink, clock, folder = table
    lobby = as_view(load("lobby_6"))
    feed.views.append(lobby)
    follower.step()
    awake = brightness(folder / f"wall-{lobby.seq:06d}.png")
    clock.now += 59
    follower.step()
    assert follower.looks == sleep.AWAKE and not (folder / "wall-dim.png").exists()
    clock.now += 2
    follower.step()
    assert follower.looks == sleep.DIM
    dim = brightness(folder / "wall-dim.png")
    assert sum(dim) < 0.4 * sum(awake) and sum(dim) > 0
    clock.now += 60
    follower.step()
    assert follower.looks == sleep.BLANK
    assert brightness(folder / "wall-blank.png") == (0, 0, 0)
    # A seat joins: the new view wakes the screen at once.
    joined = replace(lobby, seq=lobby.seq + 1, seats=(
        replace(lobby.seats[0], joined=not lobby.seats[0].joined), *lobby.seats[1:]))
    feed.views.append(joined)
    follower.step()
    assert follower.looks == sleep.AWAKE
    assert brightness(folder / "wall-awake.png") == pytest.approx(awake, abs=8)


def test_a_touch_wakes_a_sleeping_screen(table):
    follower, feed, sink, clock, _folder = table
    feed.views.append(as_view(load("game_over_8")))
    follower.step()
    clock.now += 500
    follower.step()
    assert follower.looks == sleep.BLANK
    sink.touched = True  # a key, a click or a tap on the screen
    follower.step()
    assert follower.looks == sleep.AWAKE and not sink.touched


@pytest.mark.parametrize("name", ["deal_4", "play_8", "reveal_8", "summary_8"])
def test_a_game_in_play_never_sleeps(name, table):
    follower, feed, _sink, clock, folder = table
    feed.views.append(as_view(load(name)))
    follower.step()
    for _ in range(3):
        clock.now += 3600
        follower.step()
        assert follower.looks == sleep.AWAKE
    assert not (folder / "wall-dim.png").exists()


def test_the_sleep_settings_are_checked():
    assert sleep_from({}) == SleepSettings()
    never = sleep_from({"display": {"sleep": {"dim_after_s": 0, "blank_after_s": 0}}})
    assert sleep.state(never, 10**6, None) == sleep.AWAKE
    for bad in ({"dim_after_s": -1}, {"dim_to": 2}, {"blank_after_s": 10, "dim_after_s": 20},
                {"nap": 1}):
        with pytest.raises(TableFileError, match=r"display\.sleep"):
            sleep_from({"display": {"sleep": bad}})
