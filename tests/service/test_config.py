"""The configuration file: every mistake named by file, key and expectation, all at once."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.cli import main
from firmware_py.config import ConfigError, example_config, load_config, parse_config
from firmware_py.rules import OPTION_NAMES

SEATS = "".join(
    f'[[seats]]\nname = "{name}"\ndraw_pin = {d}\npass_pin = {p}\n\n'
    for name, d, p in [("Ana", 4, 5), ("Bo", 6, 12), ("Cy", 13, 16), ("Di", 17, 18)]
)
READERS = "".join(
    f'[[readers]]\npad = "{pad}"\nurl = "/dev/roundhouse/pad-{pad}"\nprotocol = "rdm6300"\n\n'
    for pad in ["0", "1", "2", "3", "mexican"]
)


def warnings(out: str) -> list[str]:
    """check-config's warnings, but the one a Pi's pin factory gets away from a Pi."""
    return [line for line in out.splitlines()
            if line.startswith("warning:") and "buttons.pin_factory" not in line]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == "\n".join(info.value.problems)
    return list(info.value.problems)


@pytest.mark.parametrize("name,seats,pads", [("table-4", 4, 5), ("table-8", 8, 9),
                                             ("sim", 4, 5)])
def test_shipped_examples_are_valid(name, seats, pads, capsys):
    path = example_config(name)
    config = load_config(path)
    assert len(config.seats) == seats
    assert sorted(r.pad for r in config.readers) == sorted(
        [str(s) for s in range(seats)] + ["mexican"])
    assert main(["check-config", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok")
    assert f"{seats} seats" in out
    # Away from a Pi a Pi's pin factory is named as what `run` refuses here, and only it.
    warnings = [line for line in out.splitlines() if line.startswith("warning")]
    assert all("buttons.pin_factory" in line and "roundhouse sim" in line
               for line in warnings), warnings


def test_check_config_warns_of_names_the_screens_would_show_as_boxes(tmp_path, capsys):
    path = tmp_path / "table.toml"
    text = example_config("table-4").read_text(encoding="utf-8")
    assert 'name = "East"' in text
    path.write_text(text.replace('name = "East"', 'name = "太郎"'), encoding="utf-8")
    assert main(["check-config", str(path)]) == 0  # a warning, not an error
    out = capsys.readouterr().out
    [warning] = warnings(out)
    assert '"太郎"' in warning and "boxes" in warning and "太" in warning
    # Telugu has a font of its own on the screens: no warning.
    path.write_text(text.replace('name = "East"', 'name = "రాము"'), encoding="utf-8")
    assert main(["check-config", str(path)]) == 0
    assert warnings(capsys.readouterr().out) == []


def test_a_minimal_file_takes_the_defaults(tmp_path):
    config = load_config(write(tmp_path, SEATS))
    assert config.rules == "classic"
    assert config.preset == "classic"
    assert config.hand_mode == "open"
    assert [s.name for s in config.seats] == ["Ana", "Bo", "Cy", "Di"]
    assert config.seats[2].seat == 2 and config.seats[2].pass_pin == 16
    assert config.readers == ()
    assert config.database == Path("/var/lib/roundhouse/roundhouse.db")
    assert "classic" in config.presets and "hub" in config.presets


def test_house_rules_read_as_a_game_records_rules(tmp_path):
    config = load_config(write(tmp_path, SEATS + READERS + """
[rules]
preset = "tournament"
double_blank = 25
cycle = ["tournament", "hub"]
"""))
    assert config.rules == {"preset": "tournament", "double_blank": 25}
    assert config.presets == ("tournament", "hub")
    assert config.readers[4].pad == "mexican"
    assert config.readers[4].removal_ms == 300


def test_relative_paths_are_taken_from_the_files_folder(tmp_path):
    config = load_config(write(tmp_path, SEATS + """
[service]
database = "state/table.db"
socket = "/run/elsewhere/view.sock"
"""))
    assert config.database == tmp_path / "state" / "table.db"
    assert config.socket == Path("/run/elsewhere/view.sock")


def test_a_pin_out_of_range_names_file_key_and_expectation(tmp_path):
    path = write(tmp_path, SEATS.replace("draw_pin = 13", "draw_pin = 40"))
    assert problems(path) == [f"{path}: seats[2].draw_pin: expected a BCM pin 2..27, got 40"]


def test_duplicate_pins_name_both_buttons(tmp_path):
    path = write(tmp_path, SEATS.replace("pass_pin = 18", "pass_pin = 5"))
    assert problems(path) == [
        f"{path}: seats[3].pass_pin: expected a pin no other button uses, got 5 "
        "(also seats[0].pass_pin)"]


def test_two_readers_on_one_pad_and_one_port_for_two_pads(tmp_path):
    path = write(tmp_path, SEATS + READERS.replace('pad = "2"', 'pad = "1"').replace(
        "/dev/roundhouse/pad-3", "/dev/roundhouse/pad-0"))
    assert problems(path) == [
        f'{path}: readers[2].pad: expected a pad no other reader has, got "1" '
        "(also readers[1])",
        f'{path}: readers[3].url: expected a port no other reader uses, got '
        f'"/dev/roundhouse/pad-0" (also readers[0])',
    ]


def test_a_pad_beyond_the_seats_and_an_unknown_protocol(tmp_path):
    path = write(tmp_path, SEATS + """
[[readers]]
pad = 7
url = "loop://"
protocol = "em4100"
""")
    assert problems(path) == [
        f'{path}: readers[0].pad: expected a seat number 0..3 or "mexican", got 7',
        f'{path}: readers[0].protocol: expected one of "rdm6300", "pn532", "lines", '
        '"keyboard", "em18", got "em4100"',
    ]


def test_an_unknown_preset_lists_the_presets(tmp_path):
    path = write(tmp_path, SEATS + '[rules]\npreset = "speedy"\n')
    [problem] = problems(path)
    assert problem.startswith(f'{path}: rules.preset: expected one of "classic"')
    assert '"hub"' in problem and problem.endswith('got "speedy"')


def test_check_config_names_each_value_it_does_not_know_with_the_values_it_takes(
    tmp_path, capsys
):
    path = write(tmp_path, SEATS + '[rules]\npreset = "classic"\ndouble_blank = 30\n'
                                   'engine = "centre"\nmust_play = "yes"\nsuper_doubles = true\n')
    assert main(["check-config", str(path)]) == 2
    said = capsys.readouterr().err.splitlines()
    assert sorted(said) == sorted([
        f"{path}: rules.double_blank: option double_blank does not take 30: it takes 0, 25 or 50",
        f'{path}: rules.engine: option engine does not take "centre": it takes set_aside or '
        "holder",
        f'{path}: rules.must_play: option must_play does not take "yes": it takes true or false',
        f'{path}: rules.super_doubles: unknown option "super_doubles"; options are '
        + ", ".join(OPTION_NAMES),
    ])


def test_a_seat_count_the_preset_cannot_deal_for(tmp_path):
    path = write(tmp_path, '[[seats]]\ndraw_pin = 4\npass_pin = 5\n'
                           '[[seats]]\ndraw_pin = 6\npass_pin = 12\n'
                           '[rules]\npreset = "simple"\ncycle = ["classic", "simple"]\n')
    found = sorted(problems(path))
    assert len(found) == 2
    assert found[0].startswith(f"{path}: rules.cycle[1]: simple rules do not deal for 2 ")
    assert found[1].startswith(f"{path}: seats: simple rules do not deal for 2 players")


THREE_SEATS = "[[seats]]" + "[[seats]]".join(SEATS.split("[[seats]]")[1:4])


def test_hand_size_makes_a_house_rule_for_a_seat_count_the_table_lacks(tmp_path, capsys):
    # docs/rules.md, "Deals": three players of classic on a double-12 set, 14 tiles each.
    path = write(tmp_path, THREE_SEATS + '[rules]\npreset = "classic"\nset = 12\nhand_size = 14\n')
    config = load_config(path)
    assert config.rules == {"preset": "classic", "set": 12, "hand_size": 14}
    assert main(["check-config", str(path)]) == 0
    assert "hand_size=14" in capsys.readouterr().out


@pytest.mark.parametrize(("rules", "said"), [
    # Without hand_size classic has no double-12 deal for three seats.
    ("set = 12", "seats: classic rules with a double-12 set do not deal for 3 players. "
                 "Supported: 4 players: double-12, 15 tiles; 5-6 players: double-12, 12 tiles; "
                 "7-8 players: double-12, 11 tiles."),
    ("set = 12\nhand_size = 31",
     "seats: 3 hands of 31 from a double-12 set leave no boneyard: 30 tiles per hand at most"),
    ('hand_size = "many"',
     'rules.hand_size: option hand_size does not take "many": it takes a whole number from 1'),
    ("rounds = 11", "rules.rounds: a double-9 set has 10 rounds at most, not 11"),
])  # fmt: skip
def test_a_deal_rounds_or_hand_size_the_set_cannot_give_is_named(tmp_path, rules, said):
    path = write(tmp_path, THREE_SEATS + f'[rules]\npreset = "classic"\n{rules}\n')
    assert problems(path) == [f"{path}: {said}"]


def test_every_mistake_is_reported_at_once(tmp_path):
    path = write(tmp_path, """
hand_mode = "secret"
colour = "green"
[[seats]]
name = "Ana"
draw_pin = 1
[[seats]]
name = "Ana"
draw_pin = 6
pass_pin = true
[buttons]
bounce_ms = -5
[service]
watchdog = "yes"
[display.table]
width = "wide"
""")
    assert problems(path) == [
        f"{path}: colour: unknown key (expected one of hand_mode, rules, buttons, seats, "
        "readers, service, display, language)",
        f"{path}: seats[0].draw_pin: expected a BCM pin 2..27, got 1",
        f"{path}: seats[0].pass_pin: missing (expected a BCM pin 2..27)",
        f'{path}: seats[1].name: expected a name no other seat has, got "Ana" (also seats[0])',
        f"{path}: seats[1].pass_pin: expected a BCM pin 2..27, got true",
        f'{path}: hand_mode: expected one of "open", "tracked", got "secret"',
        f"{path}: buttons.bounce_ms: expected milliseconds 0..500, got -5",
        f'{path}: service.watchdog: expected true or false, got "yes"',
        f'{path}: display.table.width: expected pixels 160..7680, got "wide"',
    ]


def test_too_few_seats_and_no_seats(tmp_path):
    path = write(tmp_path, '[[seats]]\ndraw_pin = 4\npass_pin = 5\n')
    assert f"{path}: seats: expected 2..14 seats, got 1" in problems(path)
    path = write(tmp_path, 'hand_mode = "open"\n')
    assert problems(path) == [
        f"{path}: seats: missing (expected an array of tables ([[seats]]), one per seat)"]


def test_broken_toml_and_missing_file(tmp_path):
    path = write(tmp_path, "[[seats]\nname = 'Ana'\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}: not valid TOML: ")
    assert problems(tmp_path / "nope.toml") == [f"{tmp_path / 'nope.toml'}: no such file"]


def test_check_config_prints_every_problem_and_exits_2(tmp_path, capsys):
    path = write(tmp_path, SEATS.replace("draw_pin = 4", "draw_pin = 99").replace(
        "draw_pin = 17", "draw_pin = 0"))
    assert main(["check-config", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"{path}: seats[0].draw_pin: expected a BCM pin 2..27, got 99",
        f"{path}: seats[3].draw_pin: expected a BCM pin 2..27, got 0",
    ]


PLACES = [
    ("hand_mode",), ("rules",), ("rules", "preset"), ("rules", "cycle"),
    ("rules", "double_blank"), ("rules", "deal"), ("buttons",), ("buttons", "pin_factory"),
    ("buttons", "bounce_ms"), ("buttons", "draw_hold_s"), ("seats",), ("seats", 0),
    ("seats", 1, "name"), ("seats", 2, "draw_pin"), ("readers",), ("readers", 0),
    ("readers", 1, "pad"), ("readers", 2, "url"), ("readers", 3, "protocol"),
    ("readers", 4, "removal_ms"), ("service",), ("service", "database"),
    ("service", "watchdog"), ("display",), ("display", "wall"), ("display", "table", "width"),
]
TOML_VALUES = st.recursive(
    st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(place=st.sampled_from(PLACES), value=TOML_VALUES)
def test_any_value_in_any_place_is_accepted_or_named(place, value):
    data = tomllib.loads(SEATS + READERS + '[rules]\npreset = "classic"\n')
    data.setdefault("buttons", {})
    data.setdefault("service", {})
    data.setdefault("display", {"table": {}})
    node = data
    for key in place[:-1]:
        node = node[key]
    node[place[-1]] = value
    try:
        parse_config(data, Path("table.toml"))
    except ConfigError as err:
        assert err.problems
        assert all(p.startswith("table.toml: ") for p in err.problems)


# --- what `run` could not use, refused before it starts ----------------------------------


def test_a_socket_path_longer_than_a_unix_socket_takes_is_refused(tmp_path):
    import socket

    folder = tmp_path / ("d" * 60) / ("e" * 60)
    folder.mkdir(parents=True)
    long_path = folder / "view.sock"
    # The limit is the kernel's: binding this very path fails.
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, pytest.raises(OSError):
        sock.bind(str(long_path))
    path = write(tmp_path, SEATS + f'[service]\nsocket = "{long_path}"\n')
    size = len(str(long_path).encode())
    assert problems(path) == [
        f"{path}: service.socket: expected a path of at most 107 bytes (the limit of a "
        f"Unix socket), got {size} bytes: {long_path}"]


def test_a_socket_path_of_exactly_107_bytes_is_taken(tmp_path):
    import socket

    base = str(tmp_path / "s")
    long_path = base + "x" * (107 - len(base.encode()))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(long_path)  # the kernel takes it
    Path(long_path).unlink()
    path = write(tmp_path, SEATS + f'[service]\nsocket = "{long_path}"\n')
    assert str(load_config(path).socket) == long_path


def test_a_database_path_that_is_a_folder_or_a_device_is_refused(tmp_path):
    (tmp_path / "games").mkdir()
    path = write(tmp_path, SEATS + '[service]\ndatabase = "games"\n')
    assert problems(path) == [
        f"{path}: service.database: expected a database file, got the folder "
        f"{tmp_path / 'games'}"]
    path = write(tmp_path, SEATS + '[service]\ndatabase = "/dev/null"\n')
    assert problems(path) == [
        f"{path}: service.database: expected a database file, got the device /dev/null"]


def test_one_serial_port_named_under_two_spellings_is_refused(tmp_path):
    device = tmp_path / "ttyUSB0"
    device.touch()
    (tmp_path / "by-id").mkdir()
    link = tmp_path / "by-id" / "usb-rdm6300-if00-port0"
    link.symlink_to(device)
    readers = READERS.replace("/dev/roundhouse/pad-0", str(link)).replace(
        "/dev/roundhouse/pad-2", str(tmp_path / "by-id" / ".." / "ttyUSB0"))
    path = write(tmp_path, SEATS + readers)
    assert problems(path) == [
        f'{path}: readers[2].url: expected a port no other reader uses, got '
        f'"{tmp_path}/by-id/../ttyUSB0" (also readers[0]: both are {device})']


def test_an_unknown_url_scheme_is_refused(tmp_path):
    path = write(tmp_path, SEATS + READERS.replace("/dev/roundhouse/pad-1",
                                                   "sockets://192.168.1.20:4000"))
    [problem] = problems(path)
    assert problem.startswith(f"{path}: readers[1].url: expected a serial device or a URL "
                              "starting ")
    assert "loop://" in problem and "socket://" in problem and "rfc2217://" in problem
    assert problem.endswith('got "sockets://192.168.1.20:4000"')
    # Every scheme the message offers is one pyserial opens.
    import serial

    for scheme in ("loop", "socket", "rfc2217", "spy"):
        assert f"{scheme}://" in problem
    with pytest.raises(ValueError):
        serial.serial_for_url("sockets://192.168.1.20:4000", do_not_open=True)


def test_languages_of_the_table_its_seats_and_its_wall(tmp_path, capsys):
    text = 'language = "fa"\n' + SEATS.replace(
        'name = "Bo"\n', 'name = "Bo"\nlanguage = "te"\n'
    ) + '[display.wall]\nlanguage = "ar"\n'
    config = load_config(write(tmp_path, text))
    assert config.language == "fa"
    assert [s.language for s in config.seats] == ["fa", "te", "fa", "fa"]
    assert config.display.wall.language == "ar" and config.display.table.language is None
    plain = load_config(write(tmp_path, SEATS))
    assert plain.language == "en" and {s.language for s in plain.seats} == {"en"}
    assert main(["check-config", str(write(tmp_path, text))]) == 0
    assert "languages: fa (Bo te, wall screen ar)" in capsys.readouterr().out


def test_check_config_names_an_unknown_language_code(tmp_path, capsys):
    text = 'language = "pt"\n' + SEATS.replace(
        'name = "Cy"\n', 'name = "Cy"\nlanguage = "klingon"\n'
    ) + '[display.wall]\nlanguage = "FA"\n'
    path = write(tmp_path, text)
    assert main(["check-config", str(path)]) == 2
    codes = "a language code, one of ar, el, en, fa, lt, te"
    assert capsys.readouterr().err.splitlines() == [
        f'{path}: language: expected {codes}, got "pt"',
        f'{path}: seats[2].language: expected {codes}, got "klingon"',
        f'{path}: display.wall.language: expected {codes}, got "FA"',
    ]


def test_check_config_warns_of_a_table_screen_too_small_to_read(tmp_path, capsys):
    path = tmp_path / "table.toml"
    text = example_config("table-4").read_text(encoding="utf-8")
    assert "width = 1280\nheight = 800" in text
    path.write_text(text.replace("width = 1280\nheight = 800", "width = 800\nheight = 480"),
                    encoding="utf-8")
    assert main(["check-config", str(path)]) == 0  # a warning, not an error
    out = capsys.readouterr().out
    [warning] = warnings(out)
    assert warning == (
        "warning: [display.table] is 800x480: the table screen needs at least 1280x720 and "
        "refuses to start on a smaller one (the wall screen works on it)"
    )


# --- check-config refuses what `run` would refuse ---------------------------------------


def _service(tmp_path: Path, service: str, extra: str = "") -> Path:
    return write(tmp_path, SEATS + READERS + extra + "[service]\n" + service)


@pytest.mark.parametrize("service,said", [
    ('socket = "afile"\n', "afile is a file, not a socket"),
    ('socket = "adir"\n', "adir is a folder, not a socket"),
    ('database = "t.db"\nsocket = "t.db"\n', "is the journal's own path"),
    ('socket = "afile/view.sock"\n', "its folder"),
    ('database = "' + "d" * 250 + '.db"\n', "bytes long"),
    ('database = "afile/t.db"\n', "its folder"),
    ('database = "dangling"\n', "which does not exist"),
])
def test_check_config_refuses_the_paths_run_would_refuse(tmp_path, capsys, service, said):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    (tmp_path / "dangling").symlink_to(tmp_path / "gone" / "t.db")
    path = _service(tmp_path, service)
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    # And so does `run`, in the same words: it reads the configuration the same way.
    proc = subprocess.run([sys.executable, "-m", "firmware_py.cli", "run", "--config",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and said in proc.stderr
    assert not (tmp_path / "t.db").exists() or "t.db" not in service


def test_the_journal_names_a_path_it_can_never_use(tmp_path):
    from firmware_py.journal import Journal, JournalError

    (tmp_path / "afile").write_text("x")
    with pytest.raises(JournalError, match=r"its folder .* is a file"):
        Journal(tmp_path / "afile" / "t.db")
    with pytest.raises(JournalError, match="bytes long"):
        Journal(tmp_path / ("d" * 250))


@pytest.mark.parametrize("text,said", [
    (SEATS + '[buttons]\npin_factory = "pigpio"\n' + READERS, "no extra of Roundhouse"),
    (SEATS, "no [[readers]]"),
    ('hand_mode = "tracked"\n' + SEATS + '[[readers]]\npad = "mexican"\n'
     'url = "/dev/roundhouse/pad-mexican"\nprotocol = "rdm6300"\n',
     "no reader for the pads of seats 0, 1, 2, 3"),
])
def test_check_config_names_what_run_cannot_play_with_as_a_warning(tmp_path, capsys, text,
                                                                     said):
    path = write(tmp_path, text)
    assert main(["check-config", str(path)]) == 0
    assert any(said in line for line in capsys.readouterr().out.splitlines()
               if line.startswith("warning:"))
