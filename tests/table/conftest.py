"""A table controller on a real journal, fed with hardware events directly."""

from __future__ import annotations

import dataclasses
import math
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from firmware_py.bots import Bot, make_bot
from firmware_py.config import Config, ReaderConfig, SeatConfig, example_config, load_config
from firmware_py.journal import Journal
from firmware_py.table import Table
from hardware.events import (
    Button,
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ReaderOnline,
    TagPlaced,
    TagRemoved,
)
from roundhouse.message import Message
from roundhouse.render import render

NAMES = ("Ana", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal")

# The real disk faults of the service tests (`faults.tiny_disk`) serve these tests too.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))


def spoken(view: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The view with its messages said as the screens say them: the prompt, the
    rejection's `text` and each alert's text, with the seats' names."""
    names = [seat["name"] for seat in view["seats"]]
    out = dict(view)
    prompt = view["prompt"]
    out["prompt"] = render(Message.from_json(prompt), lang, names) if prompt else None
    rejection = view["rejection"]
    if rejection is not None:
        out["rejection"] = {"seat": rejection["seat"],
                            "text": render(Message.from_json(rejection["message"]), lang, names)}
    out["alerts"] = [
        render(Message.from_json(alert["message"]), lang, names) for alert in view["alerts"]
    ]
    return out


class Binding(NamedTuple):
    kind: str
    value: str


def lookup(uid: str) -> Binding | None:
    """UIDs of the test set: "T12-5" a tile, "M0" / "Mmexican" a marker, "Cundo" a card,
    "Pfa:Zoë" a player card (Zoë, who reads Persian)."""
    if uid.startswith("T") and "-" in uid:
        return Binding("tile", uid[1:])
    if uid.startswith("M"):
        return Binding("marker", uid[1:])
    if uid.startswith("C"):
        return Binding("card", uid[1:])
    if uid.startswith("P"):
        return Binding("player", uid[1:])
    return None


def make_config(
    tmp_path: Path,
    *,
    seats: int = 4,
    rules: Any = "tournament",
    hand_mode: str = "open",
    names: tuple[str, ...] = NAMES,
    languages: tuple[str, ...] = (),
    language: str = "en",
    wall_language: str | None = None,
    table_language: str | None = None,
    sensing: Collection[str] | None = None,
) -> Config:
    """`sensing`: the pads whose (PN532) readers sense markers, the others' are RDM6300s
    (None: every pad senses markers)."""
    pads = [str(s) for s in range(seats)] + ["mexican"]
    sensing = pads if sensing is None else sensing
    base = load_config(example_config("sim"))
    return dataclasses.replace(
        base,
        seats=tuple(SeatConfig(s, names[s], 0, 0, languages[s] if languages else language)
                    for s in range(seats)),
        language=language,
        display=dataclasses.replace(
            base.display,
            table=dataclasses.replace(base.display.table, language=table_language),
            wall=dataclasses.replace(base.display.wall, language=wall_language),
        ),
        readers=tuple(ReaderConfig(pad, "loop://", "pn532" if pad in sensing else "rdm6300",
                                   markers=pad in sensing) for pad in pads),
        rules=rules,
        presets=("classic", "tournament", "family", "simple", "hub"),
        hand_mode=hand_mode,
        database=tmp_path / "table.db",
        socket=tmp_path / "view.sock",
    )


class Rig:
    """One table, its journal, and the hands of players pressing and tapping."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.journal = Journal(config.database)
        self.table = Table(config, self.journal, lookup)
        self.changes = 0
        self._tapped = -math.inf  # when the last tap was laid

    def restart(self) -> Rig:
        """A new controller on the same journal, as after a power cut."""
        self.journal.close()
        return Rig(self.config)

    def send(self, event: Any) -> bool:
        changed = self.table.handle(event)
        self.changes += changed
        return changed

    def press(self, seat: int, button: Button = Button.DRAW) -> dict[str, Any]:
        self.send(ButtonPressed(seat, button))
        self.send(ButtonReleased(seat, button))
        return spoken(self.table.view().to_json())

    def hold(self, seat: int, button: Button = Button.DRAW) -> dict[str, Any]:
        self.send(ButtonPressed(seat, button))
        self.send(ButtonHeld(seat, button))
        self.send(ButtonReleased(seat, button))
        return spoken(self.table.view().to_json())

    def tap(self, pad: str | int, tile: str) -> dict[str, Any]:
        """A tap of its own: laid a second after the last tap, lifted 0.1 s later."""
        uid = tile if tile[0] in "TMCP" else f"T{tile}"
        at = self._tapped = max(time.monotonic(), self._tapped + 1.0)
        self.send(TagPlaced(str(pad), uid, at))
        self.send(TagRemoved(str(pad), uid, at + 0.1))
        return spoken(self.table.view().to_json())

    def card(self, name: str) -> dict[str, Any]:
        return self.tap("mexican", f"C{name}")

    def readers_online(self) -> None:
        for reader in self.config.readers:
            self.send(ReaderOnline(reader.pad))

    def start(self, *seats: int) -> dict[str, Any]:
        for seat in seats:
            self.press(seat)
        return self.hold(seats[0])

    @property
    def view(self) -> dict[str, Any]:
        return spoken(self.table.view().to_json())

    def entries(self) -> list[dict[str, Any]]:
        opened = self.journal.open_game()
        assert opened is not None
        return opened[2]


@pytest.fixture
def config_factory(tmp_path: Path):
    return lambda **kwargs: make_config(tmp_path, **kwargs)


@pytest.fixture
def random_bot() -> Bot:
    return make_bot("random")


@pytest.fixture
def rig_factory(tmp_path: Path):
    rigs: list[Rig] = []

    def make(**kwargs: Any) -> Rig:
        rig = Rig(make_config(tmp_path, **kwargs))
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.journal.close()
