"""What a screen or a club service reads of the table's configuration file: where the
table's view socket is (and how the table's database is known as its own), and the
screens' own settings (`[display.speech]`, `[display.sleep]`). The service itself reads
and checks the whole file (firmware_py.config, which checks those two tables with the
readers here); a screen needs these and none of the rest.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from roundhouse.errors import RoundhouseError
from roundhouse.value import Value, frozen

DEFAULT_SOCKET = Path("/run/roundhouse/view.sock")
# The table's database: SQLite's application_id that marks it ours ("RHOU"), and the
# prefix of the tables the tag registry keeps in it beside the journal's.
APPLICATION_ID = 0x52484F55
SHARED_TABLE_PREFIX = "tag_"
# Beside the table's database after a start refused it as damaged: the refusal holds,
# for every program that opens the file, while this file is there.
REFUSED_SUFFIX = ".refused"
# Beside the table's database: the archive of its finished games, a file of the same
# kind, which only the service writes; one found damaged is kept aside as
# `NAME.archive.broken-DATE` and a new one begun.
ARCHIVE_SUFFIX = ".archive"


def beside(path: Path, suffix: str) -> Path:
    """A file SQLite or the table keeps beside the database (`-wal`, `.refused`)."""
    return path.with_name(path.name + suffix)


def cut_database(path: Path) -> str | None:
    """What is wrong with a database cut to nothing (or gone) beside a write-ahead log
    that holds commits, or None: SQLite would take it for a new database and drop the
    log, and with it every commit in it."""
    try:
        logged = beside(path, "-wal").stat().st_size
    except OSError:
        return None
    try:
        size: int | None = path.stat().st_size
    except FileNotFoundError:
        size = None
    if logged > 0 and not size:
        what = "is missing" if size is None else "is empty (0 bytes)"
        return (f"the database file {what} beside its write-ahead log of {logged} bytes "
                "(the file was cut or lost)")
    return None


class TableFileError(RoundhouseError):
    """A configuration file that does not say where the view socket is."""


def _load(config: Path) -> dict[str, Any]:
    try:
        with config.open("rb") as fp:
            return tomllib.load(fp)
    except FileNotFoundError:
        raise TableFileError(f"{config}: no such file") from None
    except OSError as err:
        raise TableFileError(f"{config}: cannot be read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise TableFileError(f"{config}: not a TOML file: {err}") from None


def view_socket(config: Path) -> Path:
    """The socket `[service] socket` names (relative to the file's folder), else the
    default one."""
    data = _load(config)
    service = data.get("service", {})
    value = service.get("socket") if isinstance(service, dict) else None
    if value is None:
        return DEFAULT_SOCKET
    if not isinstance(value, str) or not value:
        raise TableFileError(f"{config}: service.socket must be a file path")
    return config.resolve().parent / Path(value).expanduser()


@frozen
class SpeechSettings(Value):
    """`[display.speech]`: what the speech view says aloud."""

    enabled: bool = True  # false: the speech view stays silent
    quiet: frozenset[str] = frozenset()  # seats (by name) whose own news is not spoken
    rate: int = 160  # words a minute


@frozen
class SleepSettings(Value):
    """`[display.sleep]`: when the screens dim and blank with no game in play."""

    dim_after_s: float = 600.0  # 0: never
    blank_after_s: float = 900.0  # 0: never
    dim_to: float = 0.25  # the share of the picture's brightness left when dimmed
    panel: str = "auto"  # how a blank screen switches its panel off (display.panel)


def _section(data: Mapping[str, Any], name: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    """`[display.NAME]`, refused if it is not a table or holds a key not of `keys`."""
    display = data.get("display", {})
    section = display.get(name, {}) if isinstance(display, Mapping) else {}
    if not isinstance(section, Mapping):
        raise TableFileError(f"display.{name} must be a table")
    for key in section:
        if key not in keys:
            raise TableFileError(f"display.{name}.{key}: unknown key (expected one of "
                                 f"{', '.join(keys)})")
    return section


def _number(section: Mapping[str, Any], key: str, where: str, default: float,
            low: float, high: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            low <= value <= high):
        raise TableFileError(f"{where}.{key} must be a number from {low:g} to {high:g}")
    return float(value)


SPEECH_KEYS = ("enabled", "quiet", "rate")
SLEEP_KEYS = ("dim_after_s", "blank_after_s", "dim_to", "panel")
# How a blank screen switches its panel off: display.panel says what each one does.
PANELS = ("auto", "drm", "backlight", "x11", "cec", "none")


def speech_from(data: Mapping[str, Any]) -> SpeechSettings:
    """The speech settings of a parsed configuration file; TableFileError names a wrong
    key or value."""
    section = _section(data, "speech", SPEECH_KEYS)
    enabled = section.get("enabled", True)
    if not isinstance(enabled, bool):
        raise TableFileError("display.speech.enabled must be true or false")
    quiet = section.get("quiet", [])
    if not isinstance(quiet, list) or not all(isinstance(q, str) for q in quiet):
        raise TableFileError('display.speech.quiet must be a list of seat names, e.g. ["Bo"]')
    rate = _number(section, "rate", "display.speech", 160, 80, 450)
    return SpeechSettings(enabled, frozenset(quiet), int(rate))


def sleep_from(data: Mapping[str, Any]) -> SleepSettings:
    """The sleep settings of a parsed configuration file; TableFileError names a wrong
    key or value."""
    section = _section(data, "sleep", SLEEP_KEYS)
    day = 24 * 3600
    dim = _number(section, "dim_after_s", "display.sleep", 600, 0, day)
    blank = _number(section, "blank_after_s", "display.sleep", 900, 0, day)
    share = _number(section, "dim_to", "display.sleep", 0.25, 0, 1)
    if dim and blank and blank < dim:
        raise TableFileError("display.sleep.blank_after_s must not come before dim_after_s")
    panel = section.get("panel", "auto")
    if panel not in PANELS:
        raise TableFileError(f"display.sleep.panel must be one of {', '.join(PANELS)} "
                             f"(not {panel!r})")
    return SleepSettings(dim, blank, share, panel)


def speech_settings(config: Path) -> SpeechSettings:
    return speech_from(_load(config))


def sleep_settings(config: Path) -> SleepSettings:
    return sleep_from(_load(config))
