"""Which tags lie on a pad, from readings that repeat, arrive once, or say themselves."""

from __future__ import annotations

from hardware.rfid.protocol import Arrived, Left, Reading, Seen

# After a reconnection, how long a tag a hub announced before (`+UID`) stays without
# being announced again. A hub that restarted with its cable (a USB board resets when
# its port is opened) has forgotten what it announced and never says `-UID` for it; one
# that announces what lies on it when it starts says `+UID` again within this time.
REANNOUNCE_S = 2.0


class Presence:
    """One "placed" per tag however often it is read; "removed" after `removal_s` of silence.

    Tags announced with `Arrived` stay until a `Left`. The silence is only counted while
    the reader is online: `restart` (after a reconnection) gives every tag a new full
    removal time, so a marker lying through an unplugged cable is not reported twice, and
    an announced tag must be announced (or seen) again within `reannounce_s` or it is
    reported removed: the reader and the table then agree on what lies on the pad
    whether or not the hub restarted.
    """

    def __init__(self, removal_s: float, reannounce_s: float = REANNOUNCE_S) -> None:
        self.removal_s = removal_s
        self.reannounce_s = max(removal_s, reannounce_s)
        self._last_seen: dict[str, float] = {}
        self._announced: set[str] = set()
        # Announced before the last reconnection, not since: uid -> when it is taken as gone.
        self._unconfirmed: dict[str, float] = {}

    @property
    def expiring(self) -> bool:
        """Some tag is waiting for its silence to run out."""
        return bool(self._last_seen or self._unconfirmed)

    def update(self, reading: Reading, now: float) -> tuple[str, str] | None:
        """("placed" | "removed", uid) when the reading changes what lies on the pad."""
        uid = reading.uid
        present = uid in self._last_seen or uid in self._announced or uid in self._unconfirmed
        self._unconfirmed.pop(uid, None)
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
        lapsed = [uid for uid, until in self._unconfirmed.items() if now >= until]
        for uid in lapsed:
            del self._unconfirmed[uid]
        return gone + lapsed

    def restart(self, now: float) -> None:
        """The reader is back after a reconnection."""
        for uid in self._last_seen:
            self._last_seen[uid] = now
        for uid in self._announced:
            self._unconfirmed[uid] = now + self.reannounce_s
        self._announced.clear()
