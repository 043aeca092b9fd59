"""Does this build of the rules engine play as the other does? One digest of seeded games.

    python benchmarks/engine_same.py [--games N] [--rounds R] [--seed S]

Plays `--games` seeded games of every preset at every table size it deals (random bots,
known hands, at most `--rounds` rounds each) and hashes every state (`state_to_json`
and its repr), every legal list, and the answer to a random attempt at each step: the
refusal's code, sentence and arguments, or the state it leads to. Prints the build
(`firmware_py.rules.BUILD`), the counts and the digest. Run it under the compiled and the
pure engine: the two digests must be equal (CI compares them, .ci/run).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from firmware_py.rules import (
    BUILD,
    MEXICAN,
    PRESETS,
    BadDeal,
    Draw,
    IllegalMove,
    Pass,
    Play,
    RulesError,
    State,
    apply,
    deal,
    new_game,
    set_tiles,
    state_to_json,
)
from firmware_py.rules.actions import Action


class Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.states = self.refusals = 0

    def add(self, *parts: object) -> None:
        self.hash.update(repr(parts).encode())
        self.hash.update(b"\n")

    def state(self, state: State) -> None:
        self.states += 1
        self.add(json.dumps(state_to_json(state), sort_keys=True), repr(state))
        self.add([repr(a) for a in state.legal_actions])

    def attempt(self, state: State, action: Action) -> None:
        """What the engine says to `action`: the refusal as data, or the next state."""
        try:
            after = apply(state, action)
        except IllegalMove as err:
            self.refusals += 1
            self.add(action, err.code, str(err), err.message_id, sorted(err.arguments.items()))
            return
        except RulesError as err:
            self.refusals += 1
            self.add(action, type(err).__name__, str(err))
            return
        self.add(action, action in state.legal_actions)
        self.state(after)


def attempt(state: State, rng: random.Random) -> Action:
    """A random action of the seat to act (or another), mostly one the rules refuse."""
    seat = rng.randrange(state.players + 1)
    kind = rng.random()
    if kind < 0.1:
        return Pass(seat)
    if kind < 0.2:
        return Draw(seat)
    tile = rng.choice(set_tiles(state.set_size))
    train = rng.choice([*range(state.players), MEXICAN, state.players])
    return Play(seat, tile, train, rng.choice([None, None, 0, 1, 2]))


def play(digest: Digest, preset: str, players: int, rounds: int, rng: random.Random) -> None:
    state = new_game(PRESETS[preset], players)
    digest.state(state)
    for _ in range(rounds):
        if state.phase == "game_over":
            break
        state = apply(state, deal(state, rng.getrandbits(32)))
        digest.state(state)
        while state.phase == "play":
            digest.attempt(state, attempt(state, rng))
            state = apply(state, rng.choice(state.legal_actions))
            digest.state(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="per preset and table size")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    digest = Digest()
    rng = random.Random(args.seed)
    games = 0
    for preset, options in PRESETS.items():
        for players in range(2, 15):
            try:
                options.deal_for(players)
            except BadDeal:
                continue
            for _ in range(args.games):
                play(digest, preset, players, args.rounds, rng)
                games += 1
    print(
        f"engine {BUILD}: {games} games, {digest.states} states, {digest.refusals} refusals, "
        f"digest {digest.hash.hexdigest()}"
    )


if __name__ == "__main__":
    main()
