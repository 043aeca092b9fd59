"""Messages are data until a screen says them: `render` in English, the engine's
refusals as messages, and the view carrying them."""

from __future__ import annotations

import pytest

from firmware_py.rules import IllegalMove, Options, Pass, apply, deal, new_game
from roundhouse.messages import Message, message
from roundhouse.render import render

NAMES = ["Ana", "Bo", "Cy"]


def test_a_prompt_says_the_seats_names_and_the_train_title():
    said = render(message("prompt.satisfy", seat=2, tile="3-3", train="0"), "en", NAMES)
    assert said == "Cy: satisfy the 3-3 on Ana's train"
    mexican = render(message("prompt.satisfy", seat=1, tile="6-6", train="mexican"), "en", NAMES)
    assert mexican == "Bo: satisfy the 6-6 on the Mexican train"


def test_counts_choose_the_plural_form():
    assert render(message("prompt.take_tiles", n=1), "en") == "Each seat takes 1 tile."
    assert render(message("prompt.take_tiles", n=15), "en") == "Each seat takes 15 tiles."


def test_nested_messages_and_lists_are_said_in_place():
    waiting = [message("progress.seat", seat=0, done=1, of=3),
               message("progress.seat", seat=2, done=0, of=2)]
    said = render(message("prompt.reveal", waiting=waiting), "en", NAMES)
    assert said == "Tap your leftover tiles on your own pad, then PASS (Ana 1/3, Cy 0/2)"
    pad = render(message("refuse.not_a_train", pad=message("pad.mexican")), "en", NAMES)
    assert pad == "The Mexican train's pad is not a train of this game."


def test_a_seat_without_a_name_is_said_by_number_with_a_capital_at_the_start():
    assert render(message("refuse.turn_of", seat=4), "en", NAMES) == "It's seat 4's turn."
    assert render(message("rules.no_tiles_left", seat=1), "en") == "Seat 1 has no tiles left."


def test_an_unknown_message_id_is_refused_where_it_is_made():
    with pytest.raises(KeyError):
        message("prompt.no_such_thing")


def test_a_message_from_a_service_of_another_version_is_shown_not_a_crash():
    # A screen left running across an upgrade may get ids and arguments it never knew.
    future = Message.from_json({"id": "prompt.from_the_future", "args": {"seat": 0}})
    assert render(future, "fa", NAMES) == "prompt.from_the_future"
    older = Message.from_json({"id": "prompt.satisfy", "args": {"seat": 2}})
    assert render(older, "en", NAMES) == (
        "Cy: satisfy the {tile} on {train}")


def test_an_engine_refusal_is_a_message_and_an_english_sentence():
    start = new_game(Options.preset("classic"), 3)
    state = apply(start, deal(start, 7))
    seat = state.turn
    assert seat is not None
    with pytest.raises(IllegalMove) as caught:
        apply(state, Pass((seat + 1) % 3))
    err = caught.value
    assert err.code == "not_your_turn"
    assert err.message.to_json() == {"id": "rules.not_your_turn", "args": {"seat": seat}}
    assert str(err) == f"It's seat {seat}'s turn."
    # The screens say the same message with the players' names.
    assert render(err.message, "en", NAMES) == f"It's {NAMES[seat]}'s turn."


def test_every_refusal_code_is_documented():
    from pathlib import Path

    from roundhouse.refusals import REFUSALS

    docs = (Path(__file__).parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
    for message_id, refusal in REFUSALS.items():
        assert f"| `{refusal.code}` |" in docs, refusal.code
        assert f"`{message_id}`" in docs, message_id
