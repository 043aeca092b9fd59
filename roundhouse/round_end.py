"""What the table asks once a round has ended (the reveal of leftover tiles, the round's
summary, the final ranking), made from what a view shows. The table says them
(`firmware_py.table_view`); the table screen lays out the view of the next stage ahead
with them (`display.rehearsal`), so the words it measures ahead are the table's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from roundhouse import messages as say
from roundhouse.message import Message, message


def reveal_prompt(waiting: Iterable[tuple[int, int, int]]) -> Message:
    """Tap your leftover tiles, for each seat still to: (seat, tiles tapped, tiles left)."""
    return message(say.REVEAL, waiting=[message(say.PROGRESS, seat=seat, done=done, of=of)
                                        for seat, done, of in waiting])


def summary_prompt(round_: int, went_out: int | None) -> Message:
    """Round `round_` is over (`went_out` went out, or it was blocked): hold DRAW."""
    if went_out is not None:
        return message(say.SUMMARY_OUT, round=round_, seat=went_out, next=round_ + 1)
    return message(say.SUMMARY_BLOCKED, round=round_, next=round_ + 1)


def over_prompt(ranking: Sequence[int]) -> Message:
    """The game is over, won by the first of `ranking`: hold DRAW for a new game."""
    if ranking:
        return message(say.OVER, winner_seat=ranking[0])
    return message(say.OVER_NOBODY)
