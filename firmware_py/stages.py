"""The stages of the table, and which inputs each stage takes.

A game at the table goes through the stages of one round after another: who leads
(`LEAD`), the deal of tracked hands (`DEAL`) or the hunt for the engine (`HUNT`), play
(`PLAY`), the leftover tiles of open hands (`REVEAL`), the round's summary (`SUMMARY`),
and at the end the final ranking (`OVER`). Before a game, and after one is abandoned,
the table is in its `LOBBY`.

`GAME_INPUTS` says, for each stage of a game, which journal entries it takes and the
stages each can lead to; `firmware_py.game` refuses any other entry in that stage and
checks every step against it. The table's own inputs (joining, starting, abandoning)
are `firmware_py.table.TABLE_INPUTS`. docs/flow.md draws both, generated from them
(`python -m firmware_py.flowchart`).
"""

from __future__ import annotations

from firmware_py.entries import Act, Dealt, Drawing, Holder, Hunt, Lead, Next, Shown, Step
from roundhouse.view import Stage

__all__ = ["GAME_INPUTS", "GAME_STARTS", "Stage"]


# The stages a new round can start in: setting it up ends as soon as nothing is asked.
_ROUND_STARTS = (Stage.LEAD, Stage.DEAL, Stage.HUNT, Stage.PLAY)
_ROUND_ENDS = (Stage.PLAY, Stage.REVEAL, Stage.SUMMARY, Stage.OVER)

GAME_INPUTS: dict[Stage, dict[type[Step], tuple[Stage, ...]]] = {
    Stage.LEAD: {Lead: (Stage.DEAL, Stage.HUNT, Stage.PLAY)},
    Stage.DEAL: {Dealt: (Stage.DEAL, Stage.PLAY)},
    Stage.HUNT: {Hunt: (Stage.HUNT,), Holder: (Stage.PLAY,)},
    Stage.PLAY: {Act: _ROUND_ENDS, Drawing: (Stage.PLAY,)},
    Stage.REVEAL: {Shown: (Stage.REVEAL,), Act: (Stage.REVEAL, Stage.SUMMARY, Stage.OVER)},
    Stage.SUMMARY: {Next: _ROUND_STARTS},
    Stage.OVER: {},
}

# A game's first round is led by the seat that started it: it never waits for a lead.
GAME_STARTS = (Stage.DEAL, Stage.HUNT, Stage.PLAY)
