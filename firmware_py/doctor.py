"""`roundhouse doctor`: check an installed table and say, in plain words, what to fix.

Each check looks at the machine through a `Machine`: the paths of /proc, /dev, the
unit, the group and user databases, and the clock. Their defaults are the Pi's own;
the tests point them at folders they built, so every check runs the same code on a
laptop with the fault made by hand (a missing group, a hidden /proc/cpuinfo, ...).
The command exits 0 only when no check failed; a warning (a reader that could not be
tried because the service holds it, an unsynchronised clock) does not stop a table.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import glob
import os
import stat
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from firmware_py.config import DEFAULT_CONFIG, Config, ConfigError, load_config
from firmware_py.unitfile import Unit, UnitError, read_unit
from hardware.probe import Heard
from roundhouse.tablefile import ARCHIVE_SUFFIX, REFUSED_SUFFIX, beside, cut_database

Level = Literal["ok", "warn", "FAIL"]
SRC = "/opt/roundhouse/src"
INSTALLED_UNIT = Path("/etc/systemd/system/roundhouse.service")
MODULES_LOAD = Path("/etc/modules-load.d/roundhouse.conf")
SYSUSERS_FIX = (f"sudo cp {SRC}/systemd/sysusers.d/roundhouse.conf /etc/sysusers.d/ && "
                "sudo systemd-sysusers")
UNIT_FIX = (f"sudo cp {SRC}/systemd/roundhouse.service /etc/systemd/system/ && "
            "sudo systemctl daemon-reload && sudo systemctl restart roundhouse")
# What each group gives the service's user (the udev rules and Raspberry Pi OS's own).
GROUPS = {
    "gpio": "the seat buttons (/dev/gpiochip*)",
    "dialout": "the RFID readers (/dev/ttyUSB*, /dev/ttyACM*, /dev/ttyAMA*)",
    "video": "the screens (/dev/dri/card*)",
    "render": "the screens' GPU (/dev/dri/renderD*)",
    "input": "the screens' keyboard (/dev/input/event*)",
    # The service gives the view socket to the screens' group: it must be a member.
    "roundhouse-view": "the screens' view socket, given to that group",
}
# Device classes the unit's DevicePolicy=closed must let through (DeviceAllow=).
DEVICE_CLASSES = {
    "char-gpiochip": "the seat buttons",
    "char-ttyUSB": "USB serial readers (CH340, PL2303, CP210x, FTDI)",
    "char-ttyACM": "CDC ACM readers (CH9102, CH343, microcontroller hubs)",
}
# What gpiozero reads to learn the board (gpiozero/pins/local.py, get_pi_revision).
DT_REVISION = "device-tree/system/linux,revision"
MB = 1024 * 1024


@dataclass(frozen=True)
class Finding:
    level: Level
    text: str
    fix: str = ""


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gids: frozenset[int]
    groups: frozenset[str]


def kernel_clock_synchronised() -> bool:
    """The kernel's view, as timedatectl's "System clock synchronized" reads it
    (systemd's src/basic/time-util.c, ntp_synced): adjtimex() answers TIME_ERROR or
    sets STA_UNSYNC while no time service has set the clock."""
    class Timex(ctypes.Structure):
        _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long),
                    ("freq", ctypes.c_long), ("maxerror", ctypes.c_long),
                    ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                    ("rest", ctypes.c_long * 32)]  # the fields after, and room to spare

    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    timex = Timex()
    state = libc.adjtimex(ctypes.byref(timex))
    time_error, sta_unsync = 5, 0x0040
    return state not in (-1, time_error) and not timex.status & sta_unsync


@dataclass(frozen=True)
class Machine:
    """Where the doctor looks. The defaults are the installed table's own files."""

    config: Path = DEFAULT_CONFIG
    unit: Path = INSTALLED_UNIT
    modules_load: Path = MODULES_LOAD
    proc: Path = Path("/proc")
    dev: Path = Path("/dev")
    group_file: Path = Path("/etc/group")
    passwd_file: Path = Path("/etc/passwd")
    user: str = "roundhouse"
    listen_s: float = 2.0  # how long each reader is listened to with each protocol
    min_free_mb: int = 100
    clock_synchronised: Callable[[], bool] = field(default=kernel_clock_synchronised)

    def device(self, url: str) -> Path:
        """The file behind a configuration's /dev/... path, under this machine's /dev."""
        path = Path(url)
        return self.dev / path.relative_to("/dev") if path.is_relative_to("/dev") else path


# --- the user and its groups ----------------------------------------------------------


def read_groups(group_file: Path) -> dict[str, tuple[int, set[str]]]:
    """name -> (gid, members) from an /etc/group file."""
    groups: dict[str, tuple[int, set[str]]] = {}
    for line in group_file.read_text(encoding="utf-8").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            groups[parts[0]] = (int(parts[2]), {m for m in parts[3].split(",") if m})
    return groups


def read_account(machine: Machine) -> Account | None:
    groups = read_groups(machine.group_file)
    for line in machine.passwd_file.read_text(encoding="utf-8").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0] == machine.user:
            uid, gid = int(parts[2]), int(parts[3])
            mine = {name: g for name, (g, members) in groups.items()
                    if machine.user in members or g == gid}
            return Account(machine.user, uid, frozenset({gid, *mine.values()}),
                           frozenset(mine))
    return None


def check_user(machine: Machine, account: Account | None) -> Iterator[Finding]:
    if account is None:
        yield Finding("FAIL", f"there is no user {machine.user}: the service cannot start",
                      SYSUSERS_FIX)
        return
    known = read_groups(machine.group_file)
    missing = []
    for group, what in GROUPS.items():
        if group not in known:
            yield Finding("FAIL", f"there is no group {group} on this system: nobody but "
                                  f"root reaches {what}", SYSUSERS_FIX + " (it creates it)")
        elif group not in account.groups:
            missing.append(group)
            yield Finding("FAIL", f"the user {account.name} is not in the group {group}: "
                                  f"it cannot reach {what} when run by hand (sudo -u "
                                  f"{account.name} roundhouse probe ...)",
                          f"{SYSUSERS_FIX}, or: sudo usermod -aG {group} {account.name}")
    if not missing and set(GROUPS) <= set(known):
        yield Finding("ok", f"the user {account.name} is in the groups "
                            + ", ".join(GROUPS))


# --- the unit's sandbox and what gpiozero reads ---------------------------------------


def check_unit(machine: Machine, config: Config | None) -> Iterator[Finding]:
    try:
        unit = read_unit(machine.unit)
    except OSError:
        yield Finding("FAIL", f"the service is not installed: no {machine.unit}", UNIT_FIX)
        return
    except UnitError as err:
        yield Finding("FAIL", str(err), UNIT_FIX)
        return
    problems = list(_sandbox_problems(unit, machine, config))
    yield from problems
    if not problems:
        yield Finding("ok", f"{machine.unit}: its sandbox leaves the GPIO, the readers and "
                            "the board's revision visible")


def _sandbox_problems(unit: Unit, machine: Machine, config: Config | None) -> Iterator[Finding]:
    where = str(machine.unit)
    if unit.last("ProcSubset", "all") == "pid":
        yield Finding("FAIL", f"{where}: ProcSubset=pid hides /proc/cpuinfo and "
                              "/proc/device-tree, where gpiozero reads the board's revision: "
                              "the service exits with status 2 and is not restarted",
                      UNIT_FIX + " (the shipped unit has ProcSubset=all)")
    hidden = unit.words("InaccessiblePaths") + unit.words("TemporaryFileSystem")
    for path in hidden:
        path = path.lstrip("-+").split(":")[0]
        if any(p == path or p.startswith(path.rstrip("/") + "/")
               for p in ("/proc/cpuinfo", "/proc/device-tree", "/sys/firmware",
                         "/dev/gpiochip0", "/dev/serial", "/dev/roundhouse")):
            yield Finding("FAIL", f"{where}: {path} is made inaccessible, and gpiozero or "
                                  "the readers need what is under it", UNIT_FIX)
    if unit.last("PrivateDevices", "no") in ("yes", "true", "1", "on"):
        yield Finding("FAIL", f"{where}: PrivateDevices=yes hides /dev/gpiochip* and every "
                              "serial port from the service", UNIT_FIX)
    if unit.last("PrivateUsers", "no") in ("yes", "true", "1", "on"):
        yield Finding("FAIL", f"{where}: PrivateUsers=yes maps the gpio and dialout groups to "
                              "nobody: the devices are locked away", UNIT_FIX)
    exec_start = unit.last("ExecStart").lstrip("@-:+!").split()
    if exec_start and not Path(exec_start[0]).is_file():
        yield Finding("FAIL", f"{where}: ExecStart= runs {exec_start[0]}, which does not exist",
                      f"install the program (docs/install.md, step 2): sudo python3 -m venv "
                      f"/opt/roundhouse/venv && sudo /opt/roundhouse/venv/bin/pip install "
                      f"'{SRC}[pi]'")
    if "--config" in exec_start[:-1]:
        started = Path(exec_start[exec_start.index("--config") + 1])
        if started != machine.config:
            yield Finding("warn", f"{where}: the service starts with {started}, the doctor "
                                  f"checked {machine.config}",
                          f"roundhouse doctor --config {started}")
    if unit.last("User") != machine.user:
        yield Finding("FAIL", f"{where}: User={unit.last('User')} instead of {machine.user}",
                      UNIT_FIX)
    groups = set(unit.words("SupplementaryGroups"))
    for group in ("gpio", "dialout"):
        if group not in groups:
            yield Finding("FAIL", f"{where}: SupplementaryGroups= lacks {group}: the service "
                                  f"cannot reach {GROUPS[group]}", UNIT_FIX)
    if unit.last("DevicePolicy", "auto") in ("closed", "strict"):
        allowed = {value.split()[0] for value in unit.values("DeviceAllow")}
        needed = dict(DEVICE_CLASSES)
        for reader in config.readers if config else ():
            name = Path(reader.url).name
            if name.startswith(("serial", "ttyAMA")):
                needed["char-ttyAMA"] = f"the reader of pad {reader.pad} on the Pi's UART"
            elif name.startswith("ttyS"):
                needed["char-ttyS"] = f"the reader of pad {reader.pad} on the mini UART"
        for device_class, what in needed.items():
            if device_class not in allowed:
                yield Finding("FAIL", f"{where}: DevicePolicy=closed without "
                                      f"DeviceAllow={device_class} rw locks out {what}",
                              UNIT_FIX)


def board_revision(proc: Path) -> int | None:
    """The revision as gpiozero finds it (gpiozero/pins/local.py, get_pi_revision): the
    device tree's, else the last "Revision" line of /proc/cpuinfo; from either, an
    overvolted old board's "100" prefix is dropped. Raises OSError when neither file can
    be read, as gpiozero then does."""
    text = None
    try:
        text = f"{struct.unpack('>L', (proc / DT_REVISION).read_bytes()[:4])[0]:x}"
    except FileNotFoundError:
        for line in (proc / "cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("Revision"):
                text = line.split(":", 1)[1].strip().lower()
    if text is None:
        return None
    return int(text[-4:] if text.startswith("100") else text, 16)


def check_board(machine: Machine, config: Config | None) -> Iterator[Finding]:
    mock = config is not None and config.pin_factory == "mock"
    try:
        revision = board_revision(machine.proc)
    except OSError as err:
        yield Finding("FAIL", f"gpiozero cannot read the board's revision: "
                              f"{machine.proc / 'cpuinfo'}: {err.strerror or err}",
                      "the /proc of this process hides it: run the doctor outside any "
                      "sandbox, and check the unit's ProcSubset= (ProcSubset=all)")
        return
    if revision is None:
        if mock:
            yield Finding("ok", "not a Raspberry Pi, and the configuration's pin factory is "
                                "mock: no board is needed")
        else:
            yield Finding("FAIL", f"{machine.proc / 'cpuinfo'} has no Revision line: this is "
                                  "not a Raspberry Pi, and gpiozero's Pi pin factories "
                                  "will not start",
                          'on a laptop set [buttons] pin_factory = "mock"')
        return
    from gpiozero.pins.pi import PiBoardInfo  # type: ignore[import-untyped]

    try:
        board = PiBoardInfo.from_revision(revision).description
    except Exception:  # a board newer than this gpiozero
        board = "a board this gpiozero does not know"
    yield Finding("ok", f"board revision {revision:x}: {board}")


def check_modules(machine: Machine) -> Iterator[Finding]:
    registered = set()
    try:
        for line in (machine.proc / "devices").read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if line.startswith("Block devices"):
                break
            if len(parts) == 2 and parts[0].isdigit():
                registered.add(parts[1])
    except OSError as err:
        yield Finding("FAIL", f"cannot read {machine.proc / 'devices'}: {err}")
        return
    fix = (f"sudo cp {SRC}/systemd/modules-load.d/roundhouse.conf /etc/modules-load.d/ && "
           "sudo systemctl restart systemd-modules-load && sudo systemctl restart roundhouse")
    for name, module in (("ttyUSB", "usbserial"), ("ttyACM", "cdc_acm")):
        if name not in registered:
            yield Finding("FAIL", f"{module} is not loaded ({name} is not in "
                                  f"{machine.proc / 'devices'}): the service started now "
                                  f"refuses every {name} reader plugged in later", fix)
    if not machine.modules_load.is_file():
        yield Finding("FAIL", f"no {machine.modules_load}: after a reboot with no reader "
                              "plugged in, the service would refuse the readers", fix)
    elif {"ttyUSB", "ttyACM"} <= registered:
        yield Finding("ok", "the USB serial drivers are loaded, and loaded at boot")


# --- the pin factory, the readers -----------------------------------------------------


def check_pin_factory(config: Config) -> Iterator[Finding]:
    from hardware.buttons import ButtonError, PinBusy, make_pin_factory, unclaimable

    try:
        factory = make_pin_factory(config.pin_factory)
    except ButtonError as err:
        yield Finding("FAIL", f"the pin factory does not build: {err}",
                      f"sudo /opt/roundhouse/venv/bin/pip install '{SRC}[pi]'")
        return
    name = type(factory).__name__
    try:
        problems = unclaimable({s.seat: (s.draw_pin, s.pass_pin) for s in config.seats},
                               factory)
    finally:
        factory.close()
    yield Finding("ok", f"the pin factory builds ({name})")
    busy = [p for p in problems if isinstance(p, PinBusy)]
    if busy and len(busy) == 2 * len(config.seats):
        yield Finding("warn", "no button pin can be claimed: in use by the running service?",
                      "to try the pins, stop the service first: sudo systemctl stop "
                      "roundhouse")
        return
    for problem in problems:
        yield Finding("FAIL", str(problem).split(". ", 1)[0],
                      "free the pin (for w1-gpio: dtoverlay=w1-gpio,gpiopin=N in "
                      "/boot/firmware/config.txt with a pin the buttons do not use; "
                      "hardware/WIRING.md names the pins overlays take), or move the "
                      "button to another pin and change the configuration"
                      if isinstance(problem, PinBusy) else
                      "give the button a BCM pin this board has (hardware/WIRING.md)")
    if not problems:
        yield Finding("ok", f"every button pin of the {len(config.seats)} seats can be "
                            "claimed")


def can_open(path: Path, account: Account, write: bool = True) -> bool:
    """Whether the user may open `path`, by its owner, group and mode (as the kernel
    checks them: the owner's bits for the owner, else the group's, else the others')."""
    info = path.stat()
    if account.uid == 0:
        return True
    if info.st_uid == account.uid:
        bits = info.st_mode >> 6
    elif info.st_gid in account.gids:
        bits = info.st_mode >> 3
    else:
        bits = info.st_mode
    need = 4 | (2 if write else 0)
    return bits & need == need


def _owner_text(path: Path, machine: Machine) -> str:
    info = path.stat()
    names = {gid: name for name, (gid, _) in read_groups(machine.group_file).items()}
    return f"group {names.get(info.st_gid, info.st_gid)}, mode {stat.S_IMODE(info.st_mode):04o}"


def _soc(proc: Path) -> str | None:
    """The board's system on chip ("BCM2712" on a Pi 5), or None if not known."""
    from gpiozero.pins.pi import PiBoardInfo

    try:
        revision = board_revision(proc)
        return str(PiBoardInfo.from_revision(revision).soc) if revision is not None else None
    except Exception:  # no revision, or a board newer than this gpiozero
        return None


def check_readers(machine: Machine, config: Config, account: Account | None) -> Iterator[Finding]:
    from hardware.probe import identify

    pi5 = _soc(machine.proc) == "BCM2712"
    for reader in config.readers:
        pad = f"pad {reader.pad}"
        if pi5 and reader.url in ("/dev/serial0", "/dev/ttyAMA10"):
            # serial0 is a link: to the debug connector's ttyAMA10 by default, to the
            # header's ttyAMA0 with dtparam=uart0_console (or uart0=on and console off).
            link = machine.device(reader.url)
            hop = os.readlink(link) if link.is_symlink() else None
            if reader.url == "/dev/serial0" and hop is not None and Path(hop).name == "ttyAMA0":
                pass  # the header's UART: checked as any reader below
            elif reader.url == "/dev/serial0" and hop is None and not link.exists():
                yield Finding("FAIL", f"{pad}: no /dev/serial0: on a Raspberry Pi 5 the "
                                      "header's UART (pins 8 and 10) is off",
                              "add dtparam=uart0=on to /boot/firmware/config.txt, reboot, and "
                              f'set url = "/dev/ttyAMA0" for pad {reader.pad} in '
                              f"{machine.config}")
                continue
            else:
                named = f"{reader.url} -> {Path(hop).name}" if hop else reader.url
                yield Finding("FAIL", f"{pad}: on a Raspberry Pi 5 {named} is the 3-pin "
                                      "debug connector, not the header's UART (pins 8 and 10)",
                              "add dtparam=uart0=on to /boot/firmware/config.txt, reboot, and "
                              f'set url = "/dev/ttyAMA0" for pad {reader.pad} in '
                              f"{machine.config}")
                continue
        if "://" in reader.url:
            yield Finding("ok", f"{pad}: {reader.url} is not a local device; not tried")
            continue
        path = machine.device(reader.url)
        if not path.exists():
            dangling = " (a link to nothing)" if path.is_symlink() else ""
            yield Finding("FAIL", f"{pad}: no {reader.url}{dangling}: its reader is unplugged, "
                                  "or no udev rule names its USB port",
                          f"plug it in; if it is in, `roundhouse learn-port --pad "
                          f"{reader.pad}` prints the rule line for its port")
            continue
        target = path.resolve()
        shown = reader.url + (f" -> {target.name}" if path.is_symlink() else "")
        if account is not None and not can_open(target, account):
            yield Finding("FAIL", f"{pad}: {account.name} cannot open {shown} "
                                  f"({_owner_text(target, machine)})",
                          "install the udev rules (docs/install.md, step 4): they give the "
                          "readers to the group dialout")
            continue
        found, tries = identify(str(path), reader.protocol, machine.listen_s)
        yield _reader_finding(pad, shown, reader.protocol, found, tries, machine)


READER_NAMES = {"rdm6300": "an RDM6300", "pn532": "a PN532", "lines": "a line reader",
                "em18": "an EM-18"}


def _reader_finding(pad: str, shown: str, expected: str, found: str | None,
                    tries: list[Heard], machine: Machine) -> Finding:
    first = tries[0]
    name = READER_NAMES.get(expected, expected)
    if found == expected:
        what = "answers" if expected == "pn532" else f"read the tag {first.uids[0]}"
        return Finding("ok", f"{pad}: {shown}: {name} {what}")
    if found is not None:
        return Finding("FAIL", f"{pad}: {shown} speaks {found}, the configuration says "
                               f"{expected}",
                       f'set protocol = "{found}" for pad {pad.split()[1]} in {machine.config}')
    if "lock" in first.offline.lower() or "busy" in first.offline.lower():
        return Finding("warn", f"{pad}: {shown} is in use, by the running service?",
                       "to try the reader, stop the service first: sudo systemctl stop "
                       "roundhouse")
    if not first.opened and first.offline.startswith("cannot open"):
        return Finding("FAIL", f"{pad}: {first.offline}")
    layout = next((t.layout for t in tries if t.raw), None)
    if layout is not None and layout.protocol != expected:
        fix = (f'set protocol = "{layout.protocol}" for pad {pad.split()[1]} in '
               f"{machine.config}" if layout.protocol else
               "see hardware/WIRING.md for the readers this table reads")
        return Finding("FAIL", f"{pad}: {shown}: no tag read as {name}; its bytes look like "
                               f"{layout.description}", fix)
    if expected == "pn532":
        return Finding("FAIL", f"{pad}: {shown}: no answer to a PN532's set-up",
                       "check its power, HSU mode (SEL0 and SEL1 at 0) and that its TX goes "
                       "to the adapter's RX and its RX to the adapter's TX")
    bad = sum(t.bad_frames for t in tries)
    noise = f" ({bad} bad frames: a wrong protocol, baud rate or a loose wire?)" if bad else ""
    return Finding("warn", f"{pad}: {shown} opens, but no tag was read{noise}",
                   f"{name} says nothing until a tag lies on it: lay one on the pad and "
                   "run the doctor again")


# --- the screens, the journal, the clock ----------------------------------------------


def check_screens(machine: Machine, account: Account | None) -> Iterator[Finding]:
    dri = machine.dev / "dri"
    cards = sorted(dri.glob("card*")) if dri.is_dir() else []
    if not cards:
        yield Finding("FAIL", f"no {dri}/card*: the screens have no KMS/DRM device",
                      "keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt (Raspberry Pi "
                      "OS's default) and reboot")
        return
    if account is None:
        return
    nodes = [*cards, *sorted(dri.glob("renderD*"))]
    inputs = sorted((machine.dev / "input").glob("event*"))
    blocked = [n for n in nodes if not can_open(n, account)]
    blocked += [n for n in inputs if not can_open(n, account, write=False)]
    for node in blocked:
        yield Finding("FAIL", f"the screens, as {account.name}, cannot open {node} "
                              f"({_owner_text(node, machine)})",
                      "add the user to video, render and input: " + SYSUSERS_FIX)
    if not blocked:
        yield Finding("ok", f"the screens can open {', '.join(n.name for n in nodes)}"
                            + (f" and {len(inputs)} input devices" if inputs else ""))


def check_journal(machine: Machine, config: Config, account: Account | None) -> Iterator[Finding]:
    database = config.database
    folder = database.parent
    if not folder.is_dir():
        yield Finding("FAIL", f"the journal's folder {folder} does not exist",
                      f"sudo install -d -o {machine.user} -g {machine.user} -m 0750 {folder}")
        return
    archive = beside(database, ARCHIVE_SUFFIX)
    files = [folder] + [f for f in (database, beside(database, "-wal"), archive,
                                    beside(archive, "-wal")) if f.exists()]
    blocked = [f for f in files if account is not None and not can_open(f, account)]
    for path in blocked:
        yield Finding("FAIL", f"{machine.user} cannot write {path}: the journal cannot be kept",
                      f"sudo chown -R {machine.user}:{machine.user} {folder}")
    fs = os.statvfs(folder)
    free_mb = fs.f_bavail * fs.f_frsize // MB
    if free_mb < machine.min_free_mb:
        yield Finding("FAIL", f"only {free_mb} MB free for the journal in {folder} (less "
                              f"than {machine.min_free_mb} MB)",
                      "free some space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    elif not blocked:
        yield Finding("ok", f"the journal {database} is writable, {free_mb} MB free")
    refused = beside(database, REFUSED_SUFFIX)
    cut = cut_database(database)
    if cut is not None or refused.exists():
        why = cut if cut is not None else f"a start refused it as damaged ({refused})"
        yield Finding("FAIL", f"the journal {database}: {why}; the service will not start "
                              "on it", "put a sound copy in its place, or keep it aside and "
                              "start afresh as docs/install.md says (roundhouse run "
                              "--move-aside, once by hand)")
    kept = sorted(p for p in folder.glob(f"{glob.escape(archive.name)}.broken-*")
                  if not p.name.endswith(("-wal", "-shm")))
    if kept:
        # The table plays on: the service kept the damaged archive aside and began anew.
        yield Finding("warn", f"the archive of finished games was found damaged and kept "
                              f"aside as {kept[-1]}: its games are no longer listed",
                      f"roundhouse games --db {kept[-1]} lists what can still be read of "
                      "them; remove the file once they are no longer wanted")


def check_clock(machine: Machine) -> Iterator[Finding]:
    if machine.clock_synchronised():
        yield Finding("ok", "the clock is synchronised")
    else:
        yield Finding("warn", "the clock is not synchronised: the journal would date the "
                              "games wrongly (a Pi has no clock of its own across power cuts)",
                      "connect the Pi to a network once it boots (timedatectl status: "
                      '"System clock synchronized: yes"), or fit a real-time clock')


# --- the command ----------------------------------------------------------------------


def diagnose(machine: Machine) -> list[Finding]:
    """Every check, in the order an installer fixes things."""
    findings: list[Finding] = []
    account: Account | None = None
    try:
        account = read_account(machine)
    except OSError as err:
        findings.append(Finding("FAIL", f"cannot read the user database: {err}"))
    else:
        findings += check_user(machine, account)
    config: Config | None = None
    try:
        config = load_config(machine.config)
    except ConfigError as err:
        *others, last = err.problems
        findings += [Finding("FAIL", problem) for problem in others]
        findings.append(Finding("FAIL", last, f"roundhouse check-config {machine.config} "
                                              "(docs/install.md, step 5)"))
    else:
        findings.append(Finding("ok", f"the configuration {machine.config} is valid"))
    findings += check_unit(machine, config)
    findings += check_board(machine, config)
    findings += check_modules(machine)
    if config is not None:
        findings += check_pin_factory(config)
        findings += check_readers(machine, config, account)
        findings += check_journal(machine, config, account)
    findings += check_screens(machine, account)
    findings += check_clock(machine)
    return findings


def configure_doctor(parser: argparse.ArgumentParser) -> None:
    defaults = Machine()
    parser.add_argument("--config", type=Path, default=defaults.config, metavar="FILE",
                        help=f"the table's configuration (default {defaults.config})")
    parser.add_argument("--unit", type=Path, default=defaults.unit, metavar="FILE",
                        help=f"the installed service unit (default {defaults.unit})")
    parser.add_argument("--user", default=defaults.user,
                        help=f"the service's user (default {defaults.user})")
    parser.add_argument("--listen", type=float, default=defaults.listen_s, metavar="S",
                        help="seconds to listen to each reader with each protocol "
                             f"(default {defaults.listen_s:g})")


def run_doctor(args: argparse.Namespace) -> int:
    return report(diagnose(Machine(config=args.config, unit=args.unit, user=args.user,
                                   listen_s=args.listen)))


def report(findings: list[Finding]) -> int:
    for finding in findings:
        print(f"{finding.level:<4}  {finding.text}")
        if finding.fix and finding.level != "ok":
            print(f"      fix: {finding.fix}")
    failed = sum(f.level == "FAIL" for f in findings)
    if failed:
        print(f"{failed} problem{'s' if failed > 1 else ''}: the table is not ready")
        return 1
    print("the table is ready")
    return 0
