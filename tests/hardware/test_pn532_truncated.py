"""A PN532 answer cut short (a byte lost on the line) and followed by the next one.

Its declared length then runs into the next frame, and the 8-bit checksum of the
mixture matches one time in 256: without the checks of every length and layout inside
the answer, such frames reported tags nobody laid (0.3% of these cases).
"""

import random

from hardware.rfid import pn532
from hardware.rfid.pn532 import ACK, Pn532, frame, target_data

CASES = 20_000


def ready_chip() -> Pn532:
    chip = Pn532(poll_interval=0.05, response_timeout=0.2)
    chip.start(0.0)
    chip.receive(ACK + frame(pn532.CHIP, b"\x15"), 0.0)
    chip.tick(0.0)
    chip.receive(ACK + frame(pn532.CHIP, b"\x33"), 0.0)
    chip.tick(0.0)
    return chip


def test_an_answer_cut_short_and_followed_by_the_next_one_never_reports_a_false_tag():
    rng = random.Random(20_000)

    def tags() -> list[str]:
        return [rng.randbytes(rng.choice((4, 7, 7, 10))).hex().upper()
                for _ in range(rng.randint(0, 2))]

    false_tags: list[tuple[list[str], list[str], int, list[str]]] = []
    next_read = 0
    for _ in range(CASES):
        first, second = tags(), tags()
        cut_short = frame(pn532.CHIP, b"\x4b" + target_data(first))
        cut_short = cut_short[: rng.randrange(1, len(cut_short) - 1)]
        following = frame(pn532.CHIP, b"\x4b" + target_data(second))
        chip = ready_chip()
        seen = [r.uid for r in chip.receive(ACK + cut_short + ACK + following, 0.01)]
        if any(uid not in first + second for uid in seen):
            false_tags.append((first, second, len(cut_short), seen))
        next_read += seen[-len(second):] == second if second else True
    assert false_tags == []
    # The next answer itself is still read: the checks refuse the mixture, not the line.
    assert next_read >= 0.99 * CASES
