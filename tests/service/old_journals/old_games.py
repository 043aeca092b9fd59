"""Games played move by move with the Roundhouse of commit 1047be3 and journaled by it,
choosing a DRAW wherever its rules allowed one: a seat that cannot start its train
draws on its first turn, and a seat that could play draws instead. The current rules
refuse some of those moves. Run by make.sh with PYTHONPATH at that commit's checkout.
"""

import random
import sys
from pathlib import Path

from firmware_py.tablegame import Game

from firmware_py.journal import Journal
from firmware_py.rules import Draw, action_to_json, legal_actions


def play(path: Path, preset: str, players: int, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    journal = Journal(path)
    game = Game(rules=preset, hand_mode="tracked", seats=tuple(range(players)),
                names=tuple(["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:players]), leader=0)
    game_id = journal.begin_game(game.meta())
    m = game.opening()

    def enter(entry: dict) -> None:
        nonlocal m
        m = game.advance(m, entry)
        journal.append(game_id, entry)

    for _ in range(moves):
        if m.stage == "deal":
            left = [t for t in game.set_tiles()
                    if all(t not in h for h in m.dealt) and t != game.next_engine(m.state)]
            seat = next(s for s, h in enumerate(m.dealt) if len(h) < game.hand_size)
            enter({"t": "dealt", "seat": seat, "tile": str(rng.choice(left))})
        elif m.stage == "play":
            legal = legal_actions(m.state)
            actions = list(legal)
            draws = [a for a in actions if isinstance(a, Draw)]
            if draws:
                seat = draws[0].seat
                enter({"t": "drawing", "seat": seat})
                tile = rng.choice(list(m.state._boneyard))
                enter({"t": "action", "action": action_to_json(Draw(seat, tile))})
            else:
                enter({"t": "action", "action": action_to_json(rng.choice(actions))})
        elif m.stage == "summary":
            enter({"t": "next"})
        elif m.stage == "lead":
            enter({"t": "lead", "seat": 0})
        else:
            break
    journal.close()


if __name__ == "__main__":
    play(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
