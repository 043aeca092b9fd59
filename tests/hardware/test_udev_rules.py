"""The shipped udev rules, applied by a strict small udev to real adapters in real ports.

Adapters' USB ids are those of the kernel's drivers (drivers/usb/serial/ch341.c,
pl2303.h, cp210x.c, ftdi_sio_ids.h; CH343 and CH9102 are CDC ACM and bound by
cdc-acm by class). Port paths are those path_id gives (ID_PATH, systemd's
src/udev/udev-builtin-path_id.c): "<controller>-usb-0:<ports>:1.0", where a Pi 4's
sockets are behind its internal hub (1.1 ... 1.4) and a Pi 5's are the ports of two
controllers of their own (1 and 2 on each).
"""

from __future__ import annotations

import grp
import re
import shlex
import subprocess
import threading
import time
from pathlib import Path

import pytest
from udev_rules import Device, Node, RuleSyntaxError, apply_rules, parse_rules

from hardware.ports import configure_learn_port, pad_rule, run_learn_port, usb_port

UDEV = Path(__file__).resolve().parents[2] / "hardware" / "udev"
READERS = UDEV / "99-roundhouse-readers.rules"
PI4_PADS = UDEV / "pads-pi4.rules"
PI5_PADS = UDEV / "pads-pi5.rules"
BACKLIGHT = UDEV / "99-roundhouse-backlight.rules"

# name, idVendor, idProduct, tty name, usb-serial driver (None: cdc_acm, no usb-serial port)
ADAPTERS = [
    ("CH340G", "1a86", "7523", "ttyUSB", "ch341-uart"),
    ("CH340K", "1a86", "7522", "ttyUSB", "ch341-uart"),
    ("CH341A", "1a86", "5523", "ttyUSB", "ch341-uart"),
    ("CH343P", "1a86", "55d3", "ttyACM", None),
    ("CH9102F", "1a86", "55d4", "ttyACM", None),
    ("PL2303HX", "067b", "2303", "ttyUSB", "pl2303"),
    ("PL2303TB", "067b", "2304", "ttyUSB", "pl2303"),
    ("PL2303GC", "067b", "23a3", "ttyUSB", "pl2303"),
    ("PL2303GB", "067b", "23b3", "ttyUSB", "pl2303"),
    ("PL2303GT", "067b", "23c3", "ttyUSB", "pl2303"),
    ("PL2303GL", "067b", "23d3", "ttyUSB", "pl2303"),
    ("PL2303GE", "067b", "23e3", "ttyUSB", "pl2303"),
    ("PL2303GS", "067b", "23f3", "ttyUSB", "pl2303"),
    ("CP2102", "10c4", "ea60", "ttyUSB", "cp210x"),
    ("FT232R", "0403", "6001", "ttyUSB", "ftdi_sio"),
    ("FT232H", "0403", "6014", "ttyUSB", "ftdi_sio"),
    ("FT231X", "0403", "6015", "ttyUSB", "ftdi_sio"),
]
PI4 = "platform-fd500000.pcie-pci-0000:01:00.0"  # the VL805 on PCIe, bus 1
PI5 = {1: "platform-xhci-hcd.0", 3: "platform-xhci-hcd.1"}  # RP1's two controllers
HUBS = {"VL805 hub": ("2109", "3431"), "FE1.1s": ("1a40", "0101"), "CH334": ("1a86", "8091")}


def path_tag(path: str) -> str:
    """ID_PATH_TAG as path_id composes it: [0-9A-Za-z-] kept, other runs become one "_"."""
    return re.sub(r"[^0-9A-Za-z-]+", "_", path).strip("_")


def plugged(adapter: tuple[str, str, str, str, str | None], controller: str, bus: int,
            ports: str, hubs: dict[str, str] | None = None, action: str = "add") -> Device:
    """The tty of `adapter` in the USB port `ports` ("1.3.2") of controller `bus`;
    `hubs` names the hub chip at each hub's port ("1.3": "CH334"), FE1.1s by default."""
    _, vendor, product, tty, driver = adapter
    kernel = f"{tty}0"
    chain = [Node(kernel, "tty")]
    if driver is not None:
        chain.append(Node(kernel, "usb-serial", driver, {"port_number": "0"}))
    chain.append(Node(f"{bus}-{ports}:1.0", "usb", driver or "cdc_acm",
                      {"bInterfaceNumber": "00"}))
    chain.append(Node(f"{bus}-{ports}", "usb", "usb",
                      {"idVendor": vendor, "idProduct": product}))
    parts = ports.split(".")
    for depth in range(len(parts) - 1, 0, -1):
        hub_port = ".".join(parts[:depth])
        chip = (hubs or {}).get(hub_port, "FE1.1s")
        hub_vendor, hub_product = HUBS[chip]
        chain.append(Node(f"{bus}-{hub_port}", "usb", "usb",
                          {"idVendor": hub_vendor, "idProduct": hub_product}))
    chain.append(Node(f"usb{bus}", "usb", "usb", {"idVendor": "1d6b", "idProduct": "0002"}))
    chain.append(Node(controller.removeprefix("platform-").split("-pci-")[0], "platform"))
    id_path = f"{controller}-usb-0:{ports}:1.0"
    # What 60-serial.rules (path_id) has set before ours run.
    env = {"ID_PATH": id_path, "ID_PATH_TAG": path_tag(id_path)}
    return Device(action, chain, env)


def by_path_name(device: Device) -> str:
    """The device's name in /dev/serial/by-path/ (60-serial.rules)."""
    serial_port = any(node.subsystem == "usb-serial" for node in device.chain)
    return device.env["ID_PATH"] + ("-port0" if serial_port else "")


def pads_of(device: Device) -> list[str]:
    return [link for link in device.symlinks if link.startswith("roundhouse/pad-")]


PI4_LAYOUT = {**{str(n): f"1.3.{n + 1}" for n in range(8)}, "mexican": "1.4"}
PI5_LAYOUT = {**{str(n): (3, f"2.{n + 1}") for n in range(8)}, "mexican": (1, "1")}
# A "7-port" hub in the Pi 4's socket 1.3: two 4-port chips, the second on port 4 of the
# first, so its ports are one level deeper. Pad 7 is straight in socket 1.2.
CASCADED = {"0": "1.3.1", "1": "1.3.2", "2": "1.3.3", "3": "1.3.4.1", "4": "1.3.4.2",
            "5": "1.3.4.3", "6": "1.3.4.4", "7": "1.2", "mexican": "1.4"}
CASCADE_HUBS = {"1.3": "CH334", "1.3.4": "CH334", "1": "VL805 hub"}


def test_the_shipped_rule_files_parse():
    for path in (READERS, PI4_PADS, PI5_PADS, BACKLIGHT):
        assert parse_rules(path)


def test_the_parser_refuses_what_udev_would_not_do(tmp_path):
    bad = tmp_path / "bad.rules"
    for line in ('KERNELS="1-1.3:1.0", SYMLINK+="x"', 'GOTO="nowhere"',
                 'SUBSYSTEM=="tty" SYMLINK+="x"', 'ATTRS=="1a86"', 'SYMLINK=="x"'):
        bad.write_text(line + "\n")
        with pytest.raises(RuleSyntaxError):
            parse_rules(bad)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=[a[0] for a in ADAPTERS])
def test_every_common_adapter_is_a_reader_on_a_pi4(adapter):
    for pad, ports in PI4_LAYOUT.items():
        device = apply_rules([PI4_PADS, READERS], plugged(adapter, PI4, 1, ports))
        assert pads_of(device) == [f"roundhouse/pad-{pad}"], (pad, ports)
        assert (device.group, device.mode) == ("dialout", "0660")
        assert f"roundhouse/port-{device.env['ID_PATH_TAG']}" in device.symlinks


@pytest.mark.parametrize("adapter", ADAPTERS, ids=[a[0] for a in ADAPTERS])
def test_every_common_adapter_is_a_reader_on_a_pi5(adapter):
    for pad, (bus, ports) in PI5_LAYOUT.items():
        device = apply_rules([PI5_PADS, READERS], plugged(adapter, PI5[bus], bus, ports))
        assert pads_of(device) == [f"roundhouse/pad-{pad}"], (pad, ports)
        assert device.group == "dialout"
        assert any(link.startswith("roundhouse/port-platform-xhci-hcd")
                   for link in device.symlinks)


def test_the_pi5_pads_do_not_depend_on_the_socket_or_controller():
    ch340 = ADAPTERS[0]
    for bus, socket in ((1, "1"), (1, "2"), (3, "1"), (3, "2")):
        on_hub = apply_rules([PI5_PADS], plugged(ch340, PI5[bus], bus, f"{socket}.6"))
        assert pads_of(on_hub) == ["roundhouse/pad-5"]


def test_the_pi4_file_names_no_pad_behind_a_cascaded_hubs_inner_chip():
    device = apply_rules([PI4_PADS], plugged(ADAPTERS[0], PI4, 1, "1.3.4.2", CASCADE_HUBS))
    assert pads_of(device) == []  # hence `roundhouse learn-port` for such hubs


def test_lines_printed_by_learn_port_name_every_pad_of_a_cascaded_hub(tmp_path):
    adapters = [ADAPTERS[0], ADAPTERS[4], ADAPTERS[7], ADAPTERS[16]]  # ttyUSB and ttyACM
    pads = tmp_path / "98-roundhouse-pads.rules"
    lines = []
    for index, (pad, ports) in enumerate(CASCADED.items()):
        device = plugged(adapters[index % len(adapters)], PI4, 1, ports, CASCADE_HUBS)
        assert usb_port(by_path_name(device)) == ports
        lines.append(pad_rule(by_path_name(device), pad))
    pads.write_text("\n".join(lines) + "\n")
    for index, (pad, ports) in enumerate(CASCADED.items()):
        for adapter in (adapters[index % len(adapters)], ADAPTERS[6]):
            device = apply_rules([pads, READERS], plugged(adapter, PI4, 1, ports, CASCADE_HUBS))
            assert pads_of(device) == [f"roundhouse/pad-{pad}"]
            assert device.group == "dialout"


def test_other_serial_devices_are_left_alone():
    modem = ("E3531 modem", "12d1", "1506", "ttyUSB", "option1")
    device = apply_rules([READERS], plugged(modem, PI4, 1, "1.1"))
    assert device.symlinks == [] and device.group == "root"
    # A device behind a WCH hub chip is not taken for a WCH adapter (ATTRS of one device).
    behind_ch334 = apply_rules([READERS], plugged(modem, PI4, 1, "1.3.4.1", CASCADE_HUBS))
    assert behind_ch334.symlinks == []


def test_a_removed_reader_is_not_renamed():
    device = apply_rules([PI4_PADS, READERS], plugged(ADAPTERS[0], PI4, 1, "1.4",
                                                      action="remove"))
    assert device.group == "root" and not any("port-" in s for s in device.symlinks)


# --- roundhouse learn-port ---------------------------------------------------------------


def learn(tmp_path: Path, argv: list[str]):
    import argparse

    parser = argparse.ArgumentParser()
    configure_learn_port(parser)
    return run_learn_port(parser.parse_args(["--by-path", str(tmp_path), *argv]))


def test_learn_port_prints_the_new_adapters_port_and_its_rule(tmp_path, capsys):
    by_path = tmp_path / "by-path"
    by_path.mkdir()
    present = plugged(ADAPTERS[5], PI5[1], 1, "1")
    (by_path / by_path_name(present)).symlink_to("../../ttyUSB0")
    new = plugged(ADAPTERS[4], PI5[3], 3, "2.4.1", {"2": "FE1.1s", "2.4": "CH334"})

    def plug_it() -> None:
        time.sleep(0.5)
        (by_path / by_path_name(new)).symlink_to("../../ttyACM0")

    threading.Thread(target=plug_it, daemon=True).start()
    assert learn(by_path, ["--pad", "3", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "already plugged in: USB port 1  (platform-xhci-hcd.0-usb-0:1:1.0-port0)" in out
    assert "the reader of pad 3 is in USB port 2.4.1" in out
    rule = re.search(r"echo '([^']+)' \| sudo tee -a /etc/udev/rules.d/98-roundhouse-pads"
                     r"\.rules", out)
    assert rule
    rules = tmp_path / "98-roundhouse-pads.rules"
    rules.write_text(rule.group(1) + "\n")
    assert pads_of(apply_rules([rules], new)) == ["roundhouse/pad-3"]
    assert pads_of(apply_rules([rules], present)) == []


def test_learn_port_warns_when_the_rules_already_name_the_pad_or_the_port(tmp_path, capsys):
    by_path = tmp_path / "by-path"
    by_path.mkdir()
    old = plugged(ADAPTERS[0], PI4, 1, "1.3.1")
    other = plugged(ADAPTERS[0], PI4, 1, "1.3.2")
    rules = tmp_path / "98-roundhouse-pads.rules"
    rules.write_text(pad_rule(by_path_name(old), "3") + "\n"
                     + pad_rule(by_path_name(other), "5") + "\n")
    new = other  # the reader of pad 3 plugged into the port the file gives pad 5

    def plug_it() -> None:
        time.sleep(0.5)
        (by_path / by_path_name(new)).symlink_to("../../ttyUSB0")

    threading.Thread(target=plug_it, daemon=True).start()
    assert learn(by_path, ["--pad", "3", "--rules", str(rules), "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert f"warning: {rules} line 1 already names pad 3 (USB port 1.3.1)" in out
    assert f"warning: {rules} line 2 names this port pad 5" in out
    sed = re.search(r"sudo sed -i '([^']+)' ", out)
    assert sed and sed.group(1) == '/SYMLINK+="roundhouse\\/pad-3"/d'
    # Run as printed, the file names pad 3 once, after the new port.
    kept = [line for line in rules.read_text().splitlines()
            if 'SYMLINK+="roundhouse/pad-3"' not in line]
    rule = re.search(r"echo '([^']+)' \| sudo tee -a", out)
    assert rule
    rules.write_text("\n".join([*kept, rule.group(1)]) + "\n")
    assert "roundhouse/pad-3" in pads_of(apply_rules([rules], new))
    assert pads_of(apply_rules([rules], old)) == []


def test_learn_port_takes_the_two_links_newer_systemd_makes_for_one_adapter(tmp_path, capsys):
    # systemd's path_id also gives ID_PATH_WITH_USB_REVISION ("usbv2" in place of "usb"),
    # which newer 60-serial.rules link in /dev/serial/by-path/ too: one adapter, two links.
    by_path, staged = tmp_path / "by-path", tmp_path / "staged"
    staged.mkdir()
    new = plugged(ADAPTERS[0], PI4, 1, "1.3.5")
    name = by_path_name(new)
    (staged / name.replace("-usb-0:", "-usbv2-0:")).symlink_to("../../ttyUSB0")
    (staged / name).symlink_to("../../ttyUSB0")

    def plug_it() -> None:  # udev makes the folder with the first adapter: both at once
        time.sleep(0.5)
        staged.rename(by_path)

    threading.Thread(target=plug_it, daemon=True).start()
    assert learn(by_path, ["--pad", "4", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "the reader of pad 4 is in USB port 1.3.5" in out
    rule = re.search(r"echo '([^']+)' \| sudo tee -a", out)
    assert rule and "usbv2" not in rule.group(1)
    rules = tmp_path / "98-roundhouse-pads.rules"
    rules.write_text(rule.group(1) + "\n")
    assert pads_of(apply_rules([rules], new)) == ["roundhouse/pad-4"]


def test_learn_port_refuses_two_adapters_plugged_in_at_once(tmp_path, capsys):
    by_path, staged = tmp_path / "by-path", tmp_path / "staged"
    staged.mkdir()
    for port, tty in (("1.3.1", "ttyUSB0"), ("1.3.2", "ttyUSB1")):
        (staged / by_path_name(plugged(ADAPTERS[0], PI4, 1, port))).symlink_to(
            f"../../{tty}")

    def plug_two() -> None:
        time.sleep(0.5)
        staged.rename(by_path)

    threading.Thread(target=plug_two, daemon=True).start()
    assert learn(by_path, ["--pad", "0", "--timeout", "30"]) == 1
    assert "several adapters appeared at once" in capsys.readouterr().err


def test_learn_port_gives_up_after_its_timeout_and_refuses_a_bad_pad(tmp_path, capsys):
    assert learn(tmp_path / "absent", ["--pad", "mexican", "--timeout", "0.3"]) == 1
    assert "no adapter was plugged in within 0.3 s" in capsys.readouterr().err
    assert learn(tmp_path, ["--pad", "table"]) == 2
    assert 'expected a seat number 0..14 or "mexican"' in capsys.readouterr().err


def test_the_modules_loaded_at_boot_drive_every_adapter_the_rules_know():
    # usbserial and cdc_acm register ttyUSB and ttyACM in /proc/devices, which the unit's
    # DeviceAllow= needs at start; the adapters' own drivers come with them.
    conf = UDEV.parents[1] / "systemd" / "modules-load.d" / "roundhouse.conf"
    modules = {line.strip() for line in conf.read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {"usbserial", "cdc_acm"} <= modules
    for _, _, _, _, driver in ADAPTERS:
        assert (driver or "cdc_acm").removesuffix("-uart") in modules, driver


def test_the_backlight_rule_gives_a_panels_power_to_the_screens_group(tmp_path):
    """What the rule runs for a backlight, run on a copy of its sysfs folder: the screens'
    user (group video) may then switch the panel off and on (display.panel)."""
    light = Device("add", [Node("rpi_backlight", "backlight")])
    [command] = apply_rules([BACKLIGHT], light).run
    folder = tmp_path / "rpi_backlight"
    folder.mkdir()
    for name in ("brightness", "bl_power", "max_brightness"):
        (folder / name).write_text("0\n")
        (folder / name).chmod(0o644)
    # udev puts the device's path for %p and one $ for $$.
    subprocess.run(["sh", "-c", shlex.split(command)[2].replace("/sys%p", str(folder))
                    .replace("$$", "$")], check=True)
    for name in ("brightness", "bl_power"):
        assert grp.getgrgid((folder / name).stat().st_gid).gr_name == "video"
        assert (folder / name).stat().st_mode & 0o777 == 0o664
    assert (folder / "max_brightness").stat().st_mode & 0o777 == 0o644
    # A backlight without bl_power: its brightness alone, and no error.
    (folder / "bl_power").unlink()
    (folder / "brightness").chmod(0o644)
    subprocess.run(["sh", "-c", shlex.split(command)[2].replace("/sys%p", str(folder))
                    .replace("$$", "$")], check=True)
    assert (folder / "brightness").stat().st_mode & 0o777 == 0o664
    # Nothing else is touched.
    assert not apply_rules([BACKLIGHT], Device("add", [Node("ttyUSB0", "tty")])).run
