"""Each seat reads its own language: the view carries every seat's language and the
messages as data, the language card changes a seat's language, and no sentence is
rewritten: names come in as arguments."""

from __future__ import annotations

from hardware.events import Button
from roundhouse.message import Message
from roundhouse.render import languages, render

FOUR = ("fa", "ar", "lt", "te")


def said(view, message, seat=None):
    """A message as the seat's panel says it (the table's language for no seat)."""
    names = [s["name"] for s in view["seats"]]
    lang = view["seats"][seat]["language"] if seat is not None else view["language"]
    return render(Message.from_json(message), lang, names)


def test_the_view_carries_each_seats_language_the_tables_and_the_walls(rig_factory):
    rig = rig_factory(languages=FOUR, language="el", wall_language="fa")
    view = rig.table.view().to_json()
    assert [s["language"] for s in view["seats"]] == list(FOUR)
    assert view["language"] == "el" and view["wall_language"] == "fa"
    rig.start(1, 0, 2, 3)
    view = rig.table.view().to_json()
    assert [s["language"] for s in view["seats"]] == list(FOUR)
    # Without a wall language the wall speaks the table's.
    rig.journal.close()
    plain = rig_factory(language="lt").table.view().to_json()
    assert plain["wall_language"] == "lt"
    assert plain["language"] == "lt"


def test_the_table_screen_has_a_language_for_where_no_seat_reads(rig_factory):
    view = rig_factory(language="lt", table_language="el").table.view().to_json()
    assert view["language"] == "el" and view["wall_language"] == "lt"
    assert {s["language"] for s in view["seats"]} == {"lt"}


def test_a_refusal_is_said_in_the_language_of_the_seat_that_acted(rig_factory):
    rig = rig_factory(rules="tournament", languages=FOUR)
    rig.start(1, 0, 2, 3)
    rig.press(2)  # Cy, reading Lithuanian, presses out of turn
    view = rig.table.view().to_json()
    rejection = view["rejection"]
    assert rejection["seat"] == 2
    assert rejection["message"] == {"id": "refuse.not_your_turn", "args": {"seat": 1}}
    assert said(view, rejection["message"], rejection["seat"]) == "Ne jūsų ėjimas: dabar eina Bo."
    # The same refusal on the panel of Ana, who reads Persian.
    assert said(view, rejection["message"], 0) == "نوبت شما نیست: نوبت Bo است."


def test_an_engine_refusal_names_its_seats_by_argument(rig_factory):
    rig = rig_factory(rules="tournament", languages=FOUR)
    rig.start(1, 0, 2, 3)
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    rig.tap(0, "5-3")  # Ana plays on her own empty train: no 12 there
    view = rig.table.view().to_json()
    message = view["rejection"]["message"]
    assert message["id"].startswith("rules.")
    english = render(Message.from_json(message), "en", [s["name"] for s in view["seats"]])
    assert "seat 0" not in english and "Seat 0" not in english
    assert said(view, message, 0) != english


def test_the_language_card_on_a_seats_pad_gives_it_the_next_language(rig_factory):
    rig = rig_factory(languages=FOUR)
    order = languages()
    rig.tap(2, "Clanguage")
    seats = rig.table.view().to_json()["seats"]
    assert seats[2]["language"] == order[(order.index("lt") + 1) % len(order)]
    for _ in range(len(order) - 1):
        rig.tap(2, "Clanguage")
    assert rig.table.view().to_json()["seats"][2]["language"] == "lt"
    # During a game too; elsewhere than on a seat's own pad it is refused.
    rig.start(1, 0, 2, 3)
    before = [s["language"] for s in rig.table.view().to_json()["seats"]]
    view = rig.card("language")
    assert view["rejection"]["text"] == "Tap the language card on your own pad."
    assert [s["language"] for s in rig.table.view().to_json()["seats"]] == before
    rig.tap(0, "Clanguage")
    seats = rig.table.view().to_json()["seats"]
    assert seats[0]["language"] == order[(order.index("fa") + 1) % len(order)]


def test_alerts_belong_to_their_seat(rig_factory):
    rig = rig_factory(rules="tournament", languages=FOUR)
    rig.start(1, 0, 2, 3)
    rig.readers_online()
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    rig.press(2)
    rig.press(2, Button.PASS)  # Cy cannot start: his marker must go out
    view = rig.table.view().to_json()
    alerts = [a for a in view["alerts"] if a["message"]["id"] == "alert.marker_out"]
    assert alerts == [{"seat": 2, "message": {"id": "alert.marker_out", "args": {"seat": 2}}}]
    assert said(view, alerts[0]["message"], 2) == "Cy: padėkite savo žymeklį"


def test_the_view_carries_a_seats_configured_forms_and_a_player_card_sheds_them(rig_factory):
    import dataclasses

    from roundhouse.declension import Name

    rig = rig_factory(names=("Νίκος", "Bo", "Cy", "Di"), language="el")
    config = rig.config
    nikos = dataclasses.replace(config.seats[0], gender="masculine",
                                forms=(("el", (("genitive", "του Νικολάκη"),)),))
    rig.journal.close()
    rig = type(rig)(dataclasses.replace(config, seats=(nikos, *config.seats[1:])))
    lobby = rig.table.view()
    assert lobby.seats[0].forms == nikos.forms and lobby.seats[0].gender == "masculine"
    assert "forms" not in lobby.to_json()["seats"][1]
    said = render(Message("alert.one_tile", (("seat", 0),)), "el", lobby.people())
    assert said == "Του Νικολάκη έμεινε μία πέτρα"
    # A player seated there by a card goes by the card's name, without the seat's forms.
    rig.tap(0, "P:Zoë")
    carded = rig.table.view()
    assert carded.seats[0].name == "Zoë" and carded.seats[0].forms == ()
    assert carded.people()[0] == Name("Zoë")
    rig.press(0)  # the player leaves: the seat has its own name and forms again
    assert rig.table.view().seats[0].forms == nikos.forms
    rig.start(0, 1)
    playing = rig.table.view()
    assert playing.phase != "lobby" and playing.seats[0].forms == nikos.forms
