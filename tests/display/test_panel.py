"""A blank screen switches its panel off where it can, and on again the moment anything
happens at the table; a panel that fails never ends the screen."""

from __future__ import annotations

import ctypes
import logging
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from fakes import Clock, QueueFeed
from sample_views import as_view, load

from display import panel, sleep
from display.client import Follower, FrameSink
from display.panel import (
    Backlight,
    BlackOnly,
    Cec,
    DrmDpms,
    PanelError,
    Switch,
    Where,
    X11Dpms,
    drm_fds,
)
from roundhouse.tablefile import SleepSettings, TableFileError, sleep_from

SETTINGS = SleepSettings(dim_after_s=60, blank_after_s=120, dim_to=0.25)


class RecordingSink(FrameSink):
    """Pictures in a folder, each shown one noted beside the panel's switches."""

    def __init__(self, folder, record):
        super().__init__(folder, (640, 400), "wall")
        self.record = record

    def show(self, name, rects=None):
        super().show(name, rects)
        self.record.append(("shown", name, pygame.transform.average_color(self.surface)[:3]))


class RecordingPanel:
    name = "recording"

    def __init__(self, record, fail_off=False, fail_on=False):
        self.record = record
        self.fail_off, self.fail_on = fail_off, fail_on

    def off(self):
        self.record.append("off")
        if self.fail_off:
            raise PanelError("cannot write bl_power: Permission denied")

    def on(self):
        self.record.append("on")
        if self.fail_on:
            raise PanelError("the device is gone")


def follower(tmp_path, **failing):
    record = []
    clock, feed = Clock(), QueueFeed()
    sink = RecordingSink(tmp_path, record)
    screen = Follower(feed, sink, "wall", animate=False, sleep_settings=SETTINGS,
                      clock=clock, panel=Switch(RecordingPanel(record, **failing)))
    return screen, feed, sink, clock, record


def sleep_through(screen, clock):
    """Leave the table alone until its screen blanks."""
    clock.now += 61
    screen.step()
    assert screen.looks == sleep.DIM
    clock.now += 60
    screen.step()
    assert screen.looks == sleep.BLANK


def test_a_blank_screen_switches_its_panel_off_after_drawing_black(tmp_path):
    screen, feed, _sink, clock, record = follower(tmp_path)
    feed.views.append(as_view(load("lobby_6")))
    screen.step()
    clock.now += 61
    screen.step()
    assert screen.looks == sleep.DIM and "off" not in record  # dimmed, still lit
    clock.now += 60
    screen.step()
    assert record[-2:] == [("shown", "blank", (0, 0, 0)), "off"]
    # Asleep, it stays off: no switching back and forth.
    clock.now += 3600
    screen.step()
    assert record[-1] == "off" and record.count("off") == 1


def test_a_new_view_switches_the_panel_on_before_the_picture_comes_back(tmp_path):
    screen, feed, _sink, clock, record = follower(tmp_path)
    lobby = as_view(load("lobby_6"))
    feed.views.append(lobby)
    screen.step()
    sleep_through(screen, clock)
    joined = replace(lobby, seq=lobby.seq + 1, seats=(
        replace(lobby.seats[0], joined=not lobby.seats[0].joined), *lobby.seats[1:]))
    feed.views.append(joined)
    screen.step()
    assert screen.looks == sleep.AWAKE
    on = record.index("on")
    assert record[on - 1] == "off"
    shown = record[on + 1:]
    assert shown and all(entry[0] == "shown" for entry in shown)
    assert sum(shown[-1][2]) > 0  # the lobby again, lit


def test_a_press_the_table_refuses_again_still_wakes_the_screen(tmp_path):
    # At the final ranking PASS is refused, and the refusal stands in the view: a second
    # PASS leaves the same view, which the service publishes again under the next seq.
    over = as_view(load("game_over_8"))
    screen, feed, _sink, clock, record = follower(tmp_path)
    feed.views.append(over)
    screen.step()
    drawn = screen.redraws
    sleep_through(screen, clock)
    feed.views.append(replace(over, seq=over.seq + 1))
    screen.step()
    assert screen.looks == sleep.AWAKE and record[-2][0] != "off" and "on" in record
    assert screen.redraws == drawn  # nothing new to draw but the picture itself


def test_a_tap_on_a_switched_off_screen_wakes_it(tmp_path):
    screen, feed, sink, clock, record = follower(tmp_path)
    feed.views.append(as_view(load("game_over_8")))
    screen.step()
    sleep_through(screen, clock)
    sink.touched = True  # touch events still come while the panel is off
    screen.step()
    assert screen.looks == sleep.AWAKE and record[-2] == "on"
    assert record[-1][:2] == ("shown", "awake")


def test_a_game_in_play_never_switches_the_panel_off(tmp_path):
    screen, feed, _sink, clock, record = follower(tmp_path)
    feed.views.append(as_view(load("play_8")))
    screen.step()
    clock.now += 24 * 3600
    screen.step()
    assert "off" not in record


def test_a_panel_that_fails_is_said_once_and_the_screen_draws_black(tmp_path, caplog):
    caplog.set_level(logging.WARNING, "roundhouse.display.panel")
    screen, feed, sink, clock, record = follower(tmp_path, fail_off=True)
    feed.views.append(as_view(load("lobby_6")))
    screen.step()
    sleep_through(screen, clock)
    # The failed "off" is followed by one "on": whatever part of it went dark is lit.
    assert record[-3:] == [("shown", "blank", (0, 0, 0)), "off", "on"]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "Permission denied" in said[0] and "drawn black" in said[0]
    sink.touched = True
    screen.step()
    assert screen.looks == sleep.AWAKE
    sleep_through(screen, clock)  # asleep again: black, and the broken panel left alone
    assert record.count("off") == 1 and record.count("on") == 1
    assert len(caplog.records) == 1
    assert screen.panel.name == "none"


def test_a_panel_gone_while_off_still_lets_the_screen_wake(tmp_path, caplog):
    screen, feed, sink, clock, record = follower(tmp_path, fail_on=True)
    feed.views.append(as_view(load("lobby_6")))
    screen.step()
    sleep_through(screen, clock)
    sink.touched = True
    screen.step()
    assert screen.looks == sleep.AWAKE and record[-1][:2] == ("shown", "awake")
    assert "the device is gone" in caplog.text


# --- the kernel's backlight, on a fake sysfs tree ------------------------------------------


def backlight(root: Path, name: str, brightness: int, bl_power: bool = True) -> Path:
    device = root / name
    device.mkdir(parents=True)
    (device / "brightness").write_text(f"{brightness}\n")
    (device / "max_brightness").write_text("255\n")
    if bl_power:
        (device / "bl_power").write_text("0\n")
    return device


def test_the_backlight_powers_down_and_up_through_bl_power(tmp_path):
    device = backlight(tmp_path, "rpi_backlight", 200)
    light = Backlight(tmp_path)
    light.off()
    assert (device / "bl_power").read_text() == "4"
    assert (device / "brightness").read_text().strip() == "200"
    light.on()
    assert (device / "bl_power").read_text() == "0"
    assert (device / "brightness").read_text().strip() == "200"


def test_a_backlight_without_bl_power_is_dimmed_to_nothing_and_given_back(tmp_path):
    device = backlight(tmp_path, "11-0045", 180, bl_power=False)
    light = Backlight(tmp_path)
    light.off()
    assert (device / "brightness").read_text() == "0"
    light.on()
    assert (device / "brightness").read_text() == "180"


def test_a_screen_starts_with_its_panel_lit_whatever_the_last_one_left(tmp_path):
    # A screen stopped while asleep: bl_power down on one, brightness 0 on the other.
    down = backlight(tmp_path, "rpi_backlight", 200)
    (down / "bl_power").write_text("4")
    dark = backlight(tmp_path / "other", "11-0045", 0, bl_power=False)
    Switch.choose("backlight", Where(driver="kmsdrm", backlight_root=tmp_path))
    Switch.choose("backlight", Where(driver="kmsdrm", backlight_root=tmp_path / "other"))
    assert (down / "bl_power").read_text() == "0"
    assert (down / "brightness").read_text().strip() == "200"
    assert (dark / "brightness").read_text() == "255"


def test_a_screen_that_ends_asleep_leaves_its_panel_lit(tmp_path):
    device = backlight(tmp_path / "sys", "rpi_backlight", 200, bl_power=False)
    clock, feed = Clock(), QueueFeed()
    feed.views.append(as_view(load("lobby_6")))
    screen = Follower(feed, FrameSink(tmp_path / "frames", (640, 400), "wall"), "wall",
                      animate=False, sleep_settings=SETTINGS, clock=clock,
                      panel=Switch(Backlight(tmp_path / "sys")))
    turns = iter(range(3))

    def stop():
        clock.now += 61
        if next(turns, None) is None:
            assert (device / "brightness").read_text() == "0"  # asleep, dark
            return True
        return False

    screen.run(stop)
    assert screen.looks == sleep.BLANK
    assert (device / "brightness").read_text() == "200"


def test_a_backlight_gone_is_said_and_the_screen_draws_black(tmp_path, caplog):
    device = backlight(tmp_path, "rpi_backlight", 200)
    switch = Switch(Backlight(tmp_path))
    shutil.rmtree(device)
    switch.off()
    assert not switch.is_off and switch.name == "none"
    assert "rpi_backlight" in caplog.text and "drawn black" in caplog.text


def test_a_backlight_that_cannot_be_written_says_what_to_do(tmp_path):
    device = backlight(tmp_path, "rpi_backlight", 200)
    (device / "bl_power").unlink()
    (device / "bl_power").mkdir()  # unwritable even for root
    with pytest.raises(PanelError, match=r"bl_power.*docs/install\.md"):
        Backlight(tmp_path).off()


def test_a_blank_that_fails_half_way_lights_again_what_it_switched_off(tmp_path, caplog):
    # Two backlights, the second one unwritable: the first must not stay dark.
    first = backlight(tmp_path, "a-panel", 200)
    second = backlight(tmp_path, "b-panel", 200)
    (second / "bl_power").unlink()
    (second / "bl_power").mkdir()
    switch = Switch(Backlight(tmp_path))
    switch.off()
    assert not switch.is_off and switch.name == "none"
    assert (first / "bl_power").read_text() == "0"
    assert "drawn black" in caplog.text


def test_auto_leaves_backlights_alone_with_two_screens_and_says_why(tmp_path, caplog):
    backlight(tmp_path, "a-panel", 200)
    backlight(tmp_path, "b-panel", 200)
    chosen = Switch.choose("auto", Where(driver="offscreen", backlight_root=tmp_path,
                                         screens=2))
    assert chosen.name == "none"
    assert "switch together" in caplog.text


def test_auto_takes_the_backlight_of_the_only_panel(tmp_path):
    backlight(tmp_path, "rpi_backlight", 200)
    chosen = Switch.choose("auto", Where(driver="offscreen", backlight_root=tmp_path))
    assert chosen.name == "backlight"
    # Two screens: the backlight may be the other one's, so auto leaves it alone.
    two = Switch.choose("auto", Where(driver="offscreen", screens=2, backlight_root=tmp_path))
    assert two.name == "none"


def test_auto_with_nothing_to_switch_draws_black_and_says_why_once(tmp_path, caplog):
    chosen = Switch.choose("auto", Where(driver="offscreen", backlight_root=tmp_path / "no"))
    assert chosen.name == "none"
    [said] = [r.getMessage() for r in caplog.records]
    assert "not kmsdrm" in said and "no backlight device" in said


# --- X11 DPMS -------------------------------------------------------------------------------


@pytest.fixture
def xvfb():
    if shutil.which("Xvfb") is None or shutil.which("xset") is None:
        pytest.skip("Xvfb or xset is not installed (Debian: xvfb, x11-xserver-utils)")
    read, write = os.pipe()
    # -noreset: the server stays as it is when its last client goes (each `xset` is one),
    # not starting over while the next one connects.
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp",
                               "-noreset", "+extension", "DPMS"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as fp:
        number = fp.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def monitor(display: str) -> str:
    said = subprocess.run(["xset", "-display", display, "q"], capture_output=True, text=True,
                          check=True).stdout
    return next((line.strip() for line in said.splitlines() if "Monitor is" in line), said)


def test_x11_dpms_switches_the_monitor_off_and_on(xvfb):
    try:
        dpms = X11Dpms(xvfb)
    except PanelError as err:
        pytest.skip(f"this Xvfb cannot show DPMS ({err})")
    dpms.off()
    assert monitor(xvfb) == "Monitor is Off"
    dpms.on()
    assert monitor(xvfb) == "Monitor is On"


def test_an_x_server_without_dpms_leaves_the_screen_drawing_black(xvfb, caplog,
                                                                  monkeypatch):
    said = subprocess.run(["xset", "-display", xvfb, "q"], capture_output=True, text=True,
                          check=True).stdout
    if "does not have the DPMS" not in said:
        pytest.skip("this Xvfb has DPMS")
    monkeypatch.setenv("DISPLAY", xvfb)
    chosen = Switch.choose("auto", Where(driver="x11"))
    assert chosen.name == "none" and "no DPMS extension" in caplog.text


def test_x11_dpms_commands():
    said = []

    def run(argv):
        said.append(list(argv))
        return "DPMS (Energy Star):\n  Standby: 600\n  DPMS is Enabled\n  Monitor is On\n"

    dpms = X11Dpms(":5", run=run)
    dpms.off()
    dpms.on()
    assert said[1:] == [["xset", "-display", ":5", "dpms", "force", "off"],
                        ["xset", "-display", ":5", "dpms", "force", "on"]]


def test_an_x_server_away_is_said():
    with pytest.raises(PanelError, match="xset"):
        X11Dpms(":987654", run=panel.run_command if shutil.which("xset") else _no_xset)


def _no_xset(argv):
    raise PanelError("xset is not installed")


def test_cec_tells_the_tv_to_stand_by_and_to_show_this_input():
    said = []
    tv = Cec(Path("/dev/cec1"), run=lambda argv: said.append(list(argv)) or "")
    tv.off()
    tv.on()
    assert said == [["cec-ctl", "-d", "/dev/cec1", "--playback", "--to", "0", "--standby"],
                    ["cec-ctl", "-d", "/dev/cec1", "--playback", "--to", "0",
                     "--image-view-on"]]


# --- DRM/KMS DPMS ----------------------------------------------------------------------------

# sizeof and offsetof of each structure in the kernel's include/uapi/drm/drm_mode.h.
KERNEL_LAYOUT = {
    "drm_mode_card_res": (panel.CardRes, 64, {
        "fb_id_ptr": 0, "crtc_id_ptr": 8, "connector_id_ptr": 16, "encoder_id_ptr": 24,
        "count_fbs": 32, "count_crtcs": 36, "count_connectors": 40, "count_encoders": 44,
        "min_width": 48, "max_width": 52, "min_height": 56, "max_height": 60}),
    "drm_mode_get_connector": (panel.GetConnector, 80, {
        "encoders_ptr": 0, "modes_ptr": 8, "props_ptr": 16, "prop_values_ptr": 24,
        "count_modes": 32, "count_props": 36, "count_encoders": 40, "encoder_id": 44,
        "connector_id": 48, "connector_type": 52, "connector_type_id": 56,
        "connection": 60, "mm_width": 64, "mm_height": 68, "subpixel": 72, "pad": 76}),
    "drm_mode_modeinfo": (panel.ModeInfo, 68, {
        "clock": 0, "hdisplay": 4, "vdisplay": 14, "vrefresh": 24, "flags": 28,
        "type": 32, "name": 36}),
    "drm_mode_get_property": (panel.GetProperty, 64, {
        "values_ptr": 0, "enum_blob_ptr": 8, "prop_id": 16, "flags": 20, "name": 24,
        "count_values": 56, "count_enum_blobs": 60}),
    "drm_mode_obj_get_properties": (panel.ObjGetProperties, 32, {
        "props_ptr": 0, "prop_values_ptr": 8, "count_props": 16, "obj_id": 20,
        "obj_type": 24}),
    "drm_mode_obj_set_property": (panel.ObjSetProperty, 24, {
        "value": 0, "prop_id": 8, "obj_id": 12, "obj_type": 16}),
}
# The ioctl numbers of drm.h on a 64-bit Linux (x86-64, arm64), as `printf("%#lx")` shows.
KERNEL_IOCTLS = {
    "DRM_IOCTL_MODE_GETRESOURCES": 0xC04064A0,
    "DRM_IOCTL_MODE_GETCONNECTOR": 0xC05064A7,
    "DRM_IOCTL_MODE_GETPROPERTY": 0xC04064AA,
    "DRM_IOCTL_MODE_OBJ_GETPROPERTIES": 0xC02064B9,
    "DRM_IOCTL_MODE_OBJ_SETPROPERTY": 0xC01864BA,
}


@pytest.mark.parametrize("name", sorted(KERNEL_LAYOUT))
def test_the_drm_structures_are_laid_out_as_the_kernel_header(name):
    struct, size, offsets = KERNEL_LAYOUT[name]
    assert ctypes.sizeof(struct) == size
    for field, offset in offsets.items():
        assert getattr(struct, field).offset == offset, field


def test_the_drm_ioctl_numbers_are_the_kernel_headers():
    for name, number in KERNEL_IOCTLS.items():
        assert getattr(panel, name) == number, name


def _header() -> Path | None:
    for folder in ("/usr/include/libdrm", "/usr/include/drm"):
        if (Path(folder) / "drm_mode.h").exists():
            return Path(folder)
    return None


def test_the_drm_layout_matches_the_installed_header_compiled(tmp_path):
    """What a C compiler makes of the header on this machine, field by field."""
    folder = _header()
    if folder is None or shutil.which("cc") is None:
        pytest.skip("no C compiler or no drm_mode.h (Debian: libdrm-dev)")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "drm.h"',
             '#include "drm_mode.h"', "int main(void) {"]
    for name, (_struct, _size, offsets) in KERNEL_LAYOUT.items():
        lines.append(f'printf("{name} %zu\\n", sizeof(struct {name}));')
        for field in offsets:
            lines.append(f'printf("{name}.{field} %zu\\n", offsetof(struct {name}, {field}));')
    for name in KERNEL_IOCTLS:
        lines.append(f'printf("{name} %lu\\n", (unsigned long){name});')
    lines.append("return 0; }")
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines))
    subprocess.run(["cc", "-I", str(folder), "-o", str(tmp_path / "layout"), str(source)],
                   check=True)
    compiled = dict(line.split() for line in subprocess.run(
        [str(tmp_path / "layout")], capture_output=True, text=True, check=True
    ).stdout.splitlines())
    for name, (struct, _size, offsets) in KERNEL_LAYOUT.items():
        assert int(compiled[name]) == ctypes.sizeof(struct), name
        for field in offsets:
            assert int(compiled[f"{name}.{field}"]) == getattr(struct, field).offset
    for name in KERNEL_IOCTLS:
        assert int(compiled[name]) == getattr(panel, name), name


class FakeCard:
    """A DRM device as its ioctls answer: connectors, their properties, DPMS values."""

    def __init__(self, connectors, refuse_set=False):
        # connector id -> (type, connected, {property id: value})
        self.connectors = connectors
        self.names = {1: b"EDID", 2: b"DPMS", 5: b"CRTC_ID"}
        self.refuse_set = refuse_set
        self.modes = {}  # connector id -> how many modes it reports, if not the usual

    def __call__(self, fd, request, arg):
        assert fd == 7
        if request == panel.DRM_IOCTL_MODE_GETRESOURCES:
            ids = list(self.connectors)
            if arg.count_connectors >= len(ids):
                (ctypes.c_uint32 * len(ids)).from_address(arg.connector_id_ptr)[:] = ids
            arg.count_connectors = len(ids)
        elif request == panel.DRM_IOCTL_MODE_GETCONNECTOR:
            assert arg.count_modes >= 1, "a count of 0 modes would probe the screen"
            kind, connected, _props = self.connectors[arg.connector_id]
            arg.connector_type, arg.connection = kind, 1 if connected else 2
            arg.count_modes = self.modes.get(arg.connector_id, 3 if connected else 0)
        elif request == panel.DRM_IOCTL_MODE_OBJ_GETPROPERTIES:
            assert arg.obj_type == panel.DRM_MODE_OBJECT_CONNECTOR
            props = self.connectors[arg.obj_id][2]
            if arg.count_props >= len(props):
                ids = (ctypes.c_uint32 * len(props)).from_address(arg.props_ptr)
                values = (ctypes.c_uint64 * len(props)).from_address(arg.prop_values_ptr)
                ids[:], values[:] = list(props), list(props.values())
            arg.count_props = len(props)
        elif request == panel.DRM_IOCTL_MODE_GETPROPERTY:
            arg.name = self.names[arg.prop_id]
        elif request == panel.DRM_IOCTL_MODE_OBJ_SETPROPERTY:
            if self.refuse_set:
                raise PermissionError(13, "Permission denied")
            assert arg.obj_type == panel.DRM_MODE_OBJECT_CONNECTOR
            self.connectors[arg.obj_id][2][arg.prop_id] = arg.value
        else:
            raise OSError(25, "Inappropriate ioctl for device")


def card():
    # An HDMI connector with nothing plugged in, then two connected screens.
    return FakeCard({31: (11, False, {1: 0, 2: 0}), 32: (11, True, {1: 0, 2: 0, 5: 9}),
                     40: (16, True, {2: 0})})


def test_drm_dpms_switches_the_connector_of_its_screen():
    device = card()
    dpms = DrmDpms(screen=1, ioctl=device, fds=lambda: iter([7]))
    assert dpms.connector.id == 40 and dpms.is_panel
    dpms.off()
    assert device.connectors[40][2][2] == panel.DRM_MODE_DPMS_OFF
    assert device.connectors[32][2][2] == panel.DRM_MODE_DPMS_ON  # the other screen's
    dpms.on()
    assert device.connectors[40][2][2] == panel.DRM_MODE_DPMS_ON


def test_drm_counts_the_screens_as_sdl_does():
    # A connector that says it is connected but has no mode to show is no screen to SDL.
    device = card()
    device.modes[32] = 0
    dpms = DrmDpms(screen=0, ioctl=device, fds=lambda: iter([7]))
    assert dpms.connector.id == 40


def test_drm_without_the_screen_or_the_device_says_why():
    with pytest.raises(PanelError, match="no connected screen 2"):
        DrmDpms(screen=2, ioctl=card(), fds=lambda: iter([7]))
    with pytest.raises(PanelError, match="not kmsdrm"):
        DrmDpms(screen=0, ioctl=card(), fds=lambda: iter([]))


def test_drm_refused_at_run_time_falls_back_to_black(caplog):
    device = FakeCard({32: (11, True, {2: 0})}, refuse_set=True)
    switch = Switch(DrmDpms(ioctl=device, fds=lambda: iter([7])))
    switch.off()
    assert switch.name == "none" and "Permission denied" in caplog.text


def test_a_device_that_is_no_drm_card_refuses_the_ioctls_gently():
    # The real ioctl, structures and request numbers, on a device that takes none.
    with open("/dev/null", "rb") as null:
        with pytest.raises(PanelError, match="refused a request"):
            panel.DrmCard(null.fileno()).connectors()
        with pytest.raises(PanelError, match="descriptor"):
            DrmDpms(fds=lambda: iter([null.fileno()]))


def test_the_drm_device_sdl_opened_is_found_among_this_process_descriptors(tmp_path):
    (tmp_path / "3").symlink_to("/dev/dri/card1")
    (tmp_path / "4").symlink_to("/dev/null")
    (tmp_path / "12").symlink_to("/dev/dri/renderD128")
    assert list(drm_fds(tmp_path)) == [3]


# --- the setting -----------------------------------------------------------------------------


def test_the_panel_setting_is_checked():
    assert sleep_from({}).panel == "auto"
    for kind in panel.PANELS:
        assert sleep_from({"display": {"sleep": {"panel": kind}}}).panel == kind
    with pytest.raises(TableFileError, match=r"display\.sleep\.panel must be one of auto"):
        sleep_from({"display": {"sleep": {"panel": "dpms"}}})


def test_check_config_names_a_wrong_panel(tmp_path, capsys):
    from firmware_py.cli import main

    config = tmp_path / "table.toml"
    example = Path(__file__).resolve().parents[2] / "firmware_py" / "configs" / "sim.toml"
    config.write_text(example.read_text().replace(
        "\n[", '\n[display.sleep]\npanel = "hdmi"\n\n[', 1))
    assert main(["check-config", str(config)]) != 0
    said = capsys.readouterr()
    assert "display.sleep.panel: must be one of auto" in said.out + said.err


def test_a_switch_that_was_never_off_is_not_switched_on():
    record = []
    switch = Switch(RecordingPanel(record))
    switch.on()
    assert record == []
    assert isinstance(Switch(BlackOnly()).panel, BlackOnly)


def test_a_screen_stopped_by_systemd_ends_cleanly(tmp_path):
    """systemd stops a screen with SIGTERM: it ends as on Esc (status 0), so a panel it
    switched off is lit again on the way out."""
    import signal
    import socket
    import sys

    path = tmp_path / "view.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen(1)
        server.settimeout(120)
        screen = subprocess.Popen(
            [sys.executable, "-m", "firmware_py.cli", "display", "--view", "wall",
             "--frames", str(tmp_path / "frames"), "--socket", str(path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            connection, _ = server.accept()  # the screen follows the table
            with connection:
                screen.send_signal(signal.SIGTERM)
                _, err = screen.communicate(timeout=120)
                assert screen.returncode == 0, err
                assert "Traceback" not in err
        finally:
            if screen.poll() is None:
                screen.kill()
                screen.wait()


def test_sigterm_is_taken_at_the_loops_next_turn_not_where_it_lands():
    """The handler raises nothing: an exception raised wherever the signal lands could be
    inside pygame's C code reading a font through Python, which prints a traceback and
    goes on (seen when `roundhouse sim` ends its other screen)."""
    import os
    import signal

    from display.client import _ending_on_sigterm

    with _ending_on_sigterm() as terminated:
        assert not terminated.is_set()
        os.kill(os.getpid(), signal.SIGTERM)  # handled here, before the next line runs
        assert terminated.is_set()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
