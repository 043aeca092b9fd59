"""The rules engine against a peer, fairly: rounds per second beside dcrescim/mexican-train.

    git clone https://github.com/dcrescim/mexican-train /tmp/peer
    python -P benchmarks/engine_peer.py --peer /tmp/peer [--rounds N] [--seed S]
    python -P benchmarks/engine_peer.py --ours-only [--rounds N] [--seed S]

Both play the same kind of round: four random bots, a double-12 set, 15 tiles a hand,
from the deal until a seat goes out (our engine: classic rules, which also end a round
that is blocked). The peer never ends a blocked round: its bots draw and pass until its
cap of 1,000 turns. Counting the time of those rounds would flatter us, so the fair
figure divides by the peer's time on the rounds it completes; the figure over all its
rounds is printed beside it. Times are CPU time of this process, one round at a time.
Goal: 3 times the peer's rounds/s with the pure engine, 10 times compiled.
`--ours-only` plays only our rounds (no peer needed), for counting instructions:
benchmarks/README.md runs it under callgrind.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import time
from pathlib import Path

from firmware_py.bots import RandomBot
from firmware_py.rules import BUILD, Options, apply, deal, new_game

GOAL = {"pure": 3.0, "compiled": 10.0}


def peer_rounds(peer: Path, rounds: int, seed: int) -> tuple[float, int, float, int]:
    """The peer's time on its completed rounds and their count, then on the capped ones."""
    sys.path.insert(0, str(peer))
    from mexican_train.mexican_train import MexicanTrain  # type: ignore[import-not-found]
    from mexican_train.RandomPlayerAgent import (  # type: ignore[import-not-found]
        RandomPlayerAgent,
    )

    done_time = capped_time = 0.0
    done = capped = 0
    for n in range(rounds):
        game = MexicanTrain(random_seed=seed + n)  # it seeds the global generator
        for seat in range(4):
            game.add_player(RandomPlayerAgent(f"seat {seat}"))
        start = time.process_time()
        with contextlib.redirect_stdout(io.StringIO()):  # it prints invalid moves
            winner = game.play()
        spent = time.process_time() - start
        if winner is None:
            capped_time += spent
            capped += 1
        else:
            done_time += spent
            done += 1
    return done_time, done, capped_time, capped


def our_rounds(rounds: int, seed: int) -> float:
    """CPU time of `rounds` classic rounds of four random bots."""
    options = Options.preset("classic")
    bot = RandomBot()
    rng = random.Random(seed)
    spent = 0.0
    for _ in range(rounds):
        start = time.process_time()
        state = new_game(options, 4)
        state = apply(state, deal(state, rng.getrandbits(32)))
        while state.phase == "play":
            state = apply(state, bot.choose(state, rng))
        spent += time.process_time() - start
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="a checkout of the peer")
    parser.add_argument("--ours-only", action="store_true", help="play only our rounds")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.ours_only:
        spent = our_rounds(args.rounds, args.seed)
        print(f"ours ({BUILD}): {args.rounds} rounds in {spent:.2f} s of CPU")
        return
    if args.peer is None:
        parser.error("--peer is required (a checkout of the peer), or --ours-only")
    if not (args.peer / "mexican_train" / "mexican_train.py").is_file():
        parser.error(f"{args.peer} holds no mexican_train/mexican_train.py: clone the peer there")
    done_time, done, capped_time, capped = peer_rounds(args.peer, args.rounds, args.seed)
    ours = args.rounds / our_rounds(args.rounds, args.seed)
    fair = done / done_time
    overall = (done + capped) / (done_time + capped_time)
    print(f"{args.rounds} rounds each, 4 seats, double-12, random bots")
    print(
        f"peer: {fair:.0f} rounds/s on the {done} rounds it completes; "
        f"{capped} ({100 * capped / args.rounds:.0f}%) ran to its 1,000-turn cap, "
        f"{overall:.0f} rounds/s over all"
    )
    goal = GOAL[BUILD]
    verdict = "meets" if ours / fair >= goal else "misses"
    print(
        f"ours ({BUILD}): {ours:.0f} rounds/s: {ours / fair:.1f}x the peer fairly "
        f"({verdict} the goal of {goal:.0f}x), {ours / overall:.1f}x over all its rounds"
    )


if __name__ == "__main__":
    main()
