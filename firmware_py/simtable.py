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
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from firmware_py.config import RDM6300_REMOVAL_MS
from firmware_py.intents import SAME_DIP_S
from firmware_py.rules import (
    PRESETS,
    Draw,
    Options,
    Pass,
    Play,
    StartRound,
    State,
    Tile,
    apply,
    deal,
    new_game,
)
from hardware.events import Button
from roundhouse.errors import RoundhouseError
from roundhouse.feed import ViewFeed
from roundhouse.render import render
from roundhouse.view import Stage, View
from roundhouse.vocabulary import MEXICAN, REMOVAL_MS

if TYPE_CHECKING:
    from firmware_py.bots import Bot
    from firmware_py.config import Config
    from hardware.sim import SimulatedTable

NAMES = ("Ana", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu", "Mo", "Ned")
# A table that stops answering is a fault; one slow under load is not (on a busy disk
# the journal's fsync alone can take seconds), and a bot waits for it as a player would.
ANSWER_TIMEOUT_S = 30.0
SCREEN_LINGER_S = 5.0
FRAMES_LINGER_S = 1.0
# The shortest hold the configuration check allows (buttons.draw_hold_s, pass_hold_s).
SHORTEST_HOLD_S = 0.3
# A tile laid again on a pad waits this much longer than the table's same-dip time after
# its reader reported it removed.
RETAP_MARGIN_S = 0.05


class Hardware(Protocol):
    """What players do at the table (`hardware.sim.SimulatedTable` does it for real)."""

    def press(self, seat: int, button: Button) -> None: ...
    def hold(self, seat: int, button: Button) -> None: ...
    def tap(self, pad: str, tag: str) -> None: ...
    def let_go(self, pad: str, tag: str) -> float | None: ...
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
        "--socket", type=Path, default=None, metavar="PATH",
        help="the view socket, for other screens or `roundhouse web` to follow (default: "
        "one in the temporary folder)",
    )
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
    if frames is not None:
        try:
            for view in ("table", "wall"):
                (frames / view).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            print(f"roundhouse sim: --frames {args.frames or frames}: cannot keep the "
                  f"screens' pictures there ({err.strerror}); name a folder that can be "
                  "made", file=sys.stderr)
            return 2
        if args.games == 0:
            print(f"No end (--games 0): each screen keeps its newest {ENDLESS_FRAMES} "
                  "frames")
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
    except RoundhouseError as err:
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
    config = replace(
        base,
        seats=seats,
        readers=readers,
        rules=rules,
        hand_mode=args.hand_mode,
        database=(args.db or workdir / "sim.db").expanduser().resolve(),
        socket=(args.socket or workdir / "view.sock").expanduser().resolve(),
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

    # Flat out, a hold is as short and a tag leaves a pad as quickly as the configuration
    # check allows a real table.
    hold_s = (config.draw_hold_s, config.pass_hold_s) if pace else (SHORTEST_HOLD_S,) * 2
    removal_ms = REMOVAL_MS if pace else RDM6300_REMOVAL_MS
    service = Service(config, attach_hardware=False, move_aside=move_aside)
    service.start()
    hardware: SimulatedTable | None = None
    children: list[subprocess.Popen[bytes]] = []
    # The bots follow the table as the screens do, through its view socket.
    feed = ViewFeed(str(config.socket), backoff=(0.05, 0.5))
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
            children = _start_screens(config, frames, endless=games == 0)
        driver = Driver(
            feed,
            hardware,
            bots,
            random.Random(seed),
            options=Options.from_json(config.rules),
            chairs={s.name: s.seat for s in config.seats},
            pace=pace,
            marker_pads={r.pad for r in config.readers if r.markers},
            say=say,
            table_stopped=lambda: service.failure is not None,
        )

        def stopped() -> bool:
            if any(child.poll() == 0 for child in children):
                # A window was closed (Q, Esc or its close button): the sim ends with it.
                say("A screen was closed: the sim ends")
                return True
            return service.finished.is_set()

        try:
            results = driver.play(games, stopped=stopped)
        finally:
            # A sim that played fewer games than asked must not end as if all went well,
            # nor blame the bots for the table's fault.
            if service.failure is not None:
                raise SimError(f"the table stopped on an unexpected error "
                               f"({service.failure!r}): the log above says where") from None
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
        feed.close()
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


# Frames each headless screen keeps of a sim with no end (--games 0): the newest ones.
ENDLESS_FRAMES = 200


def _start_screens(config: Config, frames: Path | None,
                   endless: bool = False) -> list[subprocess.Popen[bytes]]:
    """The table and wall screens, each a `roundhouse display` process on the socket
    that ends with this process, however it ends (a `kill -9` too)."""
    children = []
    env = dict(os.environ)
    if frames is not None:
        env["SDL_VIDEODRIVER"] = "dummy"
    for view, screen in (("table", config.display.table), ("wall", config.display.wall)):
        command = [sys.executable, "-m", "firmware_py.cli", "display", "--view", view,
                   "--parent", str(os.getpid())]
        command += ["--socket", str(config.socket), "--size", f"{screen.width}x{screen.height}"]
        if frames is not None:
            command += ["--frames", str(frames / view)]
            if endless:
                command += ["--keep-frames", str(ENDLESS_FRAMES)]
        children.append(subprocess.Popen(command, env=env))
    return children


class ViewSource(Protocol):
    """The table's published views, as a screen follows them."""

    def poll(self, timeout: float) -> View | None:
        """The newest view published since the last call, waiting at most `timeout`
        seconds for one; None when none came."""
        ...


def _game_part(view: View) -> View:
    """What a player's input changes: the view without its sequence number and what the
    pads sense (a marker laid or lifted, a reader coming or going)."""
    return replace(view, seq=0, readers=(), alerts=(),
                   seats=tuple(replace(s, marker_sensed=None) for s in view.seats))


class Driver:
    """Plays whole games at a table as players would: the bots look at the published
    views, act only when a view shows it is their turn to act, and act only through
    `hardware` (a `SimulatedTable`, or anything with its `press`, `hold`, `tap`, `place`
    and `lift`): presses, holds, taps and markers. After each input they wait until the
    view shows it was taken, as a player watches the screen.

    The bots know their own hands because the simulator deals the physical tiles: it
    keeps the real game (`shadow`, every hand known) beside the table's, and checks at
    every view that the two agree."""

    def __init__(
        self,
        views: ViewSource,
        hardware: Hardware,
        bots: Sequence[Bot],
        rng: random.Random,
        *,
        options: Options,
        chairs: Mapping[str, int],
        pace: float = 0.0,
        marker_pads: Collection[str] | None = None,
        say: Callable[[str], None] = lambda _: None,
        table_stopped: Callable[[], bool] = lambda: False,
    ) -> None:
        """`chairs`: the table seat (its buttons and pad) of each seat's name;
        `table_stopped` says the table will answer no more (the bots stop waiting)."""
        self.table_stopped = table_stopped
        self.views = views
        self.hardware = hardware
        self.bots = bots
        self.rng = rng
        self.options = options
        self.chairs = chairs
        self.pace = pace
        # Players lay their marker on their pad only where it is read (None: every pad):
        # on a pad reading one tag at a time it would hide the tiles tapped there.
        self.marker_pads = marker_pads
        self.say = say
        self.view: View | None = None
        # The tiles as they really lie: every hand known, whatever the table knows.
        self.shadow: State | None = None
        self.dealt_for = 0  # the round the physical tiles were last dealt for
        self.hands: tuple[tuple[Tile, ...], ...] = ()  # as dealt, for that round
        self.boneyard: list[Tile] = []  # face down, in the order they will be drawn
        self.tapped: list[list[Tile]] = []  # tracked deal / reveal: tiles each seat tapped
        self.drawing = False  # tracked hands: DRAW pressed, the drawn tile not yet tapped
        self.markers_out: set[int] = set()  # table seats whose marker lies on their pad
        self._stages: dict[Stage, Callable[[View], None]] = {
            Stage.LOBBY: self._lobby,
            Stage.LEAD: self._lead,
            Stage.DEAL: self._deal,
            Stage.HUNT: self._hunt,
            Stage.PLAY: self._play,
            Stage.REVEAL: self._reveal,
            Stage.SUMMARY: self._summary,
        }

    # --- the game loop ---------------------------------------------------------------

    def play(self, games: int, *, stopped: Callable[[], bool] = lambda: False) -> list[str]:
        """Play until `games` games are over (0: until `stopped`); one line per game."""
        results: list[str] = []
        view = self._first_view()
        self._take_over(view)
        while not stopped():
            view = self._current()
            if view.stage is Stage.OVER:
                self.say(_round_line(view))
                results.append(_result(view))
                self.say(f"Game {len(results)}: {results[-1]}")
                if games and len(results) >= games:
                    break
                self._new_game(view)
            else:
                self._stages[view.stage](view)
        return results

    def _first_view(self) -> View:
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while self.view is None:
            if self.table_stopped():
                raise SimError("the table stopped")
            if time.monotonic() > deadline:
                raise SimError(f"the table published no view within {ANSWER_TIMEOUT_S:.0f} s")
            self.view = self.views.poll(0.5)
        return self.view

    def _current(self) -> View:
        """The newest view (markers lifted and laid may have changed it since)."""
        news = self.views.poll(0.0)
        if news is not None:
            self.view = news
        assert self.view is not None
        return self.view

    def _take_over(self, view: View) -> None:
        """The bots cannot know the hands of a game journaled before they sat down: an
        unfinished one is abandoned with the new-game card; a game already over (its
        ranking still up) is not played again: a new one starts."""
        if view.stage is Stage.OVER:
            self.say("The last game is over: a new one with the same seats")
            self._new_game(view)
        elif view.stage is not Stage.LOBBY:
            self.say("The unfinished game's hands are unknown to the bots: abandoning it")
            self._input(self._tap, MEXICAN, "card:new_game", refusal_expected=True)
            self._input(self._tap, MEXICAN, "card:new_game")

    def _new_game(self, view: View) -> None:
        self.shadow, self.dealt_for = None, 0
        self._input(self.hardware.hold, self._chair(view, 0), Button.DRAW)

    def _chair(self, view: View, seat: int) -> int:
        """The table seat of a seat of the view."""
        return self.chairs[view.seats[seat].name]

    # --- each stage ------------------------------------------------------------------

    def _lobby(self, view: View) -> None:
        for seat in view.seats:
            if not seat.joined:
                self._input(self.hardware.press, seat.seat, Button.DRAW, pause=False)
                return
        self._input(self.hardware.hold, min(s.seat for s in view.seats), Button.DRAW)

    def _lead(self, view: View) -> None:
        leader = self.rng.randrange(len(view.seats))
        self._input(self.hardware.press, self._chair(view, leader), Button.DRAW)

    def _deal(self, view: View) -> None:
        """Tracked hands: every seat taps the tiles dealt to it on its own pad."""
        self._shuffle(view)
        for e, hand in enumerate(self.hands):
            missing = [t for t in hand if t not in self.tapped[e]]
            if missing:
                self.tapped[e].append(missing[0])
                self._input(self._tap, str(self._chair(view, e)), str(missing[0]), pause=False)
                return
        raise SimError(f"every dealt tile was tapped, and the table still deals: {view.prompt}")

    def _hunt(self, view: View) -> None:
        """Open hands under `engine: holder`: its holder taps the engine, or seats draw
        in turn until one draws it."""
        hunter = view.prompt.get("seat") if view.prompt is not None else None
        if not isinstance(hunter, int):
            raise SimError(f"the table hunts for the engine, naming nobody: {view.prompt}")
        shadow = self._open_shadow(view, starter=hunter)
        if shadow.engine_laid:
            holder = shadow.turn or 0
            self._input(self._tap, str(self._chair(view, holder)), str(shadow.engine))
            return
        if shadow.turn != hunter:
            raise SimError(f"the table says seat {hunter} draws for the engine, "
                           f"the tiles say {shadow.turn}")
        self._input(self.hardware.press, self._chair(view, hunter), Button.DRAW)
        self.shadow = apply(shadow, Draw(hunter, self.boneyard.pop(0)))

    def _play(self, view: View) -> None:
        shadow = self._open_shadow(view, starter=view.turn)
        turn = view.turn
        self._check_trains(view, shadow)
        if turn is not None and shadow.phase != "play" and shadow.blocked:
            # The tiles say nobody can play; the table, seeing no hands, asks every seat
            # to pass once more after a marker opened a train.
            self._input(self.hardware.press, self._chair(view, turn), Button.PASS)
            return
        if turn is None or shadow.turn != turn:
            raise SimError(f"the table says it is seat {turn}'s turn, the tiles say {shadow.turn}")
        chair = self._chair(view, turn)
        if self.drawing:
            tile = self.boneyard.pop(0)
            self.drawing = False
            self.shadow = apply(shadow, Draw(turn, tile))
            self._input(self._tap, str(chair), str(tile), pause=False)
            self._markers()
            return
        action = self.bots[turn].choose(shadow, self.rng)
        if isinstance(action, Play):
            pad = MEXICAN if action.train == MEXICAN else str(self._chair(view, int(action.train)))
            self.shadow = apply(shadow, action)
            self._input(self._tap, pad, str(action.tile))
        elif isinstance(action, Pass):
            self.shadow = apply(shadow, action)
            self._input(self.hardware.press, chair, Button.PASS)
        elif isinstance(action, Draw):
            self._input(self.hardware.press, chair, Button.DRAW)
            if view.hand_mode == "tracked":
                self.drawing = True  # the drawn tile is tapped next
                return
            self.shadow = apply(shadow, Draw(turn, self.boneyard.pop(0)))
            if self.shadow.turn != turn:
                # The drawn tile does not fit: the player sees it and passes. The table, not
                # knowing the tile, waits for that PASS even when the tiles say the round
                # is over (the last seat owed a first turn after one went out).
                self._input(self.hardware.press, chair, Button.PASS)
        else:
            raise SimError(f"a bot chose {action!r} during play")
        self._markers()

    def _reveal(self, view: View) -> None:
        """Open hands, round over: each seat taps its leftover tiles, then PASS."""
        from firmware_py.bots import reveal

        shadow = self._need_shadow()
        waiting = [e for e, points in enumerate(view.revealed or ()) if points is None]
        if not waiting:
            raise SimError("the table waits for leftover tiles, but names no seat")
        e = waiting[0]
        if len(self.tapped) != len(view.seats):
            self.tapped = [[] for _ in view.seats]
        missing = [t for t in reveal(shadow, e).tiles if t not in self.tapped[e]]
        chair = self._chair(view, e)
        if missing:
            self.tapped[e].append(missing[0])
            self._input(self._tap, str(chair), str(missing[0]), pause=False)
        else:
            self._input(self.hardware.press, chair, Button.PASS)

    def _summary(self, view: View) -> None:
        shadow = self._need_shadow()
        if tuple(shadow.scores) != view.scores:
            raise SimError(
                f"the table scored round {view.round} {list(view.scores[-1])}, "
                f"the tiles left say {list(shadow.scores[-1])}"
            )
        self.say(_round_line(view))
        self._input(self.hardware.hold, self._chair(view, 0), Button.DRAW)

    # --- the real tiles ----------------------------------------------------------------

    def _shuffle(self, view: View) -> None:
        """Deal the physical tiles once for each round the table sets up."""
        if self.dealt_for == view.round:
            return
        before = self.shadow or new_game(self.options, len(view.seats))
        if before.round and before.phase != "round_over":
            raise SimError("the table started a round the tiles had not finished")
        start = deal(before, self.rng.randrange(2**32))
        self.hands = tuple(h for h in start.hands or () if isinstance(h, tuple))
        self.boneyard = list(start.boneyard or ())
        self.tapped = [[] for _ in view.seats]
        self.dealt_for = view.round
        self.drawing = False
        for seat in self.markers_out:  # a new round starts with every train closed
            self.hardware.lift(str(seat), f"marker:{seat}")
        self.markers_out.clear()

    def _open_shadow(self, view: View, starter: int | None) -> State:
        """The real game of the round the view plays: started (with the tiles dealt and
        the table's starter) the first time the round is seen."""
        self._shuffle(view)
        shadow = self.shadow
        if shadow is None or shadow.round < view.round:
            before = shadow or new_game(self.options, len(view.seats))
            start = StartRound(self.hands, tuple(self.boneyard), starter=starter)
            shadow = self.shadow = apply(before, start)
        return shadow

    def _need_shadow(self) -> State:
        if self.shadow is None:
            raise SimError("the table ended a round the bots did not see start")
        return self.shadow

    def _check_trains(self, view: View, shadow: State) -> None:
        for train in view.trains:
            key = MEXICAN if train.id == MEXICAN else int(train.id)
            real = tuple(str(laid) for laid in shadow.trains[key].tiles)
            if train.tiles != real:
                raise SimError(f"the table shows train {train.id} as {list(train.tiles)}, "
                               f"the tiles on it are {list(real)}")

    def _markers(self) -> None:
        """Players put their marker out when their train opens and take it back."""
        view = self._current()
        if view.stage is not Stage.PLAY:
            return
        for train in view.trains:
            if train.owner is None:
                continue
            seat = self._chair(view, train.owner)
            if self.marker_pads is not None and str(seat) not in self.marker_pads:
                continue
            if train.open and seat not in self.markers_out:
                self.hardware.place(str(seat), f"marker:{seat}")
                self.markers_out.add(seat)
            elif not train.open and seat in self.markers_out:
                self.hardware.lift(str(seat), f"marker:{seat}")
                self.markers_out.discard(seat)

    # --- talking to the table --------------------------------------------------------

    def _tap(self, pad: str, tile: str) -> None:
        # A reader reports a tag once while it stays: the same tile tapped again on the
        # same pad (drawn, then played) waits until the pad has let go of it, and then
        # until the table no longer takes it for the same dip.
        gone = self.hardware.let_go(pad, tile)
        if gone is not None:
            time.sleep(max(0.0, gone + SAME_DIP_S + RETAP_MARGIN_S - time.monotonic()))
        self.hardware.tap(pad, tile)

    def _input(
        self,
        act: Callable[..., object],
        *args: object,
        pause: bool = True,
        refusal_expected: bool = False,
    ) -> None:
        """Do one thing at the table and wait until its view shows the table took it
        (or, when `refusal_expected`, answered it)."""
        if pause and self.pace:
            time.sleep(self.pace)
        before = _game_part(self._current())
        act(*args)
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while True:
            news = self.views.poll(max(0.0, min(0.5, deadline - time.monotonic())))
            if news is not None:
                self.view = news
                if _game_part(news) != before:
                    break
            if self.table_stopped():
                raise SimError("the table stopped")
            if time.monotonic() > deadline:
                what = " ".join(str(a) for a in args)
                raise SimError(f"the table did not answer a bot within {ANSWER_TIMEOUT_S:.0f} s "
                               f"({what})")
        rejection = self.view.rejection
        if rejection is not None and not refusal_expected:
            names = self.view.names()
            raise SimError(f"the table refused a bot: {render(rejection.message, 'en', names)}")


def _round_line(view: View) -> str:
    """The round just scored: who went out (or that it was blocked), every seat's points
    and running total."""
    names = view.names()
    how = f"{names[view.went_out]} went out" if view.went_out is not None else "blocked"
    scores = ", ".join(f"{name} {row} ({total})" for name, row, total in
                       zip(names, view.scores[-1], view.totals, strict=True))
    return f"Round {len(view.scores)} ({how}): {scores}"


def _result(view: View) -> str:
    names = view.names()
    ranking = view.ranking or ()
    totals = ", ".join(f"{names[e]} {view.totals[e]}" for e in ranking)
    return f"{names[ranking[0]] if ranking else 'nobody'} wins ({totals})"
