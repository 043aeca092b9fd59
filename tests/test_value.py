"""`roundhouse.value.Value`, and the `@frozen` values made from it, behave as frozen slotted
dataclasses do."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_py.entries import Next, Undo
from firmware_py.intents import NewGameCard, SeatPlayer, TakeBack
from roundhouse.value import Value, frozen


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


# --- @frozen: a Value that dataclasses know ----------------------------------------------

@frozen
class Spot(Value):
    """A value made by @frozen."""

    seat: int
    name: str = "Bo"
    tiles: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class DataSpot:
    """The same value, made by @dataclass."""

    seat: int
    name: str = "Bo"
    tiles: tuple[str, ...] = ()


fields_of_a_spot = st.tuples(st.integers(-3, 3), st.sampled_from(["Bo", "Cy", ""]),
                             st.lists(st.sampled_from(["1-2", "6-6"]), max_size=2).map(tuple))


@given(fields_of_a_spot, fields_of_a_spot)
def test_a_frozen_value_behaves_as_the_dataclass_it_stands_for(a, b):
    spot, other = Spot(*a), Spot(*b)
    data, data_other = DataSpot(*a), DataSpot(*b)
    assert (spot == other) == (data == data_other)
    assert hash(spot) == hash(data)  # both hash the tuple of their fields
    assert repr(spot).removeprefix("Spot") == repr(data).removeprefix("DataSpot")
    assert dataclasses.astuple(spot) == dataclasses.astuple(data) == a
    assert dataclasses.asdict(dataclasses.replace(spot, name=b[1])) == dataclasses.asdict(
        dataclasses.replace(data, name=b[1]))
    assert pickle.loads(pickle.dumps(spot)) == spot and copy.deepcopy(spot) == spot
    match spot:
        case Spot(seat, name, tiles):
            assert (seat, name, tiles) == a


def test_a_frozen_value_is_built_and_refused_as_its_dataclass_is():
    assert [f.name for f in dataclasses.fields(Spot)] == ["seat", "name", "tiles"]
    assert dataclasses.is_dataclass(Spot) and Spot.__slots__ == ("seat", "name", "tiles")
    assert str(inspect.signature(Spot)) == "(seat, name='Bo', tiles=())"
    assert Spot(1) == Spot(seat=1, name="Bo", tiles=())
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'seat'"):
        Spot()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Spot(1, colour="red")  # type: ignore[call-arg]
    spot = Spot(2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'seat'"):
        spot.seat = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        spot.colour = "red"  # type: ignore[attr-defined]
    assert spot == Spot(2) and spot != DataSpot(2)


def test_frozen_refuses_what_it_cannot_make():
    with pytest.raises(TypeError, match="is not one"):
        frozen(type("Plain", (), {"__annotations__": {"seat": "int"}}))  # type: ignore[type-var]
    with pytest.raises(TypeError, match="use @dataclass"):
        @frozen
        class Listed(Value):
            tiles: list[str] = dataclasses.field(default_factory=list)
    with pytest.raises(TypeError, match="use @dataclass"):
        @frozen
        class Checked(Value):
            seat: int

            def __post_init__(self) -> None:
                pass
    with pytest.raises(TypeError, match="nor InitVar"):
        @frozen
        class Passed(Value):
            seat: int
            scale: dataclasses.InitVar[int] = 1
    with pytest.raises(TypeError, match="use @dataclass"):
        @frozen
        class Named(Value):
            seat: int = dataclasses.field(default=0, kw_only=True)


def test_the_values_dataclasses_know_are_made_by_frozen():
    """The view and the configuration are replaced field by field all over the table."""
    from firmware_py.config import Config
    from firmware_py.game import Moment
    from roundhouse.view import SeatView, View

    for kind in (View, SeatView, Config, Moment):
        assert issubclass(kind, Value) and dataclasses.is_dataclass(kind)
        assert kind.__init__.__qualname__ == f"{kind.__qualname__}.__init__"


def test_a_subclass_compares_its_own_fields_after_its_base_has_compared():
    @frozen
    class Wider(Spot):
        """Spot with one field more."""

        colour: str = "red"

    assert Spot(1) == Spot(1) and hash(Spot(1)) == hash(Spot(1))  # Spot's own, compiled
    assert Wider(1, colour="red") != Wider(1, colour="blue")
    assert hash(Wider(1)) == hash((1, "Bo", (), "red"))
    assert Wider(1) != Spot(1) and Spot(1) != Wider(1)
    assert Spot.__eq__.__qualname__ == "Spot.__eq__"
    assert Wider.__eq__.__qualname__.endswith("Wider.__eq__")
