"""A systemd unit file read as systemd reads it, for the checks of `roundhouse doctor`.

Every assignment of a key is kept in order (DeviceAllow=, SystemCallFilter= and their
kind are lists; an empty assignment resets the list, as systemd.syntax(7) says), a
backslash at the end of a line continues it, and `#`/`;` start comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from roundhouse.errors import RoundhouseError


@dataclass(frozen=True)
class Unit:
    path: Path
    sections: dict[str, dict[str, list[str]]]

    def values(self, key: str, section: str = "Service") -> list[str]:
        """Every value given to `key`, after the resets of an empty assignment."""
        return self.sections.get(section, {}).get(key, [])

    def last(self, key: str, default: str = "", section: str = "Service") -> str:
        values = self.values(key, section)
        return values[-1] if values else default

    def words(self, key: str, section: str = "Service") -> list[str]:
        """The space-separated words of every assignment of `key` (SupplementaryGroups=)."""
        return [word for value in self.values(key, section) for word in value.split()]

    def proc_mount_options(self) -> str:
        """The options systemd mounts the unit's private /proc with.

        systemd's src/core/namespace.c (mount_procfs): ProtectProc=X becomes hidepid=X
        and ProcSubset=pid becomes subset=pid; with neither, /proc is the host's.
        """
        options = []
        protect = self.last("ProtectProc", "default")
        if protect != "default":
            options.append(f"hidepid={protect}")
        if self.last("ProcSubset", "all") == "pid":
            options.append("subset=pid")
        return ",".join(options)


def read_unit(path: Path) -> Unit:
    """Parse a unit file and its drop-ins (`<unit>.d/*.conf`, in name order, as
    `systemctl edit` writes them); raises OSError when the unit cannot be read, and
    `UnitError` when it is not a text file."""
    sections: dict[str, dict[str, list[str]]] = {}
    for file in (path, *sorted(path.with_name(path.name + ".d").glob("*.conf"))):
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise UnitError(f"{file}: not a unit file (not text)") from None
        _parse(text, sections)
    return Unit(path, sections)


class UnitError(RoundhouseError):
    """A file given as a unit that is not one."""


def _parse(text: str, sections: dict[str, dict[str, list[str]]]) -> None:
    current: dict[str, list[str]] | None = None
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip() if pending else raw.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        if current is None or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if value == "":
            current[key] = []
        else:
            current.setdefault(key, []).append(value)
