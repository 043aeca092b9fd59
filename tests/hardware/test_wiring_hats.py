"""WIRING.md names every button of the pin map that an audio HAT's I2S pins take."""

import re
from pathlib import Path

from hardware.buttons import DEFAULT_SEAT_PINS

WIRING = Path(__file__).resolve().parents[2] / "hardware" / "WIRING.md"
# I2S on the 40-pin header (the Raspberry Pi's PCM interface, ALT0 of BCM 18-21).
I2S = {18: "PCM_CLK", 19: "PCM_FS", 20: "PCM_DIN", 21: "PCM_DOUT"}
HEADER = {18: 12, 19: 35, 20: 38, 21: 40}


def test_the_audio_hat_table_lists_exactly_the_buttons_on_i2s_pins():
    section = WIRING.read_text().split("## Audio HATs collide with the pin map", 1)[1]
    rows = re.findall(r"^\| (\d+) \| (\d+) \| (\w+) [^|]*\| seat (\d) (DRAW|PASS) \|$",
                      section.split("\n## ", 1)[0], re.M)
    buttons = {pin: (seat, button) for seat, pins in DEFAULT_SEAT_PINS.items()
               for pin, button in zip(pins, ("DRAW", "PASS"), strict=True)}
    assert {int(r[0]) for r in rows} == set(I2S) & set(buttons)
    for bcm, header, signal, seat, button in rows:
        assert HEADER[int(bcm)] == int(header)
        assert I2S[int(bcm)] == signal
        assert buttons[int(bcm)] == (int(seat), button)
