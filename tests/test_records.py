"""Hand-made game records replayed through the real `roundhouse replay` command.

Every `tests/records/NAME.json` sits next to `NAME.expected.json`: the output
docs/records.md specifies for it, worked out move by move from the rule texts
(tests/records/README.md says which text each record follows). The comparison is field by field:

- exit status 0 when `error` is null, 1 when a move is rejected;
- `error.move`, `error.round` and `error.code` exactly, `error.reason` only as a
  non-empty sentence;
- `hands` per seat as a multiset of tiles (docs/records.md fixes how a tile is written
  in a hand, high first, but not the order of a hand's tiles), or a count for open hands;
- everything else exactly, and no field beyond docs/records.md's.

`tests/records/bad/` holds files that are not valid records: exit status 2 and one line
on stderr naming what is wrong, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).parent / "records"
BAD = RECORDS / "bad"


def _records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected(record: Path) -> Any:
    return json.loads(record.with_suffix(".expected.json").read_text())


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _differences(expected: Any, got: Any, where: str) -> list[str]:
    """Every place where `got` differs from `expected`, one readable line each."""
    if isinstance(expected, dict) and isinstance(got, dict):
        lines = [f"{where}.{key}: missing" for key in expected if key not in got]
        lines += [f"{where}.{key}: unexpected field = {got[key]!r}" for key in got
                  if key not in expected]
        for key in expected.keys() & got.keys():
            lines += _differences(expected[key], got[key], f"{where}.{key}")
        return lines
    if expected != got:
        return [f"{where}: expected {expected!r}, got {got!r}"]
    return []


def _state_differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    lines = _differences(
        {k: v for k, v in expected.items() if k not in ("hands", "error")},
        {k: v for k, v in got.items() if k not in ("hands", "error")},
        "output",
    )
    hands = got.get("hands")
    if not isinstance(hands, dict) or hands.keys() != expected["hands"].keys():
        lines.append(f"output.hands: expected seats {sorted(expected['hands'])}, got {hands!r}")
    else:
        for seat, tiles in expected["hands"].items():
            if isinstance(tiles, int):  # open hands: a count
                lines += _differences(tiles, hands[seat], f"output.hands.{seat}")
            elif not isinstance(hands[seat], list) or sorted(tiles) != sorted(hands[seat]):
                lines.append(f"output.hands.{seat}: expected {tiles} in any order, "
                             f"got {hands[seat]}")
    error = got.get("error", "missing")
    if expected["error"] is None:
        if error is not None:
            lines.append(f"output.error: expected null, got {error!r}")
    elif not isinstance(error, dict):
        lines.append(f"output.error: expected a rejection {expected['error']!r}, got {error!r}")
    else:
        wanted = {k: expected["error"][k] for k in ("move", "round", "code")}
        lines += _differences(wanted, {k: error.get(k) for k in wanted}, "output.error")
        if set(error) != {"move", "round", "reason", "code"}:
            lines.append(f"output.error: fields {sorted(error)}, expected move, round, reason, "
                         "code")
        reason = error.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            lines.append(f"output.error.reason: expected a sentence, got {reason!r}")
    return lines


@pytest.mark.parametrize("record", _records(RECORDS), ids=lambda p: p.stem)
def test_record_replays_to_the_state_the_rules_give(record: Path) -> None:
    expected = _expected(record)
    done = _replay(record)
    assert "Traceback" not in done.stderr, done.stderr
    try:
        got = json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"stdout is not JSON (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
    lines = _state_differences(expected, got)
    status = 0 if expected["error"] is None else 1
    if done.returncode != status:
        lines.insert(0, f"exit status: expected {status}, got {done.returncode}")
    assert not lines, f"{record.name}:\n  " + "\n  ".join(lines)


@pytest.mark.parametrize("record", _records(BAD), ids=lambda p: p.stem)
def test_invalid_record_is_refused_in_one_line(record: Path) -> None:
    expected = _expected(record)
    done = _replay(record)
    assert done.returncode == expected["exit"], (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].strip(), f"stderr should be one line:\n{done.stderr}"
    for word in expected["mentions"]:
        assert word.lower() in lines[0].lower(), f"{lines[0]!r} does not mention {word!r}"


def test_missing_file_is_refused_in_one_line(tmp_path: Path) -> None:
    done = _replay(tmp_path / "no-such-game.json")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no-such-game.json" in lines[0], done.stderr
