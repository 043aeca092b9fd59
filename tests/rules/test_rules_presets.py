"""The five presets of docs/rules.md, "The presets", their deal tables (section 4) and BadDeal."""

import pytest

from firmware_py.rules import PRESETS, BadDeal, BadOptions, Options, deal, new_game

SUMMARY = {
    "classic": dict(
        engine="holder",
        first_turn="train",
        first_turn_elsewhere=False,
        double_follow="anywhere",
        double_blank=50,
        tie_break=("zero_rounds", "lowest_round"),
        first_turn_out_waits=True,
        first_turn_draw=False,
        must_play=True,
        drawn_tile="may_play",
        last_double_ends_round=True,
    ),
    "tournament": dict(
        engine="set_aside",
        starter="chosen",
        first_turn="train",
        double_follow="anywhere",
        double_blank=0,
        tie_break=(),
        first_turn_draw=True,
        must_play=True,
        drawn_tile="may_play",
        last_double_ends_round=True,
    ),
    "family": dict(
        engine="holder",
        first_turn="single",
        first_turn_elsewhere=False,
        drawn_tile="must_play",
        must_play=True,
        double_follow="anywhere",
        doubles_order="played",
        last_double_ends_round=True,
        double_blank=0,
    ),
    "simple": dict(
        engine="holder",
        first_turn="train",
        double_follow="anywhere",
        double_blank=0,
        first_turn_draw=False,
        must_play=True,
        drawn_tile="may_play",
        last_double_ends_round=True,
    ),
    "hub": dict(
        engine="set_aside",
        starter="chosen",
        first_turn="single",
        first_turn_elsewhere=True,
        must_play=True,
        doubles_order="played",
        dead_double_releases=True,
        last_double_ends_round=True,
        one_tile_alert=True,
        double_blank=50,
        double_follow="on_double",
    ),
}

DEALS = {
    "classic": {
        2: (9, 15),
        3: (9, 15),
        4: (12, 15),
        5: (12, 12),
        7: (12, 11),
        9: (15, 11),
        14: (18, 11),
    },
    "tournament": {2: (9, 8), 4: (12, 12), 6: (12, 12), 7: (12, 10), 12: (15, 11), 13: (18, 11)},
    "family": {2: (12, 12), 6: (12, 12), 8: (12, 10), 10: (12, 8)},
    "simple": {4: (12, 15), 5: (12, 12), 8: (12, 10), 9: (12, 8)},
    "hub": {
        2: (12, 16),
        3: (12, 16),
        4: (12, 15),
        5: (12, 14),
        6: (12, 12),
        7: (12, 10),
        8: (12, 9),
        10: (15, 11),
    },
}

UNSUPPORTED = {
    "classic": [1, 15],
    "tournament": [15],
    "family": [11, 12],
    "simple": [2, 3, 11],
    "hub": [13],
}


@pytest.mark.parametrize("name", sorted(SUMMARY))
def test_preset_follows_its_seed(name):
    options = PRESETS[name]
    for key, value in SUMMARY[name].items():
        assert getattr(options, key) == value, key


@pytest.mark.parametrize("name", sorted(DEALS))
def test_preset_deal_table(name):
    for players, expected in DEALS[name].items():
        assert PRESETS[name].deal_for(players) == expected


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_player_counts_are_a_bad_deal_listing_what_is_supported(name):
    for players in UNSUPPORTED[name]:
        with pytest.raises(BadDeal, match=r"Supported: .*players: double-"):
            new_game(PRESETS[name], players)


def test_a_deal_that_leaves_no_boneyard_is_refused():
    crowded = Options.from_json({"preset": "classic", "deal": {"4": [6, 7]}})
    with pytest.raises(BadDeal, match="leave no boneyard"):
        crowded.deal_for(4)
    with pytest.raises(BadDeal, match="no boneyard"):
        Options.from_json({"preset": "tournament", "deal": {"2": [6, 14]}}).deal_for(2)


def test_hub_variants_by_set():
    assert PRESETS["hub"].deal_for(4) == (12, 15)
    assert Options.preset("hub", set=9).deal_for(4) == (9, 10)
    assert Options.preset("hub", set=18).deal_for(12) == (18, 11)
    assert Options.preset("classic", set=6).deal_for(2) == (6, 7)


def test_the_deal_is_deterministic_and_follows_the_table():
    state = new_game(PRESETS["classic"], 4)
    one, two, other = deal(state, 42), deal(state, 42), deal(state, 43)
    assert one == two and one != other
    assert [len(h) for h in one.hands] == [15] * 4 and len(one.boneyard) == 91 - 60
    dealt = [t for h in one.hands for t in h] + list(one.boneyard)
    assert len(set(dealt)) == 91


def test_unknown_preset_and_options_are_refused_with_what_is_allowed():
    with pytest.raises(BadOptions, match="classic, tournament, family, simple, hub"):
        Options.from_json("speedy")
    with pytest.raises(BadOptions, match='double_follow does not take "never": it takes anywhere'):
        Options.from_json({"preset": "classic", "double_follow": "never"})
    with pytest.raises(BadOptions, match='unknown option "colour"'):
        Options.from_json({"preset": "classic", "colour": "red"})
    with pytest.raises(BadOptions, match="true or false"):
        Options.preset("hub", must_play="yes")
