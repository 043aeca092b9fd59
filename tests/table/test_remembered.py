"""What the table holds between games (the seats joined, the preset chosen, the seats'
languages) is journaled like every accepted input: a power cut forgets none of it. After
an unclean stop the screens say which game and entry the table took up again."""

from __future__ import annotations

import os
import signal

from conftest import Rig
from test_games import play

from firmware_py.journal import Journal
from hardware.events import Button
from roundhouse.render import languages


def joined(view):
    return [seat["joined"] for seat in view["seats"]]


def test_lobby_joins_survive_a_restart(rig_factory):
    rig = rig_factory()
    rig.press(2)
    rig.press(0)
    rig.press(3)
    rig.press(3)  # and leaves again
    again = rig.restart()
    assert joined(again.view) == [True, False, True, False]
    # The first to join still leads: seat 2.
    assert again.hold(2)["phase"] != "lobby"
    assert again.table.game.seats[again.table.game.leader] == 2


def test_the_next_preset_card_survives_a_restart_and_a_new_configuration_wins(
        rig_factory, config_factory):
    rig = rig_factory(rules="classic")
    rig.card("next_preset")
    assert rig.card("next_preset")["preset"] == "family"
    again = rig.restart()
    assert again.view["preset"] == "family"
    again.journal.close()
    # The host names other rules in the configuration: those hold, not the card's.
    other = Rig(config_factory(rules="hub"))
    assert other.view["preset"] == "hub"
    other.journal.close()


def test_the_language_card_survives_a_restart_in_the_lobby_and_in_a_game(rig_factory):
    order = languages()
    rig = rig_factory()
    rig.tap(1, "Clanguage")
    chosen = rig.table.view().to_json()["seats"][1]["language"]
    assert chosen == order[(order.index("en") + 1) % len(order)]
    again = rig.restart()
    assert again.table.view().to_json()["seats"][1]["language"] == chosen
    again.start(0, 1)
    again.tap(0, "Clanguage")
    during = [s["language"] for s in again.table.view().to_json()["seats"]]
    third = again.restart()
    assert [s["language"] for s in third.table.view().to_json()["seats"]] == during


def test_leaving_the_final_ranking_for_the_lobby_survives_a_restart(rig_factory, random_bot):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=3)
    play(rig, random_bot, seed=11)
    shown = rig.restart()
    assert shown.view["stage"] == "over"
    shown.card("next_preset")  # to the lobby, the same seats joined, the next preset
    assert shown.view["stage"] == "lobby"
    after = shown.restart()
    assert after.view["stage"] == "lobby" and joined(after.view) == [True, True, True]


def test_an_input_that_cannot_be_journaled_is_not_taken(rig_factory, monkeypatch):
    from firmware_py.journal import JournalUnwritable

    rig = rig_factory()

    def full(state):
        raise JournalUnwritable("disk full", full=True)

    monkeypatch.setattr(rig.journal, "save_table_state", full)
    view = rig.press(1)
    assert joined(view) == [False, False, False, False]
    assert "full" in view["rejection"]["text"]


def test_after_an_unclean_stop_the_screens_say_where_the_game_was_taken_up(rig_factory):
    rig = rig_factory()
    rig.start(0, 1)
    config = rig.config
    rig.journal.close()
    pid = os.fork()
    if pid == 0:  # a service killed in the middle of the game
        Rig(config).press(0)  # a draw, journaled
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    reader = Journal(config.database, read_only=True)
    entries = reader.last_entry(1)
    reader.close()
    assert entries == 1
    again = Rig(config)
    assert again.view["alerts"] == [
        f"The table stopped without warning and took up game 1 again at entry {entries}: "
        "check that the tiles lie as the screen shows"]
    # Gone with the next input the game takes.
    again.press(0, Button.PASS)
    assert not any("took up" in alert for alert in again.view["alerts"])
    again.journal.close()
    # A clean stop says nothing.
    clean = Rig(config)
    assert not any("took up" in alert for alert in clean.view["alerts"])
    clean.journal.close()


def test_reading_the_games_between_two_runs_is_no_unclean_stop(rig_factory, capsys):
    from firmware_py.cli import main

    rig = rig_factory()
    rig.start(0, 1)
    rig.press(0)  # a draw, journaled
    config = rig.config
    rig.journal.close()  # a clean stop
    # Between two runs (an update, say) a person lists the games and exports one: a
    # reader leaves SQLite's log and index beside the journal, with nothing in the log.
    assert main(["games", "--db", str(config.database)]) == 0
    assert main(["export", "1", "--db", str(config.database)]) == 0
    capsys.readouterr()
    again = Rig(config)
    assert not again.journal.unclean
    assert not any("took up" in alert for alert in again.view["alerts"])
    again.journal.close()
