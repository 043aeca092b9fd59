"""`roundhouse doctor` on a table built in a folder: each fault made by hand is named.

The healthy table: the shipped unit and modules-load file, a Pi 4's /proc, a /dev with
the pad's link to a fake reader on a pty, the screens' DRM nodes, the user in its
groups. Each test breaks one thing and expects the doctor to say what and how to fix
it, and to exit 0 only while nothing is broken.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.doctor import Finding, Machine, diagnose, read_account, report
from hardware.rfid import rdm6300
from hardware.rfid.fake import (
    FakePn532,
    FakeRdm6300,
    PtyCable,
    em18_frame,
    id12_frame,
    line_frame,
)

ROOT = Path(__file__).resolve().parents[2]
UID = 996
GROUPS = {"dialout": 20, "video": 44, "gpio": 997, "render": 998, "input": 999,
          "roundhouse-view": 995, "roundhouse": UID}
PI4_CPUINFO = "processor\t: 0\nHardware\t: BCM2835\nRevision\t: c03111\n"
PROC_DEVICES = ("Character devices:\n  1 mem\n  4 tty\n166 ttyACM\n188 ttyUSB\n204 ttyAMA\n"
                "254 gpiochip\n\nBlock devices:\n  8 sd\n")


def write_groups(path: Path, members: dict[str, str]) -> None:
    path.write_text("".join(f"{name}:x:{gid}:{members.get(name, 'roundhouse')}\n"
                            for name, gid in GROUPS.items()))


def node(path: Path, group: str, mode: int = 0o660) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    os.chown(path, 0, GROUPS[group])
    path.chmod(mode)
    return path


def config_text(tmp_path: Path, protocol: str, pin_factory: str = "mock") -> str:
    return f"""
[buttons]
pin_factory = "{pin_factory}"
[[seats]]
draw_pin = 4
pass_pin = 5
[[seats]]
draw_pin = 6
pass_pin = 12
[[readers]]
pad = "0"
url = "/dev/roundhouse/pad-0"
protocol = "{protocol}"
[service]
database = "{tmp_path}/var/lib/roundhouse/roundhouse.db"
"""


def reader_cable(path: Path) -> PtyCable:
    """A reader's cable whose tty belongs to dialout, as the udev rules make it."""
    cable = PtyCable(path)
    os.chown(cable.path.resolve(), 0, GROUPS["dialout"])
    cable.path.resolve().chmod(0o660)
    return cable


@dataclasses.dataclass
class Table:
    machine: Machine
    root: Path
    cable: PtyCable

    def findings(self, **changes: object) -> list[Finding]:
        return diagnose(dataclasses.replace(self.machine, **changes))

    def failures(self, **changes: object) -> list[Finding]:
        return [f for f in self.findings(**changes) if f.level == "FAIL"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    if os.geteuid() != 0:
        pytest.skip("building the table's /dev needs root to give files to its groups")
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "passwd").write_text(
        f"root:x:0:0:root:/root:/bin/bash\n"
        f"roundhouse:x:{UID}:{UID}:Roundhouse table service:/var/lib/roundhouse:/nologin\n")
    write_groups(etc / "group", {})
    unit = etc / "roundhouse.service"
    program = Path(sys.executable).with_name("roundhouse")
    if not program.exists():
        pytest.skip(f"no roundhouse command beside {sys.executable}")
    config = etc / "table.toml"
    unit.write_text((ROOT / "systemd" / "roundhouse.service").read_text()
                    .replace("/opt/roundhouse/venv/bin/roundhouse", str(program))
                    .replace("/etc/roundhouse/table.toml", str(config)))
    modules = etc / "modules-load.conf"
    shutil.copy(ROOT / "systemd" / "modules-load.d" / "roundhouse.conf", modules)
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "cpuinfo").write_text(PI4_CPUINFO)
    (proc / "devices").write_text(PROC_DEVICES)
    dev = tmp_path / "dev"
    (dev / "roundhouse").mkdir(parents=True)
    cable = reader_cable(dev / "roundhouse" / "pad-0")
    node(dev / "dri" / "card0", "video")
    node(dev / "dri" / "renderD128", "render")
    node(dev / "input" / "event0", "input")
    state = tmp_path / "var" / "lib" / "roundhouse"
    state.mkdir(parents=True)
    os.chown(state, UID, UID)
    state.chmod(0o750)
    config.write_text(config_text(tmp_path, "pn532"))
    machine = Machine(config=config, unit=unit, modules_load=modules, proc=proc, dev=dev,
                      group_file=etc / "group", passwd_file=etc / "passwd", listen_s=1.5,
                      clock_synchronised=lambda: True)
    fake = FakePn532(cable)
    yield Table(machine, tmp_path, cable)
    fake.close()
    cable.close()


def texts(findings: list[Finding]) -> str:
    return "\n".join(f"{f.level} {f.text} | {f.fix}" for f in findings)


def test_a_healthy_table_is_ready(table, capsys):
    findings = table.findings()
    assert [f for f in findings if f.level != "ok"] == [], texts(findings)
    shown = texts(findings)
    assert "board revision c03111: Raspberry Pi 4B rev 1.1" in shown
    assert "pad 0: /dev/roundhouse/pad-0 -> " in shown and "a PN532 answers" in shown
    assert "the pin factory builds (MockFactory)" in shown
    assert "the screens can open card0, renderD128 and 1 input devices" in shown
    assert report(findings) == 0
    assert capsys.readouterr().out.endswith("the table is ready\n")


def test_a_user_outside_a_group_is_named_with_the_fix(table, capsys):
    write_groups(table.machine.group_file, {"dialout": "", "video": "pi"})
    failures = table.failures()
    shown = texts(failures)
    assert "the user roundhouse is not in the group dialout" in shown
    assert "sudo usermod -aG dialout roundhouse" in shown
    assert "the user roundhouse is not in the group video" in shown
    # The reader and the screen cannot be opened by that user either.
    assert "roundhouse cannot open /dev/roundhouse/pad-0" in shown
    assert "cannot open " + str(table.machine.dev / "dri" / "card0") in shown
    assert report(table.findings()) == 1
    assert "problems: the table is not ready" in capsys.readouterr().out


def test_a_group_the_system_lacks_is_named(table):
    group_file = table.machine.group_file
    group_file.write_text("".join(line + "\n" for line in group_file.read_text().splitlines()
                                  if not line.startswith("gpio:")))
    assert "there is no group gpio on this system" in texts(table.failures())


def test_no_service_user_at_all(table):
    table.machine.passwd_file.write_text("root:x:0:0:root:/root:/bin/bash\n")
    assert "there is no user roundhouse" in texts(table.failures())


def test_the_shipped_sysusers_file_gives_the_user_every_group_the_doctor_wants(table):
    if shutil.which("systemd-sysusers") is None:
        pytest.skip("systemd-sysusers is not installed (apt-get install systemd)")
    root = table.root / "sysroot"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:\nvideo:x:44:\n")
    subprocess.run(["systemd-sysusers", f"--root={root}",
                    str(ROOT / "systemd" / "sysusers.d" / "roundhouse.conf")],
                   check=True, capture_output=True, timeout=60)
    machine = dataclasses.replace(table.machine, group_file=root / "etc" / "group",
                                  passwd_file=root / "etc" / "passwd")
    account = read_account(machine)
    assert account is not None
    assert account.groups >= {"gpio", "dialout", "video", "render", "input", "roundhouse",
                              "roundhouse-view"}


def test_a_hidden_proc_cpuinfo_is_named(table):
    (table.machine.proc / "cpuinfo").unlink()
    assert "gpiozero cannot read the board's revision" in texts(table.failures())


def test_the_device_tree_revision_is_read_first(table):
    dt = table.machine.proc / "device-tree" / "system"
    dt.mkdir(parents=True)
    (dt / "linux,revision").write_bytes(bytes.fromhex("00d04170"))  # a Pi 5 8 GB
    assert "board revision d04170: Raspberry Pi 5B rev 1.0" in texts(table.findings())


def test_an_overvolted_boards_revision_is_read_as_gpiozero_reads_it(table):
    # gpiozero drops the warranty bit's "100" prefix from the device tree's revision as
    # from /proc/cpuinfo's: 0x1000002 is the Model B revision 2.
    dt = table.machine.proc / "device-tree" / "system"
    dt.mkdir(parents=True)
    (dt / "linux,revision").write_bytes(bytes.fromhex("01000002"))
    assert "board revision 2: Raspberry Pi" in texts(table.findings())


def test_a_laptop_without_a_pi_revision_needs_the_mock_factory(table):
    (table.machine.proc / "cpuinfo").write_text("processor\t: 0\nmodel name\t: x86\n")
    assert texts(table.failures()) == ""
    table.machine.config.write_text(config_text(table.root, "pn532", pin_factory="lgpio"))
    assert "has no Revision line: this is not a Raspberry Pi" in texts(table.failures())


def test_the_old_units_proc_subset_is_named(table):
    unit = table.machine.unit
    unit.write_text(unit.read_text().replace("ProcSubset=all", "ProcSubset=pid"))
    shown = texts(table.failures())
    assert "ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree" in shown


def test_a_drop_in_that_closes_the_devices_is_named(table):
    dropins = table.machine.unit.with_name("roundhouse.service.d")
    dropins.mkdir()
    (dropins / "override.conf").write_text(
        "[Service]\nDeviceAllow=\nDeviceAllow=char-ttyUSB rw\nPrivateDevices=yes\n")
    shown = texts(table.failures())
    assert "PrivateDevices=yes hides /dev/gpiochip*" in shown
    assert "without DeviceAllow=char-gpiochip rw locks out the seat buttons" in shown
    assert "DeviceAllow=char-ttyACM" in shown
    assert "DeviceAllow=char-ttyUSB" not in shown


def test_a_reader_on_the_pis_uart_needs_its_device_class(table):
    unit = table.machine.unit
    unit.write_text(unit.read_text().replace("DeviceAllow=char-ttyAMA rw\n", ""))
    assert texts(table.failures()) == ""  # no reader on the UART
    table.machine.config.write_text(config_text(table.root, "pn532").replace(
        "/dev/roundhouse/pad-0", "/dev/ttyAMA0"))
    assert "DeviceAllow=char-ttyAMA rw locks out the reader of pad 0" in texts(
        table.failures())


def test_a_unit_that_starts_a_missing_program_or_another_config_is_named(table):
    unit = table.machine.unit
    text = unit.read_text()
    unit.write_text(text.replace(str(table.machine.config), "/etc/roundhouse/other.toml"))
    warnings = [f for f in table.findings() if f.level == "warn"]
    assert "the service starts with /etc/roundhouse/other.toml" in texts(warnings)
    program = Path(sys.executable).with_name("roundhouse")
    unit.write_text(text.replace(str(program), "/opt/roundhouse/venv/bin/nothing"))
    assert "ExecStart= runs /opt/roundhouse/venv/bin/nothing, which does not exist" in texts(
        table.failures())


def test_a_pi5_reader_on_serial0_is_sent_to_the_headers_uart(table):
    (table.machine.proc / "cpuinfo").write_text("Revision\t: d04170\n")
    table.machine.config.write_text(config_text(table.root, "pn532").replace(
        "/dev/roundhouse/pad-0", "/dev/serial0"))
    shown = texts(table.failures())
    assert "pad 0: no /dev/serial0: on a Raspberry Pi 5 the header's UART" in shown
    (table.machine.dev / "serial0").symlink_to("ttyAMA10")  # the Pi 5's default
    shown = texts(table.failures())
    assert "on a Raspberry Pi 5 /dev/serial0 -> ttyAMA10 is the 3-pin debug connector" in shown
    assert 'dtparam=uart0=on' in shown and 'url = "/dev/ttyAMA0" for pad 0' in shown
    (table.machine.proc / "cpuinfo").write_text(PI4_CPUINFO)
    assert "debug connector" not in texts(table.failures())


def test_a_pi5_serial0_that_leads_to_the_headers_uart_is_taken(table):
    # dtparam=uart0_console points serial0 at ttyAMA0, the header's UART.
    (table.machine.proc / "cpuinfo").write_text("Revision\t: d04170\n")
    (table.machine.dev / "ttyAMA0").symlink_to(table.cable.path.resolve())
    (table.machine.dev / "serial0").symlink_to("ttyAMA0")
    table.machine.config.write_text(config_text(table.root, "pn532").replace(
        "/dev/roundhouse/pad-0", "/dev/serial0"))
    shown = texts(table.findings())
    assert "debug connector" not in shown and "no /dev/serial0" not in shown
    assert "pad 0: /dev/serial0 -> " in shown and "a PN532 answers" in shown


def test_a_missing_unit_is_named(table):
    table.machine.unit.unlink()
    assert "the service is not installed" in texts(table.failures())


def test_usb_serial_modules_not_loaded_are_named(table):
    (table.machine.proc / "devices").write_text(PROC_DEVICES.replace("166 ttyACM\n", ""))
    shown = texts(table.failures())
    assert "cdc_acm is not loaded" in shown and "usbserial" not in shown
    table.machine.modules_load.unlink()
    assert "/etc/modules-load.d/" in texts(table.failures())


def test_an_absent_pad_link_is_named(table):
    table.cable.unplug()
    shown = texts(table.failures())
    assert "pad 0: no /dev/roundhouse/pad-0: its reader is unplugged" in shown
    assert "roundhouse learn-port --pad 0" in shown
    (table.machine.dev / "roundhouse" / "pad-0").symlink_to("/dev/ttyUSB-gone")
    assert "(a link to nothing)" in texts(table.failures())


def test_a_reader_that_speaks_another_protocol_is_named(table):
    table.machine.config.write_text(config_text(table.root, "rdm6300"))
    shown = texts(table.failures())
    assert "speaks pn532, the configuration says rdm6300" in shown
    assert 'set protocol = "pn532" for pad 0' in shown


def test_a_silent_pn532_is_named(table):
    cable = reader_cable(table.machine.dev / "roundhouse" / "pad-9")
    text = config_text(table.root, "pn532").replace("pad-0", "pad-9")
    table.machine.config.write_text(text)
    try:
        shown = texts(table.failures(listen_s=2.0))
    finally:
        cable.close()
    assert "no answer to a PN532's set-up" in shown


def test_an_rdm6300_with_a_tag_lying_on_it_is_ready(table):
    cable = reader_cable(table.machine.dev / "roundhouse" / "pad-5")
    fake = FakeRdm6300(cable, repeat_s=0.065)
    fake.place("67003B51C6")
    table.machine.config.write_text(config_text(table.root, "rdm6300").replace("pad-0",
                                                                               "pad-5"))
    try:
        findings = table.findings()
    finally:
        fake.close()
        cable.close()
    assert "an RDM6300 read the tag 67003B51C6" in texts(findings)
    assert [f for f in findings if f.level != "ok"] == []


def test_a_reader_the_user_cannot_open_is_named(table):
    table.cable.path.resolve().chmod(0o600)
    assert "roundhouse cannot open /dev/roundhouse/pad-0" in texts(table.failures())


def test_a_pin_factory_that_does_not_build_is_named(table):
    table.machine.config.write_text(config_text(table.root, "pn532", pin_factory="pigpio"))
    assert "the pin factory does not build: pin factory 'pigpio'" in texts(table.failures())


def test_screens_without_a_drm_device_are_named(table):
    shutil.rmtree(table.machine.dev / "dri")
    assert "the screens have no KMS/DRM device" in texts(table.failures())


def test_a_journal_folder_the_user_cannot_write_is_named(table):
    state = table.root / "var" / "lib" / "roundhouse"
    os.chown(state, 0, 0)
    state.chmod(0o755)
    assert f"roundhouse cannot write {state}" in texts(table.failures())
    shutil.rmtree(state)
    assert f"the journal's folder {state} does not exist" in texts(table.failures())


@pytest.mark.parametrize("damage", ["cut", "refused"])
def test_a_journal_the_service_refuses_is_named(table, damage):
    state = table.root / "var" / "lib" / "roundhouse"
    journal = next(iter(state.glob("*.db")), state / "roundhouse.db")
    journal.write_bytes(b"")
    if damage == "cut":
        journal.with_name(journal.name + "-wal").write_bytes(bytes(4096))
    else:
        journal.with_name(journal.name + ".refused").write_text("{}\n")
    assert f"the journal {journal}" in texts(table.failures())
    assert "the service will not start on it" in texts(table.failures())


def test_an_archive_kept_aside_as_damaged_is_a_warning(table):
    state = table.root / "var" / "lib" / "roundhouse"
    journal = next(iter(state.glob("*.db")), state / "roundhouse.db")
    kept = journal.with_name(journal.name + ".archive.broken-20261203-201500")
    kept.write_bytes(b"")
    findings = table.findings()
    warnings = [f for f in findings if f.level == "warn"]
    assert [w.text for w in warnings] == [
        f"the archive of finished games was found damaged and kept aside as {kept}: "
        "its games are no longer listed"]
    assert f"roundhouse games --db {kept}" in warnings[0].fix
    assert report(findings) == 0


def test_too_little_free_space_is_named(table):
    assert "MB free for the journal" in texts(table.failures(min_free_mb=1 << 40))


def test_an_unsynchronised_clock_is_a_warning_only(table):
    findings = table.findings(clock_synchronised=lambda: False)
    warnings = [f for f in findings if f.level == "warn"]
    assert [w.text.split(":")[0] for w in warnings] == ["the clock is not synchronised"]
    assert report(findings) == 0


def test_a_broken_configuration_is_named(table):
    table.machine.config.write_text("[[seats]]\ndraw_pin = 99\n")
    shown = texts(table.failures())
    assert "seats[0].draw_pin: expected a BCM pin 2..27, got 99" in shown
    assert "roundhouse check-config" in shown


def test_the_command_checks_the_real_machine_and_says_so(tmp_path, capsys):
    from firmware_py.cli import main

    assert main(["doctor", "--config", str(tmp_path / "none.toml"), "--unit",
                 str(tmp_path / "none.service")]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'none.toml'}: no such file" in out
    assert "the service is not installed" in out
    assert out.endswith("the table is not ready\n")


def test_a_unit_that_is_not_text_is_named_not_a_traceback(tmp_path, capsys):
    from firmware_py.cli import main

    binary = tmp_path / "binary"
    binary.write_bytes(bytes(range(256)) * 8)
    assert main(["doctor", "--config", str(tmp_path / "none.toml"), "--unit",
                 str(binary)]) == 1
    out = capsys.readouterr().out
    assert f"{binary}: not a unit file (not text)" in out


def test_a_reader_the_running_service_holds_is_a_warning_with_how_to_try_it(table):
    import serial  # type: ignore[import-untyped]

    held = serial.serial_for_url(str(table.cable.path), exclusive=True)
    try:
        findings = table.findings()
    finally:
        held.close()
    warnings = [f for f in findings if f.level == "warn"]
    assert "pad 0: /dev/roundhouse/pad-0 -> " in texts(warnings)
    assert "is in use, by the running service?" in texts(warnings)
    assert "sudo systemctl stop roundhouse" in texts(warnings)
    assert report(findings) == 0


def test_a_button_pin_a_kernel_overlay_holds_is_named(table, monkeypatch):
    import hardware.buttons
    from hardware.fake_pins import FakePinFactory

    monkeypatch.setattr(hardware.buttons, "make_pin_factory",
                        lambda name: FakePinFactory(busy={4}))  # w1-gpio's default pin
    shown = texts(table.failures())
    assert "seat 0 draw button on GPIO4 cannot be claimed: GPIO busy |" in shown
    assert "dtoverlay=w1-gpio,gpiopin=" in shown
    assert "GPIO5" not in shown


def test_pins_all_busy_are_the_running_service_s(table, monkeypatch):
    import hardware.buttons
    from hardware.fake_pins import FakePinFactory

    monkeypatch.setattr(hardware.buttons, "make_pin_factory",
                        lambda name: FakePinFactory(busy=set(range(28))))
    findings = table.findings()
    assert "warn no button pin can be claimed: in use by the running service?" in texts(
        findings)
    assert not any("cannot be claimed" in f.text for f in findings)


def listened_to(table, frame, protocol: str) -> str:
    """The doctor's findings for a reader of `frame`'s layout with a tag lying on it,
    configured as `protocol`."""
    cable = reader_cable(table.machine.dev / "roundhouse" / "pad-5")
    fake = FakeRdm6300(cable, repeat_s=0.065, frame=frame)
    fake.place("67003B51C6")
    table.machine.config.write_text(config_text(table.root, protocol).replace("pad-0",
                                                                              "pad-5"))
    try:
        return texts(table.findings())
    finally:
        fake.close()
        cable.close()


def test_an_rdm6300_configured_as_a_line_reader_is_named(table):
    shown = listened_to(table, rdm6300.encode, "lines")
    assert "speaks rdm6300, the configuration says lines" in shown


def test_a_line_reader_configured_as_an_rdm6300_is_named(table):
    shown = listened_to(table, line_frame, "rdm6300")
    assert "speaks lines, the configuration says rdm6300" in shown


def test_an_id12la_is_read_as_an_rdm6300(table):
    assert "an RDM6300 read the tag 67003B51C6" in listened_to(table, id12_frame, "rdm6300")


def test_an_em18_configured_as_an_rdm6300_is_named(table):
    shown = listened_to(table, em18_frame, "rdm6300")
    assert "speaks em18, the configuration says rdm6300" in shown
    assert 'set protocol = "em18" for pad 0' in shown


def test_an_em18_is_ready(table):
    assert "an EM-18 read the tag 67003B51C6" in listened_to(table, em18_frame, "em18")
