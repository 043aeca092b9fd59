"""The options the rules read on every move, as one object of plain fields (`Flags`).

`Options` is a frozen dataclass that checks its values' types itself, so it stays a
Python class; compiled by mypyc, this one is a native class, read without a look-up.
"""

from __future__ import annotations

from firmware_py.rules.options import Options


class Flags:
    """What `Options` says, in the form the rules test it on every move."""

    __slots__ = (
        "chicken_foot",
        "dead_double_releases",
        "double_follow_on_double",
        "doubles_per_turn",
        "doubles_reverse",
        "draw_until_playable",
        "drawn_tile_may_play",
        "drawn_tile_must_play",
        "first_turn_draw",
        "first_turn_elsewhere",
        "first_turn_train",
        "last_double_ends_round",
        "must_play",
        "open_double_blocks",
        "readings",
    )

    chicken_foot: bool
    dead_double_releases: bool
    double_follow_on_double: bool  # double_follow: on_double
    doubles_per_turn: int | None
    doubles_reverse: bool  # doubles_order: reverse
    draw_until_playable: bool  # draw: until_playable
    drawn_tile_may_play: bool  # drawn_tile: may_play
    drawn_tile_must_play: bool  # drawn_tile: must_play
    first_turn_draw: bool
    first_turn_elsewhere: bool
    first_turn_train: bool  # first_turn: train
    last_double_ends_round: bool
    must_play: bool
    open_double_blocks: bool
    readings: int

    def __init__(self, o: Options) -> None:
        self.chicken_foot = o.chicken_foot
        self.dead_double_releases = o.dead_double_releases
        self.double_follow_on_double = o.double_follow == "on_double"
        self.doubles_per_turn = o.doubles_per_turn
        self.doubles_reverse = o.doubles_order == "reverse"
        self.draw_until_playable = o.draw == "until_playable"
        self.drawn_tile_may_play = o.drawn_tile == "may_play"
        self.drawn_tile_must_play = o.drawn_tile == "must_play"
        self.first_turn_draw = o.first_turn_draw
        self.first_turn_elsewhere = o.first_turn_elsewhere
        self.first_turn_train = o.first_turn == "train"
        self.last_double_ends_round = o.last_double_ends_round
        self.must_play = o.must_play
        self.open_double_blocks = o.open_double_blocks
        self.readings = o.readings
