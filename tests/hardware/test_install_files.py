"""The wiring guide and the udev rules say what the code does."""

import re
from pathlib import Path

from hardware.buttons import DEFAULT_SEAT_PINS

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
# BCM -> physical pin on the 40-pin header.
HEADER = {4: 7, 5: 29, 6: 31, 12: 32, 13: 33, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38,
          21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37}


def test_the_wiring_guide_shows_the_default_pin_map():
    text = (HARDWARE / "WIRING.md").read_text()
    rows = re.findall(r"^\| (\d) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
    table = {int(s): ((int(d), int(dh)), (int(p), int(ph))) for s, d, dh, p, ph in rows}
    assert {seat: (d[0], p[0]) for seat, (d, p) in table.items()} == DEFAULT_SEAT_PINS
    for draw, pass_ in table.values():
        assert HEADER[draw[0]] == draw[1]
        assert HEADER[pass_[0]] == pass_[1]


def test_the_udev_rules_name_every_pad_by_a_port_of_its_own():
    readers = (HARDWARE / "udev" / "99-roundhouse-readers.rules").read_text()
    assert 'GROUP="dialout"' in readers
    assert readers.count('LABEL="roundhouse_end"') == 1
    for board in ("pi4", "pi5"):
        text = (HARDWARE / "udev" / f"pads-{board}.rules").read_text()
        pads = dict(re.findall(r'ENV\{ID_PATH\}=="([^"]+)", SYMLINK\+="roundhouse/pad-(\w+)"',
                               text))
        assert sorted(pads.values()) == sorted([*map(str, range(8)), "mexican"])
        assert len(pads) == 9  # nine distinct ports
