"""Taking a game up again from a snapshot of one moment instead of replaying all of it.

At the end of each round (the move that ends it) the table writes the moment it reached
(`snapshot_text`) with that move's entry, in the same commit (`Journal.append`), so a
snapshot never holds anything the journal does not. A start then reads the game's
snapshot, checks it, and applies only the entries after it (`resume_from`); the moments
before it are replayed from the journal only if an undo reaches back past it
(`History`). Whatever does not check out gives None, and the table replays every entry
as it always did:

- the journal's check (`Journal.snapshot`): the snapshot's entry exists, and the digest
  of the entries up to it and of the snapshot itself is the one written with it;
- the snapshot's own: its schema (`SNAPSHOT_SCHEMA`) and the engine state's
  (`STATE_SCHEMA`), its rules version, and the digest of the game's description
  (`Game.meta()`: seats, names, every option, the rules version, the hand mode) are
  this version's and this game's; every field reads as the kind it must be;
- the entries after it: each replays, and no undo among them reaches back past the
  snapshot's moment (the snapshot is stale then: an older moment is in force).

The snapshot is JSON (docs/table.md, "The journal"): `schema`, `state_schema`,
`rules_version`, `game` (the description's SHA-256), `depth` (how many moments are in
force before this one), `moment` (what the table waits for) and `state` (the engine's,
firmware_py.rules.statecodec).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from firmware_py.entries import BadEntry, Undo, entry_from_json
from firmware_py.game import (
    Earlier,
    Game,
    LastPlay,
    Moment,
    Refused,
    Steps,
    TableError,
)
from firmware_py.journal import Snapshot
from firmware_py.rules import (
    MEXICAN,
    STATE_SCHEMA,
    RulesError,
    State,
    Tile,
    action_from_json,
    action_to_json,
    set_tiles,
    state_from_stored,
    state_to_stored,
)
from firmware_py.stages import Stage
from roundhouse.value import Value, frozen

log = logging.getLogger(__name__)

SNAPSHOT_SCHEMA = 1

# The stages a round-ending move leads to: a snapshot is written there.
_ENDED = (Stage.REVEAL, Stage.SUMMARY, Stage.OVER)
_TILES = set_tiles(18)
_STAGES = {stage.value: stage for stage in Stage}


def ends_round(before: Moment, after: Moment) -> bool:
    """Whether the move from `before` to `after` ended a round (or the game)."""
    return before.stage is Stage.PLAY and after.stage in _ENDED


def game_digest(game: Game) -> str:
    """SHA-256 of everything that makes the game the one it is (its meta)."""
    text = json.dumps(game.meta(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def snapshot_text(game: Game, moment: Moment, depth: int) -> str:
    """The snapshot of `moment`, with `depth` moments in force before it."""
    last = moment.last_action
    body = {
        "schema": SNAPSHOT_SCHEMA,
        "state_schema": STATE_SCHEMA,
        "rules_version": game.rules_version,
        "game": game_digest(game),
        "depth": depth,
        "moment": {
            "stage": moment.stage.value,
            "starter": moment.starter,
            "dealt": [[t.index for t in hand] for hand in moment.dealt],
            "hunted": list(moment.hunted),
            "hunter": moment.hunter,
            "drawing": moment.drawing,
            "shown": [[t.index for t in hand] for hand in moment.shown],
            "engines": list(moment.engines),
            "actor": moment.actor,
            "last_play": None if moment.last_play is None else [
                moment.last_play.seat, moment.last_play.train, moment.last_play.tile],
            "last_action": None if last is None else action_to_json(last),
        },
        "state": state_to_stored(moment.state),
    }
    return json.dumps(body, separators=(",", ":"))


# ---- the moments in force --------------------------------------------------------------


class History(Sequence[Moment]):
    """Every moment of a game still in force, the opening first; `append` a moment the
    game reached, `pop` the one undone.

    Taken up from a snapshot, it holds the snapshot's moment and those after it, and
    knows how many came before (`earlier`); they are replayed (`load`) only when asked
    for, by an index or by an undo back past the snapshot's moment."""

    def __init__(self, moments: Sequence[Moment] = (), *, earlier: int = 0,
                 load: Callable[[], Sequence[Moment]] | None = None) -> None:
        self._moments = list(moments)
        self._earlier = earlier
        self._load = load
        self._loaded: list[Moment] | None = None

    def __len__(self) -> int:
        return self._earlier + len(self._moments)

    @overload
    def __getitem__(self, index: int) -> Moment: ...
    @overload
    def __getitem__(self, index: slice) -> list[Moment]: ...

    def __getitem__(self, index: int | slice) -> Moment | list[Moment]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        at = index + len(self) if index < 0 else index
        if not 0 <= at < len(self):
            raise IndexError("no such moment")
        if at >= self._earlier:
            return self._moments[at - self._earlier]
        return self.before_snapshot()[at]

    def __iter__(self) -> Iterator[Moment]:
        return (self[k] for k in range(len(self)))

    def append(self, moment: Moment) -> None:
        self._moments.append(moment)

    def pop(self) -> Moment:
        self.reach_back_one()
        return self._moments.pop()

    def reach_back_one(self) -> None:
        """Have the moment before the last at hand, for an undo (`reach_back` if only
        the snapshot's moment is)."""
        if len(self._moments) == 1 and self._earlier:
            self.reach_back()

    def reach_back(self) -> None:
        """Replay the moments before the snapshot's (`TableError` if they do not
        replay as the snapshot said); after this the history is whole."""
        if not self._earlier:
            return
        earlier = self.before_snapshot()
        self._moments[:0] = earlier
        self._earlier = 0

    def before_snapshot(self) -> list[Moment]:
        """The moments in force before the snapshot's, replayed from the journal."""
        if self._loaded is None:
            assert self._load is not None
            loaded = list(self._load())
            if len(loaded) != self._earlier + 1 or not _same(loaded[-1], self._moments[0]):
                raise TableError("the game's snapshot does not agree with its entries "
                                 "before it")
            self._loaded = loaded[:-1]
        return self._loaded


def _same(a: Moment, b: Moment) -> bool:
    """The same moment (the snapshot's and the one replayed from the journal)."""
    return (state_to_stored(a.state) == state_to_stored(b.state)
            and (a.stage, a.starter, a.dealt, a.hunted, a.hunter, a.drawing, a.shown,
                 a.engines, a.actor, a.last_play, a.last_action)
            == (b.stage, b.starter, b.dealt, b.hunted, b.hunter, b.drawing, b.shown,
                b.engines, b.actor, b.last_play, b.last_action))


# ---- reading a snapshot back -----------------------------------------------------------


@frozen
class Resumed(Value):
    """A game taken up from its snapshot and the `entries` after it."""

    game: Game
    history: History
    snapshot: int  # the number of the snapshot's entry
    entries: int  # how many entries followed it


class _Doubt(Exception):
    """Why a snapshot is not resumed from."""


def resume_from(meta: Mapping[str, Any], snapshot: Snapshot, after: Sequence[object],
                replay: Callable[[Game], Sequence[Moment]]) -> Resumed | None:
    """The game `meta` describes, taken up from `snapshot` (which the journal checked
    against the entries it follows) and the entries `after` it; `replay(game)` gives the
    moments in force at the snapshot's entry from the journal, for an undo that reaches
    back past it. None, said in the log, at any doubt: the caller replays every entry."""
    try:
        game = Game.from_meta(meta)
        body = json.loads(snapshot.text)
        if not isinstance(body, dict):
            raise _Doubt("it is not an object")
        for key, want in (("schema", SNAPSHOT_SCHEMA), ("state_schema", STATE_SCHEMA),
                          ("rules_version", game.rules_version),
                          ("game", game_digest(game))):
            if body.get(key) != want:
                raise _Doubt(f"its {key} is {str(body.get(key))[:20]!r}, this game's "
                             f"{str(want)[:20]!r}")
        depth = body.get("depth")
        if type(depth) is not int or depth < 0:
            raise _Doubt(f"its depth is {depth!r}")
        earlier = _Loaded(lambda: replay(game))
        moment = _moment(body.get("moment"), state_from_stored(body.get("state"), game.options),
                         earlier)
        history = History([moment], earlier=depth, load=earlier)
        earlier.history = history
        for number, obj in enumerate(after, snapshot.seq + 1):
            entry = entry_from_json(obj)
            if isinstance(entry, Undo):
                if len(history) <= depth + 1:
                    raise _Doubt(f"entry {number} undoes the move it followed")
                game.check_undo(history, entry)
                history.pop()
            else:
                history.append(game.advance(history[-1], entry))
    except (_Doubt, TableError, RulesError, Refused, BadEntry, ValueError) as err:
        log.info("the snapshot at entry %d is not resumed from (%s); every entry is "
                 "replayed", snapshot.seq, err)
        return None
    except Exception as err:  # a snapshot written by hand, its digest and all
        # Whatever else goes wrong taking it up, replaying every entry decides.
        log.warning("the snapshot at entry %d cannot be taken up (%r); every entry is "
                    "replayed", snapshot.seq, err)
        return None
    return Resumed(game, history, snapshot.seq, len(after))


class _Loaded:
    """The moments before a snapshot's, replayed once when first asked for."""

    def __init__(self, replay: Callable[[], Sequence[Moment]]) -> None:
        self._replay = replay
        self.history: History | None = None

    def __call__(self) -> Sequence[Moment]:
        return self._replay()

    def steps(self) -> Steps | None:
        """The actions before the snapshot moment's own last one: those of the moment
        in force before it."""
        assert self.history is not None
        before = self.history.before_snapshot()
        return before[-1].steps if before else None


def _index(value: object, what: str) -> int:
    if type(value) is not int:
        raise _Doubt(f"its {what} is {value!r}")
    return value


def _seat(value: object, what: str) -> int | None:
    return None if value is None else _index(value, what)


def _tiles(value: object, what: str) -> tuple[Tile, ...]:
    if type(value) is not list:
        raise _Doubt(f"its {what} is {str(value)[:20]!r}")
    out = []
    for item in value:
        index = _index(item, what)
        if not 0 <= index < len(_TILES):
            raise _Doubt(f"its {what} holds {index}")
        out.append(_TILES[index])
    return tuple(out)


def _list(value: object, what: str) -> list[Any]:
    if type(value) is not list:
        raise _Doubt(f"its {what} is {str(value)[:20]!r}")
    return value


def _moment(obj: object, state: State, earlier: _Loaded) -> Moment:
    if not isinstance(obj, dict):
        raise _Doubt("its moment is not an object")
    name = obj.get("stage")
    stage = _STAGES.get(name) if isinstance(name, str) else None
    if stage not in _ENDED:
        raise _Doubt(f"its stage is {obj.get('stage')!r}")
    played = obj.get("last_play")
    last_play = None
    if played is not None:
        seat, train, tile = _list(played, "last play")
        if train != MEXICAN:
            _index(train, "last play")
        if not isinstance(tile, str):
            raise _Doubt("its last play names no tile")
        last_play = LastPlay(_index(seat, "last play"), train, tile)
    action = obj.get("last_action")
    steps = None if action is None else Steps(action_from_json(action), Earlier(earlier.steps))
    engines = _list(obj.get("engines"), "engines")
    if not all(isinstance(e, str) for e in engines):
        raise _Doubt("its engines are not tiles")
    return Moment(
        state=state,
        stage=stage,
        starter=_seat(obj.get("starter"), "starter"),
        dealt=tuple(_tiles(h, "deal") for h in _list(obj.get("dealt"), "deal")),
        hunted=tuple(_index(k, "hunt") for k in _list(obj.get("hunted"), "hunt")),
        hunter=_seat(obj.get("hunter"), "hunter"),
        drawing=_seat(obj.get("drawing"), "drawing seat"),
        shown=tuple(_tiles(h, "shown tiles") for h in _list(obj.get("shown"), "shown tiles")),
        engines=tuple(engines),
        actor=_seat(obj.get("actor"), "actor"),
        last_play=last_play,
        steps=steps,
    )
