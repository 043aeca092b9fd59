"""Which tags lie on a pad, from readings that repeat, arrive once, or say themselves."""

from __future__ import annotations

from hardware.rfid.protocol import Arrived, Left, Reading, Seen


class Presence:
    """One "placed" per tag however often it is read; "removed" after `removal_s` of silence.

    Tags announced with `Arrived` stay until a `Left`. The silence is only counted while
    the reader is online: `restart` (after a reconnection) gives every tag a new full
    removal time, so a marker lying through an unplugged cable is not reported twice.
    """

    def __init__(self, removal_s: float) -> None:
        self.removal_s = removal_s
        self._last_seen: dict[str, float] = {}
        self._announced: set[str] = set()

    @property
    def expiring(self) -> bool:
        """Some tag is waiting for its silence to run out."""
        return bool(self._last_seen)

    def update(self, reading: Reading, now: float) -> tuple[str, str] | None:
        """("placed" | "removed", uid) when the reading changes what lies on the pad."""
        uid = reading.uid
        present = uid in self._last_seen or uid in self._announced
        if isinstance(reading, Seen):
            if uid not in self._announced:
                # Re-inserted so the dict stays in order of last sighting, oldest first.
                self._last_seen.pop(uid, None)
                self._last_seen[uid] = now
        elif isinstance(reading, Arrived):
            self._last_seen.pop(uid, None)
            self._announced.add(uid)
        elif isinstance(reading, Left):
            self._last_seen.pop(uid, None)
            self._announced.discard(uid)
            return ("removed", uid) if present else None
        return None if present else ("placed", uid)

    def expire(self, now: float) -> list[str]:
        """The tags silent for the removal time, now gone."""
        gone = []
        for uid, seen in self._last_seen.items():
            if now - seen < self.removal_s:
                break
            gone.append(uid)
        for uid in gone:
            del self._last_seen[uid]
        return gone

    def restart(self, now: float) -> None:
        for uid in self._last_seen:
            self._last_seen[uid] = now
