"""The public view (docs/view.md): everything the screens draw, as typed values.

The table service builds a `View` after every change and sends `view.to_json()` as one
line; a screen reads it back with `View.from_json`, which checks every field and raises
`ViewError` naming the one that is wrong. Both sides use these classes, so what the
service writes and what a screen reads are defined once. Hands never appear here: only
their sizes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar, cast

from roundhouse.declension import GENDERS, Forms, Name
from roundhouse.errors import RoundhouseError
from roundhouse.message import Message, MessageError
from roundhouse.value import Value, frozen
from roundhouse.vocabulary import MAX_PIPS, SEATS, TileTextError, tile_pips

VIEW_VERSION = 1
# The rule options the screens show beside the preset's name.
KEY_OPTIONS = ("engine", "first_turn", "double_follow", "chicken_foot", "double_blank")


class ViewError(RoundhouseError):
    """A public view that does not follow docs/view.md."""


class Phase(StrEnum):
    """What the table is doing, as the screens tell it apart."""

    LOBBY = "lobby"
    DEAL = "deal"  # choosing who leads, the deal, or the hunt for the engine
    PLAY = "play"
    ROUND_OVER = "round_over"  # the reveal of leftover tiles, or the round's summary
    GAME_OVER = "game_over"


class Stage(StrEnum):
    """Where the table is in its flow (docs/flow.md): finer than the phase."""

    LOBBY = "lobby"  # no game: seats join and leave
    LEAD = "lead"  # who leads the next round (the first seat to press DRAW)
    DEAL = "deal"  # tracked hands: every seat taps the tiles dealt to it
    HUNT = "hunt"  # open hands under `engine: holder`: finding who holds the engine
    PLAY = "play"
    REVEAL = "reveal"  # open hands: each seat taps its leftover tiles, then PASS
    SUMMARY = "summary"  # the round's scores, until someone holds DRAW
    OVER = "over"  # the final ranking


# What a view without a stage (from an older service) was doing, by its phase.
_STAGE_OF_PHASE = {
    Phase.LOBBY: Stage.LOBBY, Phase.DEAL: Stage.DEAL, Phase.PLAY: Stage.PLAY,
    Phase.ROUND_OVER: Stage.SUMMARY, Phase.GAME_OVER: Stage.OVER,
}


@frozen
class SeatView(Value):
    """One seat as the screens show it: who sits there, their hand's size, marker and score."""

    seat: int
    name: str
    language: str
    joined: bool
    hand: int
    one_tile: bool
    marker_expected: bool
    marker_sensed: bool | None  # None: the table cannot sense that seat's marker
    total: int
    # How a language with cases says the name, where the configuration says
    # (docs/languages.md): written in the view only when given.
    gender: str | None = None
    forms: Forms = ()


@frozen
class Branch(Value):
    """A chicken-foot branch: its tiles outward, and the branches laid from it."""

    tiles: tuple[str, ...]
    branches: tuple[Branch, ...] = ()


@frozen
class TrainView(Value):
    """One train: its owner (None: the Mexican train), its tiles and whether it is open."""

    id: str  # the owner's seat as text, or "mexican"
    owner: int | None
    name: str
    tiles: tuple[str, ...]  # outward from the hub, each as laid
    open: bool
    branches: tuple[Branch, ...] = ()


@frozen
class PendingDouble(Value):
    """A double laid that must still be satisfied, and in which order."""

    train: str
    tile: str
    order: int  # from 1: the order they must be satisfied in


@frozen
class Notice(Value):
    """A rejection or an alert: what was said, for the seat it concerns (None: the table)."""

    seat: int | None
    message: Message


@frozen
class ReaderView(Value):
    """One pad's reader: online or not, and why not."""

    pad: str
    online: bool
    reason: str | None


@frozen
class LastPlay(Value):
    """The last tile played: by whom, on which train, as it lies."""

    seat: int
    train: str
    tile: str  # as it lies on its train


Option = str | int | bool | None


@frozen
class View(Value):
    """One public view; `seq` is set by the publisher and grows by one per view."""

    language: str
    wall_language: str
    phase: Phase
    stage: Stage
    preset: str
    options: tuple[tuple[str, Option], ...]
    hand_mode: str
    set: int
    round: int
    rounds: int
    engine: str | None
    engine_laid: bool
    turn: int | None
    seats: tuple[SeatView, ...]
    trains: tuple[TrainView, ...]
    pending_doubles: tuple[PendingDouble, ...]
    boneyard: int
    prompt: Message | None
    rejection: Notice | None
    alerts: tuple[Notice, ...]
    scores: tuple[tuple[int, ...], ...]
    round_engines: tuple[str, ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...] | None
    readers: tuple[ReaderView, ...]
    last_play: LastPlay | None
    revealed: tuple[int | None, ...] | None
    went_out: int | None
    version: int = VIEW_VERSION
    seq: int = 0

    def option(self, name: str) -> Option:
        return dict(self.options).get(name)

    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    def people(self) -> tuple[Name, ...]:
        """The seats' names with their grammar, as `roundhouse.render` takes them; a seat
        the configuration names nobody ("Seat 3") is said "seat N" in each language."""
        return tuple(
            Name("", number=i + 1) if seat.name == f"Seat {i + 1}"
            else Name(seat.name, seat.gender, seat.forms)
            for i, seat in enumerate(self.seats))

    def train(self, train_id: str) -> TrainView | None:
        return next((t for t in self.trains if t.id == train_id), None)

    def to_json(self) -> dict[str, Any]:
        out = {name: _to_json(getattr(self, name)) for name in _VIEW_FIELDS}
        out["options"] = dict(self.options)
        return out

    def to_line(self) -> bytes:
        return (json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)
                + "\n").encode()

    @classmethod
    def from_json(cls, obj: object) -> View:
        """A view from its JSON form; `ViewError` names the first field that is wrong."""
        return _read_view(_Reader(obj, "view"))


_VIEW_FIELDS = tuple(f.name for f in fields(View))


def parse_view(text: str | bytes, source: str) -> View:
    """One JSON view; `source` names where it came from in the error message."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ViewError(f"{source}: not a JSON view ({exc})") from None
    try:
        return View.from_json(obj)
    except ViewError as exc:
        raise ViewError(f"{source}: {exc}") from None


# --- writing ---------------------------------------------------------------------------


def _to_json(value: object) -> object:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return [_to_json(v) for v in cast("tuple[object, ...]", value)]
    names = _FIELDS.get(kind)
    if names is not None:
        out = {name: _to_json(getattr(value, name)) for name in names}
        if kind is SeatView:
            seat = cast("SeatView", value)
            if seat.gender is not None:
                out["gender"] = seat.gender
            if seat.forms:
                out["forms"] = {lang: dict(cased) for lang, cased in seat.forms}
        return out
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Phase | Stage):
        return value.value
    return value


# A seat's grammar is written only where the configuration gives it.
_WHEN_GIVEN = frozenset({(SeatView, "gender"), (SeatView, "forms")})
# Looked up by exact type: a view is written several times a second, and
# `dataclasses.fields` and a chain of isinstance checks were most of its cost.
_PLAIN = frozenset({str, int, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(f.name for f in fields(kind) if (kind, f.name) not in _WHEN_GIVEN)
    for kind in (SeatView, Branch, TrainView, PendingDouble, Notice, ReaderView, LastPlay)
}


# --- reading ---------------------------------------------------------------------------

T = TypeVar("T")


class _Reader:
    """A JSON object being read, with where it is for the error messages."""

    def __init__(self, obj: object, where: str) -> None:
        if not isinstance(obj, Mapping):
            raise ViewError(f"{where}: expected an object")
        self.obj: Mapping[str, object] = obj
        self.where = where

    def at(self, key: str) -> str:
        return f"{self.where}.{key}"

    def value(self, key: str, *, optional: bool = False) -> object:
        if key not in self.obj:
            if optional:
                return None
            raise ViewError(f"{self.where}: the field {key!r} is missing")
        return self.obj[key]

    def number(self, key: str, *, optional: bool = False, low: int = 0,
            high: int | None = None) -> int | None:
        value = self.value(key, optional=optional)
        if value is None and optional:
            return None
        return _int(value, self.at(key), low, high)

    def need_number(self, key: str, low: int = 0, high: int | None = None) -> int:
        return _int(self.value(key), self.at(key), low, high)

    def text(self, key: str, *, optional: bool = False) -> str | None:
        value = self.value(key, optional=optional)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise ViewError(f"{self.at(key)}: expected text, got {value!r}")
        return value

    def need_text(self, key: str) -> str:
        text = self.text(key)
        assert text is not None
        return text

    def flag(self, key: str, *, optional: bool = False) -> bool | None:
        value = self.value(key, optional=optional)
        if value is None and optional:
            return None
        if not isinstance(value, bool):
            raise ViewError(f"{self.at(key)}: expected true or false, got {value!r}")
        return value

    def need_flag(self, key: str) -> bool:
        return bool(self.flag(key))

    def items(self, key: str, item: Callable[[object, str], T], *,
             optional: bool = False) -> tuple[T, ...]:
        value = self.value(key, optional=optional)
        if value is None and optional:
            return ()
        if not isinstance(value, list):
            raise ViewError(f"{self.at(key)}: expected a list, got {value!r}")
        return tuple(item(v, f"{self.at(key)}[{i}]") for i, v in enumerate(value))

    def tile(self, key: str, *, optional: bool = False) -> str | None:
        value = self.value(key, optional=optional)
        if value is None and optional:
            return None
        return _tile(value, self.at(key))

    def message(self, key: str) -> Message | None:
        value = self.value(key, optional=True)
        return None if value is None else _message(value, self.at(key))


def _int(value: object, where: str, low: int = 0, high: int | None = None) -> int:
    # bool is an int in Python; a count of True tiles is still a mistake.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ViewError(f"{where}: expected a number, got {value!r}")
    if value < low or (high is not None and value > high):
        raise ViewError(f"{where}: {value} is out of range")
    return value


def _any_int(value: object, where: str) -> int:
    return _int(value, where, low=-(2**63))


def _tile(value: object, where: str) -> str:
    if isinstance(value, str):
        try:
            tile_pips(value)
        except TileTextError:
            pass
        else:
            return value
    raise ViewError(f'{where}: {value!r} is not a tile like "10-5" (numbers 0 to {MAX_PIPS})')


def _message(value: object, where: str) -> Message:
    try:
        return Message.from_json(value, where)
    except MessageError as err:
        raise ViewError(str(err)) from None


def _notice(value: object, where: str) -> Notice:
    r = _Reader(value, where)
    return Notice(r.number("seat", optional=True), _message(r.value("message"), r.at("message")))


def _seat(value: object, where: str) -> SeatView:
    r = _Reader(value, where)
    return SeatView(
        seat=r.need_number("seat"),
        name=r.need_text("name"),
        language=r.text("language", optional=True) or "en",
        joined=bool(r.flag("joined", optional=True)),
        hand=r.need_number("hand"),
        one_tile=bool(r.flag("one_tile", optional=True)),
        marker_expected=bool(r.flag("marker_expected", optional=True)),
        marker_sensed=r.flag("marker_sensed", optional=True),
        total=r.number("total", optional=True, low=-(2**63)) or 0,
        gender=_gender(r.value("gender", optional=True), r.at("gender")),
        forms=_forms(r.value("forms", optional=True), r.at("forms")),
    )


def _gender(value: object, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value in GENDERS:
        return value
    raise ViewError(f"{where}: expected {' or '.join(GENDERS)}, got {value!r}")


def _forms(value: object, where: str) -> Forms:
    """`{"el": {"genitive": "του Νίκου"}}`; cases this screen does not know are kept (a
    service of another version), and simply never asked for."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise ViewError(f"{where}: expected an object of languages")
    out = []
    for lang, cased in value.items():
        if not isinstance(cased, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in cased.items()):
            raise ViewError(f"{where}.{lang}: expected an object of cases and their forms")
        out.append((str(lang), tuple((str(k), str(v)) for k, v in cased.items())))
    return tuple(out)


def _branch(value: object, where: str) -> Branch:
    r = _Reader(value, where)
    return Branch(r.items("tiles", _tile), r.items("branches", _branch, optional=True))


def _train(value: object, where: str) -> TrainView:
    r = _Reader(value, where)
    return TrainView(
        id=r.need_text("id"),
        owner=r.number("owner", optional=True),
        name=r.text("name", optional=True) or "",
        tiles=r.items("tiles", _tile),
        open=bool(r.flag("open", optional=True)),
        branches=r.items("branches", _branch, optional=True),
    )


def _pending(value: object, where: str) -> PendingDouble:
    r = _Reader(value, where)
    return PendingDouble(r.need_text("train"), _tile(r.value("tile"), r.at("tile")),
                         r.need_number("order"))


def _reader(value: object, where: str) -> ReaderView:
    r = _Reader(value, where)
    return ReaderView(r.need_text("pad"), r.need_flag("online"), r.text("reason", optional=True))


def _last_play(value: object, where: str) -> LastPlay:
    r = _Reader(value, where)
    return LastPlay(r.need_number("seat"), r.need_text("train"),
                    _tile(r.value("tile"), r.at("tile")))


def _option(value: object, where: str) -> Option:
    if value is None or isinstance(value, str | int | bool):
        return value
    raise ViewError(f"{where}: unexpected value {value!r}")


def _per_seat(values: Sequence[T], seats: int, where: str) -> tuple[T, ...]:
    if len(values) != seats:
        raise ViewError(f"{where}: expected one number per seat ({seats})")
    return tuple(values)


def _read_view(r: _Reader) -> View:
    version = r.value("version", optional=True)
    if version != VIEW_VERSION:
        raise ViewError(
            f"view version {version!r} is not supported (this screen draws version "
            f"{VIEW_VERSION}); update roundhouse on this machine"
        )
    phase_text = r.value("phase", optional=True)
    try:
        phase = Phase(str(phase_text))
    except ValueError:
        raise ViewError(f"view.phase: {phase_text!r} is not one of "
                        f"{', '.join(p.value for p in Phase)}") from None
    stage_text = r.value("stage", optional=True)
    try:
        stage = _STAGE_OF_PHASE[phase] if stage_text is None else Stage(str(stage_text))
    except ValueError:
        raise ViewError(f"view.stage: {stage_text!r} is not one of "
                        f"{', '.join(s.value for s in Stage)}") from None
    seq = r.need_number("seq")
    seats = r.items("seats", _seat)
    if len(seats) not in SEATS:
        raise ViewError(f"view.seats: {len(seats)} seats; a table has "
                        f"{SEATS.start} to {SEATS.stop - 1}")
    n = len(seats)

    def seat_of(value: object, where: str) -> int:
        return _int(value, where, 0, n - 1)

    turn = r.value("turn", optional=True)
    if turn is not None and not (isinstance(turn, int) and not isinstance(turn, bool)
                                 and 0 <= turn < n):
        raise ViewError(f"view.turn: {turn!r} is not a seat of this table")
    rows = r.items("scores", lambda v, w: _per_seat(_list_of(v, w, _any_int), n, w),
                  optional=True)
    totals_raw = r.value("totals", optional=True)
    totals = (_per_seat(_list_of(totals_raw, "view.totals", _any_int), n, "view.totals")
              if totals_raw is not None else (0,) * n)
    ranking_raw = r.value("ranking", optional=True)
    ranking = None
    if ranking_raw is not None:
        if not isinstance(ranking_raw, list):
            raise ViewError("view.ranking: expected seats of this table, best first")
        try:
            ranking = tuple(seat_of(s, "view.ranking") for s in ranking_raw)
        except ViewError:
            raise ViewError("view.ranking: expected seats of this table, best first") from None
    revealed_raw = r.value("revealed", optional=True)
    revealed = None
    if revealed_raw is not None:
        revealed = _per_seat(_list_of(
            revealed_raw, "view.revealed",
            lambda v, w: None if v is None else _any_int(v, w)), n, "view.revealed")
    options_raw = r.value("options", optional=True) or {}
    if not isinstance(options_raw, Mapping):
        raise ViewError("view.options: expected an object")
    rejection_raw = r.value("rejection", optional=True)
    last_raw = r.value("last_play", optional=True)
    went_out = r.value("went_out", optional=True)
    return View(
        version=VIEW_VERSION,
        seq=seq,
        language=r.text("language", optional=True) or "en",
        wall_language=r.text("wall_language", optional=True) or "en",
        phase=phase,
        stage=stage,
        preset=r.text("preset", optional=True) or "",
        options=tuple((str(k), _option(v, f"view.options.{k}")) for k, v in options_raw.items()),
        hand_mode=r.text("hand_mode", optional=True) or "open",
        set=r.number("set", optional=True) or 0,
        round=r.number("round", optional=True) or 0,
        rounds=r.number("rounds", optional=True) or 0,
        engine=r.tile("engine", optional=True),
        engine_laid=bool(r.flag("engine_laid", optional=True)),
        turn=turn,
        seats=seats,
        trains=r.items("trains", _train),
        pending_doubles=r.items("pending_doubles", _pending, optional=True),
        boneyard=r.number("boneyard", optional=True) or 0,
        prompt=r.message("prompt"),
        rejection=None if rejection_raw is None else _notice(rejection_raw, "view.rejection"),
        alerts=r.items("alerts", _notice, optional=True),
        scores=rows,
        round_engines=r.items("round_engines", _tile, optional=True),
        totals=totals,
        ranking=ranking,
        readers=r.items("readers", _reader, optional=True),
        last_play=None if last_raw is None else _last_play(last_raw, "view.last_play"),
        revealed=revealed,
        went_out=None if went_out is None else seat_of(went_out, "view.went_out"),
    )


def _list_of(value: object, where: str, item: Callable[[object, str], T]) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise ViewError(f"{where}: expected a list, got {value!r}")
    return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(value))


__all__ = [
    "KEY_OPTIONS",
    "VIEW_VERSION",
    "Branch",
    "LastPlay",
    "Notice",
    "PendingDouble",
    "Phase",
    "ReaderView",
    "SeatView",
    "Stage",
    "TrainView",
    "View",
    "ViewError",
    "load_view",
    "parse_view",
]


def load_view(path: Path) -> View:
    """A view saved as a JSON file (`roundhouse display --from FILE`)."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise ViewError(f"cannot read the view file {path}: {exc.strerror}") from None
    return parse_view(text, str(path))
