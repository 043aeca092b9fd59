"""`roundhouse probe`: open one reader and print what it senses, for the person wiring a pad."""

from __future__ import annotations

import argparse
import datetime as dt
import queue
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from hardware.events import Event, ReaderOffline, ReaderOnline, TagPlaced, TagRemoved
from hardware.rfid import PROTOCOLS, open_reader
from hardware.rfid.keyboard import is_input_device
from hardware.rfid.sniff import Layout, looks_like
from hardware.tags import TagError, TagRegistry

PAD = "probe"
# `--events N` ends even when the taps never come: a script's probe never hangs.
EVENTS_TIMEOUT_S = 60.0


def configure_probe(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL",
                        help="the reader's serial port: /dev/roundhouse/pad-0, /dev/ttyUSB0, "
                             "socket://host:port, ...")
    parser.add_argument("--protocol", required=True, choices=PROTOCOLS,
                        help="what the reader speaks")
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help="the table's database, to say what each tag is bound to")
    parser.add_argument("--removal-ms", type=int, default=300, metavar="MS",
                        help="silence after which a tag counts as removed (default 300)")
    parser.add_argument("--events", type=int, metavar="N",
                        help="stop after N tags placed or removed (default: at Ctrl-C)")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help="with --events: give up after S seconds, status 1 "
                             f"(default {EVENTS_TIMEOUT_S:g})")
    add_wait(parser)


def add_wait(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wait", action="store_true",
                        help="wait for a device that is not there yet (a reader about to "
                             "be plugged in) instead of refusing it")


def missing_device(url: str) -> str | None:
    """Why a local device path cannot be a reader now, or None (URLs are not checked)."""
    if "://" in url or Path(url).exists():
        return None
    link = " (a link to nothing)" if Path(url).is_symlink() else ""
    return (f"no device {url}{link}: is the reader plugged in? `ls -l /dev/roundhouse/ "
            "/dev/serial/by-path/` lists the readers udev has named; --wait waits for it")


def run_probe(args: argparse.Namespace) -> int:
    registry = None
    if args.db is not None:
        if not args.db.is_file():
            print(f"roundhouse probe: no database at {args.db}", file=sys.stderr)
            return 2
        try:
            registry = TagRegistry(args.db)
        except TagError as err:
            print(f"roundhouse probe: {err}", file=sys.stderr)
            return 1
    if args.removal_ms <= 0:
        print("roundhouse probe: --removal-ms must be positive", file=sys.stderr)
        return 2
    if args.events is not None and args.events <= 0:
        print("roundhouse probe: --events must be positive", file=sys.stderr)
        return 2
    if not args.wait and (missing := missing_device(args.url)):
        print(f"roundhouse probe: {missing}", file=sys.stderr)
        return 2
    timeout = args.timeout if args.timeout is not None else EVENTS_TIMEOUT_S
    deadline = time.monotonic() + timeout if args.events is not None else None
    events: queue.Queue[Event] = queue.Queue()
    reader = open_reader(PAD, args.url, args.protocol, events, removal_ms=args.removal_ms)
    say(f"probing {args.url} ({args.protocol}); Ctrl-C to stop")
    tags = 0
    bad_frames = 0
    status = 0
    layout_said = False
    try:
        while args.events is None or tags < args.events:
            if deadline is not None and time.monotonic() >= deadline:
                say(f"only {tags} of {args.events} tag events within {timeout:g} s")
                status = 1
                break
            try:
                event = events.get(timeout=0.25)
            except queue.Empty:
                event = None
            if reader.bad_frames != bad_frames:
                bad_frames = reader.bad_frames
                say(f"bad frames: {bad_frames} so far (noise, a loose wire, a wrong --protocol "
                    "or baud rate?)")
            if not layout_said and tags == 0:
                layout_said = say_layout(reader.heard, args.protocol)
            if event is None:
                continue
            if isinstance(event, TagPlaced | TagRemoved):
                tags += 1
            say(describe(event, registry))
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
        if registry is not None:
            registry.close()
    say(f"{tags} tag events, {bad_frames} bad frames")
    return status


def say_layout(heard: bytes, protocol: str) -> bool:
    """Say what the bytes look like if they are not `protocol`'s; True once said."""
    layout = looks_like(heard)
    if layout is None or layout.protocol == protocol:
        return False
    if layout.protocol is None and len(heard) < 32:
        return False  # too few bytes yet to call them nothing
    hint = f": try --protocol {layout.protocol}" if layout.protocol else ""
    say(f"no tag read as {protocol}; the bytes look like {layout.description}{hint}")
    return True


def describe(event: Event, registry: TagRegistry | None) -> str:
    if isinstance(event, ReaderOnline):
        return "online"
    if isinstance(event, ReaderOffline):
        return f"offline  {event.reason}"
    if isinstance(event, TagPlaced):
        line = f"placed   {event.uid}"
        if registry is not None:
            binding = registry.lookup(event.uid)
            line += f"  {binding}" if binding is not None else "  (not enrolled)"
        return line
    if isinstance(event, TagRemoved):
        return f"removed  {event.uid}"
    return repr(event)


def say(line: str) -> None:
    stamp = dt.datetime.now().strftime("%H:%M:%S.%f")[:-3]
    print(f"{stamp}  {line}", flush=True)


@dataclass
class Heard:
    """What one reader said while it was listened to with one protocol."""

    protocol: str
    opened: bool = False  # the port opened (a PN532: and it answered its set-up)
    uids: list[str] = field(default_factory=list)
    bad_frames: int = 0
    offline: str = ""  # the last reason it gave for being offline
    raw: bytes = b""  # the first bytes it sent

    @property
    def layout(self) -> Layout | None:
        """What its bytes look like (see `hardware.rfid.sniff`)."""
        return looks_like(self.raw)

    @property
    def spoke(self) -> bool:
        """The reader proved it speaks `protocol`: a PN532 answered, a tag was read."""
        return bool(self.uids) or (self.protocol == "pn532" and self.opened)


def listen(url: str, protocol: str, seconds: float, removal_ms: int = 300) -> Heard:
    """Open the reader with `protocol` for `seconds` and gather what it says."""
    events: queue.Queue[Event] = queue.Queue()
    heard = Heard(protocol)
    reader = open_reader(PAD, url, protocol, events, removal_ms=removal_ms)
    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0 and not heard.spoke:
            try:
                event = events.get(timeout=min(left, 0.25))
            except queue.Empty:
                continue
            if isinstance(event, ReaderOnline):
                heard.opened = True
            elif isinstance(event, ReaderOffline):
                heard.opened = False
                heard.offline = event.reason
            elif isinstance(event, TagPlaced):
                heard.uids.append(event.uid)
    finally:
        heard.bad_frames = reader.bad_frames
        heard.raw = reader.heard
        reader.close()
    return heard


def identify(url: str, expected: str, seconds: float) -> tuple[str | None, list[Heard]]:
    """Which protocol the reader at `url` speaks, trying `expected` first: the first that
    it proves (see `Heard.spoke`), or None, with what each try heard."""
    order: list[str] = [expected, *(p for p in PROTOCOLS if p != expected)]
    # A keyboard reader is an input device, every other reader a serial port.
    order = [p for p in order if (p == "keyboard") == is_input_device(url)]
    tries: list[Heard] = []
    while order:
        protocol = order.pop(0)
        if protocol != "pn532" and any(t.protocol != "pn532" and not t.raw for t in tries):
            continue  # it sent nothing while listened to: no tag, no other listener hears more
        heard = listen(url, protocol, seconds)
        tries.append(heard)
        if heard.spoke:
            return protocol, tries
        layout = heard.layout
        if layout is not None and layout.protocol in order:
            order.remove(layout.protocol)
            order.insert(0, layout.protocol)  # the bytes say which one: listen with it next
        if heard.offline and not heard.opened and protocol == expected \
                and "cannot open" in heard.offline:
            break  # the port itself cannot be opened: no protocol will do better
    return None, tries
