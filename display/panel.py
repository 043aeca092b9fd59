"""Switching a screen's panel off while it sleeps, and on again when it wakes.

A blanked screen draws black (display.sleep); where the screen can be told to, its panel
is also switched off, so a table left for the night neither glows nor wears its panel.
`[display.sleep] panel` says how:

- ``drm``: the connector's DPMS property through the DRM device SDL's kmsdrm driver
  opened in this very process (it holds DRM master, which setting a property needs;
  pygame tells nothing of that device, so its descriptor is found in /proc/self/fd).
- ``backlight``: the kernel's backlight devices (/sys/class/backlight/*): ``bl_power``
  where the driver has it, else ``brightness`` set to 0 and given back on waking (the
  official Raspberry Pi touchscreens).
- ``x11``: the X server's DPMS (``xset dpms force off|on``), for a screen on a desktop.
- ``cec``: a TV on HDMI told to stand by and to show this input again (``cec-ctl``).
- ``none``: black only.
- ``auto`` (the default): ``x11`` on an X11 desktop, ``drm`` under kmsdrm, else the
  backlight of the one panel there is; where none of them works the screen draws black
  and says once why.

A panel that fails while the table runs (no permission, the device gone) is never the
end of the screen: it says so once, in the journal, and from then on draws black.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import logging
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from display import DisplayError
from roundhouse.tablefile import PANELS

log = logging.getLogger("roundhouse.display.panel")

BACKLIGHT_ROOT = Path("/sys/class/backlight")
COMMAND_TIMEOUT_S = 5.0


class PanelError(DisplayError):
    """A panel that cannot be switched: no such device, no permission, no tool."""


class Panel(Protocol):
    """A way to switch one screen's panel off and on; both raise PanelError."""

    @property
    def name(self) -> str: ...

    def off(self) -> None: ...

    def on(self) -> None: ...


class BlackOnly:
    """No panel to switch: a blank screen is drawn black, and that is all."""

    name = "none"

    def off(self) -> None:
        pass

    def on(self) -> None:
        pass


# --- sysfs backlight ----------------------------------------------------------------------

FB_BLANK_UNBLANK, FB_BLANK_POWERDOWN = 0, 4  # bl_power's values (include/uapi/linux/fb.h)


class Backlight:
    """The backlight devices under `root` (/sys/class/backlight): each one's `bl_power`
    where it has one, else its brightness, which waking gives back."""

    name = "backlight"

    def __init__(self, root: Path = BACKLIGHT_ROOT) -> None:
        self.root = root
        self.devices = sorted(p for p in _entries(root) if (p / "brightness").exists())
        if not self.devices:
            raise PanelError(f"no backlight device in {root}")
        self._brightness: dict[Path, str] = {}

    def off(self) -> None:
        for device in self.devices:
            level = _read(device / "brightness")
            if level != "0":
                self._brightness[device] = level
            if (device / "bl_power").exists():
                _write(device / "bl_power", str(FB_BLANK_POWERDOWN))
            else:
                _write(device / "brightness", "0")

    def on(self) -> None:
        for device in self.devices:
            if (device / "bl_power").exists():
                _write(device / "bl_power", str(FB_BLANK_UNBLANK))
            level = self._brightness.pop(device, None)
            now = _read(device / "brightness")
            if level is None and now == "0" and (device / "max_brightness").exists():
                # Left dark by a screen that ended asleep: this one starts lit.
                level = _read(device / "max_brightness")
            if level is not None and now != level:
                _write(device / "brightness", level)


def _entries(root: Path) -> list[Path]:
    try:
        return list(root.iterdir())
    except OSError:
        return []


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError as err:
        raise PanelError(f"cannot read {path}: {err.strerror}") from None


def _write(path: Path, value: str) -> None:
    try:
        with path.open("w") as fp:
            fp.write(value)
    except OSError as err:
        raise PanelError(
            f"cannot write {path}: {err.strerror} (the screens' user needs write access: "
            "the backlight rule of docs/install.md)") from None


# --- commands: X11 DPMS, HDMI-CEC ---------------------------------------------------------

Runner = Callable[[Sequence[str]], str]


def run_command(argv: Sequence[str]) -> str:
    """Run a short command and return what it printed; PanelError when it fails."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True,
                              timeout=COMMAND_TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise PanelError(f"{argv[0]} is not installed") from None
    except (OSError, subprocess.TimeoutExpired) as err:
        raise PanelError(f"{argv[0]} did not run: {err}") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise PanelError(f"`{' '.join(argv)}` failed: {said[-1] if said else done.returncode}")
    return done.stdout


class X11Dpms:
    """The X server's DPMS, through `xset` on the display `display` ($DISPLAY)."""

    name = "x11"

    def __init__(self, display: str | None = None, run: Runner = run_command) -> None:
        self.display = display or os.environ.get("DISPLAY", "")
        if not self.display:
            raise PanelError("no X display ($DISPLAY is not set)")
        if run is run_command and shutil.which("xset") is None:
            raise PanelError("xset is not installed (Debian: x11-xserver-utils)")
        self.run = run
        said = self._xset("q")
        if "DPMS" not in said or "does not have the DPMS" in said:
            raise PanelError(f"the X server on {self.display} has no DPMS extension")

    def _xset(self, *args: str) -> str:
        return self.run(["xset", "-display", self.display, *args])

    def off(self) -> None:
        self._xset("dpms", "force", "off")

    def on(self) -> None:
        self._xset("dpms", "force", "on")


class Cec:
    """A TV on HDMI-CEC: standby, and "image view on" to wake it on this input."""

    name = "cec"

    def __init__(self, device: Path = Path("/dev/cec0"), run: Runner = run_command) -> None:
        if run is run_command and shutil.which("cec-ctl") is None:
            raise PanelError("cec-ctl is not installed (Debian: v4l-utils)")
        if run is run_command and not device.exists():
            raise PanelError(f"no CEC device {device}")
        self.device = device
        self.run = run

    def _tell(self, message: str) -> None:
        # --playback: the Pi is a playback device; --to 0: the TV.
        self.run(["cec-ctl", "-d", str(self.device), "--playback", "--to", "0", message])

    def off(self) -> None:
        self._tell("--standby")

    def on(self) -> None:
        self._tell("--image-view-on")


# --- DRM/KMS DPMS --------------------------------------------------------------------------
# The structures and ioctl numbers of the kernel's include/uapi/drm/drm_mode.h and drm.h.


class CardRes(ctypes.Structure):
    """struct drm_mode_card_res."""

    _fields_ = [
        ("fb_id_ptr", ctypes.c_uint64),
        ("crtc_id_ptr", ctypes.c_uint64),
        ("connector_id_ptr", ctypes.c_uint64),
        ("encoder_id_ptr", ctypes.c_uint64),
        ("count_fbs", ctypes.c_uint32),
        ("count_crtcs", ctypes.c_uint32),
        ("count_connectors", ctypes.c_uint32),
        ("count_encoders", ctypes.c_uint32),
        ("min_width", ctypes.c_uint32),
        ("max_width", ctypes.c_uint32),
        ("min_height", ctypes.c_uint32),
        ("max_height", ctypes.c_uint32),
    ]


class GetConnector(ctypes.Structure):
    """struct drm_mode_get_connector."""

    _fields_ = [
        ("encoders_ptr", ctypes.c_uint64),
        ("modes_ptr", ctypes.c_uint64),
        ("props_ptr", ctypes.c_uint64),
        ("prop_values_ptr", ctypes.c_uint64),
        ("count_modes", ctypes.c_uint32),
        ("count_props", ctypes.c_uint32),
        ("count_encoders", ctypes.c_uint32),
        ("encoder_id", ctypes.c_uint32),
        ("connector_id", ctypes.c_uint32),
        ("connector_type", ctypes.c_uint32),
        ("connector_type_id", ctypes.c_uint32),
        ("connection", ctypes.c_uint32),
        ("mm_width", ctypes.c_uint32),
        ("mm_height", ctypes.c_uint32),
        ("subpixel", ctypes.c_uint32),
        ("pad", ctypes.c_uint32),
    ]


DRM_DISPLAY_MODE_LEN = 32
DRM_PROP_NAME_LEN = 32


class ModeInfo(ctypes.Structure):
    """struct drm_mode_modeinfo (only its size matters here)."""

    _fields_ = [
        ("clock", ctypes.c_uint32),
        ("hdisplay", ctypes.c_uint16), ("hsync_start", ctypes.c_uint16),
        ("hsync_end", ctypes.c_uint16), ("htotal", ctypes.c_uint16),
        ("hskew", ctypes.c_uint16),
        ("vdisplay", ctypes.c_uint16), ("vsync_start", ctypes.c_uint16),
        ("vsync_end", ctypes.c_uint16), ("vtotal", ctypes.c_uint16),
        ("vscan", ctypes.c_uint16),
        ("vrefresh", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("type", ctypes.c_uint32),
        ("name", ctypes.c_char * DRM_DISPLAY_MODE_LEN),
    ]


class GetProperty(ctypes.Structure):
    """struct drm_mode_get_property."""

    _fields_ = [
        ("values_ptr", ctypes.c_uint64),
        ("enum_blob_ptr", ctypes.c_uint64),
        ("prop_id", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("name", ctypes.c_char * DRM_PROP_NAME_LEN),
        ("count_values", ctypes.c_uint32),
        ("count_enum_blobs", ctypes.c_uint32),
    ]


class ObjGetProperties(ctypes.Structure):
    """struct drm_mode_obj_get_properties."""

    _fields_ = [
        ("props_ptr", ctypes.c_uint64),
        ("prop_values_ptr", ctypes.c_uint64),
        ("count_props", ctypes.c_uint32),
        ("obj_id", ctypes.c_uint32),
        ("obj_type", ctypes.c_uint32),
    ]


class ObjSetProperty(ctypes.Structure):
    """struct drm_mode_obj_set_property."""

    _fields_ = [
        ("value", ctypes.c_uint64),
        ("prop_id", ctypes.c_uint32),
        ("obj_id", ctypes.c_uint32),
        ("obj_type", ctypes.c_uint32),
    ]


def _iowr(nr: int, struct: type[ctypes.Structure]) -> int:
    """DRM_IOWR(nr, type): _IOC(_IOC_READ|_IOC_WRITE, 'd', nr, sizeof(type)), as the
    generic ioctl encoding (x86, Arm) has it."""
    return (3 << 30) | (ctypes.sizeof(struct) << 16) | (ord("d") << 8) | nr


DRM_IOCTL_MODE_GETRESOURCES = _iowr(0xA0, CardRes)
DRM_IOCTL_MODE_GETCONNECTOR = _iowr(0xA7, GetConnector)
DRM_IOCTL_MODE_GETPROPERTY = _iowr(0xAA, GetProperty)
DRM_IOCTL_MODE_OBJ_GETPROPERTIES = _iowr(0xB9, ObjGetProperties)
DRM_IOCTL_MODE_OBJ_SETPROPERTY = _iowr(0xBA, ObjSetProperty)
DRM_MODE_OBJECT_CONNECTOR = 0xC0C0C0C0
DRM_MODE_CONNECTED = 1
DRM_MODE_DPMS_ON, DRM_MODE_DPMS_OFF = 0, 3
# Connector types of a panel that has a backlight of its own: DPI, DSI.
PANEL_CONNECTORS = frozenset({17, 16})

Ioctl = Callable[[int, int, ctypes.Structure], None]


def real_ioctl(fd: int, request: int, arg: ctypes.Structure) -> None:
    fcntl.ioctl(fd, request, arg, True)


def _u32s(count: int) -> ctypes.Array[ctypes.c_uint32]:
    return (ctypes.c_uint32 * max(1, count))()


def _u64s(count: int) -> ctypes.Array[ctypes.c_uint64]:
    return (ctypes.c_uint64 * max(1, count))()


@dataclass(frozen=True)
class Connector:
    id: int
    type: int
    connected: bool
    modes: int

    @property
    def screen(self) -> bool:
        """A connector SDL makes a screen of: connected, with modes to show."""
        return self.connected and self.modes > 0


class DrmCard:
    """What this program asks of one open DRM device (`fd`)."""

    def __init__(self, fd: int, ioctl: Ioctl = real_ioctl) -> None:
        self.fd = fd
        self.ioctl = ioctl

    def _call(self, request: int, arg: ctypes.Structure) -> None:
        try:
            self.ioctl(self.fd, request, arg)
        except OSError as err:
            raise PanelError(f"the DRM device refused a request: {err.strerror}") from None

    def connectors(self) -> list[Connector]:
        """The card's connectors in its own order (the order SDL numbers screens in)."""
        res = CardRes()
        self._call(DRM_IOCTL_MODE_GETRESOURCES, res)
        for _ in range(3):  # a connector may appear between the two calls: ask again
            count = res.count_connectors
            ids = _u32s(count)
            res = CardRes(connector_id_ptr=ctypes.addressof(ids), count_connectors=count)
            self._call(DRM_IOCTL_MODE_GETRESOURCES, res)
            if res.count_connectors <= count:
                break
        found = []
        for connector_id in list(ids)[:res.count_connectors]:
            # One mode asked for, so the kernel does not probe the screen again.
            mode = ModeInfo()
            info = GetConnector(connector_id=connector_id, count_modes=1,
                                modes_ptr=ctypes.addressof(mode))
            self._call(DRM_IOCTL_MODE_GETCONNECTOR, info)
            found.append(Connector(connector_id, info.connector_type,
                                   info.connection == DRM_MODE_CONNECTED, info.count_modes))
        return found

    def property_id(self, connector_id: int, name: bytes) -> int | None:
        """The id of the connector's property called `name`, or None."""
        props = ObjGetProperties(obj_id=connector_id, obj_type=DRM_MODE_OBJECT_CONNECTOR)
        self._call(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, props)
        count = props.count_props
        ids, values = _u32s(count), _u64s(count)
        props = ObjGetProperties(props_ptr=ctypes.addressof(ids),
                                 prop_values_ptr=ctypes.addressof(values), count_props=count,
                                 obj_id=connector_id, obj_type=DRM_MODE_OBJECT_CONNECTOR)
        self._call(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, props)
        for prop_id in list(ids)[:min(count, props.count_props)]:
            prop = GetProperty(prop_id=prop_id)
            self._call(DRM_IOCTL_MODE_GETPROPERTY, prop)
            if prop.name == name:
                return int(prop_id)
        return None

    def set_property(self, connector_id: int, prop_id: int, value: int) -> None:
        self._call(DRM_IOCTL_MODE_OBJ_SETPROPERTY, ObjSetProperty(
            value=value, prop_id=prop_id, obj_id=connector_id,
            obj_type=DRM_MODE_OBJECT_CONNECTOR))


def drm_fds(proc_fd: Path = Path("/proc/self/fd")) -> Iterator[int]:
    """The descriptors this process holds open on a DRM card (/dev/dri/card*)."""
    for entry in sorted(_entries(proc_fd), key=lambda p: int(p.name) if p.name.isdigit()
                        else -1):
        with contextlib.suppress(OSError, ValueError):
            if os.readlink(entry).startswith("/dev/dri/card"):
                yield int(entry.name)


class DrmDpms:
    """The DPMS property of the connector of screen `screen` (SDL's numbering: the
    card's connected connectors in order), set on the DRM device SDL opened."""

    name = "drm"

    def __init__(self, screen: int = 0, ioctl: Ioctl = real_ioctl,
                 fds: Callable[[], Iterator[int]] = drm_fds) -> None:
        self.screen = screen
        reasons = []
        for fd in fds():
            card = DrmCard(fd, ioctl)
            try:
                connected = [c for c in card.connectors() if c.screen]
                if screen >= len(connected):
                    raise PanelError(f"no connected screen {screen} on it")
                connector = connected[screen]
                prop = card.property_id(connector.id, b"DPMS")
                if prop is None:
                    raise PanelError(f"its connector {connector.id} has no DPMS property")
            except PanelError as err:
                reasons.append(f"descriptor {fd}: {err}")
                continue
            self.card, self.connector, self.prop = card, connector, prop
            return
        raise PanelError("; ".join(reasons) or "no DRM device is open in this screen "
                         "(SDL_VIDEODRIVER is not kmsdrm)")

    @property
    def is_panel(self) -> bool:
        """A DSI or DPI panel (with a backlight of its own), not a monitor or TV."""
        return self.connector.type in PANEL_CONNECTORS

    def off(self) -> None:
        self.card.set_property(self.connector.id, self.prop, DRM_MODE_DPMS_OFF)

    def on(self) -> None:
        self.card.set_property(self.connector.id, self.prop, DRM_MODE_DPMS_ON)


# --- choosing, and failing gently -----------------------------------------------------------


@dataclass
class Where:
    """What a screen knows of where it runs, for choosing its panel."""

    driver: str  # SDL's video driver: "kmsdrm", "x11", "wayland", ...
    screen: int = 0  # which connected screen (--screen)
    screens: int = 1  # how many SDL sees
    backlight_root: Path = BACKLIGHT_ROOT


def open_panel(kind: str, where: Where) -> Panel:
    """The panel `kind` names, opened; PanelError says why it cannot be."""
    if kind == "none":
        return BlackOnly()
    if kind == "drm":
        return DrmDpms(where.screen)
    if kind == "backlight":
        return Backlight(where.backlight_root)
    if kind == "x11":
        return X11Dpms()
    if kind == "cec":
        return Cec()
    if kind == "auto":
        return _auto(where)
    raise PanelError(f"unknown panel {kind!r} (expected one of {', '.join(PANELS)})")


def _auto(where: Where) -> Panel:
    if where.driver == "x11":
        return X11Dpms()
    reasons = []
    drm: DrmDpms | None = None
    if where.driver == "kmsdrm":
        try:
            drm = DrmDpms(where.screen)
        except PanelError as err:
            reasons.append(f"drm: {err}")
        else:
            return drm
    else:
        reasons.append(f"drm: SDL's video driver is {where.driver!r}, not kmsdrm")
    # A backlight belongs to one panel: it is this screen's only when this screen is
    # that panel, or the only screen there is.
    try:
        light = Backlight(where.backlight_root)
    except PanelError as err:
        reasons.append(f"backlight: {err}")
    else:
        if len(light.devices) == 1 and where.screens == 1:
            return light
        # `backlight` switches every backlight there is: with two screens, each screen's
        # blank would darken the other's panel too.
        reasons.append(f"backlight: {len(light.devices)} backlight devices and "
                       f"{where.screens} screens, which panel = \"backlight\" would switch "
                       "together; with one screen on this Pi set it, else use drm or cec")
    raise PanelError("; ".join(reasons))


class Switch:
    """The panel a sleeping screen switches, never fatal: the first failure is said once
    and the screen draws black from then on."""

    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.is_off = False

    @classmethod
    def choose(cls, kind: str, where: Where) -> Switch:
        try:
            panel = open_panel(kind, where)
        except PanelError as err:
            log.warning("the screen's panel stays on while it sleeps (panel = %r): %s; "
                        "a blank screen is drawn black", kind, err)
            panel = BlackOnly()
        else:
            if panel.name != "none":
                log.info("a blank screen switches its panel off through %s", panel.name)
        # A screen stopped while asleep may have left its panel off: it starts lit. A
        # panel that cannot be lit now (a TV away) is tried again when the screen sleeps.
        try:
            panel.on()
        except (PanelError, OSError) as err:
            log.warning("the screen's panel (%s) could not be switched on: %s",
                        panel.name, err)
        return cls(panel)

    @property
    def name(self) -> str:
        return self.panel.name

    def off(self) -> None:
        if self.is_off:
            return
        if self._switch(self.panel.off, "off"):
            self.is_off = True

    def on(self) -> None:
        if not self.is_off:
            return
        self.is_off = False
        self._switch(self.panel.on, "on")

    def _switch(self, how: Callable[[], None], which: str) -> bool:
        try:
            how()
        except (PanelError, OSError) as err:
            log.warning("the screen's panel (%s) could not be switched %s: %s; from now on "
                        "a blank screen is drawn black", self.panel.name, which, err)
            if which == "off":
                # Part of it may be off already (the first of two backlights): lit again,
                # or the screen that now only draws black would wake to a dark panel.
                with contextlib.suppress(PanelError, OSError):
                    self.panel.on()
            self.panel = BlackOnly()
            return False
        return True
