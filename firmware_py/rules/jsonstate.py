"""A state as the JSON object `roundhouse replay` prints (docs/records.md)."""

from __future__ import annotations

from typing import Any

from firmware_py.rules.state import State
from firmware_py.rules.trains import Train


def _train_json(train: Train, mexican: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tiles": [str(laid) for laid in train.tiles],
        "open": bool(train.tiles) if mexican else train.open,
    }
    if train.branches:
        out["branches"] = [_branch_json(b) for b in train.branches]
    return out


def _branch_json(train: Train) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in train.tiles],
        "branches": [_branch_json(b) for b in train.branches],
    }


def state_to_json(state: State) -> dict[str, Any]:
    """Every field of the replay output, with `error: null`."""
    n = state.players
    trains: dict[str, Any] = {}
    for seat in range(n):
        trains[str(seat)] = (
            _train_json(state._trains[seat], False)
            if state._trains
            else {"tiles": [], "open": False}
        )
    trains["mexican"] = (
        _train_json(state._trains[n], True) if state._trains else {"tiles": [], "open": False}
    )
    hands: dict[str, Any] = {}
    for seat in range(n):
        hand = state.hands[seat]
        hands[str(seat)] = [str(t) for t in hand] if hand is not None else state.hand_counts[seat]
    return {
        "round": state.round,
        "engine": None if state.engine is None else str(state.engine),
        "phase": state.phase,
        "turn": state.turn if state.phase == "play" else None,
        "trains": trains,
        "pending_doubles": [str(tile) for _, tile in state.pending_doubles],
        "hands": hands,
        "boneyard": state.boneyard_count,
        "scores": [list(row) for row in state.scores],
        "totals": list(state.totals),
        "ranking": None if state.ranking is None else list(state.ranking),
        "error": None,
    }
