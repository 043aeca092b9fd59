"""Actions in the game record's move syntax, and the legal view's container protocol."""

import pytest
from rules_helpers import house, start, tiles

from firmware_py.rules import (
    MEXICAN,
    BadAction,
    Draw,
    Pass,
    Play,
    Reveal,
    StartRound,
    Tile,
    action_from_json,
    action_to_json,
    legal_actions,
)

ACTIONS = [
    Play(0, Tile(12, 5), 0),
    Play(2, Tile(5, 3), MEXICAN, 1),
    Draw(1),
    Draw(1, Tile(4, 4)),
    Pass(3),
    Reveal(2, tiles("5-3 0-0")),
    StartRound((tiles("12-5 5-3"), tiles("9-9")), tiles("11-4"), starter=1, engine=Tile(12, 12)),
    StartRound((7, None, 3), None),
    StartRound(None, None),
]


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_actions_round_trip_through_the_record_syntax(action):
    assert action_from_json(action_to_json(action)) == action


def test_the_record_syntax_reads_as_designed():
    assert action_from_json({"seat": 0, "play": "3-5", "on": "mexican"}) == Play(
        0, Tile(5, 3), MEXICAN
    )
    assert action_to_json(Draw(1)) == {"seat": 1, "draw": True}
    assert action_to_json(StartRound((tiles("5-3"),), ())) == {
        "start_round": {"hands": [["5-3"]], "boneyard": [], "starter": None, "engine": None}
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 0},
        {"seat": 0, "play": "5-3"},
        {"seat": 0, "play": "5/3", "on": 0},
        {"seat": -1, "pass": True},
        {"seat": 0, "pass": False},
        {"seat": 0, "draw": 3},
        {"seat": 0, "play": "5-3", "on": "hub"},
        {"seat": 0, "pass": True, "draw": True},
        {"seat": 0, "pass": True, "colour": "red"},
        "pass",
    ],
)
def test_malformed_moves_are_bad_actions(bad):
    with pytest.raises(BadAction):
        action_from_json(bad)


def test_the_legal_view_is_a_read_only_sequence():
    state = start(house(), ["9-5 5-3", "9-1 2-0"], "8-8")
    legal = legal_actions(state)
    assert bool(legal) and len(legal) == len(list(legal)) == 3
    assert list(legal) == [Play(0, Tile(9, 5), 0), Play(0, Tile(9, 5), MEXICAN), Draw(0)]
    assert legal[0] in legal and Draw(0) in legal
    assert Pass(0) not in legal and Play(1, Tile(9, 1), 1) not in legal
    assert list(state.legal_actions) == list(state.legal_actions()) == list(legal)
