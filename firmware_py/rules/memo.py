"""What the rules work out about one position on first use (`Memo`), in a module of its
own: compiled, it is a native class, read and written without a dictionary look-up."""

from __future__ import annotations

from firmware_py.rules.actions import Action, Play
from firmware_py.rules.trains import Target

# How many plays the seat to act has, and where: (targets, bitmask of tiles) pairs.
Playable = tuple[int, tuple[tuple[list[Target], int], ...]]
# A play the legal view built, where it goes and why only there: `apply` lays it unchecked.
Picked = tuple[Play, Target, str]
# Where the seat to act may lay a tile, why only there, and where a double may go.
Targets = tuple[list[Target], str, list[Target]]


class Memo:
    """What the rules work out about one position on first use, shared by its legal views
    and by `apply`. Derived values only, so keeping them changes nothing a caller sees.
    Plain values too: a view refers to its state, and a cycle would leave every state to
    the garbage collector instead of freeing it when the last reference goes.

    A new one knows nothing: each field starts as None (class defaults, so making one
    runs no `__init__` of Python's)."""

    counted: tuple[int, tuple[Action, ...]] | None = None  # how many plays; DRAW, PASS allowed
    picked: Picked | None = None
    targets: Targets | None = None
    plays: list[Play] | None = None
    playable: Playable | None = None

    def forget(self) -> None:
        self.counted = self.picked = self.targets = self.plays = self.playable = None
