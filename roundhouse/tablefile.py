"""What a screen or a club service reads of the table's configuration file: where the
table's view socket is (and how the table's database is known as its own). The service
itself reads and checks the whole file (firmware_py.config); a screen needs this one
path and none of the rest.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from roundhouse.errors import RoundhouseError

DEFAULT_SOCKET = Path("/run/roundhouse/view.sock")
# The table's database: SQLite's application_id that marks it ours ("RHOU"), and the
# prefix of the tables the tag registry keeps in it beside the journal's.
APPLICATION_ID = 0x52484F55
SHARED_TABLE_PREFIX = "tag_"
# Beside the table's database after a start refused it as damaged: the refusal holds,
# for every program that opens the file, while this file is there.
REFUSED_SUFFIX = ".refused"


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


def view_socket(config: Path) -> Path:
    """The socket `[service] socket` names (relative to the file's folder), else the
    default one."""
    try:
        with config.open("rb") as fp:
            data = tomllib.load(fp)
    except FileNotFoundError:
        raise TableFileError(f"{config}: no such file") from None
    except OSError as err:
        raise TableFileError(f"{config}: cannot be read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise TableFileError(f"{config}: not a TOML file: {err}") from None
    service = data.get("service", {})
    value = service.get("socket") if isinstance(service, dict) else None
    if value is None:
        return DEFAULT_SOCKET
    if not isinstance(value, str) or not value:
        raise TableFileError(f"{config}: service.socket must be a file path")
    return config.resolve().parent / Path(value).expanduser()
