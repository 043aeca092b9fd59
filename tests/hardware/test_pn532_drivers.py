"""Other people's PN532 drivers, unmodified, talk to the fake chip over its pty.

nfcpy's own driver (nfc/clf/pn532.py and pn53x.py) runs as it is: its HSU start-up
(ten zero bytes as wake-up, GetFirmwareVersion, SAMConfiguration, SetSerialBaudRate to
the fastest speed the tty takes), its device set-up (Diagnose line test in an extended
frame, SetParameters, RFConfiguration of every analog item, ReadRegister and
WriteRegister) and its sense of a type A tag. Adafruit's CircuitPython driver
(adafruit_pn532/uart.py, with Blinka standing in for CircuitPython) runs on a pyserial
port as its own examples do on Linux.
"""

from __future__ import annotations

import logging
import time

import pytest
import serial
from nfc.clf import RemoteTarget, transport
from nfc.clf import pn532 as nfcpy_pn532

from hardware.rfid import pn532
from hardware.rfid.fake import FakePn532, PtyCable
from hardware.rfid.pn532 import ACK, Framer, Info

UID = "04A22B3C4D5E6F"


@pytest.fixture
def chip(cable: PtyCable):
    fake = FakePn532(cable)
    yield fake
    fake.close()


def test_nfcpy_s_own_driver_finds_the_fake_chip_senses_a_tag_and_puts_it_to_sleep(
        cable, chip, caplog):

    caplog.set_level(logging.DEBUG, logger="nfc")
    tty = transport.TTY(str(cable.path))
    device = nfcpy_pn532.init(tty)
    try:
        assert device.chipset_name == "PN532v1.6"
        assert device.sense_tta(RemoteTarget("106A")) is None  # an empty pad
        chip.place(UID)
        target = device.sense_tta(RemoteTarget("106A"))
        assert target is not None and bytes(target.sdd_res).hex().upper() == UID
        assert bytes(target.sens_res) == b"\x44\x00"  # as nfcpy orders SENS_RES
    finally:
        device.close()  # SetSerialBaudRate back to 115200, then PowerDown
    # Every command nfcpy sent was one the chip knows: none was refused.
    assert "received error frame" not in caplog.text
    assert {0x00, 0x02, 0x06, 0x08, 0x10, 0x12, 0x14, 0x16, 0x32, 0x4A} <= set(chip.commands)
    assert chip.asleep and chip.baudrate == 115200


def test_adafruit_s_own_driver_wakes_the_fake_reads_a_tag_and_puts_it_to_sleep(cable, chip):
    # adafruit_pn532/uart.py as shipped, on a pyserial port (its examples' way on Linux):
    # the wake-up and SAMConfiguration in __init__, GetFirmwareVersion,
    # InListPassiveTarget for one card, PowerDown, and the wake-up it sends itself after.
    try:
        from adafruit_pn532 import uart as adafruit_uart
    except Exception as err:  # not installed, or Blinka does not know this machine
        pytest.skip(f"Adafruit's PN532 driver cannot be imported here: {err!r}")
    port = serial.serial_for_url(str(cable.path), baudrate=115200, timeout=0.1)
    try:
        driver = adafruit_uart.PN532_UART(port)
        assert driver.firmware_version == (0x32, 0x01, 0x06, 0x07)
        driver.SAM_configuration()
        assert driver.read_passive_target(timeout=0.5) is None  # an empty pad
        chip.place(UID)
        assert bytes(driver.read_passive_target(timeout=1)).hex().upper() == UID
        chip.lift(UID)
        assert driver.read_passive_target(timeout=0.5) is None
        assert driver.power_down()
        assert chip.asleep
        chip.place("11223344")
        assert bytes(driver.read_passive_target(timeout=1)).hex().upper() == "11223344"
        assert not chip.asleep
    finally:
        port.close()
    assert {0x02, 0x14, 0x16, 0x4A} <= set(chip.commands)


def test_the_fake_chip_refuses_what_a_real_one_refuses(cable, chip):
    port = serial.serial_for_url(str(cable.path), baudrate=115200, timeout=0.1)
    framer = Framer()
    try:
        port.write(pn532.WAKEUP)
        got = []
        for params in (bytes([0x03, 0x00]), bytes([0x05, 0x01])):  # MaxTg 3; CfgItem short
            code = 0x4A if params[0] == 0x03 else 0x32
            port.write(pn532.command(code, params))
            deadline = time.monotonic() + 5
            while len(got) < 2 and time.monotonic() < deadline:
                got += framer.feed(port.read(64))
            assert got[-1] == Info(pn532.ERROR_TFI, b"")
            got.clear()
        # At another speed than its own, the chip hears noise and says nothing.
        port.baudrate = 9600
        port.write(pn532.command(0x02, b""))
        time.sleep(0.2)
        assert port.read(64) == b""
    finally:
        port.close()


def test_the_fake_chip_sends_its_ack_and_its_answer_apart(cable, monkeypatch):
    sent: list[tuple[float, bytes]] = []
    write = cable.write
    monkeypatch.setattr(cable, "write", lambda data: sent.append((time.monotonic(), data))
                        or write(data))
    fake = FakePn532(cable)
    port = serial.serial_for_url(str(cable.path), baudrate=115200, timeout=0.1)
    try:
        port.write(pn532.WAKEUP + pn532.command(0x02, b""))
        deadline = time.monotonic() + 5
        while len(sent) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        (acked, ack), (answered, answer) = sent
        assert ack == ACK and answer == pn532.frame(pn532.CHIP, b"\x03\x32\x01\x06\x07")
        # The chip works on the command between the two: a host reads them apart.
        assert answered - acked >= 0.0009
    finally:
        port.close()
        fake.close()


def talk(port: serial.Serial, framer: Framer, data: bytes, count: int,
         timeout: float = 5.0) -> list:
    port.write(data)
    got: list = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        got += framer.feed(port.read(64))
    return got


def test_the_fake_chip_sleeps_until_woken_honours_max_tg_and_reports_and_releases(cable, chip):
    port = serial.serial_for_url(str(cable.path), baudrate=115200, timeout=0.1)
    framer = Framer()
    try:
        # After power-up a command without the wake-up is lost (UM0701-02 6.2.2).
        assert talk(port, framer, pn532.command(0x02, b""), 1, timeout=0.5) == []
        assert talk(port, framer, pn532.WAKEUP + pn532.command(0x02, b""), 2)[1] == Info(
            pn532.CHIP, bytes([0x03, 0x32, 0x01, 0x06, 0x07]))
        chip.place(UID)
        chip.place("04000000000C01")
        # MaxTg 1: one of the two tags; MaxTg 2: both.
        one = talk(port, framer, pn532.command(0x4A, bytes([0x01, 0x00])), 2)[1]
        assert isinstance(one, Info) and one.payload[1] == 1
        two = talk(port, framer, pn532.command(0x4A, bytes([0x02, 0x00])), 2)[1]
        assert isinstance(two, Info) and pn532.parse_targets(two.payload[1:]) == [
            UID, "04000000000C01"]
        # GetGeneralStatus names the two targets; InRelease(0) releases them.
        status = talk(port, framer, pn532.command(0x04, b""), 2)[1]
        assert isinstance(status, Info) and status.payload[1:4] == bytes([0x00, 0x00, 2])
        assert talk(port, framer, pn532.command(0x52, b"\x00"), 2)[1] == Info(
            pn532.CHIP, b"\x53\x00")
        status = talk(port, framer, pn532.command(0x04, b""), 2)[1]
        assert isinstance(status, Info) and status.payload[3] == 0
    finally:
        port.close()
