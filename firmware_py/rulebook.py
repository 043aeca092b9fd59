"""`roundhouse rules [PRESET]`: what a preset, or a configuration's house rule, plays.

Without an argument it lists the presets and the rule text each follows; with one it
prints every option of that preset as a `[rules]` table a configuration can take, each
with the values it takes (docs/rules.md says what they decide).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from firmware_py.rules import OPTION_NAMES, PRESETS, BadOptions, Options
from firmware_py.rules.options import LEFT_OUT, PRESET_TEXTS, DealRow, option_values


def configure_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", help="a preset name; none lists the presets")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="print the rules this table's configuration plays")


def run_rules(args: argparse.Namespace) -> int:
    if args.config is not None:
        return _from_config(args.config)
    if args.preset is None:
        print(preset_list())
        return 0
    if args.preset not in PRESETS:
        print(f"roundhouse rules: unknown preset {args.preset!r}; presets are "
              f"{', '.join(PRESETS)}", file=sys.stderr)
        return 2
    print(rules_table(PRESETS[args.preset]))
    return 0


def _from_config(path: Path) -> int:
    from firmware_py.config import ConfigError, load_config

    try:
        config = load_config(path)
        options = Options.from_json(config.rules)
    except (ConfigError, BadOptions) as err:
        print(str(err), file=sys.stderr)
        return 2
    print(rules_table(options))
    return 0


def preset_list() -> str:
    width = max(len(name) for name in PRESETS)
    lines = ["The presets, and the rule text each follows:"]
    lines += [f"  {name.ljust(width)}  {PRESET_TEXTS[name]}" for name in PRESETS]
    lines += ["", "`roundhouse rules PRESET` prints a preset's options; docs/rules.md says "
              "what each decides."]
    return "\n".join(lines)


def rules_table(options: Options) -> str:
    """Every option of `options` as a `[rules]` table: set options as `key = value`,
    options left out as comments, each with the values it takes."""
    preset = options.name if options.name in PRESETS else "classic"
    changed = {k for k, v in options.to_json().items() if k != "preset"}
    title = f"{preset}: the rules of {PRESET_TEXTS[preset]}"
    if changed:
        title += f", with {', '.join(sorted(changed))} changed (a house rule)"
    lines = [f"# {title}.", "[rules]", f'preset = "{preset}"']
    rows: list[tuple[str, str]] = []
    for key in OPTION_NAMES:
        if key == "deal":
            continue
        value = getattr(options, key)
        if value is None:
            rows.append((f"# {key} =", f"left out: {LEFT_OUT[key]}; takes {option_values(key)}"))
        else:
            rows.append((f"{key} = {_toml(value)}", f"takes {option_values(key)}"))
    width = max(len(left) for left, _ in rows)
    lines += [f"{left.ljust(width)}  # {right}" for left, right in rows]
    lines.append("# deal (players: set, tiles per hand), the option deal:")
    lines += [f"#   {line}" for line in _deal_lines(options.deal)]
    return "\n".join(lines)


def _toml(value: Any) -> str:
    if isinstance(value, tuple):
        return json.dumps(list(value))
    return json.dumps(value)


def _deal_lines(deal: tuple[DealRow, ...]) -> list[str]:
    """The deal table, player counts with the same choices together ("2-3 players")."""
    by_players: dict[int, list[str]] = {}
    for players, set_size, hand in deal:
        by_players.setdefault(players, []).append(f"double-{set_size}, {hand} tiles")
    runs: list[tuple[int, int, str]] = []
    for players, choices in sorted(by_players.items()):
        said = " or ".join(choices)
        if runs and runs[-1][1] == players - 1 and runs[-1][2] == said:
            runs[-1] = (runs[-1][0], players, said)
        else:
            runs.append((players, players, said))
    return [f"{low}{'' if low == high else f'-{high}'} players: {said}"
            for low, high, said in runs]
