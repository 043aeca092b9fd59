"""Views like those the table is likely to show next, as far as the table screen's words
go: laid out while the table waits for a player (`table_screen.Painter.ahead`), they open
the fonts and measure the words the next view needs, so that view is drawn quickly.

The first view of a stage (the first play of a round, the reveal, the summary, the final
ranking) brings words no view before it had, at sizes no font was opened at, and was the
slowest of its round. Its seats, names, languages and scores are those of the view before
it; what changes is its phase and what the phase shows (whose turn it is, who is still to
reveal, the ranking, the prompt). These views are made from the view shown with only
that changed. A round's end is asked for with the table's own prompts
(`roundhouse.round_end`); the first play of a round keeps the prompt shown, as the table
words it from the deal, which a screen does not know. Nothing here is shown: a guess that
is wrong costs only the time it took, while the table waited.
"""

from __future__ import annotations

from dataclasses import replace

from roundhouse.round_end import over_prompt, reveal_prompt, summary_prompt
from roundhouse.view import Phase, Stage, TrainView, View
from roundhouse.vocabulary import MEXICAN, MEXICAN_NAME


def likely_next(view: View) -> tuple[View, ...]:
    """Views like the next the table may show after `view`, the likeliest first: the next
    seat's turn in play, and the first view of each stage that may follow `view`'s
    (docs/flow.md)."""
    joined = tuple(i for i, s in enumerate(view.seats) if s.joined)
    if not joined:
        return ()
    phase = view.phase
    if phase in (Phase.LOBBY, Phase.GAME_OVER):
        # A game seats only those who joined, numbered from 0.
        seats = tuple(replace(view.seats[i], seat=n, hand=0, one_tile=False, total=0)
                      for n, i in enumerate(joined))
        game = replace(view, round=0, seats=seats, totals=(0,) * len(seats), scores=(),
                       trains=(), ranking=None)
        return _next_round(game)
    if phase == Phase.DEAL:
        return (_play(view, view.round, joined[0] if view.turn is None else view.turn),)
    if phase == Phase.PLAY:
        # The round may end at the next move once a seat is down to its last tiles (a
        # double and the tile that satisfies it go together), or nobody can draw.
        ending = view.boneyard == 0 or any(s.joined and s.hand <= 2 for s in view.seats)
        ended = (_ended(view),) if ending else ()
        if view.turn is None:
            return ended
        later = [i for i in joined if i > view.turn]
        return (replace(view, turn=(later or list(joined))[0]), *ended)
    if phase == Phase.ROUND_OVER and view.revealed is not None:
        return (_scored(replace(view, revealed=None)),)
    if phase == Phase.ROUND_OVER:
        return _next_round(view)
    return ()


def _ended(view: View) -> View:
    """The round's end. If the seat to play is down to its last tile, it goes out;
    otherwise the round is taken as blocked."""
    turn = view.turn
    out = turn if turn is not None and view.seats[turn].hand <= 1 else None
    seats = tuple(replace(s, hand=0, one_tile=False) if i == out else s
                  for i, s in enumerate(view.seats))
    ended = replace(view, seats=seats, turn=None, last_play=None, went_out=out)
    if view.hand_mode != "open":
        return _scored(ended)
    # Open hands: each seat with tiles left first taps them.
    return replace(ended, phase=Phase.ROUND_OVER, stage=Stage.REVEAL,
                   revealed=tuple(None if s.joined and s.hand else 0 for s in seats),
                   prompt=reveal_prompt((i, 0, s.hand) for i, s in enumerate(seats)
                                        if s.joined and s.hand))


def _scored(view: View) -> View:
    """The round's summary, or the final ranking after the last round (by the totals
    shown: the rules' ties and the round's scores are the table's to settle)."""
    if view.round < view.rounds:
        return replace(view, phase=Phase.ROUND_OVER, stage=Stage.SUMMARY,
                       prompt=summary_prompt(view.round, view.went_out))
    ranked = tuple(sorted((i for i, s in enumerate(view.seats) if s.joined),
                          key=lambda i: view.seats[i].total))
    return replace(view, phase=Phase.GAME_OVER, stage=Stage.OVER, ranking=ranked,
                   prompt=over_prompt(ranked))


def _next_round(view: View) -> tuple[View, ...]:
    """The next round's first play view, and its deal (who leads, the deal or the hunt),
    before either has a tile on the table."""
    first = next(i for i, s in enumerate(view.seats) if s.joined)
    dealt = replace(view, phase=Phase.DEAL, stage=Stage.DEAL, round=view.round + 1,
                    turn=None, trains=(), pending_doubles=(), last_play=None,
                    revealed=None, ranking=None)
    return (_play(view, view.round + 1, first), dealt)


def _play(view: View, round_: int, turn: int) -> View:
    """The first play view of round `round_`: every train empty, the engine in the hub."""
    trains = (tuple(replace(t, tiles=(), open=False, branches=()) for t in view.trains)
              or (*(TrainView(str(i), i, s.name, (), False) for i, s in enumerate(view.seats)
                    if s.joined),
                  TrainView(MEXICAN, None, MEXICAN_NAME, (), False)))
    return replace(view, phase=Phase.PLAY, stage=Stage.PLAY, round=round_, turn=turn,
                   trains=trains, pending_doubles=(), last_play=None, revealed=None,
                   ranking=None)
