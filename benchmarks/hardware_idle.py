"""CPU used by eight idle readers and sixteen seat buttons, over 10 s per protocol.

Eight readers on ptys with nothing on their pads (RDM6300 and line readers wait for
bytes; PN532 readers wait for their chips, which look for tags themselves) and the
sixteen buttons of eight seats on mock pins. Printed: the CPU time of the reader
threads, and of the whole process (which for the PN532 also runs the eight fake chips).

    python benchmarks/hardware_idle.py [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import queue
import tempfile
import threading
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from hardware.buttons import DEFAULT_SEAT_PINS, SeatButtons
from hardware.events import Event
from hardware.rfid import open_reader
from hardware.rfid.fake import PtyCable, fake_reader

TICKS = os.sysconf("SC_CLK_TCK")


def thread_cpu(names: str) -> float:
    """CPU seconds of this process's threads whose names start with `names`."""
    total = 0
    for thread in threading.enumerate():
        if thread.name.startswith(names) and thread.native_id is not None:
            fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text()
            utime, stime = fields.rsplit(")", 1)[1].split()[11:13]
            total += int(utime) + int(stime)
    return total / TICKS


def measure(protocol: str, seconds: float) -> None:
    events: queue.Queue[Event] = queue.Queue()
    factory = MockFactory()
    with tempfile.TemporaryDirectory() as folder:
        cables = [PtyCable(Path(folder) / f"pad-{n}") for n in range(8)]
        fakes = [fake_reader(protocol, cable, 0.3) for cable in cables]
        readers = [open_reader(str(n), str(cable.path), protocol, events)
                   for n, cable in enumerate(cables)]
        buttons = SeatButtons(DEFAULT_SEAT_PINS, events, pin_factory=factory)
        while not all(reader.online for reader in readers):
            time.sleep(0.01)
        time.sleep(0.5)  # past the start-up
        readers_before, process_before = thread_cpu("rfid-"), time.process_time()
        start = time.monotonic()
        time.sleep(seconds)
        elapsed = time.monotonic() - start
        readers_cpu = thread_cpu("rfid-") - readers_before
        process_cpu = time.process_time() - process_before
        buttons.close()
        for reader in readers:
            reader.close()
        for fake in fakes:
            fake.close()
        for cable in cables:
            cable.close()
    factory.close()
    print(f"{protocol:8} readers {100 * readers_cpu / elapsed:5.2f}%  "
          f"whole process {100 * process_cpu / elapsed:5.2f}% of one core over {elapsed:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    print("eight idle readers + sixteen buttons (goal: under 1% of one core)")
    for protocol in ("rdm6300", "lines", "pn532"):
        measure(protocol, args.seconds)


if __name__ == "__main__":
    main()
