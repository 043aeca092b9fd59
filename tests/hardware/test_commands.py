"""`roundhouse probe` and `roundhouse enroll` against fake readers on ptys."""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.enroll import configure_enroll, enroll, run_enroll
from hardware.events import ReaderOnline, TagPlaced, TagRemoved
from hardware.probe import configure_probe, run_probe
from hardware.rfid.fake import FakeLines, FakeRdm6300
from hardware.tags import Binding, Enrollment, TagRegistry, set_plan


class Screen(io.StringIO):
    """stdout that lets a test wait for a line, as a person waits for the prompt."""

    def __init__(self) -> None:
        super().__init__()
        self._changed = threading.Condition()

    def write(self, text: str) -> int:
        with self._changed:
            count = super().write(text)
            self._changed.notify_all()
            return count

    def wait_for(self, text: str, timeout: float = 10.0) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: text in self.getvalue(), timeout):
                pytest.fail(f"{text!r} never shown; the screen says:\n{self.getvalue()}")


@contextlib.contextmanager
def watching() -> Iterator[Screen]:
    # Installed inside the test itself: pytest puts its own capture back between phases.
    screen = Screen()
    with contextlib.redirect_stdout(screen):
        yield screen


def parse(configure, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(argv)


def in_thread(run, args) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(run(args)), daemon=True)
    thread.start()
    return thread, result


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "roundhouse.db"
    with TagRegistry(path) as registry:
        registry.bind("67003B51C6", "tile", "12-5")
    yield path


def test_probe_prints_each_event_and_what_the_tag_is(cable, db):
    fake = FakeRdm6300(cable, repeat_s=0.02)
    args = parse(configure_probe, [str(cable.path), "--protocol", "rdm6300", "--db", str(db),
                                   "--removal-ms", "60", "--events", "4"])
    with watching() as screen:
        thread, result = in_thread(run_probe, args)
        screen.wait_for("online")
        cable.write(b"\x0267003B51C6CA\x03")
        fake.tap("67003B51C6")
        fake.tap("5A00000001")
        thread.join(10)
    fake.close()
    assert result == [0]
    lines = [line.split("  ", 1)[1] for line in screen.getvalue().splitlines()]
    assert lines[0] == f"probing {cable.path} (rdm6300); Ctrl-C to stop"
    assert "online" in lines
    assert "placed   67003B51C6  12-5" in lines
    assert "placed   5A00000001  (not enrolled)" in lines
    assert "removed  67003B51C6" in lines
    assert any(line.startswith("bad frames: 1 so far") for line in lines)
    assert lines[-1] == "4 tag events, 1 bad frames"


def test_probe_says_which_protocol_the_bytes_look_like(cable):
    fake = FakeRdm6300(cable, repeat_s=0.02)
    args = parse(configure_probe, [str(cable.path), "--protocol", "lines", "--events", "1",
                                   "--timeout", "30"])
    with watching() as screen:
        thread, result = in_thread(run_probe, args)
        screen.wait_for("online")
        fake.place("67003B51C6")  # the lines parser passes over its frames without a word
        screen.wait_for("no tag read as lines; the bytes look like RDM6300 frames (STX, 12 "
                        "hex digits, ETX): try --protocol rdm6300")
        fake.lift("67003B51C6")
        hub = FakeLines(cable)
        hub.tap("04A22B3C")  # its line end ends the RDM6300's bytes, a bad line
        hub.tap("04A22B3C")
        thread.join(10)
    fake.close()
    assert result == [0]


def test_probe_reports_a_reader_that_is_not_there(cable, tmp_path):
    cable.unplug()
    args = parse(configure_probe, [str(cable.path), "--protocol", "lines", "--events", "1",
                                   "--wait"])
    with watching() as screen:
        thread, result = in_thread(run_probe, args)
        screen.wait_for(f"offline  cannot open {cable.path}")
        cable.plug()
        screen.wait_for("online")
        FakeLines(cable).tap("04A22B3C")
        thread.join(10)
    assert result == [0]


def test_probe_and_enroll_refuse_a_device_that_is_not_there(tmp_path, capsys):
    absent = str(tmp_path / "pad-3")
    assert run_probe(parse(configure_probe, [absent, "--protocol", "rdm6300"])) == 2
    err = capsys.readouterr().err
    assert f"roundhouse probe: no device {absent}: is the reader plugged in?" in err
    assert "--wait waits for it" in err
    (tmp_path / "pad-4").symlink_to(tmp_path / "ttyUSB9")
    args = parse(configure_enroll, ["--pad", str(tmp_path / "pad-4"), "--protocol", "lines",
                                    "--db", str(tmp_path / "t.db")])
    assert run_enroll(args) == 2
    assert f"no device {tmp_path / 'pad-4'} (a link to nothing)" in capsys.readouterr().err
    assert not (tmp_path / "t.db").exists()


def test_enroll_waits_for_a_reader_plugged_in_later_with_wait(cable, tmp_path):
    cable.unplug()
    args = parse(configure_enroll, ["--pad", str(cable.path), "--protocol", "lines",
                                    "--set", "6", "--seats", "1", "--db",
                                    str(tmp_path / "t.db"), "--wait"])
    with watching() as screen:
        thread, result = in_thread(run_enroll, args)
        screen.wait_for("tap 6-6")
        cable.plug()
        screen.wait_for("reader online")
        fake = FakeLines(cable)
        for number in range(len(set_plan(6, 1))):
            fake.tap(f"04{number:012X}")
        thread.join(10)
    assert result == [0]
    assert "04000000000000 is 6-6" in screen.getvalue()


def test_probe_with_events_ends_even_when_no_tag_comes(capsys):
    args = parse(configure_probe, ["loop://", "--protocol", "lines", "--events", "2",
                                   "--timeout", "0.5"])
    with watching() as screen:
        assert run_probe(args) == 1
    assert "only 0 of 2 tag events within 0.5 s" in screen.getvalue()
    assert run_probe(parse(configure_probe, ["loop://", "--protocol", "lines",
                                             "--events", "0"])) == 2
    assert "--events must be positive" in capsys.readouterr().err


def test_probe_refuses_a_missing_database(tmp_path, capsys):
    args = parse(configure_probe, ["loop://", "--protocol", "lines",
                                   "--db", str(tmp_path / "none.db")])
    assert run_probe(args) == 2
    assert "no database at" in capsys.readouterr().err


def test_enroll_walks_the_set_and_says_at_once_a_tag_tapped_twice(cable, tmp_path):
    db = tmp_path / "roundhouse.db"
    fake = FakeLines(cable)
    args = parse(configure_enroll, ["--pad", str(cable.path), "--protocol", "lines",
                                    "--set", "6", "--seats", "2", "--db", str(db)])
    plan = set_plan(6, 2)
    assert len(plan) == 28 + 2 + 1 + 5  # tiles, seat markers, the Mexican marker, cards
    with watching() as screen:
        thread, result = in_thread(run_enroll, args)
        screen.wait_for("reader online")
        fake.tap("04000000000000")
        screen.wait_for("tap 6-5")
        fake.tap("04000000000000")  # 6-6 again
        screen.wait_for("that tag (04000000000000) is already 6-6; tap 6-5")
        for number in range(1, len(plan)):
            fake.tap(f"04{number:012X}")
        thread.join(10)
    assert result == [0]
    out = screen.getvalue()
    assert "tap seat 1's marker" in out
    assert "tap the Mexican train marker" in out
    assert "tap the admin card" in out
    assert "tap the language card" in out
    assert f"all 36 tags enrolled in {db}" in out
    with TagRegistry(db) as registry:
        assert registry.lookup("04000000000001") == Binding("tile", "6-5")
        assert registry.lookup(f"04{len(plan) - 1:012X}") == Binding("card", "language")
        assert len(registry.all()) == len(plan)


def test_enroll_resumes_where_it_stopped(tmp_path, capsys):
    db = tmp_path / "roundhouse.db"
    plan = set_plan(6, 2)
    with TagRegistry(db) as registry:
        for number, binding in enumerate(plan[:-1]):
            registry.bind(f"AA{number:06X}", binding.kind, binding.value)
    # The reader is never needed for the prompt: the progress is in the registry.
    events = iter([ReaderOnline("enroll"), TagPlaced("enroll", "AA000000"),
                   TagRemoved("enroll", "AA000000"), TagPlaced("enroll", "BB000001")])
    lines: list[str] = []
    with TagRegistry(db) as registry:
        enrollment = Enrollment(registry, plan)
        assert len(enrollment.remaining()) == 1
        enroll(enrollment, lambda: next(events), lines.append)
        assert registry.lookup("BB000001") == Binding("card", "language")
    assert lines == ["tap the language card", "reader online",
                     "  that tag (AA000000) is already 6-6; tap the language card",
                     "  BB000001 is the language card (36/36)"]
    args = parse(configure_enroll, ["--pad", "loop://", "--protocol", "lines", "--set", "6",
                                    "--seats", "2", "--db", str(db)])
    assert run_enroll(args) == 0
    assert "all 36 tags of the double-6 table are enrolled already" in capsys.readouterr().out


def test_enroll_says_once_what_an_eight_digit_keyboard_reading_keeps(tmp_path):
    plan = set_plan(6, 2)
    events = iter([TagPlaced("enroll", "3B51C6"), TagPlaced("enroll", "3B51C7"),
                   *(TagPlaced("enroll", f"AA{n:06X}") for n in range(len(plan)))])
    lines: list[str] = []
    with TagRegistry(tmp_path / "roundhouse.db") as registry:
        enroll(Enrollment(registry, plan), lambda: next(events), lines.append)
    notes = [line for line in lines if "Wiegand 26" in line]
    assert len(notes) == 1 and "24 of the card's 32 bits" in notes[0]
    assert lines.index(notes[0]) == 2  # right after the first such tag


def test_enroll_says_when_the_database_cannot_be_opened(tmp_path, capsys):
    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    args = parse(configure_enroll, ["--pad", "loop://", "--protocol", "lines", "--db",
                                    str(folder)])
    assert run_enroll(args) == 1
    assert "cannot open the tag registry" in capsys.readouterr().err


def test_enroll_never_writes_into_another_programs_database(tmp_path, capsys):
    import sqlite3

    other = tmp_path / "notes.db"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE notes (text)")
    raw.close()
    args = parse(configure_enroll, ["--pad", "loop://", "--protocol", "lines", "--db",
                                    str(other)])
    assert run_enroll(args) == 1
    assert "not the table's database (it holds the tables notes)" in capsys.readouterr().err
    raw = sqlite3.connect(other)
    assert raw.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
    raw.close()


@pytest.mark.parametrize("damage", ["cut", "refused"])
def test_enroll_and_probe_leave_a_journal_the_table_refuses_as_it_is(tmp_path, capsys,
                                                                     damage):
    # A database cut to nothing beside its write-ahead log, or one a start refused: the
    # registry shares the journal's file, and opening it would reset what is left.
    db = tmp_path / "table.db"
    wal = tmp_path / "table.db-wal"
    if damage == "cut":
        db.write_bytes(b"")
        wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(4092))
    else:
        db.write_bytes(b"")
        (tmp_path / "table.db.refused").write_text("{}\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    args = parse(configure_enroll, ["--pad", "loop://", "--protocol", "lines", "--db",
                                    str(db)])
    assert run_enroll(args) == 1
    err = capsys.readouterr().err
    assert "--move-aside" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_enroll_refuses_a_removal_time_no_reader_takes(capsys):
    from firmware_py.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["enroll", "--pad", "loop://", "--protocol", "lines", "--removal-ms", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--removal-ms: expected milliseconds 1..5000, got '0'" in err
    assert "Traceback" not in err


def test_learn_port_names_a_by_path_that_is_a_file(tmp_path, capsys):
    from firmware_py.cli import main

    (tmp_path / "afile").write_text("x")
    assert main(["learn-port", "--pad", "0", "--by-path", str(tmp_path / "afile"),
                 "--timeout", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "is a file; expected the folder" in err and "\n" not in err.strip()


@contextlib.contextmanager
def ctrl_c_reaches_children() -> Iterator[None]:
    """Children started inside get Ctrl-C's default action, as in a terminal.

    A test run started in the background (`nohup pytest &`, some CI runners) ignores
    SIGINT, and an ignored signal stays ignored in the programs it starts.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_probe_stops_cleanly_at_ctrl_c(tmp_path):
    with ctrl_c_reaches_children():
        probe = subprocess.Popen(
            [sys.executable, "-m", "firmware_py.cli", "probe", "loop://", "--protocol",
             "lines"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "probing loop:// (lines)" in probe.stdout.readline()
        assert probe.stdout.readline().endswith("online\n")
        probe.send_signal(signal.SIGINT)
        out, err = probe.communicate(timeout=10)
    finally:
        probe.kill()
    assert probe.returncode == 0
    assert out.endswith("0 tag events, 0 bad frames\n")
    assert err == ""


def test_enroll_player_binds_a_card_through_the_command_line(cable, db):
    from firmware_py.cli import main

    fake = FakeLines(cable)
    with watching() as screen:
        thread, result = in_thread(main, ["enroll", "--pad", str(cable.path), "--protocol",
                                          "lines", "--db", str(db), "--player", "Zoë",
                                          "--player-lang", "fa"])
        screen.wait_for("tap the tag to be Zoë's player card")
        screen.wait_for("reader online")
        fake.tap("67003B51C6")  # the 12-5 tile's tag: not taken for the card
        screen.wait_for("that tag (67003B51C6) is already 12-5; tap another")
        fake.tap("04A1B2C3D4E5F6")
        thread.join(10)
    assert result == [0]
    assert "04A1B2C3D4E5F6 is Zoë's player card" in screen.getvalue()
    with TagRegistry(db) as registry:
        assert registry.lookup("04A1B2C3D4E5F6") == Binding("player", "fa:Zoë")
        assert registry.lookup("67003B51C6") == Binding("tile", "12-5")


def test_enroll_player_refuses_a_language_the_table_does_not_speak(db, capsys):
    from firmware_py.cli import main

    assert main(["enroll", "--pad", "loop://", "--protocol", "lines", "--db", str(db),
                 "--player", "Zoë", "--player-lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("roundhouse enroll: ") and "Traceback" not in err
