"""The rule options and the five presets, each written once (docs/rules.md says what each
option decides and which rule text each preset follows)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_py.rules.errors import BadDeal, BadOptions, quoted
from firmware_py.rules.tiles import SET_SIZES, is_number

# (players, set, tiles per hand); for one player count the first row is the default set.
DealRow = tuple[int, int, int]

TIE_BREAKS = ("zero_rounds", "lowest_round")

_CHOICES: dict[str, tuple[Any, ...]] = {
    "set": (None, *SET_SIZES),
    "engine": ("set_aside", "holder"),
    "starter": ("chosen", "rotate"),
    "first_turn": ("train", "single"),
    "double_follow": ("anywhere", "on_double"),
    "doubles_order": ("played", "reverse"),
    "draw": ("one", "until_playable"),
    "drawn_tile": ("may_play", "must_play"),
    "double_blank": (0, 25, 50),
}
_BOOLS = (
    "first_turn_elsewhere",
    "first_turn_draw",
    "first_turn_out_waits",
    "open_double_blocks",
    "dead_double_releases",
    "chicken_foot",
    "must_play",
    "last_double_ends_round",
    "one_tile_alert",
)


# The version of the rules: it grows whenever a preset or the engine comes to play
# differently. A game is journaled with it and with every option written out, so that
# it replays under the rules it was started with whatever the presets say later.
# Version 1: games journaled by a preset's name alone (EARLIER_PRESETS below). Version 2:
# every option journaled. Version 3: a first turn that satisfies a double and then
# cannot start its train draws (first_turn_draw) and ends with its marker up; without
# must_play a round is blocked only when no seat can lay a tile. The engine follows a
# game's own version (`Options.readings`).
RULES_VERSION = 3


def _rows(players: range, set_size: int, hand: int) -> tuple[DealRow, ...]:
    return tuple((p, set_size, hand) for p in players)


@dataclass(frozen=True)
class Options:
    """One complete rule set; docs/rules.md says what each option decides."""

    deal: tuple[DealRow, ...]
    set: int | None = None
    rounds: int | None = None
    engine: str = "holder"
    starter: str = "chosen"
    first_turn: str = "train"
    first_turn_draw: bool = True
    first_turn_elsewhere: bool = False
    first_turn_out_waits: bool = False
    double_follow: str = "anywhere"
    doubles_per_turn: int | None = None
    doubles_order: str = "played"
    open_double_blocks: bool = True
    dead_double_releases: bool = False
    chicken_foot: bool = False
    draw: str = "one"
    drawn_tile: str = "may_play"
    must_play: bool = True
    last_double_ends_round: bool = True
    double_blank: int = 0
    hand_size: int | None = None
    tie_break: tuple[str, ...] = ()
    one_tile_alert: bool = False
    name: str = "custom"
    # Not an option: the rules version whose readings the engine follows (see
    # RULES_VERSION). Only a game journaled by an earlier version asks for an older one.
    readings: int = RULES_VERSION

    def __post_init__(self) -> None:
        if type(self.readings) is not int or not 1 <= self.readings <= RULES_VERSION:
            raise BadOptions(f"rules version {self.readings!r} is not one of 1 to "
                             f"{RULES_VERSION}", "readings")
        for key, values in _CHOICES.items():
            value = getattr(self, key)
            # (By type too: 12.0 == 12 and False == 0, but neither is a set or a score.)
            if not any(value == v and type(value) is type(v) for v in values):
                raise _bad(key, value)
        for key in _BOOLS:
            value = getattr(self, key)
            if not isinstance(value, bool):
                raise _bad(key, value)
        for key in _COUNTS:
            value = getattr(self, key)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise _bad(key, value)
        if not isinstance(self.tie_break, tuple) or any(
            t not in TIE_BREAKS for t in self.tie_break
        ):
            got = list(self.tie_break) if isinstance(self.tie_break, tuple) else self.tie_break
            raise _bad("tie_break", got)
        for row in self.deal:
            if (
                len(row) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in row)
                or row[0] < 2
                or row[1] not in SET_SIZES
                or row[2] < 1
            ):
                raise _bad("deal", list(row))

    @staticmethod
    def preset(name: str, **overrides: Any) -> Options:
        """A preset, or a house rule: a preset plus overrides."""
        if name not in PRESETS:
            raise BadOptions(f'unknown preset {quoted(name)}; presets are {", ".join(PRESETS)}')
        unknown = set(overrides) - set(OPTION_NAMES)
        if unknown:
            raise BadOptions(
                f"unknown option {quoted(sorted(unknown)[0])}; "
                f"options are {', '.join(OPTION_NAMES)}",
                sorted(unknown)[0],
            )
        return dataclasses.replace(PRESETS[name], **overrides)

    @staticmethod
    def from_json(obj: Any) -> Options:
        """The record's `rules`: a preset name or `{"preset": NAME, OPTION: VALUE, ...}`.
        With every option given (`to_full_json`) the preset is only a name: the rules
        are those options even where no preset of that name exists (any more)."""
        if isinstance(obj, str):
            return Options.preset(obj)
        if not isinstance(obj, Mapping) or not isinstance(obj.get("preset"), str):
            raise BadOptions(
                f'expected a preset name or {{"preset": NAME, OPTION: VALUE}}, got {quoted(obj)}'
            )
        overrides = {k: v for k, v in obj.items() if k != "preset"}
        name = obj["preset"]
        if name not in PRESETS and set(OPTION_NAMES) <= set(overrides):
            # A complete set needs no preset: it is built on any, and keeps its name.
            return dataclasses.replace(Options.from_json({**obj, "preset": "classic"}),
                                       name=name)
        if "tie_break" in overrides:
            if not isinstance(overrides["tie_break"], list):
                raise _bad("tie_break", overrides["tie_break"])
            overrides["tie_break"] = tuple(overrides["tie_break"])
        if "deal" in overrides:
            # A complete set's deal is all of it; otherwise it replaces the preset's rows.
            overrides["deal"] = _deal_from_json(
                obj["preset"], overrides["deal"], merge=not set(OPTION_NAMES) <= set(overrides))
        return Options.preset(obj["preset"], **overrides)

    def to_json(self) -> dict[str, Any]:
        """The inverse of `from_json`: the preset and every option that differs from it."""
        base = PRESETS.get(self.name)
        if base is None:
            base, name = PRESETS["classic"], "classic"
        else:
            name = self.name
        out: dict[str, Any] = {"preset": name}
        for key in OPTION_NAMES:
            value = getattr(self, key)
            if key == "deal":
                # Rows of different player counts may come in any order.
                value = _deal_to_json(value, base.deal)
                if value:
                    out[key] = value
            elif value != getattr(base, key):
                out[key] = list(value) if key == "tie_break" else value
        return out

    def to_full_json(self) -> dict[str, Any]:
        """Every option written out, with the preset's name: `from_json` gives back these
        very rules whatever the presets of a later version say."""
        out: dict[str, Any] = {"preset": self.name}
        for key in OPTION_NAMES:
            value = getattr(self, key)
            if key == "deal":
                value = _deal_to_json(value, ())
            elif key == "tie_break":
                value = list(value)
            out[key] = value
        return out

    def set_for(self, players: int) -> int:
        """The set a game of this many players uses: `set`, else the deal table's default
        set for that count. A position (every hand written out) needs nothing more; the
        deal table's hand size is consulted only when the engine deals (`deal_for`)."""
        set_size = self.set
        if set_size is None:
            rows = [r for r in self.deal if r[0] == players]
            if not rows:
                raise BadDeal(self._supported(players) + _NO_SET_HINT)
            set_size = rows[0][1]
        self.check_rounds(set_size)
        return set_size

    def check_rounds(self, set_size: int) -> None:
        """`BadOptions` if `rounds` asks for more rounds than a double-`set_size` set has."""
        if self.rounds is not None and self.rounds > set_size + 1:
            raise BadOptions(
                f"a double-{set_size} set has {set_size + 1} rounds at most, not {self.rounds}"
            )

    def deal_for(self, players: int) -> tuple[int, int]:
        """(set, tiles per hand) the engine deals for this many players; `BadDeal` says
        what is supported. `hand_size` overrides the table's count; with `set` too, any
        player count 2-14 whose deal leaves a boneyard is dealt (docs/rules.md, "Deals")."""
        rows = [r for r in self.deal if r[0] == players]
        if self.set is not None:
            rows = [r for r in rows if r[1] == self.set]
        if rows:
            _, set_size, hand = rows[0]
        elif self.set is not None and self.hand_size is not None and 2 <= players <= 14:
            set_size, hand = self.set, self.hand_size
        else:
            raise BadDeal(self._supported(players))
        if self.hand_size is not None:
            hand = self.hand_size
        self.check_rounds(set_size)
        if _boneyard(players, set_size, hand, self.engine) < 1:
            most = (_boneyard(players, set_size, 0, self.engine) - 1) // players
            raise BadDeal(
                f"{players} hands of {hand} from a double-{set_size} set leave no boneyard: "
                f"{most} tiles per hand at most"
            )
        return set_size, hand

    def _supported(self, players: int) -> str:
        groups: dict[tuple[int, int], list[int]] = {}
        for p, s, h in self.deal:
            if self.hand_size is not None:
                h = self.hand_size
            if (self.set is None or s == self.set) and _boneyard(p, s, h, self.engine) > 0:
                groups.setdefault((s, h), []).append(p)
        listing = "; ".join(
            f"{_span(ps)} players: double-{s}, {h} tiles" for (s, h), ps in groups.items()
        )
        what = f"{self.name} rules" + (f" with a double-{self.set} set" if self.set else "")
        count = f"{players} player" + ("" if players == 1 else "s")
        return f"{what} do not deal for {count}. Supported: {listing or 'nothing'}."


_NO_SET_HINT = " A position (every hand written out) needs only a set: give the option set."


def _boneyard(players: int, set_size: int, hand: int, engine: str) -> int:
    """The tiles a deal of `players` hands of `hand` leaves face down."""
    tiles = (set_size + 1) * (set_size + 2) // 2
    return tiles - players * hand - (1 if engine == "set_aside" else 0)


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Options) if f.name not in ("name", "readings")
)


def _span(players: list[int]) -> str:
    """`[2, 3, 4, 7]` -> "2-4, 7"."""
    runs: list[list[int]] = []
    for p in sorted(players):
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


_COUNTS = ("rounds", "doubles_per_turn", "hand_size")


def option_values(key: str) -> str:
    """What option `key` takes, as a configuration or a record writes it."""
    if key in _CHOICES:
        shown = [str(v) for v in _CHOICES[key] if v is not None]
        return ", ".join(shown[:-1]) + " or " + shown[-1]
    if key in _BOOLS:
        return "true or false"
    if key in _COUNTS:
        return "a whole number from 1"
    if key == "tie_break":
        return f"a list of {' and '.join(TIE_BREAKS)}, tried in order (empty: a shared place)"
    if key == "deal":
        return 'a table of player counts, each [set, tiles per hand], e.g. {"4": [12, 10]}'
    raise KeyError(key)


# What an option that may be left out means then.
LEFT_OUT: Mapping[str, str] = {
    "set": "the deal table's set",
    "rounds": "one round per number of the set",
    "doubles_per_turn": "no limit",
    "hand_size": "the deal table's",
}


def _bad(key: str, value: Any) -> BadOptions:
    """The value `value` of option `key` is not one it takes: say so, and what it takes."""
    return BadOptions(
        f"option {key} does not take {quoted(value)}: it takes {option_values(key)}", key
    )


def _deal_from_json(preset: str, obj: Any, *, merge: bool = True) -> tuple[DealRow, ...]:
    """`{"4": [12, 10], "2": [[12, 16], [9, 15]]}` replaces those player counts' rows."""
    if preset not in PRESETS:
        raise BadOptions(f'unknown preset "{preset}"; presets are {", ".join(PRESETS)}')
    usage = 'option deal takes {"PLAYERS": [SET, TILES PER HAND] or a list of them, ...}'
    if not isinstance(obj, Mapping):
        raise BadOptions(usage, "deal")
    rows: list[DealRow] = []
    for key, value in obj.items():
        choices = (
            value if isinstance(value, list) and value and isinstance(value[0], list) else [value]
        )
        for choice in choices:
            if (
                not is_number(str(key))
                or not isinstance(choice, list)
                or len(choice) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in choice)
            ):
                raise BadOptions(f"{usage}, not {quoted(key)}: {quoted(value)}", "deal")
            rows.append((int(key), choice[0], choice[1]))
    replaced = {r[0] for r in rows}
    kept = PRESETS[preset].deal if merge else ()
    return tuple(rows) + tuple(r for r in kept if r[0] not in replaced)


def _deal_to_json(deal: tuple[DealRow, ...], base: tuple[DealRow, ...]) -> dict[str, Any]:
    """The player counts whose rows differ from the preset's, in `_deal_from_json` form."""
    out: dict[str, Any] = {}
    for players in dict.fromkeys(p for p, _, _ in deal + base):
        mine = [[s, h] for p, s, h in deal if p == players]
        if mine != [[s, h] for p, s, h in base if p == players]:
            out[str(players)] = mine[0] if len(mine) == 1 else mine
    return out


PRESETS: Mapping[str, Options] = {
    # The Lithuanian text.
    "classic": Options(
        name="classic",
        deal=_rows(range(2, 4), 9, 15)
        + _rows(range(4, 5), 12, 15)
        + _rows(range(5, 7), 12, 12)
        + _rows(range(7, 9), 12, 11)
        + _rows(range(9, 13), 15, 11)
        + _rows(range(13, 15), 18, 11)
        # The Lithuanian text allows double-6, 7 tiles "with two or four players"; four
        # hands would empty the set.
        + _rows(range(2, 4), 6, 7),
        engine="holder",
        first_turn="train",
        # A seat that cannot start "does not draw from the boneyard".
        first_turn_draw=False,
        first_turn_elsewhere=False,
        first_turn_out_waits=True,
        double_follow="anywhere",
        drawn_tile="may_play",
        must_play=True,
        last_double_ends_round=True,
        double_blank=50,
        tie_break=("zero_rounds", "lowest_round"),
    ),
    # The Persian text.
    "tournament": Options(
        name="tournament",
        deal=_rows(range(2, 4), 9, 8)
        + _rows(range(4, 7), 12, 12)
        + _rows(range(7, 9), 12, 10)
        + _rows(range(9, 13), 15, 11)
        + _rows(range(13, 15), 18, 11),
        engine="set_aside",
        starter="chosen",
        first_turn="train",
        # "Players unable to start their train must draw".
        first_turn_draw=True,
        first_turn_elsewhere=False,
        double_follow="anywhere",
        drawn_tile="may_play",
        must_play=True,
        last_double_ends_round=True,
        double_blank=0,
    ),
    # The Arabic text.
    "family": Options(
        name="family",
        deal=_rows(range(2, 7), 12, 12) + _rows(range(7, 9), 12, 10) + _rows(range(9, 11), 12, 8),
        engine="holder",
        first_turn="single",
        first_turn_elsewhere=False,
        double_follow="anywhere",
        doubles_order="played",
        drawn_tile="must_play",
        must_play=True,
        last_double_ends_round=True,
        double_blank=0,
    ),
    # The Greek text.
    "simple": Options(
        name="simple",
        deal=_rows(range(4, 5), 12, 15)
        + _rows(range(5, 7), 12, 12)
        + _rows(range(7, 9), 12, 10)
        + _rows(range(9, 11), 12, 8),
        engine="holder",
        first_turn="train",
        # A player "is forced to stop when he cannot lay on his own train".
        first_turn_draw=False,
        double_follow="anywhere",
        drawn_tile="may_play",
        must_play=True,
        last_double_ends_round=True,
        double_blank=0,
    ),
    # The Telugu text; for 9-12 players it names double-15 or -18 but no count: the
    # Lithuanian text's counts.
    "hub": Options(
        name="hub",
        deal=(
            *_rows(range(2, 4), 12, 16),
            *((2, 9, 15), (3, 9, 13), (4, 12, 15), (4, 9, 10), (5, 12, 14), (6, 12, 12)),
            *((7, 12, 10), (8, 12, 9)),
            *_rows(range(9, 13), 15, 11),
            *_rows(range(9, 13), 18, 11),
        ),
        engine="set_aside",
        starter="chosen",
        first_turn="single",
        first_turn_elsewhere=True,
        double_follow="on_double",
        doubles_order="played",
        dead_double_releases=True,
        drawn_tile="must_play",
        must_play=True,
        last_double_ends_round=True,
        one_tile_alert=True,
        double_blank=50,
    ),
}


# The rule text each preset follows (docs/rules.md, "The presets").
PRESET_TEXTS: Mapping[str, str] = {
    "classic": "the Lithuanian text",
    "tournament": "the Persian text",
    "family": "the Arabic text",
    "simple": "the Greek text",
    "hub": "the Telugu text",
}


# The presets as earlier versions had them, as today's presets with the options that
# were different then. Version 1 is every game journaled by its preset's name alone:
# the presets had no first_turn_draw (a seat that could not start its train drew), and
# classic, tournament and simple neither ended a round on a last double nor all had
# must_play.
EARLIER_PRESETS: Mapping[int, Mapping[str, Mapping[str, Any]]] = {
    1: {
        "classic": {"first_turn_draw": True, "last_double_ends_round": False},
        "tournament": {"first_turn_draw": True, "must_play": False,
                       "last_double_ends_round": False},
        "family": {"first_turn_draw": True},
        "simple": {"first_turn_draw": True, "must_play": False,
                   "last_double_ends_round": False},
        "hub": {"first_turn_draw": True},
    },
}


def options_as_of(rules: Any, version: int) -> Options:
    """The rules `rules` (a preset's name, or a preset and overrides: `from_json`) as
    rules version `version` played them: the options the preset had then, except where
    `rules` names its own."""
    options = Options.from_json(rules)
    own = set(rules) if isinstance(rules, Mapping) else set()
    then = EARLIER_PRESETS.get(version, {}).get(options.name, {})
    return dataclasses.replace(options, readings=version,
                               **{k: v for k, v in then.items() if k not in own})
