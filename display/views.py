"""Reading and checking public views (docs/view.md) before anything draws them.

A view comes from outside the screen process (the service's socket, or a file given on
the command line), so a malformed one is reported as a `ViewError` naming the field,
never as a traceback from deep inside the drawing code.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from display import DisplayError

PHASES = ("lobby", "deal", "play", "round_over", "game_over")
SCHEMA_VERSION = 1

View = dict[str, Any]


class ViewError(DisplayError):
    """A public view that does not follow docs/view.md."""


@lru_cache(maxsize=512)
def _tile(text: str) -> tuple[int, int] | None:
    parts = text.split("-")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        a, b = int(parts[0]), int(parts[1])
        if a <= 18 and b <= 18:
            return a, b
    return None


def parse_tile(text: object, where: str) -> tuple[int, int]:
    """`"10-5"` -> `(10, 5)`, in the order written (the first number touches the hub side)."""
    tile = _tile(text) if isinstance(text, str) else None
    if tile is not None:
        return tile
    raise ViewError(f"{where}: {text!r} is not a tile like \"10-5\" (numbers 0 to 18)")


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise ViewError(f"{where}: the field {key!r} is missing")
    value = obj[key]
    # bool is an int in Python; a count of True tiles is still a mistake.
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ViewError(f"{where}.{key}: expected a number, got {value!r}")
    if not isinstance(value, kind):
        raise ViewError(f"{where}.{key}: unexpected value {value!r}")
    return value


def _check_train(train: Any, where: str) -> None:
    if not isinstance(train, dict):
        raise ViewError(f"{where}: expected an object")
    for i, tile in enumerate(_need(train, "tiles", list, where)):
        parse_tile(tile, f"{where}.tiles[{i}]")
    for i, branch in enumerate(train.get("branches") or []):
        _check_train(branch, f"{where}.branches[{i}]")


def check_view(view: Any) -> View:
    """Return `view` unchanged when the screens can draw it, else raise `ViewError`."""
    if not isinstance(view, dict):
        raise ViewError("a view must be a JSON object")
    version = view.get("version")
    if version != SCHEMA_VERSION:
        raise ViewError(
            f"view version {version!r} is not supported (this screen draws version "
            f"{SCHEMA_VERSION}); update roundhouse on this machine"
        )
    if view.get("phase") not in PHASES:
        raise ViewError(f"view.phase: {view.get('phase')!r} is not one of {', '.join(PHASES)}")
    _need(view, "seq", int, "view")
    seats = _need(view, "seats", list, "view")
    if not 2 <= len(seats) <= 14:
        raise ViewError(f"view.seats: {len(seats)} seats; a table has 2 to 14")
    for i, seat in enumerate(seats):
        where = f"view.seats[{i}]"
        if not isinstance(seat, dict):
            raise ViewError(f"{where}: expected an object")
        _need(seat, "name", str, where)
        _need(seat, "hand", int, where)
    turn = view.get("turn")
    if turn is not None and not (isinstance(turn, int) and 0 <= turn < len(seats)):
        raise ViewError(f"view.turn: {turn!r} is not a seat of this table")
    for i, train in enumerate(_need(view, "trains", list, "view")):
        _check_train(train, f"view.trains[{i}]")
        _need(train, "id", str, f"view.trains[{i}]")
    for i, pending in enumerate(view.get("pending_doubles") or []):
        where = f"view.pending_doubles[{i}]"
        if not isinstance(pending, dict):
            raise ViewError(f"{where}: expected an object")
        parse_tile(pending.get("tile"), f"{where}.tile")
        _need(pending, "order", int, where)
    last = view.get("last_play")
    if last is not None:
        if not isinstance(last, dict):
            raise ViewError("view.last_play: expected an object or null")
        parse_tile(last.get("tile"), "view.last_play.tile")
    if view.get("engine") is not None:
        parse_tile(view["engine"], "view.engine")
    for i, engine in enumerate(view.get("round_engines") or []):
        parse_tile(engine, f"view.round_engines[{i}]")
    for i, row in enumerate(view.get("scores") or []):
        if not isinstance(row, list) or len(row) != len(seats):
            raise ViewError(f"view.scores[{i}]: expected one number per seat ({len(seats)})")
    totals = view.get("totals")
    if totals is not None and (not isinstance(totals, list) or len(totals) != len(seats)):
        raise ViewError(f"view.totals: expected one number per seat ({len(seats)})")
    ranking = view.get("ranking")
    if ranking is not None and (
        not isinstance(ranking, list)
        or any(not isinstance(s, int) or not 0 <= s < len(seats) for s in ranking)
    ):
        raise ViewError("view.ranking: expected seats of this table, best first")
    return view


def parse_view(text: str | bytes, source: str) -> View:
    """Parse one JSON view; `source` names where it came from in the error message."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ViewError(f"{source}: not a JSON view ({exc})") from None
    try:
        return check_view(obj)
    except ViewError as exc:
        raise ViewError(f"{source}: {exc}") from None


def load_view(path: Path) -> View:
    """Read a view saved as a JSON file (`roundhouse display --from FILE`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ViewError(f"cannot read the view file {path}: {exc.strerror}") from None
    return parse_view(text, str(path))
