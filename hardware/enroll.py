"""`roundhouse enroll`: bind every tag of a domino set, its train markers and command cards.

It names one object at a time ("tap 12-12"), binds the next unknown tag tapped to it,
says at once when a tapped tag is already bound, and keeps its progress in the
registry: run it again after an interruption and it goes on where it stopped.

`roundhouse enroll --player NAME [--player-lang L]` binds one player card instead: the
next unknown tag tapped becomes NAME's card (docs/game-night.md).
"""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Callable
from pathlib import Path

from hardware.events import Event, ReaderOffline, ReaderOnline, TagPlaced
from hardware.probe import add_wait, missing_device
from hardware.rfid import PROTOCOLS, open_reader
from hardware.rfid.keyboard import W26_HEX
from hardware.tags import (
    MAX_SEATS,
    AlreadyKnown,
    Binding,
    Enrolled,
    Enrollment,
    TagError,
    TagRegistry,
    player_value,
    set_plan,
)

# The service's database (firmware_py.config.DEFAULT_DATABASE): hardware imports no brain.
DEFAULT_DATABASE = Path("/var/lib/roundhouse/roundhouse.db")
SETS = (6, 9, 12, 15, 18)


def configure_enroll(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pad", required=True, metavar="URL",
                        help="the serial port of the reader to tap the tags on")
    parser.add_argument("--protocol", required=True, choices=PROTOCOLS,
                        help="what that reader speaks")
    parser.add_argument("--set", type=int, default=12, choices=SETS, metavar="N",
                        help="the domino set: double-N (6, 9, 12, 15 or 18; default 12)")
    parser.add_argument("--seats", type=int, default=8, choices=range(1, MAX_SEATS + 1),
                        metavar="S", help="how many seat markers (default 8)")
    parser.add_argument("--db", type=Path, default=DEFAULT_DATABASE, metavar="PATH",
                        help=f"the table's database (default {DEFAULT_DATABASE})")
    parser.add_argument("--removal-ms", type=_removal_ms, default=300, metavar="MS",
                        help="silence after which a tag counts as lifted (default 300)")
    parser.add_argument("--player", metavar="NAME",
                        help="bind one player card to NAME instead of the set's tags")
    parser.add_argument("--player-lang", metavar="L", default=None,
                        help="with --player: the language the player reads (default: the "
                        "seat's)")
    add_wait(parser)


def _removal_ms(value: str) -> int:
    """--removal-ms: a silence of 1 to 5000 ms, as a reader's `removal_ms` takes."""
    try:
        ms = int(value)
    except ValueError:
        ms = 0
    if not 1 <= ms <= 5000:
        raise argparse.ArgumentTypeError(f"expected milliseconds 1..5000, got {value!r}")
    return ms


def _say_reader(event: Event, say: Callable[[str], None]) -> None:
    # A tap made before the port is open is lost (opening it flushes what waited), so the
    # person enrolling is told when the reader listens.
    if isinstance(event, ReaderOnline):
        say("reader online")
    elif isinstance(event, ReaderOffline):
        say(f"reader offline: {event.reason}")


def enroll_player(registry: TagRegistry, value: str, next_event: Callable[[], Event],
                  say: Callable[[str], None]) -> None:
    """Bind the next unknown tag tapped to the player card `value` (hardware.tags)."""
    card = Binding.make("player", value)
    say(f"tap the tag to be {card}")
    while True:
        event = next_event()
        if not isinstance(event, TagPlaced):
            _say_reader(event, say)
            continue
        known = registry.lookup(event.uid)
        if known is not None:
            say(f"  that tag ({event.uid}) is already {known}; tap another")
            continue
        try:
            registry.bind(event.uid, "player", card.value)
        except TagError as err:
            say(f"  {err}")
            continue
        say(f"  {event.uid} is {card}")
        return


def run_enroll(args: argparse.Namespace) -> int:
    if not args.wait and (missing := missing_device(args.pad)):
        print(f"roundhouse enroll: {missing}", file=sys.stderr)
        return 2
    try:
        registry = TagRegistry(args.db)
    except TagError as err:
        print(f"roundhouse enroll: {err}", file=sys.stderr)
        return 1
    try:
        if args.player is not None:
            return _enroll_player(args, registry)
        enrollment = Enrollment(registry, set_plan(args.set, args.seats))
        total = len(enrollment.plan)
        done = total - len(enrollment.remaining())
        if enrollment.expected is None:
            print(f"all {total} tags of the double-{args.set} table are enrolled already")
            return 0
        if done:
            print(f"resuming: {done} of {total} already enrolled")
        events: queue.Queue[Event] = queue.Queue()
        reader = open_reader("enroll", args.pad, args.protocol, events,
                             removal_ms=args.removal_ms)
        try:
            enroll(enrollment, events.get, lambda line: print(line, flush=True))
        finally:
            reader.close()
        print(f"all {total} tags enrolled in {args.db}")
        return 0
    finally:
        registry.close()


def _enroll_player(args: argparse.Namespace, registry: TagRegistry) -> int:
    try:
        value = player_value(args.player, args.player_lang)
    except TagError as err:
        print(f"roundhouse enroll: {err}", file=sys.stderr)
        return 2
    events: queue.Queue[Event] = queue.Queue()
    reader = open_reader("enroll", args.pad, args.protocol, events, removal_ms=args.removal_ms)
    try:
        enroll_player(registry, value, events.get, lambda line: print(line, flush=True))
    finally:
        reader.close()
    return 0


def enroll(enrollment: Enrollment, next_event: Callable[[], Event],
           say: Callable[[str], None]) -> None:
    """Name what to tap and bind what is tapped until the plan is done."""
    total = len(enrollment.plan)
    warned_w26 = False
    expected = enrollment.expected
    say(f"tap {expected}")
    while expected is not None:
        event = next_event()
        if not isinstance(event, TagPlaced):
            _say_reader(event, say)
        else:
            try:
                result = enrollment.offer(event.uid)
            except TagError as err:
                say(f"  {err}")
                continue
            if isinstance(result, AlreadyKnown):
                say(f"  that tag ({result.uid}) is already {result.binding}; tap {expected}")
                continue
            assert isinstance(result, Enrolled)
            done = total - len(enrollment.remaining())
            say(f"  {result.uid} is {result.binding} ({done}/{total})")
            if len(result.uid) == W26_HEX and not warned_w26:
                warned_w26 = True
                say("  (an eight-digit Wiegand 26 reading: 24 of the card's 32 bits, which "
                    "RDM6300 and ten-digit pads match; if the reader can type ten digits, "
                    "set it so: two sets may share those 24 bits)")
            expected = enrollment.expected
            if expected is not None:
                say(f"tap {expected}")
