"""Naming the layout of a reader's raw bytes, whatever protocol it was opened with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.rfid import pn532, rdm6300
from hardware.rfid.fake import em18_frame, id12_frame, line_frame
from hardware.rfid.sniff import looks_like

UID = "67003B51C6"


@pytest.mark.parametrize(("data", "protocol", "words"), [
    (rdm6300.encode(UID) * 3, "rdm6300", "RDM6300 frames"),
    (id12_frame(UID) * 3, "rdm6300", "ID-12LA/ID-20LA"),
    (line_frame("04A22B3C4D5E6F") * 3, "lines", "a hex UID per line"),
    (b"+04:A2:2B:3C\r\n", "lines", "a hex UID per line"),
    (pn532.ACK + pn532.frame(pn532.CHIP, b"\x15"), "pn532", "PN532 frames"),
    (em18_frame(UID) * 3 + em18_frame(UID)[:5], "em18", "EM-18 output"),
    (bytes(range(0x80, 0xC0)), None, "64 bytes in no layout this table reads"),
])
def test_the_layout_of_each_reader_is_named(data, protocol, words):
    layout = looks_like(data)
    assert layout is not None and layout.protocol == protocol
    assert words in layout.description


def test_nothing_heard_is_no_layout():
    assert looks_like(b"") is None


def test_twelve_hex_digits_with_a_wrong_xor_are_no_em18_output():
    layout = looks_like(b"67003B51C6CA" * 2)
    assert layout is not None and "EM-18" not in layout.description


@given(st.binary(max_size=600))
def test_any_bytes_are_named_or_not_without_failing(data):
    layout = looks_like(data)
    assert layout is None or layout.description
