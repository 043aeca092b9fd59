from __future__ import annotations

import sqlite3

import pytest

from hardware.tags import (
    AlreadyKnown,
    BadBinding,
    Binding,
    Enrolled,
    Enrollment,
    TagConflict,
    TagFileError,
    TagRegistry,
    set_plan,
)
from roundhouse.tablefile import APPLICATION_ID


def test_a_bound_tag_is_found_by_any_spelling_of_its_uid(registry):
    assert registry.bind("04:a2:2b:3c", "tile", "5-12") == Binding("tile", "12-5")
    assert registry.lookup("04A22B3C") == Binding("tile", "12-5")
    assert registry.lookup("04 a2 2b 3c") == Binding("tile", "12-5")


def test_an_unknown_uid_is_not_an_error(registry):
    assert registry.lookup("DEADBEEF") is None
    assert registry.lookup("not a uid") is None


def test_markers_and_cards(registry):
    registry.bind("AA000001", "marker", "3")
    registry.bind("AA000002", "marker", "mexican")
    registry.bind("AA000003", "card", "undo")
    registry.bind("AA000004", "card", "undo")  # an undo card at every seat is fine
    assert registry.lookup("AA000001") == Binding("marker", "3")
    assert str(registry.lookup("AA000002")) == "the Mexican train marker"
    assert str(registry.lookup("AA000004")) == "the undo card"


def test_binding_the_same_again_changes_nothing(registry):
    registry.bind("AA000001", "tile", "12-5")
    registry.bind("aa000001", "tile", "5-12")
    assert registry.all() == {"AA000001": Binding("tile", "12-5")}


def test_a_tag_bound_elsewhere_is_a_conflict_never_a_rebind(registry):
    registry.bind("AA000001", "tile", "12-5")
    with pytest.raises(TagConflict, match="tag AA000001 is already 12-5"):
        registry.bind("AA000001", "tile", "12-4")
    with pytest.raises(TagConflict, match="12-5 already has the tag AA000001"):
        registry.bind("AA000002", "tile", "5-12")
    registry.bind("AA000003", "marker", "2")
    with pytest.raises(TagConflict, match="seat 2's marker already has the tag AA000003"):
        registry.bind("AA000004", "marker", "2")
    assert registry.lookup("AA000001") == Binding("tile", "12-5")


def test_unbind_frees_the_tag_and_the_tile(registry):
    registry.bind("AA000001", "tile", "12-5")
    assert registry.unbind("AA000001") == Binding("tile", "12-5")
    assert registry.unbind("AA000001") is None
    registry.bind("AA000002", "tile", "12-5")
    assert registry.uid_of(Binding("tile", "12-5")) == "AA000002"


@pytest.mark.parametrize(("uid", "kind", "value", "message"), [
    ("AA000001", "tile", "19-2", "not a tile"),
    ("AA000001", "tile", "twelve", "not a tile"),
    ("AA000001", "marker", "seat 1", "not a marker"),
    ("AA000001", "card", "shuffle", "not a card"),
    ("AA000001", "meeple", "red", "not a kind of tag"),
    ("XYZ", "tile", "1-1", "not a tag UID"),
    ("08A1B2C3", "tile", "1-1", "random UID, drawn anew at every read"),
])
def test_bad_bindings_say_what_was_expected(registry, uid, kind, value, message):
    with pytest.raises(BadBinding, match=message):
        registry.bind(uid, kind, value)


def test_the_registry_shares_the_service_database_in_tables_of_its_own(tmp_path):
    path = tmp_path / "roundhouse.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    other.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # the journal's mark
    other.commit()
    with TagRegistry(path) as registry:
        registry.bind("AA000001", "tile", "0-0")
    tables = {r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"games", "tag_bindings"}
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with TagRegistry(path) as again:
        assert again.lookup("AA000001") == Binding("tile", "0-0")
    other.close()


def test_csv_round_trip_in_enrollment_order(registry, tmp_path):
    registry.bind("AA000003", "card", "admin")
    registry.bind("AA000002", "marker", "0")
    registry.bind("AA000001", "tile", "0-0")
    registry.bind("AA000004", "tile", "12-12")
    path = tmp_path / "tags.csv"
    assert registry.export_csv(path) == 4
    assert path.read_text().splitlines() == [
        "uid,kind,value", "AA000004,tile,12-12", "AA000001,tile,0-0", "AA000002,marker,0",
        "AA000003,card,admin"]
    with TagRegistry(tmp_path / "other.db") as other:
        assert other.import_csv(path) == 4
        assert other.all() == registry.all()
        assert other.import_csv(path) == 0


def test_a_bad_csv_line_is_named_and_nothing_is_imported(registry, tmp_path):
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,value\nAA000001,tile,12-5\nAA000002,tile,13\n")
    with pytest.raises(TagFileError, match=r"tags\.csv line 3: '13' is not a tile"):
        registry.import_csv(path)
    path.write_text("uid,kind,value\nAA000001,tile,12-5\nAA000002,tile,5-12\n")
    with pytest.raises(TagConflict, match="line 3: 12-5 already has the tag AA000001"):
        registry.import_csv(path)
    assert registry.all() == {}
    path.write_text("tag,what\n")
    with pytest.raises(TagFileError, match="line 1: expected the header uid,kind,value"):
        registry.import_csv(path)
    with pytest.raises(TagFileError, match="cannot read"):
        registry.import_csv(tmp_path / "missing.csv")


def test_the_plan_walks_the_set_from_the_top_then_markers_then_cards():
    plan = set_plan(12, seats=4)
    assert len(plan) == 91 + 4 + 1 + 5
    assert [str(b) for b in plan[:3]] == ["12-12", "12-11", "12-10"]
    assert plan[90] == Binding("tile", "0-0")
    assert plan[91:] == [Binding("marker", "0"), Binding("marker", "1"), Binding("marker", "2"),
                         Binding("marker", "3"), Binding("marker", "mexican"),
                         Binding("card", "undo"), Binding("card", "new_game"),
                         Binding("card", "next_preset"), Binding("card", "admin"),
                         Binding("card", "language")]


def test_enrollment_binds_the_next_unknown_tag_and_says_when_one_is_known(registry):
    enrollment = Enrollment(registry, set_plan(1, seats=1))
    assert enrollment.expected == Binding("tile", "1-1")
    assert enrollment.offer("AA000001") == Enrolled("AA000001", Binding("tile", "1-1"))
    assert enrollment.offer("aa000001") == AlreadyKnown("AA000001", Binding("tile", "1-1"))
    assert enrollment.expected == Binding("tile", "1-0")


def test_an_interrupted_enrollment_resumes_where_it_stopped(registry):
    plan = set_plan(1, seats=1)
    first = Enrollment(registry, plan)
    first.offer("AA000001")
    first.offer("AA000002")
    again = Enrollment(registry, plan)
    assert again.expected == Binding("tile", "0-0")
    assert len(again.remaining()) == len(plan) - 2
    for n, _ in enumerate(again.remaining()):
        again.offer(f"BB{n:06X}")
    assert again.expected is None
    assert again.offer("CC000001") is None
    assert registry.lookup("CC000001") is None
