"""`roundhouse.value.Value` behaves as a frozen slotted dataclass does."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from firmware_py.entries import Next, Undo
from firmware_py.intents import NewGameCard, SeatPlayer, TakeBack


def test_values_are_equal_by_class_and_fields_and_hash_alike():
    assert SeatPlayer(2, "Ana", None) == SeatPlayer(2, "Ana", None, "")
    assert SeatPlayer(2, "Ana", None) != SeatPlayer(2, "Ana", "fr")
    assert hash(SeatPlayer(2, "Ana", None)) == hash(SeatPlayer(2, "Ana", None))
    assert Next() == Next() and hash(Next()) == hash(Next())
    # Another kind with the same fields is another value.
    assert NewGameCard() != Next()
    assert Undo(1) != (1,)
    assert len({Undo(1), Undo(1), Undo(None)}) == 2


def test_values_print_as_the_call_that_builds_them():
    assert repr(TakeBack(Undo(by=3))) == "TakeBack(undo=Undo(by=3))"
    assert repr(Next()) == "Next()"
    assert repr(SeatPlayer(0, "Bo", None, card="04A1")) == (
        "SeatPlayer(seat=0, name='Bo', language=None, card='04A1')")


def test_values_are_frozen():
    player = SeatPlayer(0, "Bo", None)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        player.name = "Cy"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
        del player.name  # type: ignore[misc]
    assert player.name == "Bo"


def test_values_match_by_position_and_copy_and_pickle_as_themselves():
    match SeatPlayer(4, "Di", "de", "77"):
        case SeatPlayer(seat, name, language, card):
            assert (seat, name, language, card) == (4, "Di", "de", "77")
        case _:
            pytest.fail("no match")
    value = TakeBack(Undo(2))
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(value)) == value


def test_events_are_equal_whenever_they_happened():
    from hardware.events import Button, ButtonPressed, TagPlaced

    assert ButtonPressed(1, Button.DRAW, at=1.0) == ButtonPressed(1, Button.DRAW, at=2.0)
    assert hash(TagPlaced("0", "AB", 1.0)) == hash(TagPlaced("0", "AB", 5.0))
    assert TagPlaced("0", "AB") != TagPlaced("1", "AB")
    assert repr(TagPlaced("0", "AB", 1.5)) == "TagPlaced(pad='0', uid='AB', at=1.5)"
    assert ButtonPressed(0, Button.PASS).at > 0
