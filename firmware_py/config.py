"""The table's configuration: one TOML file, validated whole before anything starts.

Every mistake is reported as ``FILE: KEY: expected ..., got ...`` and all of them are
collected, so an installer fixes a file in one pass. Relative paths (database, socket)
are taken from the configuration file's folder; ``~`` is expanded.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from roundhouse import tablefile
from roundhouse.declension import ALL_CASES, CASES, GENDERS, Forms
from roundhouse.errors import RoundhouseError
from roundhouse.render import DEFAULT_LANGUAGE, languages
from roundhouse.tablefile import DEFAULT_SOCKET
from roundhouse.value import Value, frozen

DEFAULT_CONFIG = Path("/etc/roundhouse/table.toml")
DEFAULT_DATABASE = Path("/var/lib/roundhouse/roundhouse.db")

# Button pins are BCM numbers; 0 and 1 are the HAT EEPROM's I2C pins.
PIN_RANGE = range(2, 28)
SEAT_RANGE = range(2, 15)
HAND_MODES = ("open", "tracked")
MEXICAN = "mexican"
# An RDM6300 sends a lying card about every 65 ms: two of its frames may go missing.
RDM6300_REMOVAL_MS = 200
# Every `loop://` port is a private loopback, so several readers may name one.
SHAREABLE_URL_PREFIXES = ("loop://",)
# A Unix socket's path must fit `sun_path` with its terminating NUL (unix(7): 108 bytes
# on Linux), or bind() fails.
SOCKET_PATH_MAX_BYTES = 107


class ConfigError(RoundhouseError):
    """A configuration file that cannot be used; `problems` lists every mistake."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@frozen
class SeatConfig(Value):
    """One seat: its player's name, its two buttons' pins, its language."""

    seat: int
    name: str
    draw_pin: int
    pass_pin: int
    language: str = DEFAULT_LANGUAGE  # the seat's own, else the table's
    # How the sentences of a language with cases say the name (docs/languages.md).
    gender: str | None = None
    forms: Forms = ()


@frozen
class ReaderConfig(Value):
    """One pad's reader: where it is plugged and how it speaks."""

    pad: str  # a seat's train pad ("0".."n-1") or "mexican"
    url: str
    protocol: str
    removal_ms: int = 300
    # The table reads the train markers lying on this pad (a protocol that reads two
    # tags at once); otherwise it only reminds players of their markers at the changes.
    markers: bool = False
    uid_bytes: tuple[int, ...] | None = None  # a line reader's UID sizes; None: its default


@frozen
class ScreenConfig(Value):
    """One screen's size, whether it fills the display, and its language."""

    width: int
    height: int
    fullscreen: bool
    language: str | None = None  # None: the table's language


@frozen
class DisplayConfig(Value):
    """The table screen and the wall screen."""

    table: ScreenConfig
    wall: ScreenConfig


@frozen
class Config(Value):
    """A table's whole configuration, checked (`load_config`)."""

    source: Path | None
    seats: tuple[SeatConfig, ...]
    readers: tuple[ReaderConfig, ...]
    rules: str | dict[str, object]  # as a game record's "rules"
    presets: tuple[str, ...]  # the cycle of the next-preset card
    hand_mode: str
    database: Path
    socket: Path
    pin_factory: str | None
    bounce_ms: int
    draw_hold_s: float
    pass_hold_s: float
    watchdog: bool
    display: DisplayConfig
    language: str = DEFAULT_LANGUAGE  # the table-wide default

    @property
    def preset(self) -> str:
        return self.rules if isinstance(self.rules, str) else str(self.rules["preset"])


def load_config(path: Path) -> Config:
    """Read and validate a configuration file; raise `ConfigError` naming every mistake."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError([f"{path}: no such file"]) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError([f"{path}: cannot be read: {err}"]) from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError([f"{path}: not valid TOML: {err}"]) from None
    return parse_config(data, path)


def parse_config(data: Mapping[str, Any], source: Path | None = None) -> Config:
    """Validate an already parsed configuration (`source` names it in messages and
    anchors its relative paths; without it, paths are relative to the current folder)."""
    return _Parser(source).config(data)


def example_config(name: str) -> Path:
    """The path of a shipped example: "table-4", "table-8" or "sim"."""
    return Path(__file__).with_name("configs") / f"{name}.toml"


class _Parser:
    """Walks the TOML tree once, recording every problem instead of stopping at one."""

    def __init__(self, source: Path | None) -> None:
        self.source = source
        self.base = source.parent if source else Path.cwd()
        self.problems: list[str] = []

    def problem(self, key: str, text: str) -> None:
        where = str(self.source) if self.source else "<config>"
        self.problems.append(f"{where}: {key}: {text}" if key else f"{where}: {text}")

    def expected(self, key: str, what: str, got: object) -> None:
        self.problem(key, f"expected {what}, got {_show(got)}")

    # --- typed getters: record the problem and return the default --------------------

    def table(self, data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, Mapping):
            self.expected(path, "a table", value)
            return {}
        return value

    def unknown(self, data: Mapping[str, Any], known: Sequence[str], path: str) -> None:
        for key in data:
            if key not in known:
                where = f"{path}.{key}" if path else key
                self.problem(where, f"unknown key (expected one of {', '.join(known)})")

    def get(
        self,
        data: Mapping[str, Any],
        key: str,
        path: str,
        default: Any,
        check: Callable[[Any], bool],
        what: str,
    ) -> Any:
        if key not in data:
            return default
        value = data[key]
        if not check(value):
            self.expected(path, what, value)
            return default
        return value

    def int_in(self, data: Mapping[str, Any], key: str, path: str, default: int, lo: int,
               hi: int, what: str) -> int:
        return int(self.get(data, key, path, default,
                            lambda v: _is_int(v) and lo <= v <= hi,
                            f"{what} {lo}..{hi}"))

    def number_in(self, data: Mapping[str, Any], key: str, path: str, default: float,
                  lo: float, hi: float, what: str) -> float:
        return float(self.get(
            data, key, path, default,
            lambda v: (_is_int(v) or isinstance(v, float)) and lo <= v <= hi,
            f"{what} {lo:g}..{hi:g}"))

    def choice(self, data: Mapping[str, Any], key: str, path: str, default: str,
               choices: Sequence[str]) -> str:
        return str(self.get(data, key, path, default, lambda v: v in choices,
                            "one of " + ", ".join(f'"{c}"' for c in choices)))

    def boolean(self, data: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
        return bool(self.get(data, key, path, default, lambda v: isinstance(v, bool),
                             "true or false"))

    def path(self, data: Mapping[str, Any], key: str, path: str, default: Path) -> Path:
        value = self.get(data, key, path, None, lambda v: isinstance(v, str) and v != "",
                         "a file path")
        if value is None:
            return default
        return self.base / Path(value).expanduser()

    # --- sections ---------------------------------------------------------------------

    def config(self, data: Mapping[str, Any]) -> Config:
        # The adapters' own lists; imported here so the journal's commands stay light.
        from hardware.buttons import PIN_FACTORIES
        from hardware.rfid import PROTOCOLS

        self.unknown(data, ("hand_mode", "rules", "buttons", "seats", "readers", "service",
                            "display", "language"), "")
        language = self.language(data, "language", "language", DEFAULT_LANGUAGE)
        seats = self.seats(data.get("seats"), language)
        readers = self.readers(data.get("readers", []), len(seats), PROTOCOLS)
        rules, presets = self.rules(data.get("rules", "classic"), len(seats))
        buttons = self.table(data, "buttons", "buttons")
        self.unknown(buttons, ("pin_factory", "bounce_ms", "draw_hold_s", "pass_hold_s"),
                     "buttons")
        service = self.table(data, "service", "service")
        self.unknown(service, ("database", "socket", "watchdog"), "service")
        database = self.path(service, "database", "service.database", DEFAULT_DATABASE)
        self.check_database(database)
        socket_path = self.path(service, "socket", "service.socket", DEFAULT_SOCKET)
        self.check_socket(socket_path, database)
        config = Config(
            source=self.source,
            seats=seats,
            readers=readers,
            rules=rules,
            presets=presets,
            hand_mode=self.choice(data, "hand_mode", "hand_mode", "open", HAND_MODES),
            database=database,
            socket=socket_path,
            pin_factory=self.get(buttons, "pin_factory", "buttons.pin_factory", None,
                                 lambda v: isinstance(v, str) and v in PIN_FACTORIES,
                                 "one of " + ", ".join(PIN_FACTORIES)),
            bounce_ms=self.int_in(buttons, "bounce_ms", "buttons.bounce_ms", 20, 0, 500,
                                  "milliseconds"),
            draw_hold_s=self.number_in(buttons, "draw_hold_s", "buttons.draw_hold_s", 2.0,
                                       0.3, 10, "seconds"),
            pass_hold_s=self.number_in(buttons, "pass_hold_s", "buttons.pass_hold_s", 1.5,
                                       0.3, 10, "seconds"),
            watchdog=self.boolean(service, "watchdog", "service.watchdog", True),
            display=self.display(self.table(data, "display", "display")),
            language=language,
        )
        if self.problems:
            raise ConfigError(self.problems)
        return config

    def check_database(self, path: Path) -> None:
        from firmware_py.journal import path_problem

        problem = path_problem(path)
        if problem is not None:
            self.problem("service.database", f"{path}: {problem}")
            return
        try:
            mode = path.stat().st_mode
        except OSError:
            return  # not there yet: the journal creates it
        if stat.S_ISDIR(mode):
            self.problem("service.database", f"expected a database file, got the folder {path}")
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            self.problem("service.database", f"expected a database file, got the device {path}")
        elif not stat.S_ISREG(mode):
            self.problem("service.database",
                         f"expected a database file, got {path}, which is not a regular file")

    def check_socket(self, path: Path, database: Path) -> None:
        """What `roundhouse run` refuses of the view socket's path, before it runs."""
        size = len(os.fsencode(str(path)))
        if size > SOCKET_PATH_MAX_BYTES:
            self.problem("service.socket",
                         f"expected a path of at most {SOCKET_PATH_MAX_BYTES} bytes (the limit "
                         f"of a Unix socket), got {size} bytes: {path}")
        if os.path.abspath(path) == os.path.abspath(database):
            self.problem("service.socket", f"is the journal's own path {path}: give the "
                                           "socket a path of its own")
            return
        try:
            mode: int | None = path.lstat().st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISSOCK(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "a file"
            self.problem("service.socket", f"{path} is {what}, not a socket: name a free "
                                           "path (the service makes the socket there)")
        for folder in path.parents:
            try:
                if not folder.exists():
                    continue
                if not folder.is_dir():
                    self.problem("service.socket", f"{path}: its folder {folder} is a "
                                                   "file, not a folder")
            except OSError:
                pass
            break

    def language(self, data: Mapping[str, Any], key: str, path: str, default: str) -> str:
        codes = languages()
        return str(self.get(data, key, path, default,
                            lambda v: isinstance(v, str) and v in codes,
                            "a language code, one of " + ", ".join(codes)))

    def seats(self, value: object, language: str) -> tuple[SeatConfig, ...]:
        what = "an array of tables ([[seats]]), one per seat"
        if value is None:
            self.problem("seats", f"missing (expected {what})")
            return ()
        if not isinstance(value, list) or not all(isinstance(s, Mapping) for s in value):
            self.expected("seats", what, value)
            return ()
        if len(value) not in SEAT_RANGE:
            self.expected("seats", f"{SEAT_RANGE.start}..{SEAT_RANGE.stop - 1} seats",
                          len(value))
        seats: list[SeatConfig] = []
        pins: dict[int, str] = {}
        names: dict[str, int] = {}
        for i, seat in enumerate(value):
            key = f"seats[{i}]"
            self.unknown(seat, ("name", "draw_pin", "pass_pin", "language", "gender", "forms"),
                         key)
            name = str(self.get(seat, "name", f"{key}.name", f"Seat {i + 1}",
                                lambda v: isinstance(v, str) and 0 < len(v.strip()) <= 24,
                                "a name of 1..24 characters")).strip()
            if name in names:
                self.problem(f"{key}.name", f"expected a name no other seat has, got "
                                            f"{_show(name)} (also seats[{names[name]}])")
            names.setdefault(name, i)
            seat_pins = {}
            for button in ("draw_pin", "pass_pin"):
                if button not in seat:
                    self.problem(f"{key}.{button}", "missing (expected a BCM pin 2..27)")
                    continue
                pin = self.int_in(seat, button, f"{key}.{button}", -1, PIN_RANGE.start,
                                  PIN_RANGE.stop - 1, "a BCM pin")
                if pin in pins:
                    self.problem(f"{key}.{button}",
                                 f"expected a pin no other button uses, got {pin} "
                                 f"(also {pins[pin]})")
                elif pin >= 0:
                    pins[pin] = f"{key}.{button}"
                seat_pins[button] = pin
            gender = self.get(seat, "gender", f"{key}.gender", None,
                              lambda v: v in GENDERS, " or ".join(f'"{g}"' for g in GENDERS))
            seats.append(SeatConfig(i, name, seat_pins.get("draw_pin", -1),
                                    seat_pins.get("pass_pin", -1),
                                    self.language(seat, "language", f"{key}.language",
                                                  language),
                                    gender, self.forms(seat, f"{key}.forms")))
        return tuple(seats)

    def forms(self, seat: Mapping[str, Any], path: str) -> Forms:
        """`forms.LANG = { CASE = "form", ... }`: the name as the sentences of a language
        with cases say it, each form as it stands in the sentence (article included)."""
        value = self.table(seat, "forms", path)
        out = []
        for lang, cased in value.items():
            key = f"{path}.{lang}"
            have = CASES.get(lang)
            if have is None:
                known = ", ".join(sorted(CASES))
                self.problem(key, (f"{lang!r} is not a language whose sentences decline names "
                                   f"(forms are given for {known})"))
                continue
            if not isinstance(cased, Mapping):
                self.expected(key, 'a table of forms, e.g. { genitive = "..." }', cased)
                continue
            said = []
            for case, form in cased.items():
                where = f"{key}.{case}"
                if case not in have:
                    other = (f"{lang} has no {case}" if case in ALL_CASES
                             else f"{case!r} is not a case")
                    self.problem(where, f"{other} (expected one of {', '.join(have)})")
                elif not (isinstance(form, str) and 0 < len(form.strip()) <= 48):
                    self.expected(where, "the name in that case, 1..48 characters", form)
                else:
                    said.append((str(case), form.strip()))
            out.append((str(lang), tuple(said)))
        return tuple(out)

    def readers(self, value: object, seat_count: int,
                protocols: Sequence[str]) -> tuple[ReaderConfig, ...]:
        if not isinstance(value, list) or not all(isinstance(r, Mapping) for r in value):
            self.expected("readers", "an array of tables ([[readers]]), one per pad", value)
            return ()
        pads = [str(s) for s in range(seat_count)] + [MEXICAN]
        pad_what = (f'a seat number 0..{seat_count - 1} or "{MEXICAN}"' if seat_count
                    else f'a seat number or "{MEXICAN}"')
        readers: list[ReaderConfig] = []
        by_pad: dict[str, str] = {}
        by_port: dict[str, tuple[str, str]] = {}  # resolved port -> (reader, url as given)
        schemes = _url_schemes()
        for i, reader in enumerate(value):
            key = f"readers[{i}]"
            self.unknown(reader, ("pad", "url", "protocol", "removal_ms", "markers",
                                  "uid_bytes"), key)
            for required in ("pad", "url", "protocol"):
                if required not in reader:
                    self.problem(f"{key}.{required}", "missing")
            raw_pad = reader.get("pad")
            pad = str(raw_pad) if _is_int(raw_pad) or isinstance(raw_pad, str) else ""
            if "pad" in reader and pad not in pads:
                self.expected(f"{key}.pad", pad_what, raw_pad)
            elif pad in by_pad:
                self.problem(f"{key}.pad", f"expected a pad no other reader has, got "
                                           f"{_show(raw_pad)} (also {by_pad[pad]})")
            elif pad:
                by_pad[pad] = key
            url = str(self.get(reader, "url", f"{key}.url", "",
                               lambda v: isinstance(v, str) and v.strip() != "",
                               "a serial device or URL (/dev/..., loop://, socket://...)"))
            scheme, has_scheme, _ = url.partition("://")
            if has_scheme and scheme.lower() not in schemes:
                self.expected(f"{key}.url", "a serial device or a URL starting "
                              + ", ".join(f"{s}://" for s in sorted(schemes)), url)
            # Two spellings of one device (a /dev/serial/by-id link and its ttyUSB) are
            # one port: the second reader could never open it.
            port = url if has_scheme else os.path.realpath(os.path.expanduser(url))
            if url and port in by_port and not url.startswith(SHAREABLE_URL_PREFIXES):
                other, spelled = by_port[port]
                same = "" if spelled == url else f": both are {port}"
                self.problem(f"{key}.url", f"expected a port no other reader uses, got "
                                           f"{_show(url)} (also {other}{same})")
            if url:
                by_port.setdefault(port, (key, url))
            protocol = self.choice(reader, "protocol", f"{key}.protocol", "", protocols)
            # An RDM6300 repeats a lying card every 65 ms: a shorter silence is no removal.
            shortest = RDM6300_REMOVAL_MS if protocol == "rdm6300" else 50
            readers.append(ReaderConfig(
                pad=pad,
                url=url,
                protocol=protocol,
                removal_ms=self.int_in(reader, "removal_ms", f"{key}.removal_ms", 300,
                                       shortest, 5000, "milliseconds"),
                markers=self.markers(reader, key, protocol),
                uid_bytes=self.uid_bytes(reader, key, protocol),
            ))
        return tuple(readers)

    def markers(self, reader: Mapping[str, Any], key: str, protocol: str) -> bool:
        from hardware.rfid import READS_SEVERAL

        markers = self.boolean(reader, "markers", f"{key}.markers", False)
        if markers and protocol and protocol not in READS_SEVERAL:
            self.problem(
                f"{key}.markers",
                f'a "{protocol}" reader reads one tag at a time (no anti-collision): a '
                "marker lying on this pad would hide or garble every tile tapped on it. "
                f"Sense markers only with {' or '.join(READS_SEVERAL)} pads (see "
                "hardware/WIRING.md, Markers and tiles on one pad), or set markers = false")
        return markers

    def uid_bytes(self, reader: Mapping[str, Any], key: str,
                  protocol: str) -> tuple[int, ...] | None:
        from hardware.rfid import LINE_UID_SIZES

        if "uid_bytes" not in reader:
            return None
        sizes = ", ".join(map(str, LINE_UID_SIZES))
        value = self.get(reader, "uid_bytes", f"{key}.uid_bytes", None,
                         lambda v: isinstance(v, list) and len(v) > 0
                         and all(_is_int(n) and n in LINE_UID_SIZES for n in v),
                         f"a list of UID sizes in bytes among {sizes}")
        if value is not None and protocol and protocol != "lines":
            self.problem(f"{key}.uid_bytes", f'only for a "lines" reader (the "{protocol}" '
                                             "protocol knows its UID sizes)")
        return None if value is None else tuple(sorted(set(value)))

    def rules(self, value: object, seat_count: int) -> tuple[str | dict[str, object],
                                                             tuple[str, ...]]:
        from firmware_py.rules import PRESETS, BadDeal, BadOptions, Options

        def deals(options: Options) -> str | None:
            try:
                options.deal_for(seat_count)
            except BadDeal as err:
                return str(err)
            return None

        preset_what = "one of " + ", ".join(f'"{p}"' for p in PRESETS)
        if isinstance(value, str):
            value = {"preset": value}
        if not isinstance(value, Mapping):
            self.expected("rules", "a preset name or a table", value)
            value = {}
        options = {k: v for k, v in value.items() if k != "cycle"}
        preset = options.get("preset", "classic")
        rules: str | dict[str, object] = (
            str(preset) if set(options) <= {"preset"} else {"preset": preset, **options})
        # Without a cycle the card steps through every preset that deals for this table.
        cycle = self.get(value, "cycle", "rules.cycle", None,
                         lambda v: isinstance(v, list) and len(v) > 0,
                         "a non-empty list of preset names")
        presets: list[str] = []
        if cycle is None:
            presets = [name for name, o in PRESETS.items() if not seat_count or not deals(o)]
        for i, name in enumerate(cycle or ()):
            if not isinstance(name, str) or name not in PRESETS:
                self.expected(f"rules.cycle[{i}]", preset_what, name)
            elif seat_count and (why := deals(PRESETS[name])):
                self.problem(f"rules.cycle[{i}]", why)
            else:
                presets.append(name)
        if not isinstance(preset, str) or preset not in PRESETS:
            self.expected("rules.preset", preset_what, preset)
            return "classic", tuple(presets)
        try:
            parsed = Options.from_json(rules)
        except BadOptions:
            # Each option on its own, so that every one at fault is named at its key.
            for key, option in options.items():
                if key == "preset":
                    continue
                try:
                    Options.from_json({"preset": preset, key: option})
                except BadOptions as err:
                    self.problem(f"rules.{err.option or key}", str(err))
            return "classic", tuple(presets)
        try:
            if seat_count:
                parsed.deal_for(seat_count)
        except BadDeal as err:
            self.problem("seats", str(err))
        except BadOptions as err:  # more rounds than the set has
            self.problem("rules.rounds", str(err))
        return rules, tuple(presets)

    def display(self, data: Mapping[str, Any]) -> DisplayConfig:
        self.unknown(data, ("table", "wall", "speech", "sleep"), "display")
        # The screens read their speech and sleep settings themselves (roundhouse.tablefile);
        # checked here too, so check-config names a mistake in them.
        for read in (tablefile.speech_from, tablefile.sleep_from):
            try:
                read({"display": data})
            except tablefile.TableFileError as err:
                key, _, text = str(err).partition(" ")
                self.problem(key.rstrip(":"), text)
        defaults = {"table": ScreenConfig(1280, 800, True),
                    "wall": ScreenConfig(1920, 1080, True)}
        screens: dict[str, ScreenConfig] = {}
        for name, default in defaults.items():
            screen = self.table(data, name, f"display.{name}")
            key = f"display.{name}"
            self.unknown(screen, ("width", "height", "fullscreen", "language"), key)
            screens[name] = ScreenConfig(
                width=self.int_in(screen, "width", f"{key}.width", default.width, 160, 7680,
                                  "pixels"),
                height=self.int_in(screen, "height", f"{key}.height", default.height, 120,
                                   4320, "pixels"),
                fullscreen=self.boolean(screen, "fullscreen", f"{key}.fullscreen",
                                        default.fullscreen),
                language=(self.language(screen, "language", f"{key}.language", "en")
                          if "language" in screen else None),
            )
        return DisplayConfig(**screens)


def _url_schemes() -> frozenset[str]:
    """The URL schemes `serial.serial_for_url` opens: one `protocol_NAME` module each in
    pyserial's `serial.urlhandler` package."""
    import pkgutil

    import serial.urlhandler  # type: ignore[import-untyped]

    return frozenset(m.name.removeprefix("protocol_")
                     for m in pkgutil.iter_modules(serial.urlhandler.__path__)
                     if m.name.startswith("protocol_"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return str(value)


def summary(config: Config) -> str:
    """A few lines an installer can check the file against."""
    names = ", ".join(s.name for s in config.seats)
    pads = ", ".join(f"{r.pad}={r.protocol}" + (" (markers)" if r.markers else "")
                     for r in config.readers) or "none"
    return "\n".join([
        f"{len(config.seats)} seats: {names}",
        f"readers: {pads}",
        f"rules: {config.preset}" + ("" if isinstance(config.rules, str) else " with "
                                     + ", ".join(f"{k}={v}" for k, v in config.rules.items()
                                                 if k != "preset")),
        f"hand mode: {config.hand_mode}",
        f"languages: {_languages(config)}",
        f"database: {config.database}",
        f"view socket: {config.socket}",
    ])


def _languages(config: Config) -> str:
    """The table's language, then the seats and screens that read another."""
    others = [f"{s.name} {s.language}" for s in config.seats if s.language != config.language]
    for name in ("table", "wall"):
        screen = getattr(config.display, name)
        if screen.language not in (None, config.language):
            others.append(f"{name} screen {screen.language}")
    return config.language + (f" ({', '.join(others)})" if others else "")


def configure_check_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the TOML configuration to check")


def run_check_config(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as err:
        print(str(err), file=sys.stderr)
        return 2
    print(f"ok: {args.file}\n{summary(config)}")
    warnings = (name_warnings(config) + screen_warnings(config) + pad_warnings(config)
                + pin_warnings(config))
    for warning in warnings:
        print(f"warning: {warning}")
    return 0


# The library each pin factory needs beside gpiozero (None: gpiozero's own).
_PIN_LIBRARIES = {"mock": None, "native": None, "lgpio": "lgpio", "rpigpio": "RPi.GPIO",
                  "pigpio": "pigpio"}


def pad_warnings(config: Config) -> list[str]:
    """Pads the table cannot play without: tiles are played on the trains' pads, and
    tracked hands are dealt and drawn on each seat's own pad."""
    if not config.readers:
        return ["no [[readers]]: the table needs a reader for each pad (each seat's train "
                "and the Mexican train); without one no tile can be played"]
    pads = {r.pad for r in config.readers}
    missing = [str(s.seat) for s in config.seats if str(s.seat) not in pads]
    if config.hand_mode == "tracked" and missing:
        return ["tracked hands are dealt and drawn on each seat's own pad: no reader for "
                f"the pads of seats {', '.join(missing)}; no game can be dealt"]
    return []


def pin_warnings(config: Config) -> list[str]:
    """A pin factory that cannot load on this machine: `run` refuses here (on a laptop
    that is expected of a Pi's configuration; on the Pi it must be fixed)."""
    import importlib.util

    name = config.pin_factory
    library = _PIN_LIBRARIES.get(name) if name else None
    if library is None:
        return []
    try:
        found = importlib.util.find_spec(library) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return []
    extra = ("the 'pi' extra installs it (pip install 'roundhouse[pi]')"
             if name in ("lgpio", "rpigpio") else
             'no extra of Roundhouse installs it: on a Pi use pin_factory = "lgpio"')
    return [f'buttons.pin_factory = "{name}" needs the module {library}, which is not '
            f"installed here: `roundhouse run` refuses on this machine; {extra}. To try the "
            "table without hardware: roundhouse sim"]


def screen_warnings(config: Config) -> list[str]:
    """A table screen too small to be read from every seat (the display refuses it)."""
    try:
        from display.table_layout import MIN_SIZE, fits_table
    except ImportError:  # a service installed without its screens
        return []
    table = config.display.table
    if fits_table((table.width, table.height)):
        return []
    return [f"[display.table] is {table.width}x{table.height}: the table screen needs at "
            f"least {MIN_SIZE[0]}x{MIN_SIZE[1]} and refuses to start on a smaller one (the "
            "wall screen works on it)"]


def name_warnings(config: Config) -> list[str]:
    """Seat names with letters the screens have no glyph for (drawn as boxes)."""
    try:
        from display.text import unshown  # the screens' fonts decide
    except ImportError:  # a service installed without its screens
        return []
    out = []
    for seat in config.seats:
        said = [("name", seat.name)] + [
            (f"{lang} {case} form", form) for lang, cased in seat.forms for case, form in cased]
        for what, name in said:
            missing = unshown(name)
            if missing:
                out.append(
                    f'seat {seat.seat}\'s {what} "{name}" has letters the screens cannot show '
                    f"({' '.join(missing)}): they would appear as boxes (the screens' fonts "
                    "cover the Latin, Greek, Cyrillic, Arabic and Telugu scripts)"
                )
    return out
