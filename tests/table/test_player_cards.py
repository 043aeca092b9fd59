"""Player cards: tapped on a seat's own pad in the lobby, the card seats its player
there, under the player's name and in the player's language, and the journal keeps who
sat where."""

from __future__ import annotations

import random

from test_games import DirectHardware, TableViews

from firmware_py.rules import Options
from firmware_py.simtable import Driver
from gamenight.publisher import game_message
from gamenight.results import Results
from gamenight.standings import Standings
from hardware.tags import BadBinding, Binding
from roundhouse.render import languages


def test_a_player_card_seats_its_player_under_their_name_and_language(rig_factory):
    rig = rig_factory()
    view = rig.tap(1, "Pfa:Zoë")
    seat = view["seats"][1]
    assert (seat["name"], seat["joined"], seat["language"]) == ("Zoë", True, "fa")
    rig.tap(3, "P:Ivo")  # a card without a language: the seat's own stays
    assert (rig.view["seats"][3]["name"], rig.view["seats"][3]["language"]) == ("Ivo", "en")
    view = rig.start(0)  # the cards joined seats 1 and 3; DRAW at seat 0, then the hold
    assert [s["name"] for s in view["seats"]] == ["Ana", "Zoë", "Ivo"]
    assert [t["name"] for t in view["trains"][:3]] == ["Ana", "Zoë", "Ivo"]
    opened = rig.journal.open_game()
    assert opened is not None
    meta = opened[1]
    assert (meta["players"], meta["seats"], meta["cards"]) == (
        ["Ana", "Zoë", "Ivo"], [0, 1, 3], [False, True, True])


def test_leaving_the_seat_gives_it_back_its_own_name(rig_factory):
    rig = rig_factory()
    rig.tap(2, "P:Zoë")
    view = rig.press(2)  # DRAW at a joined seat in the lobby: it leaves
    assert (view["seats"][2]["name"], view["seats"][2]["joined"]) == ("Cy", False)


def test_a_player_card_during_a_game_or_off_a_seat_pad_is_refused(rig_factory):
    rig = rig_factory()
    view = rig.tap("mexican", "P:Zoë")
    assert view["rejection"]["text"] == (
        "Tap your player card on your own pad in the lobby, before the game.")
    rig.start(0, 1)
    view = rig.tap(0, "P:Zoë")
    assert view["rejection"]["text"].startswith("Tap your player card")
    assert [s["name"] for s in view["seats"]] == ["Ana", "Bo"]


def test_a_player_card_binds_a_name_and_a_language_the_table_speaks():
    assert str(Binding.make("player", "fa:Zoë")) == "Zoë's player card"
    for bad in ("xx:Zoë", "fa:", "Zoë"):
        try:
            Binding.make("player", bad)
        except BadBinding as err:
            assert str(err)
        else:
            raise AssertionError(bad)
    assert "fa" in languages()


def test_enroll_binds_the_next_unknown_tag_as_the_players_card(tmp_path):
    from hardware.enroll import enroll_player
    from hardware.events import ReaderOnline, TagPlaced
    from hardware.tags import TagRegistry

    registry = TagRegistry(tmp_path / "table.db")
    registry.bind("0A0B0C0D", "tile", "12-12")
    events = iter([ReaderOnline("enroll"), TagPlaced("enroll", "0A0B0C0D"),
                   TagPlaced("enroll", "01020304")])
    said: list[str] = []
    enroll_player(registry, "fa:Zoë", lambda: next(events), said.append)
    assert registry.lookup("01020304") == Binding("player", "fa:Zoë")
    assert registry.lookup("0A0B0C0D") == Binding("tile", "12-12")
    assert said[0] == "tap the tag to be Zoë's player card"
    assert said[1] == "reader online"  # taps made before this are lost as the port opens
    assert "already 12-12" in said[2]
    registry.close()



def test_a_card_tapped_at_another_seat_moves_its_player_there(rig_factory):
    rig = rig_factory(languages=("en", "el", "en", "en"))
    rig.tap(1, "Pfa:Zoë")
    view = rig.tap(3, "Pfa:Zoë")
    seats = [(s["name"], s["joined"], s["language"]) for s in view["seats"]]
    assert seats[1] == ("Bo", False, "el")  # the first seat is its own again
    assert seats[3] == ("Zoë", True, "fa")
    rig.start(0)
    opened = rig.journal.open_game()
    assert opened is not None
    assert (opened[1]["players"], opened[1]["seats"]) == (["Ana", "Zoë"], [0, 3])


def test_two_cards_of_the_same_name_are_two_players(rig_factory):
    rig = rig_factory()
    rig.tap(1, "P:Zoë")
    view = rig.tap(2, "Pen:Zoë")  # another card, another Zoë
    assert [s["joined"] for s in view["seats"]][1:3] == [True, True]


def test_leaving_gives_the_seat_back_its_own_language_also_after_a_restart(rig_factory):
    rig = rig_factory()
    rig.tap(2, "Pfa:Zoë")
    view = rig.press(2)
    assert (view["seats"][2]["name"], view["seats"][2]["language"]) == ("Cy", "en")
    rig = rig.restart()
    assert rig.view["seats"][2]["language"] == "en"


def test_the_language_card_of_a_seated_player_goes_with_the_player(rig_factory):
    rig = rig_factory()
    rig.tap(2, "P:Zoë")
    view = rig.tap(2, "Clanguage")
    chosen = view["seats"][2]["language"]
    assert chosen != "en"
    view = rig.press(2)
    assert view["seats"][2]["language"] == "en"



def test_the_league_counts_a_card_by_the_card_under_the_cards_name(
        rig_factory, random_bot, tmp_path):
    """The journal's card ids go out in the published sheets: the league shows the card's
    name, and keeps its player apart from a seat of the same name at another table."""
    rig = rig_factory(seats=2, rules={"preset": "tournament", "rounds": 1})
    rig.tap(1, "P:Zoë")
    driver = Driver(TableViews(rig.table), DirectHardware(rig), [random_bot] * 2,
                    random.Random(5), options=Options.from_json(rig.config.rules),
                    chairs={"Ana": 0, "Zoë": 1})
    driver.play(1)
    (sheet,) = Results(rig.config.database).sheets()
    assert sheet.players == ("Ana", "Zoë") and sheet.cards[0] is None and sheet.cards[1]
    store = Standings(tmp_path / "league.db")
    store.sheet("t1", game_message("t1", sheet), final=True)
    # At another table a seat is named Zoë by its configuration, with no card.
    store.sheet("t2", {"table": "t2", "game": "1@x", "players": ["Zoë", "Bo"],
                       "scores": [[7, 0]]}, final=False)
    rows = [(s.player, s.games, s.rounds) for s in store.standings()]
    assert sorted(rows) == [("Ana", 1, 1), ("Bo", 0, 1), ("Zoë", 0, 1), ("Zoë", 1, 1)]
    store.close()
