"""How fast the rules engine plays: complete 4-seat double-12 rounds with random bots.

    python benchmarks/engine_speed.py [--seconds S] [--rules PRESET] [--profile N]

One core, one process. Prints rounds/s and actions/s (goal: at least 1,500 rounds/s) per
second of this process's CPU time, so that other work on the machine does not skew
them; `--profile N` also prints the N functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

from firmware_py.bots import RandomBot
from firmware_py.rules import Options, apply, deal, new_game


def timed(play_round: Callable[[random.Random], int], seconds: float, seed: int) -> str:
    """Play rounds for about `seconds` of CPU time (`play_round` returns the actions it
    took); the figures as printed."""
    rng = random.Random(seed)
    rounds = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += play_round(rng)
        rounds += 1
    elapsed = time.process_time() - start
    return (
        f"{rounds} rounds, {actions} actions in {elapsed:.1f} s of CPU time\n"
        f"{rounds / elapsed:.0f} rounds/s, {actions / elapsed:.0f} actions/s "
        f"({actions / rounds:.0f} actions per round)"
    )


def round_player(rules: str) -> Callable[[random.Random], int]:
    options = Options.preset(rules)
    assert options.deal_for(4)[0] == 12, f"{rules} does not play 4 seats with double-12"
    bot = RandomBot()

    def play_round(rng: random.Random) -> int:
        state = new_game(options, 4)
        state = apply(state, deal(state, rng.getrandbits(32)))
        actions = 0
        while state.phase == "play":
            state = apply(state, bot.choose(state, rng))
            actions += 1
        return actions

    return play_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    figures = timed(round_player(args.rules), args.seconds, args.seed)
    print(f"{args.rules}, 4 seats, double-12, random bots: {figures}")
    if profiler is not None:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
