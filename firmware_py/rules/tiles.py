"""Dominoes: every tile up to double-18 exists once, so equality is identity."""

from __future__ import annotations

from typing import Any

from firmware_py.rules.errors import BadTile, quoted

MAX_PIPS = 18
SET_SIZES = (6, 9, 12, 15, 18)


class Tile:
    """An unordered pair of pip counts, stored high first; `Tile(3, 5) is Tile(5, 3)`.

    Every tile exists once, so equality and hashing are by identity (fast, and right).
    """

    __slots__ = ("high", "index", "is_double", "low", "pips")
    high: int
    low: int
    index: int
    pips: int
    is_double: bool

    def __new__(cls, a: int, b: int) -> Tile:
        hi, lo = (a, b) if a >= b else (b, a)
        if lo < 0 or hi > MAX_PIPS:
            raise BadTile(f"{a}-{b} is not a domino: pips run from 0 to {MAX_PIPS}.")
        return _ALL[hi * (hi + 1) // 2 + lo]

    @classmethod
    def _make(cls, hi: int, lo: int) -> Tile:
        tile = object.__new__(cls)
        # A field a line, not a loop over (name, value) pairs: compiled by mypyc, such a
        # loop would store the bool `is_double` as the int 0 or 1.
        setattr_ = object.__setattr__
        setattr_(tile, "high", hi)
        setattr_(tile, "low", lo)
        setattr_(tile, "index", hi * (hi + 1) // 2 + lo)
        setattr_(tile, "pips", hi + lo)
        setattr_(tile, "is_double", hi == lo)
        return tile

    @staticmethod
    def parse(text: str) -> Tile:
        """`"5-3"` or `"3-5"` -> the 5-3 tile; anything else raises `BadTile`."""
        if not isinstance(text, str):
            raise BadTile(f'a tile is written like "5-3", got {quoted(text)}')
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(is_number(p) for p in parts):
            raise BadTile(f'a tile is written like "5-3"{digits_hint(text)}, got {quoted(text)}')
        if any(len(p) > 3 for p in parts):
            raise BadTile(f"{quoted(text)} is not a domino: pips run from 0 to {MAX_PIPS}.")
        return Tile(int(parts[0]), int(parts[1]))

    def other(self, n: int) -> int:
        """The number at the other end from `n` (which must be on the tile)."""
        return self.low if n == self.high else self.high

    def matches(self, n: int) -> bool:
        return n == self.high or n == self.low

    def score(self, double_blank: int) -> int:
        """What the tile costs left in a hand."""
        return double_blank if self.index == 0 and double_blank else self.pips

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("tiles are immutable")

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tile, (self.high, self.low))

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


def is_number(text: str) -> bool:
    """Plain ASCII digits: `str.isdigit` also takes "١٢" (read as 12) and "²"."""
    return text.isascii() and text.isdigit()


def digits_hint(text: str) -> str:
    """What to add to a refusal of a tile written in other digits than 0-9 ("١٢-٣", "²-1")."""
    return " with the digits 0-9" if any(not c.isascii() and c.isdigit() for c in text) else ""


_ALL: list[Tile] = [Tile._make(hi, lo) for hi in range(MAX_PIPS + 1) for lo in range(hi + 1)]


def set_tiles(size: int) -> tuple[Tile, ...]:
    """Every tile of a double-`size` set, in index order."""
    return tuple(_ALL[: (size + 1) * (size + 2) // 2])


class Laid:
    """A tile as it lies on a train: `first` touches the tile before it."""

    __slots__ = ("first", "second", "tile")
    tile: Tile
    first: int
    second: int

    def __new__(cls, tile: Tile, first: int) -> Laid:
        if not tile.matches(first):
            raise BadTile(f"{tile} has no {first} to lay against the train.")
        return _LAID[tile.index * 2 + (first != tile.high)]

    @classmethod
    def _make(cls, tile: Tile, first: int) -> Laid:
        laid = object.__new__(cls)
        object.__setattr__(laid, "tile", tile)
        object.__setattr__(laid, "first", first)
        object.__setattr__(laid, "second", tile.other(first))
        return laid

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("laid tiles are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Laid, (self.tile, self.first))

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"

    def __repr__(self) -> str:
        return f"Laid({self.tile!r}, {self.first})"


_LAID: list[Laid] = [Laid._make(t, end) for t in _ALL for end in (t.high, t.low)]


def laid_against(tile: Tile, end: int) -> Laid:
    """`Laid(tile, end)` for an `end` known to be on the tile, without the check."""
    return _LAID[tile.index * 2 + (end != tile.high)]
