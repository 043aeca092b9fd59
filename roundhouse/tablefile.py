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
