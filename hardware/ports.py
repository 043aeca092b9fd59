"""`roundhouse learn-port`: name the USB port of one reader, for the pads' udev rules.

udev names every USB serial adapter in /dev/serial/by-path/ after the port it is in
(systemd's 60-serial.rules: the device's ID_PATH, plus "-portN" for the usb-serial
drivers). The command watches that folder, and when one adapter appears it prints its
port and the rule line that names it after a pad: the way to write the pads' rules
for any board and any hub, cascaded hubs included, without reading a sysfs path.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

BY_PATH = Path("/dev/serial/by-path")
PADS_RULES = Path("/etc/udev/rules.d/98-roundhouse-pads.rules")
PAD_NAME = re.compile(r"[0-9]|1[0-4]|mexican")
# path_id's USB part: "usb-0:" + the port numbers from the root hub + ":config.interface".
USB_PORT = re.compile(r"-usb-0:([0-9.]+):[0-9]+\.[0-9]+$")


def id_path(by_path_name: str) -> str:
    """The device's ID_PATH: its /dev/serial/by-path/ name without "-portN"."""
    return re.sub(r"-port[0-9]+$", "", by_path_name)


def usb_port(by_path_name: str) -> str | None:
    """"1.3.4.2": the port numbers from the controller down, or None if not on USB."""
    found = USB_PORT.search(id_path(by_path_name))
    return found.group(1) if found else None


def pad_rule(by_path_name: str, pad: str) -> str:
    """The line of 98-roundhouse-pads.rules naming the reader in this port `pad-<pad>`."""
    return (f'SUBSYSTEM=="tty", ENV{{ID_PATH}}=="{id_path(by_path_name)}", '
            f'SYMLINK+="roundhouse/pad-{pad}"')


_RULE_PAD = re.compile(r'SYMLINK\+="roundhouse/pad-([^"]+)"')
_RULE_PATH = re.compile(r'ENV\{ID_PATH\}=="([^"]+)"')


def rule_lines(rules: Path) -> list[tuple[int, str, str | None, str]]:
    """The pad rules of a rules file: (line number, pad, ID_PATH or None, line); none
    when the file is not there yet."""
    try:
        text = rules.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        pad = _RULE_PAD.search(line)
        if pad is None or line.lstrip().startswith("#"):
            continue
        path = _RULE_PATH.search(line)
        found.append((number, pad.group(1), path.group(1) if path else None, line.strip()))
    return found


def adapters(by_path: Path) -> set[str]:
    try:
        return {entry.name for entry in by_path.iterdir()}
    except FileNotFoundError:  # udev removes the folder with the last adapter
        return set()


def wait_for_new(by_path: Path, before: set[str], timeout: float | None,
                 poll_s: float = 0.2) -> set[str]:
    """The adapters that appeared since `before`; empty if none came within `timeout`."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        new = adapters(by_path) - before
        if new:
            # udev adds one device's links within moments: let a second one show too.
            time.sleep(poll_s)
            return adapters(by_path) - before
        if deadline is not None and time.monotonic() >= deadline:
            return set()
        time.sleep(poll_s)


def one_adapter(by_path: Path, names: set[str]) -> str | None:
    """The by-path name of the one adapter these new links name, or None if they name
    several. Newer systemd (60-serial.rules, path_id's ID_PATH_WITH_USB_REVISION) links
    each adapter twice, as "...-usb-0:..." and "...-usbv2-0:...": both lead to one
    device, and the first is its ID_PATH."""
    devices = {(by_path / name).resolve() for name in names}
    if len(devices) != 1:
        return None
    return min(names, key=lambda name: ("-usbv" in name, len(name), name))


def configure_learn_port(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pad", required=True, metavar="PAD",
                        help='the pad the reader belongs to: a seat number or "mexican"')
    parser.add_argument("--by-path", type=Path, default=BY_PATH, metavar="DIR",
                        help=f"where udev names adapters by port (default {BY_PATH})")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help="give up after S seconds (default: wait until Ctrl-C)")
    parser.add_argument("--rules", type=Path, default=PADS_RULES, metavar="FILE",
                        help=f"the pads' rules file, to check against (default {PADS_RULES})")


def run_learn_port(args: argparse.Namespace) -> int:
    if not PAD_NAME.fullmatch(args.pad):
        print(f'roundhouse learn-port: --pad: expected a seat number 0..14 or "mexican", '
              f"got {args.pad!r}", file=sys.stderr)
        return 2
    rules = rule_lines(args.rules)
    for number, _, path, _ in (r for r in rules if r[1] == args.pad):
        port = usb_port(path or "") or "?"
        print(f"warning: {args.rules} line {number} already names pad {args.pad} (USB port "
              f"{port}); learning it again replaces that line")
    if args.by_path.exists() and not args.by_path.is_dir():
        print(f"roundhouse learn-port: --by-path: {args.by_path} is a file; expected the "
              f"folder of the adapters' by-path links ({BY_PATH})", file=sys.stderr)
        return 2
    try:
        before = adapters(args.by_path)
    except OSError as err:
        print(f"roundhouse learn-port: --by-path {args.by_path}: {err.strerror}",
              file=sys.stderr)
        return 2
    for plugged in sorted(before):
        print(f"already plugged in: USB port {usb_port(plugged) or '?'}  ({plugged})")
    print(f"plug the reader of pad {args.pad} in now (Ctrl-C to stop)", flush=True)
    new = wait_for_new(args.by_path, before, args.timeout)
    if not new:
        print(f"no adapter was plugged in within {args.timeout:g} s", file=sys.stderr)
        return 1
    name = one_adapter(args.by_path, new)
    if name is None:
        print("several adapters appeared at once: " + ", ".join(sorted(new)) +
              "; plug in one reader at a time", file=sys.stderr)
        return 1
    print(f"the reader of pad {args.pad} is in USB port {usb_port(name) or '?'}  ({name})")
    for number, pad, _, _ in (r for r in rules if r[2] == id_path(name) and r[1] != args.pad):
        print(f"warning: {args.rules} line {number} names this port pad {pad}: remove that "
              f"line, or the port is pad {pad} and pad {args.pad} at once")
    same = [r for r in rules if r[1] == args.pad]
    if any(r[2] == id_path(name) for r in same):
        print(f"{args.rules} names this port pad {args.pad} already: nothing to add")
        return 0
    print(f"add its line to {args.rules} and reload udev:")
    if same:
        lines = ", ".join(str(r[0]) for r in same)
        print(f"  (line {lines} names pad {args.pad} after another port: two rules for "
              "one pad give the name to whichever reader udev saw last; it goes first)")
        print(f"  sudo sed -i '/SYMLINK+=\"roundhouse\\/pad-{args.pad}\"/d' {args.rules}")
    print(f"  echo '{pad_rule(name, args.pad)}' | sudo tee -a {args.rules}")
    print("  sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=tty")
    return 0
