"""Small positions for the rules tests: hands written as text, moves as short phrases."""

from __future__ import annotations

from typing import Any

from firmware_py.rules import (
    Action,
    Draw,
    Options,
    Pass,
    Play,
    Reveal,
    StartRound,
    State,
    Tile,
    apply,
    new_game,
)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def house(**overrides: Any) -> Options:
    """Plain turns from the first one: tournament (2-3 players: double-9, 9-9 set aside,
    double follow anywhere) with single first turns that may go anywhere, and the house
    rules that let a seat draw while it could play and owe the follow-up of a last double
    (`must_play` and `last_double_ends_round` off), so that one test can show each."""
    chosen: dict[str, Any] = {
        "first_turn": "single",
        "first_turn_elsewhere": True,
        "must_play": False,
        "last_double_ends_round": False,
    }
    return Options.preset("tournament", **(chosen | overrides))


def start(
    rules: Options | str, hands: list[str], boneyard: str = "", starter: int | None = None
) -> State:
    options = Options.preset(rules) if isinstance(rules, str) else rules
    state = new_game(options, len(hands))
    return apply(state, StartRound(tuple(tiles(h) for h in hands), tiles(boneyard), starter))


def move(text: str) -> Action:
    """`"0 play 9-5 on 0"`, `"1 play 5-3 on mexican branch 2"`, `"1 draw"`, `"2 pass"`,
    `"0 reveal 5-3 2-1"`."""
    words = text.split()
    seat = int(words[0])
    if words[1] == "play":
        train: int | str = words[4] if words[4] == "mexican" else int(words[4])
        branch = int(words[6]) if len(words) > 6 else None
        return Play(seat, Tile.parse(words[2]), train, branch)
    if words[1] == "draw":
        return Draw(seat, Tile.parse(words[2]) if len(words) > 2 else None)
    if words[1] == "pass":
        return Pass(seat)
    if words[1] == "reveal":
        return Reveal(seat, tiles(" ".join(words[2:])))
    raise ValueError(text)


def run(state: State, *moves: str) -> State:
    for text in moves:
        state = apply(state, move(text))
    return state


def train_tiles(state: State, train: int | str) -> list[str]:
    return [str(laid) for laid in state.trains[train].tiles]


def hand(state: State, seat: int) -> list[str]:
    held = state.hands[seat]
    assert held is not None
    return [str(t) for t in held]
