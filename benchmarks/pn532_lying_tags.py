"""What to send between PN532 polls so that tags left on a pad stay placed.

For each way (`Pn532(after_tags=...)`), on the fake chip with and without the MaxTg=2
quirk (`FakePn532(keeps_selected=...)`), with one and two tags lying: the placed and
removed events while they lie (one placed per tag and no removal is right), how often
a poll names them, the commands sent a second, and how long a tile laid beside a lying
marker takes to be placed and, lifted, to be removed. Prints a table; asserts nothing.
"""

from __future__ import annotations

import queue
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.events import TagPlaced, TagRemoved
from hardware.rfid import Reader
from hardware.rfid.fake import FakePn532, PtyCable
from hardware.rfid.pn532 import AFTER_TAGS, Pn532

LYING_S = 4.0
REMOVAL_S = 0.3
TAPS = 15
MARKER, SECOND, TILE = "04000000000B01", "04000000000B02", "04000000000B03"


def wait_for(events: queue.Queue, kind: type, uid: str, timeout: float = 3.0) -> float:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            break
        if isinstance(event, kind) and event.uid == uid:
            return time.monotonic()
    return float("nan")


def run(way: str, quirk: bool, lying: list[str], folder: Path) -> str:
    cable = PtyCable(folder / f"pad-{way}-{quirk}-{len(lying)}")
    chip = FakePn532(cable, keeps_selected=quirk)
    events: queue.Queue = queue.Queue()
    reader = Reader("0", str(cable.path), Pn532(after_tags=way), events, removal_s=REMOVAL_S)
    reader.start()
    try:
        while not reader.online:
            time.sleep(0.01)
        polls, commands = chip.answered_polls, len(chip.commands)
        for uid in lying:
            chip.place(uid)
        time.sleep(LYING_S)
        got = []
        while not events.empty():
            got.append(events.get())
        placed = sum(isinstance(e, TagPlaced) for e in got)
        removed = sum(isinstance(e, TagRemoved) for e in got)
        seen_per_s = (chip.answered_polls - polls) / LYING_S
        commands_per_s = (len(chip.commands) - commands) / LYING_S
        laid, lifted = [], []
        if len(lying) == 1:
            for _ in range(TAPS):
                start = time.monotonic()
                chip.place(TILE)
                laid.append(wait_for(events, TagPlaced, TILE) - start)
                start = time.monotonic()
                chip.lift(TILE)
                lifted.append(wait_for(events, TagRemoved, TILE) - start)
                time.sleep(0.2 + random.random() * 0.05)  # any moment of the poll cycle
        tap = f"{'-':>9} {'-':>9}"
        if laid:
            tap = (f"{statistics.median(laid) * 1000:6.0f} ms"
                   f" {statistics.median(lifted) * 1000:6.0f} ms")
        return (f"{way:<10} {'yes' if quirk else 'no':<6} {len(lying):>4} {placed:>7} {removed:>8}"
                f" {seen_per_s:>9.1f} {commands_per_s:>10.1f}  {tap}")
    finally:
        reader.close()
        chip.close()
        cable.close()


def main() -> None:
    print(f"lying {LYING_S:g} s, removal time {REMOVAL_S * 1000:.0f} ms; tile beside one"
          " lying marker: median of", TAPS)
    print(f"{'way':<10} {'quirk':<6} {'tags':>4} {'placed':>7} {'removed':>8}"
          f" {'seen/s':>9} {'commands/s':>10}  {'tile laid':>9} {'lifted':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for way in AFTER_TAGS:
            for quirk in (False, True):
                for lying in ([MARKER], [MARKER, SECOND]):
                    print(run(way, quirk, lying, Path(folder)), flush=True)


if __name__ == "__main__":
    main()
