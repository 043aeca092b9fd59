"""Computer players: the bots of `roundhouse simulate`, the simulated table and the soak
tests, and the match runner that plays whole games with them.

A bot sees the whole state (every hand known) and picks one of the engine's legal
actions for the seat to act; the engine alone decides what is legal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, Protocol

from firmware_py.rules import (
    PRESETS,
    Action,
    Draw,
    Options,
    Pass,
    Play,
    Reveal,
    RulesError,
    State,
    Tile,
    apply,
    deal,
    legal_actions,
    new_game,
    ranking,
)
from firmware_py.rules.solver import longest_train
from roundhouse.errors import RoundhouseError


class BotError(RoundhouseError):
    """A bot that does not exist, or a match that cannot be played."""


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, state: State, rng: random.Random) -> Action:
        """One of `legal_actions(state)` for the seat to act (hands known)."""
        ...


def reveal(state: State, seat: int) -> Reveal:
    """Open hands, round over: the tiles a bot shows, which are the ones it holds.

    `state` is the bots' own view with every hand known; the table it plays at only
    counts tiles, so it learns them from this.
    """
    return Reveal(seat, state.hands[seat] or ())


class RandomBot:
    """Any legal action, each as likely as the next."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        return rng.choice(legal_actions(state))


PLAN_TILES = 20


class GreedyBot:
    """Sheds heavy tiles early and keeps its own train alive.

    It plans the longest chain its hand can lay on its own train (`longest_train`) and
    saves those tiles: it plays the others first wherever it may (the Mexican train,
    open trains, doubles it can follow), and lays its plan on its own train when nothing
    else fits or its marker is up. On a `train` first turn it lays the whole plan.
    """

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> Action:
        legal = tuple(legal_actions(state))
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            # Drawing is always worth more than passing: the drawn tile may fit.
            return next((a for a in legal if isinstance(a, Draw)), legal[0])
        seat = plays[0].seat
        hand = state.hands[seat] or ()
        own = state.trains[seat]
        # The solver's time grows quickly past about 20 tiles; a hand that large plans
        # with its heaviest tiles, the ones it most wants to shed.
        planned = sorted(hand, key=lambda t: -t.pips)[:PLAN_TILES]
        plan = longest_train(planned, own.ends()[0][1])
        head = plan[0].tile if plan else None
        if state.options.first_turn == "train" and not state.first_turn_done[seat]:
            line = next((a for a in plays if a.tile is head and a.train == seat), None)
            if line is not None:
                return line
            end_line = next((a for a in legal if isinstance(a, Pass)), None)
            if end_line is not None and state.trains[seat].tiles:
                return end_line
        saved = {laid.tile for laid in plan}

        def worth(play: Play) -> tuple[int, int]:
            tile = play.tile
            on_plan = play.train == seat and tile is head
            if tile.is_double and _can_follow(hand, tile) and (on_plan or tile not in saved):
                rank = 4  # a double earns another tile this turn
            elif on_plan:
                rank = 3 if own.open else 1  # taking the marker off comes first
            elif tile not in saved and play.train != seat:
                rank = 2
            else:
                rank = 0  # breaks the plan
            return rank, tile.pips

        return max(plays, key=worth)


def _can_follow(hand: Sequence[Tile], double: Tile) -> bool:
    """After laying `double` the hand is empty or still has a tile to satisfy it."""
    return len(hand) == 1 or any(t is not double and t.matches(double.high) for t in hand)


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    """A bot by name; `BotError` lists the names there are."""
    factory = BOTS.get(name)
    if factory is None:
        raise BotError(f"no bot named {name!r}; bots: {', '.join(BOTS)}")
    return factory()


# ---- playing games ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """A finished game: scores per round and seat, totals, and who won."""

    rounds: int
    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    blocked_rounds: int
    winners: tuple[int, ...]  # seats sharing first place after the tie-breaks
    actions: int


@dataclass(frozen=True)
class PlayedGame:
    result: GameResult
    final: State
    history: tuple[Action, ...]  # every action applied, each round's StartRound included


Watcher = Callable[[State, Action, State], None]


def play_game(
    options: Options,
    bots: Sequence[Bot],
    seed: int,
    watch: Watcher | None = None,
) -> PlayedGame:
    """One whole game, a bot per seat, with known hands; deterministic in `seed`.

    `watch(before, action, after)` is called after every action, deals included.
    """
    rng = random.Random(seed)
    state = new_game(options, len(bots))
    history: list[Action] = []
    blocked = 0
    while state.phase != "game_over":
        if state.phase == "play":
            seat = state.turn
            assert seat is not None
            action = bots[seat].choose(state, rng)
        else:
            action = deal(state, rng.getrandbits(32))
        after = apply(state, action)
        history.append(action)
        if watch is not None:
            watch(state, action, after)
        if after.phase != "play" and state.phase == "play" and after.blocked:
            blocked += 1
        state = after
    result = GameResult(
        rounds=state.round,
        scores=state.scores,
        totals=state.totals,
        blocked_rounds=blocked,
        winners=winners(state),
        actions=sum(1 for a in history if isinstance(a, Play | Draw | Pass)),
    )
    return PlayedGame(result, state, tuple(history))


def winners(state: State) -> tuple[int, ...]:
    """The seats sharing first place in a finished game, after the rules' tie-breaks."""
    assert state.ranking is not None
    first = state.ranking[0]
    # A seat ties with the first when, ranked alone against it and listed first, it
    # still comes first: only the last resort, seat order, could have put it behind.
    return tuple(
        seat
        for seat in state.ranking
        if seat == first
        or ranking(
            state.options,
            tuple((row[seat], row[first]) for row in state.scores),
            (state.totals[seat], state.totals[first]),
        )[0]
        == 0
    )


def play_games(
    options: Options, bots: Sequence[Bot], games: int, seed: int
) -> Iterator[PlayedGame]:
    """`games` games with the same seats, one after another, each with its own seed."""
    seeds = random.Random(seed)
    for _ in range(games):
        yield play_game(options, bots, seeds.getrandbits(64))


def play_match(options: Options, bots: Sequence[Bot], games: int, seed: int) -> list[GameResult]:
    """The results of `play_games`."""
    return [game.result for game in play_games(options, bots, games, seed)]


# ---- `roundhouse simulate` -------------------------------------------------------------


def _refuse(message: str) -> NoReturn:
    print(f"roundhouse simulate: {message}", file=sys.stderr)
    raise SystemExit(2)


def configure_simulate(parser: argparse.ArgumentParser) -> None:
    # Every mistake is one line: argparse's own refusals would print the usage too, and
    # values are checked in run_simulate rather than by argparse for the same reason.
    parser.error = _refuse  # type: ignore[method-assign]
    parser.usage = "%(prog)s --games N --players P --rules PRESET [options]"
    required = parser.add_argument_group("required options")
    required.add_argument("--games", metavar="N", help="how many games to play")
    required.add_argument("--players", metavar="P", help="seats at the table")
    required.add_argument("--rules", metavar="PRESET", help=f"one of: {', '.join(PRESETS)}")
    parser.add_argument("--rounds", metavar="R", help="rounds per game (default: the preset's)")
    parser.add_argument("--set", metavar="N", help="play a double-N set (6, 9, 12, 15 or 18)")
    parser.add_argument(
        "--hand-size", metavar="T", help="tiles per hand instead of the deal table's"
    )
    parser.add_argument(
        "--bots",
        default="greedy",
        help="random or greedy, or one per seat: random,greedy,... (repeated round the table)",
    )
    parser.add_argument("--seed", metavar="S", default="0", help="seed of the deals and bots")
    parser.add_argument("--record", metavar="FILE", help="write the last game as a game record")


def _count(value: str | None, option: str, least: int) -> int:
    if value is None:
        raise BotError(f"{option} is required")
    try:
        number = int(value)
    except ValueError:
        raise BotError(f"{option} takes a whole number, got {value!r}") from None
    if number < least:
        raise BotError(f"{option} must be at least {least}, got {number}")
    return number


@dataclass(frozen=True)
class Simulation:
    options: Options
    bots: tuple[Bot, ...]
    games: int
    seed: int
    record: Path | None


def _simulation(args: argparse.Namespace) -> Simulation:
    missing = [name for name, value in (("--games", args.games), ("--players", args.players),
                                        ("--rules", args.rules)) if value is None]
    if len(missing) > 1:
        raise BotError(f"{' and '.join((', '.join(missing[:-1]), missing[-1]))} are required")
    games = _count(args.games, "--games", 1)
    players = _count(args.players, "--players", 1)
    if args.rules is None:
        raise BotError(f"--rules is required: one of {', '.join(PRESETS)}")
    if args.rules not in PRESETS:
        raise BotError(f"--rules: no preset {args.rules!r}; presets: {', '.join(PRESETS)}")
    overrides: dict[str, int] = {}
    asked = [f"--players {players}"]
    for option, key, value in (
        ("--rounds", "rounds", args.rounds),
        ("--set", "set", args.set),
        ("--hand-size", "hand_size", args.hand_size),
    ):
        if value is not None:
            overrides[key] = _count(value, option, 1)
            asked.append(f"{option} {value}")
    try:
        seed = int(args.seed)
    except ValueError:
        raise BotError(f"--seed takes a whole number, got {args.seed!r}") from None
    try:
        options = Options.preset(args.rules, **overrides)
        options.deal_for(players)
    except RulesError as e:
        # The rounds a game may have depend on the set the player count is dealt.
        raise BotError(f"{' '.join(asked)}: {e}") from None
    names = [n.strip() for n in args.bots.split(",")]
    if not all(names):
        raise BotError(f"--bots: a bot name is missing in {args.bots!r}")
    bots = tuple(make_bot(names[i % len(names)]) for i in range(players))
    record = None if args.record is None else Path(args.record)
    if record is not None and not record.parent.is_dir():
        raise BotError(f"--record: no directory {str(record.parent)!r} to write the record in")
    return Simulation(options, bots, games, seed, record)


def simulate(sim: Simulation) -> tuple[list[GameResult], PlayedGame]:
    """Play the simulation's games: every result, and the last game in full."""
    results: list[GameResult] = []
    last: PlayedGame | None = None
    for last in play_games(sim.options, sim.bots, sim.games, sim.seed):
        results.append(last.result)
    if last is None:
        raise BotError("a simulation plays at least one game")
    return results, last


def run_simulate(args: argparse.Namespace) -> int:
    try:
        sim = _simulation(args)
    except BotError as e:
        print(f"roundhouse simulate: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    results, last = simulate(sim)
    print(summary(sim, results, time.perf_counter() - start))
    if sim.record is not None:
        from firmware_py.record import record_from_game, write_record

        try:
            write_record(record_from_game(sim.options, len(sim.bots), last.history), sim.record)
        except OSError as e:
            print(f"roundhouse simulate: --record: {e.strerror}: {sim.record}", file=sys.stderr)
            return 2
        print(f"last game written to {sim.record}")
    return 0


def summary(sim: Simulation, results: Sequence[GameResult], elapsed: float) -> str:
    """The lines `roundhouse simulate` prints."""
    players = len(sim.bots)
    games = len(results)
    rounds = sum(r.rounds for r in results)
    blocked = sum(r.blocked_rounds for r in results)
    means = [sum(r.totals[seat] for r in results) / games for seat in range(players)]
    wins: dict[str, int] = {}
    for r in results:
        for seat in r.winners:
            name = sim.bots[seat].name
            wins[name] = wins.get(name, 0) + 1
    seats = ", ".join(
        f"{seat} ({bot.name}) {mean:.1f}"
        for seat, (bot, mean) in enumerate(zip(sim.bots, means, strict=True))
    )
    shown_wins = ", ".join(
        f"{name} {wins.get(name, 0)}" for name in dict.fromkeys(b.name for b in sim.bots)
    )
    return "\n".join(
        [
            f"games: {games} ({sim.options.name}, {players} players, seed {sim.seed})",
            f"rounds: {rounds} ({blocked} blocked)",
            f"mean game total by seat: {seats}",
            f"wins per bot (shared first places count for each): {shown_wins}",
            f"speed: {rounds / elapsed:.0f} rounds/s" if elapsed > 0 else "speed: -",
        ]
    )
