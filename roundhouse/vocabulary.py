"""The words of the game that every part of the table uses the same way.

- A train (and the pad it is played on) is named by its owner's seat number, or by
  `MEXICAN`.
- A tile is written `A-B` with ASCII digits, pips 0 to `MAX_PIPS` (`tile_pips`).
- A table seats `SEATS.start` to `SEATS.stop - 1` players.
- The defaults of the buttons and readers that more than one part needs.
"""

from __future__ import annotations

from roundhouse.errors import RoundhouseError

MEXICAN = "mexican"
MEXICAN_NAME = "Mexican train"  # its `name` in the view (the screens say it in words)
# A train as the rules and the records name it: a seat number, or MEXICAN.
TrainKey = int | str

SEATS = range(2, 15)
MAX_PIPS = 18
SET_SIZES = (6, 9, 12, 15, 18)
DEFAULT_LANGUAGE = "en"

# A button's level must hold this long before a press or a release counts.
BOUNCE_MS = 20
# Holding DRAW starts a game or the next round; holding PASS takes back a move.
DRAW_HOLD_S = 2.0
PASS_HOLD_S = 1.5
# A tag is gone from a pad once its reader has not read it for this long.
REMOVAL_MS = 300


class TileTextError(RoundhouseError, ValueError):
    """Text that does not write a domino."""


def is_number(text: str) -> bool:
    """Plain ASCII digits: `str.isdigit` also takes "١٢" (read as 12) and "²"."""
    return text.isascii() and text.isdigit()


def digits_hint(text: str) -> str:
    """What to add to a refusal of a tile written in other digits than 0-9 ("١٢-٣", "²-1")."""
    return " with the digits 0-9" if any(not c.isascii() and c.isdigit() for c in text) else ""


def tile_pips(text: str) -> tuple[int, int]:
    """`"10-5"` -> `(10, 5)`, in the order written (on a train the first number touches
    the tile before it); `TileTextError` for anything that is not a tile."""
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(is_number(p) for p in parts):
        raise TileTextError(f'a tile is written like "5-3"{digits_hint(text)}')
    if any(len(p) > 3 for p in parts) or any(int(p) > MAX_PIPS for p in parts):
        raise TileTextError(f"pips run from 0 to {MAX_PIPS}")
    return int(parts[0]), int(parts[1])


def is_tile_text(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        tile_pips(text)
    except TileTextError:
        return False
    return True


def pad_seat(pad: str) -> int | None:
    """The seat whose train a pad name belongs to ("3" -> 3); None for the Mexican
    train's pad or a name that is no seat."""
    return int(pad) if is_number(pad) and int(pad) < SEATS.stop else None
