"""From the last byte of a reader's frame to the event on the queue, per protocol.

Each protocol gets a reader on a pty and 10,000 frames, each naming a new tag so each
gives one `TagPlaced`; a frame is written only once the previous event arrived. The
time runs from just before the frame's bytes are written to the event's timestamp
(`Event.at`, taken as the event is made and put on the queue). For the PN532 the frame
is the chip's answer to a poll, answered at once, with no pause between polls.

    python benchmarks/hardware_latency.py [--frames N]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hardware.events import Event, ReaderOnline, TagPlaced
from hardware.rfid import Reader, make_driver, open_reader, pn532
from hardware.rfid.fake import PtyCable
from hardware.rfid.lines import encode as line_frame
from hardware.rfid.rdm6300 import encode as rdm6300_frame


def next_placed(events: queue.Queue[Event]) -> TagPlaced:
    while True:
        event = events.get(timeout=5)
        if isinstance(event, TagPlaced):
            return event


def listened(protocol: str, encode: Callable[[str], bytes], frames: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        cable = PtyCable(Path(folder) / "pad")
        events: queue.Queue[Event] = queue.Queue()
        reader = open_reader("0", str(cable.path), protocol, events)
        assert isinstance(events.get(timeout=5), ReaderOnline)
        latencies = []
        for number in range(frames):
            data = encode(f"5A{number:08X}")
            before = time.monotonic()
            cable.write(data)
            latencies.append(next_placed(events).at - before)
        reader.close()
        cable.close()
    return latencies


def polled(frames: int) -> list[float]:
    """A PN532 answering every poll at once with a new tag."""
    with tempfile.TemporaryDirectory() as folder:
        cable = PtyCable(Path(folder) / "pad")
        events: queue.Queue[Event] = queue.Queue()
        written: dict[str, float] = {}
        stop = threading.Event()

        def chip() -> None:
            framer = pn532.Framer()
            number = 0
            while not stop.is_set():
                for item in framer.feed(cable.read(0.05)):
                    if not isinstance(item, pn532.Info) or not item.payload:
                        continue
                    code = item.payload[0]
                    uids = []
                    if code == pn532.IN_LIST_PASSIVE_TARGET:
                        uids = [f"04{number:012X}"]
                        number += 1
                    body = pn532.target_data(uids) if uids or code == 0x4A else b""
                    answer = pn532.frame(pn532.CHIP, bytes([code + 1]) + body)
                    cable.write(pn532.ACK)
                    for uid in uids:
                        written[uid] = time.monotonic()
                    cable.write(answer)

        thread = threading.Thread(target=chip, daemon=True)
        thread.start()
        driver = make_driver("pn532", 0.3)
        assert isinstance(driver, pn532.Pn532)
        driver.poll_interval = 0.0  # poll again as soon as an answer is in
        reader = Reader("0", str(cable.path), driver, events, removal_s=0.3)
        reader.start()
        assert isinstance(events.get(timeout=5), ReaderOnline)
        latencies = []
        for _ in range(frames):
            event = next_placed(events)
            latencies.append(event.at - written[event.uid])
        reader.close()
        stop.set()
        thread.join()
        cable.close()
    return latencies


def report(name: str, latencies: list[float]) -> None:
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:8} {len(ms):6} frames  p50 {statistics.median(ms):6.3f} ms  "
          f"p99 {p99:6.3f} ms  max {ms[-1]:7.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000)
    args = parser.parse_args()
    print("last byte of a frame -> event on the queue (goal: p99 under 2 ms)")
    report("rdm6300", listened("rdm6300", rdm6300_frame, args.frames))
    report("lines", listened("lines", lambda uid: line_frame(uid), args.frames))
    report("pn532", polled(args.frames))


if __name__ == "__main__":
    main()
