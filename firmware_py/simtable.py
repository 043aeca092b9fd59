"""`roundhouse sim`: the whole table on simulated hardware, with bots at every seat.

The real service runs on `hardware.sim.SimulatedTable`: mock seat buttons and fake RFID
readers writing real frames. Bots sit at every seat and act only as players would:
pressing DRAW and PASS, tapping tiles on the pads, putting their markers out. They know
their own hands because the simulator deals the physical tiles; the table learns only
what it senses. The table and wall screens follow the view socket as windows, or, with
no screen, headless into folders of PNG frames.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from firmware_py import RoundhouseError
from firmware_py.render import render
from firmware_py.rules import (
    MEXICAN,
    PRESETS,
    Draw,
    Pass,
    Play,
    StartRound,
    State,
    Tile,
    apply,
    deal,
    new_game,
)
from hardware import HardwareError
from hardware.events import Button

if TYPE_CHECKING:
    from firmware_py.bots import Bot
    from firmware_py.config import Config
    from firmware_py.table import Game, Moment, Table
    from hardware.sim import SimulatedTable

NAMES = ("Ana", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu", "Mo", "Ned")
ANSWER_TIMEOUT_S = 10.0
SCREEN_LINGER_S = 5.0
FRAMES_LINGER_S = 1.0
POLL_S = 0.001


class Hardware(Protocol):
    """What players do at the table (`hardware.sim.SimulatedTable` does it for real)."""

    def press(self, seat: int, button: Button) -> None: ...
    def hold(self, seat: int, button: Button) -> None: ...
    def tap(self, pad: str, tag: str) -> None: ...
    def place(self, pad: str, tag: str) -> None: ...
    def lift(self, pad: str, tag: str) -> None: ...


class SimError(RoundhouseError):
    """The simulated game cannot go on (the table refused a bot or stopped answering)."""


DEMO_ROUNDS = 2
DEMO_SPEED = 4.0


def configure_sim(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=4, metavar="N",
                        help="players at the table, 2 to 14 (default: 4)")
    parser.add_argument("--rules", default=None, metavar="PRESET",
                        help="a preset: " + ", ".join(PRESETS) + " (default: classic)")
    parser.add_argument(
        "--hand-mode", choices=("open", "tracked"), default="open",
        help="open: only plays are tapped, and each seat's leftover tiles at the end of a "
        "round; tracked: every tile dealt and drawn is tapped too (default: open)",
    )
    parser.add_argument("--full", action="store_true",
                        help="play the whole game, every round of the preset, instead of the "
                        f"one-minute demo of {DEMO_ROUNDS} rounds")
    parser.add_argument("--rounds", type=int, default=None, metavar="R",
                        help=f"rounds per game (default: {DEMO_ROUNDS}, or the preset's with "
                        "--full)")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="games to play, 0 for no end (default: 1)")
    parser.add_argument(
        "--speed", type=float, default=DEMO_SPEED, metavar="MOVES",
        help=f"bot moves per second, 0 for as fast as possible (default: {DEMO_SPEED:g})",
    )
    parser.add_argument("--bots", default="greedy",
                        help="random or greedy, or one per seat: a,b,c (default: greedy)")
    parser.add_argument("--seed", type=int, default=None,
                        help="shuffle seed (default: a new one, printed at the start)")
    parser.add_argument(
        "--db", type=Path, default=None, metavar="PATH",
        help="journal database (default: a new one in a fresh temporary folder)",
    )
    parser.add_argument(
        "--frames", type=Path, default=None, metavar="DIR",
        help="run headless and keep the screens' PNGs in DIR (default: headless only "
        "without a screen, its frames in a temporary folder removed at the end)",
    )
    parser.add_argument("--headless", action="store_true", help="no windows even with a screen")
    parser.add_argument(
        "--move-aside", action="store_true",
        help="if --db is unreadable or foreign, rename it NAME.broken-DATE and start afresh",
    )


def run_sim(args: argparse.Namespace) -> int:
    from firmware_py.config import ConfigError

    try:
        if args.speed < 0:
            raise SimError(f"--speed takes moves per second, 0 or more, got {args.speed:g}")
        config, workdir = sim_config(args)
        bots = _bots(args.bots, args.seats)
        _check_journal(config.database, len(config.seats))
    except (ConfigError, SimError) as err:
        print(f"roundhouse sim: {err}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(_plan(config, bots, args, seed))
    screen = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    frames = None
    keep_frames = args.frames is not None
    if args.headless or keep_frames or not screen:
        frames = (args.frames or workdir / "frames").resolve()
        reason = "as asked" if screen else "no screen ($DISPLAY and $WAYLAND_DISPLAY unset)"
        where = "" if keep_frames else " (removed at the end; --frames DIR keeps them)"
        print(f"Running headless ({reason}): PNG frames go to {frames}/table and "
              f"{frames}/wall{where}")
    print(f"Seed: {seed} (--seed {seed} plays this game again)")
    print(f"Journal: {config.database}")
    try:
        with _stopped_by_sigterm():
            simulate(
                config,
                bots,
                seed=seed,
                pace=1.0 / args.speed if args.speed > 0 else 0.0,
                games=args.games,
                frames=frames,
                screens=True,
                move_aside=args.move_aside,
                say=print,
            )
    except (RoundhouseError, HardwareError) as err:
        print(f"roundhouse sim: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Stopped: the screens are closed")
        return 130
    finally:
        if frames is not None and not keep_frames:
            shutil.rmtree(frames, ignore_errors=True)
    print(f"Journal: {config.database} (roundhouse games --db {config.database})")
    if keep_frames:
        print(f"Frames: {frames}/table and {frames}/wall")
    return 0


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM (and SIGHUP: the terminal closed) end the sim as Ctrl-C does, so the
    screens it started close with it."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    stops = (signal.SIGTERM, signal.SIGHUP)
    try:
        previous = [signal.signal(signum, interrupt) for signum in stops]
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for signum, handler in zip(stops, previous, strict=True):
            signal.signal(signum, handler)


def _plan(config: Config, bots: Sequence[Bot], args: argparse.Namespace, seed: int) -> str:
    """What the sim plays and about how long it takes: the same game played by the bots
    alone gives the number of moves, the speed their time, the held buttons the rest."""
    from firmware_py.rules import Options

    options = Options.from_json(config.rules)
    rounds = options.rounds or options.deal_for(len(bots))[0] + 1
    preset = config.rules if isinstance(config.rules, str) else str(config.rules["preset"])
    demo = not args.full and args.rounds is None
    what = "Demo" if demo else "Game"
    line = (f"{what}: {len(bots)} bots play {rounds} round{'s' if rounds != 1 else ''} of "
            f"{preset} ({args.hand_mode} hands)")
    if args.speed <= 0:
        line += " as fast as they can"
    else:
        seconds = estimate(config, bots, args.speed, seed)
        moves = "move" if args.speed == 1 else "moves"
        line += f" at {args.speed:g} {moves} a second: about {_duration(seconds)}"
    if args.games != 1:
        line += ", game after game" if args.games == 0 else f", {args.games} games"
    if demo:
        line += ". The whole game: roundhouse sim --full"
    return line


def estimate(config: Config, bots: Sequence[Bot], speed: float, seed: int) -> float:
    """Seconds one game takes at `speed`: its moves played by the same bots off the
    table, the held DRAW that starts the game and each round, the screens' last look."""
    from firmware_py.bots import play_game
    from firmware_py.rules import Options

    played = play_game(Options.from_json(config.rules), bots, seed).result
    held = (config.draw_hold_s + 1.0) * (played.rounds + 1)
    return played.actions / speed + held + SCREEN_LINGER_S


def _duration(seconds: float) -> str:
    if seconds < 45:
        return f"{max(5, round(seconds / 5) * 5)} seconds"
    if seconds < 90:
        return "a minute"
    return f"{round(seconds / 60)} minutes"


def _check_journal(path: Path, seats: int) -> None:
    """A journal of another table: refused before it is touched (the service would make
    the game on the journal's seats with this table's names and buttons)."""
    from firmware_py.journal import Journal, JournalError

    if not path.exists():
        return
    try:
        journal = Journal(path)
    except JournalError:
        return  # the service names what is wrong with it, and --move-aside
    try:
        games = journal.games()
    finally:
        journal.close()
    if games and len(games[-1].players) != seats:
        theirs = len(games[-1].players)
        raise SimError(
            f"{path} holds a game of {theirs} seats ({', '.join(games[-1].players)}): "
            f"give --seats {theirs}, or another --db for {seats} seats"
        )


def sim_config(args: argparse.Namespace) -> tuple[Config, Path]:
    """The shipped simulated table's configuration with the command's choices."""
    from firmware_py.config import (
        ConfigError,
        ReaderConfig,
        SeatConfig,
        example_config,
        load_config,
    )
    from hardware.sim import SIM_PINS

    most = min(len(NAMES), len(SIM_PINS) // 2)  # two buttons a seat
    if not 2 <= args.seats <= most:
        raise SimError(f"--seats takes 2 to {most}, got {args.seats}")
    if args.rounds is not None and args.full:
        raise SimError("--full plays every round of the preset: it does not go with --rounds")
    base = load_config(example_config("sim"))
    rules: str | dict[str, object] = args.rules or base.rules
    rounds = args.rounds
    if rounds is None and not args.full:
        rounds = DEMO_ROUNDS
    if rounds is not None:
        preset = rules if isinstance(rules, str) else str(rules["preset"])
        extra = {} if isinstance(rules, str) else dict(rules)
        rules = extra | {"preset": preset, "rounds": rounds}
    from firmware_py.rules import Options, RulesError

    try:
        Options.from_json(rules).deal_for(args.seats)
    except RulesError as err:
        raise ConfigError([f"--rules/--rounds/--seats: {err}"]) from err
    workdir = Path(tempfile.mkdtemp(prefix="roundhouse-sim-"))
    seats = tuple(SeatConfig(i, NAMES[i], 100 + 2 * i, 101 + 2 * i) for i in range(args.seats))
    pads = [str(i) for i in range(args.seats)] + [MEXICAN]
    readers = tuple(ReaderConfig(pad, "loop://", "rdm6300") for pad in pads)
    config = dataclasses.replace(
        base,
        seats=seats,
        readers=readers,
        rules=rules,
        hand_mode=args.hand_mode,
        database=(args.db or workdir / "sim.db").expanduser().resolve(),
        socket=workdir / "view.sock",
        watchdog=False,
    )
    return config, workdir


def _bots(spec: str, seats: int) -> list[Bot]:
    from firmware_py.bots import make_bot

    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise SimError("--bots needs at least one bot name")
    try:
        return [make_bot(names[i % len(names)]) for i in range(seats)]
    except (KeyError, ValueError, RoundhouseError) as err:
        raise SimError(f"--bots: {err}") from err


def simulate(
    config: Config,
    bots: Sequence[Bot],
    *,
    seed: int,
    pace: float = 0.0,
    games: int = 1,
    frames: Path | None = None,
    screens: bool = False,
    move_aside: bool = False,
    say: Callable[[str], None] = lambda _: None,
) -> list[str]:
    """Run the service on a simulated table until `games` games are over (0: until the
    service stops); returns one line per finished game."""
    from firmware_py.daemon import Service
    from hardware.sim import SimulatedTable

    # Flat out, a hold is as short as the buttons allow and a tag leaves a pad quickly.
    hold_s = (config.draw_hold_s, config.pass_hold_s) if pace else (0.05, 0.05)
    removal_ms = 300 if pace else 60
    service = Service(config, attach_hardware=False, move_aside=move_aside)
    service.start()
    hardware: SimulatedTable | None = None
    children: list[subprocess.Popen[bytes]] = []
    try:
        hardware = SimulatedTable(
            len(config.seats),
            [r.pad for r in config.readers],
            service.events,
            registry=service.registry,
            # The simulated pads speak one protocol: the configuration's first reader's.
            protocol=config.readers[0].protocol if config.readers else "rdm6300",
            set_size=_largest_set(config),
            removal_ms=removal_ms,
            draw_hold_s=hold_s[0],
            pass_hold_s=hold_s[1],
        )
        hardware.enroll_set()
        if screens:
            children = _start_screens(config, frames)
        driver = Driver(
            service.table,
            hardware,
            bots,
            random.Random(seed),
            pace=pace,
            # Past the reader's removal time, with room for a busy machine.
            retap_s=removal_ms / 1000 + 0.25,
            marker_pads={r.pad for r in config.readers if r.markers},
            say=say,
        )

        def stopped() -> bool:
            if any(child.poll() == 0 for child in children):
                # A window was closed (Q, Esc or its close button): the sim ends with it.
                say("A screen was closed: the sim ends")
                return True
            return service.finished.is_set()

        results = driver.play(games, stopped=stopped)
        if children and not any(child.poll() is not None for child in children):
            # The screens draw the final ranking before they close.
            time.sleep(SCREEN_LINGER_S if frames is None else FRAMES_LINGER_S)
        return results
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
        if hardware is not None:
            hardware.close()
        service.stop()


def _largest_set(config: Config) -> int:
    """The largest set any preset of the table deals for its seats (so every tile of
    any game there has a tag)."""
    from firmware_py.rules import Options, RulesError

    sizes = [12]
    for rules in (config.rules, *config.presets):
        try:
            sizes.append(Options.from_json(rules).deal_for(len(config.seats))[0])
        except RulesError:
            continue
    return max(sizes)


def _start_screens(config: Config, frames: Path | None) -> list[subprocess.Popen[bytes]]:
    """The table and wall screens, each a `roundhouse display` process on the socket."""
    children = []
    env = dict(os.environ)
    if frames is not None:
        env["SDL_VIDEODRIVER"] = "dummy"
    for view, screen in (("table", config.display.table), ("wall", config.display.wall)):
        command = [sys.executable, "-m", "firmware_py.cli", "display", "--view", view]
        command += ["--socket", str(config.socket), "--size", f"{screen.width}x{screen.height}"]
        if frames is not None:
            (frames / view).mkdir(parents=True, exist_ok=True)
            command += ["--frames", str(frames / view)]
        children.append(subprocess.Popen(command, env=env))
    return children


class Driver:
    """Plays whole games at a table: what the bots decide becomes presses and taps on
    `hardware` (a `SimulatedTable`, or anything with its `press`, `hold`, `tap`,
    `place` and `lift`), and each one waits until the table has taken it."""

    def __init__(
        self,
        table: Table,
        hardware: Hardware,
        bots: Sequence[Bot],
        rng: random.Random,
        *,
        pace: float = 0.0,
        retap_s: float = 0.0,
        marker_pads: Collection[str] | None = None,
        say: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.table = table
        # Players lay their marker on their pad only where it is read (None: every pad):
        # on a pad reading one tag at a time it would hide the tiles tapped there.
        self.marker_pads = marker_pads
        self.hardware = hardware
        self.bots = bots
        self.rng = rng
        self.pace = pace
        self.say = say
        # The tiles as they really lie: every hand known. With tracked hands the table
        # knows them too; with open hands only this game does.
        self.shadow: State | None = None
        self.dealing: StartRound | None = None  # tracked hands: the deal being tapped
        self.boneyard: list[Tile] = []  # face down, in the order they will be drawn
        self.markers_out: set[int] = set()  # table seats whose marker lies on their pad
        # A reader reports a tag once while it stays: the same tile tapped again on the
        # same pad (drawn, then played) must wait until the pad has let go of it.
        self.retap_s = retap_s
        self._tapped: dict[tuple[str, str], float] = {}

    # --- the game loop ---------------------------------------------------------------

    def play(self, games: int, *, stopped: Callable[[], bool] = lambda: False) -> list[str]:
        """Play until `games` games are over (0: until `stopped`); one line per game."""
        results: list[str] = []
        self._take_over()
        while not stopped():
            game, m = self.table.game, self.table.moment
            if game is None or m is None:
                self._lobby()
            elif m.stage == "over":
                self.say(self._round_line(game, m))
                results.append(self._result(game, m))
                self.say(f"Game {len(results)}: {results[-1]}")
                if games and len(results) >= games:
                    break
                self.shadow = None
                self._input(self.hardware.hold, game.seats[0], Button.DRAW)
            else:
                self._step(game, m)
        return results

    def _take_over(self) -> None:
        """A journal's unfinished game: with tracked hands the table knows every hand and
        play goes on (the face-down tiles are shuffled again); with open hands nobody
        knows them any more, so the game is abandoned with the new-game card. A game
        already over (its ranking still up) is not played again: a new one starts."""
        game, m = self.table.game, self.table.moment
        if game is None or m is None:
            return
        if m.stage == "over":
            self.say("The last game is over: a new one with the same seats")
            self._input(self.hardware.hold, game.seats[0], Button.DRAW)
            return
        if game.tracked and m.stage in ("play", "reveal", "summary"):
            state = m.state
            seen = {t for hand in state.hands for t in hand or ()}
            for train in state.trains.values():
                seen.update(train.all_tiles())
            if state.engine_laid and state.engine is not None:
                seen.add(state.engine)
            self.boneyard = [t for t in game.set_tiles() if t not in seen]
            self.rng.shuffle(self.boneyard)
            self.say(f"Going on with the unfinished game: round {state.round}")
            return
        self.say("The unfinished game's hands are unknown to the bots: abandoning it")
        self._input(self._tap, MEXICAN, "card:new_game", refusal_expected=True)
        self._input(self._tap, MEXICAN, "card:new_game")

    def _lobby(self) -> None:
        joined = self.table.joined
        for seat in self.table.seat_numbers:
            if seat not in joined:
                self._input(self.hardware.press, seat, Button.DRAW, pause=False)
                return
        self._input(self.hardware.hold, joined[0], Button.DRAW)

    def _step(self, game: Game, m: Moment) -> None:
        seats = game.seats
        if m.stage == "lead":
            leader = self.rng.choice(seats)
            self._input(self.hardware.press, leader, Button.DRAW)
        elif m.stage == "deal":
            self._deal(game, m)
        elif m.stage == "hunt":
            self._hunt(game, m)
        elif m.stage == "reveal":
            self._reveal(game, m)
        elif m.stage == "summary":
            self._check_scores(game, m)
            self.say(self._round_line(game, m))
            self._input(self.hardware.hold, seats[0], Button.DRAW)
        else:
            self._move(game, m)

    @staticmethod
    def _round_line(game: Game, m: Moment) -> str:
        """The round just scored: who went out (or that it was blocked), every seat's
        points and running total."""
        state = m.state
        how = (f"{game.names[state.went_out]} went out" if state.went_out is not None
               else "blocked")
        scores = ", ".join(f"{name} {row} ({total})" for name, row, total in
                           zip(game.names, state.scores[-1], state.totals, strict=True))
        return f"Round {len(state.scores)} ({how}): {scores}"

    @staticmethod
    def _result(game: Game, m: Moment) -> str:
        state = m.state
        ranking = state.ranking or ()
        totals = ", ".join(f"{game.names[e]} {state.totals[e]}" for e in ranking)
        return f"{game.names[ranking[0]] if ranking else 'nobody'} wins ({totals})"

    # --- dealing ---------------------------------------------------------------------

    def _shuffle(self, before: State) -> StartRound:
        start = deal(before, self.rng.randrange(2**32))
        self.boneyard = list(start.boneyard or ())
        for seat in self.markers_out:  # a new round starts with every train closed
            self.hardware.lift(str(seat), f"marker:{seat}")
        self.markers_out.clear()
        return start

    def _deal(self, game: Game, m: Moment) -> None:
        """Tracked hands: every seat taps the tiles dealt to it on its own pad."""
        if self.dealing is None or not any(m.dealt):
            self.dealing = self._shuffle(m.state)
        for e, hand in enumerate(self.dealing.hands or ()):
            assert isinstance(hand, tuple)
            missing = [t for t in hand if t not in m.dealt[e]]
            if missing:
                pad, tile = str(game.seats[e]), str(missing[0])
                self._input(self._tap, pad, tile, pause=False)
                return

    def _open_shadow(self, game: Game, m: Moment) -> State:
        """Open hands: deal the real tiles when the table starts a round."""
        upcoming = m.state.round + (m.stage == "hunt")
        if self.shadow is None or self.shadow.round < upcoming:
            before = self.shadow or new_game(game.options, game.players)
            if before.round and before.phase != "round_over":
                raise SimError("the table started a round the tiles had not finished")
            start = self._shuffle(before)
            self.shadow = apply(before, start._replace(starter=m.starter))
        return self.shadow

    def _hunt(self, game: Game, m: Moment) -> None:
        """Open hands under `engine: holder`: its holder taps the engine, or seats draw
        in turn until one draws it."""
        shadow = self._open_shadow(game, m)
        if shadow.engine_laid:
            pad, engine = str(game.seats[shadow.turn or 0]), str(shadow.engine)
            self._input(self._tap, pad, engine)
            return
        hunter = m.hunter or 0
        self._input(self.hardware.press, game.seats[hunter], Button.DRAW)
        self.shadow = apply(shadow, Draw(hunter, self.boneyard.pop(0)))

    def _reveal(self, game: Game, m: Moment) -> None:
        """Open hands, round over: each seat taps its leftover tiles, then PASS."""
        from firmware_py.bots import reveal

        assert self.shadow is not None
        e = m.state.awaiting_reveal[0]
        seat = game.seats[e]
        shown = m.shown[e] if m.shown else ()
        missing = [t for t in reveal(self.shadow, e).tiles if t not in shown]
        if missing:
            pad, tile = str(seat), str(missing[0])
            self._input(self._tap, pad, tile, pause=False)
        else:
            self._input(self.hardware.press, seat, Button.PASS)

    def _check_scores(self, game: Game, m: Moment) -> None:
        if game.tracked or self.shadow is None:
            return
        if self.shadow.scores != m.state.scores:
            raise SimError(
                f"the table scored round {m.state.round} {list(m.state.scores[-1])}, "
                f"the tiles left say {list(self.shadow.scores[-1])}"
            )

    # --- playing ---------------------------------------------------------------------

    def _move(self, game: Game, m: Moment) -> None:
        shadow = m.state if game.tracked else self._open_shadow(game, m)
        turn = m.state.turn
        if turn is not None and shadow.phase != "play" and shadow.blocked:
            # The tiles say nobody can play; the table, seeing no hands, asks every seat
            # to pass once more after a marker opened a train.
            self._input(self.hardware.press, game.seats[turn], Button.PASS)
            self._markers(game)
            return
        if turn is None or shadow.turn != turn:
            raise SimError(f"the table says it is seat {turn}'s turn, the tiles say {shadow.turn}")
        seat = game.seats[turn]
        if m.drawing is not None:
            tile = str(self.boneyard.pop(0))
            self._input(self._tap, str(seat), tile, pause=False)
            return
        action = self.bots[turn].choose(shadow, self.rng)
        if isinstance(action, Play):
            pad = MEXICAN if action.train == MEXICAN else str(game.seats[int(action.train)])
            tile = str(action.tile)
            self._input(self._tap, pad, tile)
        elif isinstance(action, Draw | Pass):
            button = Button.DRAW if isinstance(action, Draw) else Button.PASS
            self._input(self.hardware.press, seat, button)
        else:
            raise SimError(f"a bot chose {action!r} during play")
        if not game.tracked:
            self._follow(game)
        self._markers(game)

    def _follow(self, game: Game) -> None:
        """Open hands: the real tiles follow what the table accepted."""
        m = self.table.moment
        assert m is not None and m.steps is not None and self.shadow is not None
        action = m.steps.action
        if isinstance(action, Draw):
            self.shadow = apply(self.shadow, Draw(action.seat, self.boneyard.pop(0)))
            if self.shadow.turn != m.state.turn:
                # The drawn tile does not fit: the player sees it and passes.
                seat = game.seats[action.seat]
                self._input(self.hardware.press, seat, Button.PASS)
        elif isinstance(action, Play | Pass):
            self.shadow = apply(self.shadow, action)

    def _markers(self, game: Game) -> None:
        """Players put their marker out when their train opens and take it back."""
        m = self.table.moment
        if m is None or m.stage != "play":
            return
        for e, seat in enumerate(game.seats):
            if self.marker_pads is not None and str(seat) not in self.marker_pads:
                continue
            is_open = m.state.trains[e].open
            if is_open and seat not in self.markers_out:
                self.hardware.place(str(seat), f"marker:{seat}")
                self.markers_out.add(seat)
            elif not is_open and seat in self.markers_out:
                self.hardware.lift(str(seat), f"marker:{seat}")
                self.markers_out.discard(seat)

    # --- talking to the table --------------------------------------------------------

    def _tap(self, pad: str, tile: str) -> None:
        at = self._tapped.get((pad, tile))
        if at is not None:
            time.sleep(max(0.0, at + self.retap_s - time.monotonic()))
        self.hardware.tap(pad, tile)
        self._tapped[(pad, tile)] = time.monotonic()

    def _input(
        self,
        act: Callable[..., object],
        *args: object,
        pause: bool = True,
        refusal_expected: bool = False,
    ) -> None:
        """Do one thing at the table and wait until the table has taken it (or, when
        `refusal_expected`, answered it)."""
        if pause and self.pace:
            time.sleep(self.pace)
        table = self.table
        before = (table.moment, table.rejection, table.game)
        joined = table.joined
        act(*args)
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while table.joined == joined and all(
            now is then
            for now, then in zip((table.moment, table.rejection, table.game), before, strict=True)
        ):
            if time.monotonic() > deadline:
                raise SimError("the table did not answer a bot within 10 s")
            time.sleep(POLL_S)
        rejection = table.rejection
        if rejection is not None and rejection is not before[1] and not refusal_expected:
            raise SimError(f"the table refused a bot: {render(rejection['message'], 'en')}")
