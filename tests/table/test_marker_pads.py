"""A pad whose reader cannot sense markers (one tag at a time) never asks for a marker
because it did not read one; the table only reminds at the changes there."""

from __future__ import annotations

from hardware.events import Button, ReaderOffline, ReaderOnline, TagPlaced, TagRemoved


def rig_with_marker_pads(rig_factory, sensing: set[str]):
    rig = rig_factory(rules="tournament", sensing=sensing)
    rig.start(1, 0, 2, 3)
    rig.readers_online()
    return rig


def open_cys_train(rig) -> dict:
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    rig.press(2)
    return rig.press(2, Button.PASS)  # Cy drew, could not play: Cy's train opens


def marker_alerts(view: dict) -> list[str]:
    return [a for a in view["alerts"] if "marker" in a]


def test_a_pad_that_senses_markers_asks_for_one_it_does_not_read(rig_factory):
    rig = rig_with_marker_pads(rig_factory, {"0", "1", "2", "3", "mexican"})
    view = open_cys_train(rig)
    assert view["seats"][2]["marker_sensed"] is False
    view = rig.tap(3, "12-1")  # Di plays: Cy's marker still not read
    assert [a for a in marker_alerts(view) if a.startswith("Cy")] != []


def test_a_pad_that_does_not_sense_markers_reminds_only_at_the_change(rig_factory):
    rig = rig_with_marker_pads(rig_factory, {"0", "1", "3", "mexican"})  # not Cy's pad
    view = open_cys_train(rig)
    assert view["seats"][2]["marker_sensed"] is None
    assert [a for a in marker_alerts(view) if a.startswith("Cy")] != []  # the change
    view = rig.tap(3, "12-1")  # Di plays: no reader says the marker is missing
    assert [a for a in marker_alerts(view) if a.startswith("Cy")] == []
    assert view["seats"][2]["marker_sensed"] is None


def test_a_marker_read_on_a_pad_that_does_not_sense_markers_is_not_taken_as_astray(rig_factory):
    rig = rig_with_marker_pads(rig_factory, {"1", "2", "3", "mexican"})  # not Ana's pad
    open_cys_train(rig)
    rig.send(TagPlaced("0", "M2"))  # Cy's marker read by the one-tag reader of Ana's pad
    view = rig.tap(3, "12-1")
    assert not any("Ana's pad" in a for a in view["alerts"])


def test_a_marker_lying_through_a_reconnection_is_still_sensed_once_the_reader_is_back(
        rig_factory):
    # The reader keeps the tags it had through a reconnection and says only what changed.
    rig = rig_with_marker_pads(rig_factory, {"0", "1", "2", "3", "mexican"})
    open_cys_train(rig)
    rig.send(TagPlaced("2", "M2"))
    rig.send(ReaderOffline("2", "unplugged"))
    rig.send(ReaderOnline("2"))
    view = rig.view
    assert view["seats"][2]["marker_sensed"] is True
    assert marker_alerts(view) == []
    rig.send(TagRemoved("2", "M2"))  # gone while the cable was out: said once back
    view = rig.view
    assert view["seats"][2]["marker_sensed"] is False
    assert [a for a in marker_alerts(view) if a.startswith("Cy")] != []
