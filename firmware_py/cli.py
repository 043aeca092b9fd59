"""The `roundhouse` command.

Each subcommand lives beside the code it drives: the module named in `COMMANDS`
defines `configure_<name>(parser)` and `run_<name>(args) -> int` (dashes in the name
become underscores). Only the chosen command's module is imported, so `roundhouse run`
starts without loading pygame and `roundhouse replay` without loading gpiozero.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("firmware_py.simtable", "run the whole table on simulated hardware with bots"),
    "run": ("firmware_py.daemon", "run the table service (systemd unit ExecStart)"),
    "replay": ("firmware_py.record", "apply a game record and print the final state as JSON"),
    "simulate": ("firmware_py.bots", "play bot games and print a summary"),
    "check-config": ("firmware_py.config", "validate a configuration file"),
    "rules": ("firmware_py.rulebook", "list the presets, or print one preset's options"),
    "games": ("firmware_py.journal_commands", "list the games kept in the journal"),
    "export": ("firmware_py.journal_commands", "write a journaled game as a game record"),
    "display": ("display.client", "show the table or wall screen"),
    "probe": ("hardware.probe", "open one RFID reader and print what it senses"),
    "enroll": ("hardware.enroll", "bind the tags of a domino set to tiles, markers, cards"),
    "learn-port": ("hardware.ports", "plug in one reader: print its USB port and udev line"),
    "doctor": ("firmware_py.doctor", "check an installed table and say what to fix"),
    "web": ("gamenight.web", "serve the phone page that follows the table live"),
    "publish": ("gamenight.publisher", "publish the table's state and results to the league"),
    "league": ("gamenight.league", "keep the league's standings across tables and nights"),
}


class _Formatter(argparse.HelpFormatter):
    """argparse's own, told the terminal's width here: argparse would import `shutil`
    to ask it for every parser made, which `roundhouse run` would pay for at each start."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: $COLUMNS, else the
    terminal of standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No pass of the cyclic garbage collector while it lasts. Importing a command's
    modules and starting the table allocate much and free little, so the passes that
    the allocations trigger find next to nothing: skipped, a start takes 6-8% less.
    Objects are still freed as soon as nothing refers to them; what only a cycle keeps
    goes at the first pass after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def collection_resumed() -> None:
    """The end of the pause `main` keeps for the service from its import up to READY.
    What is alive then (the modules, the table, the journal) stays until the service
    stops, so it is left out of every later pass (`gc.freeze`) instead of being scanned
    at the next one and again at each full pass; a cycle made before now is never
    collected."""
    gc.freeze()
    gc.enable()


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: roundhouse COMMAND [options]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "`roundhouse COMMAND --help` tells more about one command."]
    return "\n".join(lines)


def _league_view(args: Sequence[str]) -> bool:
    """`--view league` (or `--view=league`) among a display's arguments."""
    pairs = zip(args, [*args[1:], ""], strict=True)
    return any((a, b) == ("--view", "league") or a == "--view=league" for a, b in pairs)


def _league_wall_help() -> str:
    """`--view league`, served by another module, in `roundhouse display --help` too."""
    wall = importlib.import_module("gamenight.wall")
    league = argparse.ArgumentParser(
        prog="roundhouse display", add_help=False,
        description="the room's wall with the league's standings, from the game night's "
                    "broker (docs/game-night.md)")
    wall.configure_display(league)
    return "--view league takes options of its own:\n\n" + league.format_help()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if args[0] == "--version":
        from firmware_py import __version__
        from firmware_py.rules import BUILD

        print(f"roundhouse {__version__} (rules engine: {BUILD})")
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"roundhouse: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name = COMMANDS[name][0]
    if name == "display" and _league_view(args[1:]):
        # The room's wall of the league follows the broker, not a table's socket.
        module_name = "gamenight.wall"
    attr = name.replace("-", "_")
    with collection_paused():
        module = importlib.import_module(module_name)
        parser = argparse.ArgumentParser(prog=f"roundhouse {name}",
                                         description=COMMANDS[name][1], formatter_class=_Formatter)
        getattr(module, f"configure_{attr}")(parser)
        if name == "display" and module_name != "gamenight.wall" and (
                "-h" in args or "--help" in args):
            parser.formatter_class = argparse.RawDescriptionHelpFormatter
            parser.epilog = _league_wall_help()
        parsed = parser.parse_args(args[1:])
        command = getattr(module, f"run_{attr}")
        if name == "run":
            # Paused up to READY, where the service resumes collection itself: a pass
            # between here and there would scan everything imported so far.
            return _call(command, parsed)
    return _call(command, parsed)


def _call(command: Callable[[argparse.Namespace], int], parsed: argparse.Namespace) -> int:
    try:
        return int(command(parsed))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`roundhouse replay FILE | head`): not an
        # error of ours. Point stdout at devnull so the interpreter's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
