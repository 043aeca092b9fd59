"""The repository stands on its own: its documents name no document outside it, the
rules and the record format are written down in it, and the worked example of
docs/records.md replays as it says."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.rules import OPTION_NAMES, PRESETS
from firmware_py.rules.options import _CHOICES, PRESET_TEXTS

ROOT = Path(__file__).resolve().parents[1]


def _tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout: no list of tracked files")
    return done.stdout.split()


def _texts() -> dict[str, str]:
    out = {}
    for name in _tracked():
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            out[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture, a font, a catalogue compiled
    return out


# A document's name: a path ending in .md, .txt or .rst.
DOCUMENT = re.compile(r"(?<![\w/.-])([\w./-]*[\w-]\.(?:md|txt|rst))(?![\w/])")
# A folder written as code: a path and a slash, in backquotes.
FOLDER = re.compile(r"`([\w.-]+(?:/[\w.-]+)*/)`")
# The rule texts' own line numbers and file names (the text's number, a colon, a line).
RULE_TEXT = re.compile(r"\b00\d:\d+\b|\b00\d_[0-9a-f]{16}\b")


def _exists(name: str, where: str, tracked: set[str]) -> bool:
    """Whether `name`, written in file `where`, is a tracked file: a path from the top or
    from `where`'s folder, a file's own name, or an installed copy's path that ends in a
    tracked one (`/opt/roundhouse/src/docs/install.md`). A path from the root that ends in
    no tracked file is the system's, not a document (`/boot/firmware/config.txt`)."""
    here = str(Path(where).parent / name.lstrip("./"))
    return (
        any(name == t or name.endswith("/" + t) or t.endswith("/" + name) for t in tracked)
        or here in tracked
        or name.startswith("/")
    )


def _outside(texts: dict[str, str], tracked: set[str]) -> list[str]:
    """Every place where a file names a document or folder that is not in the repository."""
    folders = {str(parent) + "/" for t in tracked for parent in Path(t).parents}
    found = []
    for name, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            for match in DOCUMENT.finditer(line):
                if not _exists(match.group(1), name, tracked):
                    found.append(f"{name}:{number}: {match.group(1)}")
            for match in FOLDER.finditer(line):
                folder = match.group(1)
                if folder not in folders and str(Path(name).parent / folder) + "/" not in folders:
                    found.append(f"{name}:{number}: {folder}")
            found += [f"{name}:{number}: {m.group()}" for m in RULE_TEXT.finditer(line)]
    return found


def test_no_tracked_file_names_a_document_outside_the_repository():
    texts = _texts()
    found = _outside(texts, set(texts) | set(_tracked()))
    assert not found, "documents that are not in the repository:\n" + "\n".join(found)


def test_the_check_finds_a_document_outside_the_repository():
    # (The names are put together here, so that this file names none of them itself.)
    tracked = set(_tracked())
    notes, drafts, line = "NOTES" + ".md", "`drafts" + "/`", "001" + ":12"
    text = f"as {notes} says; see {drafts} and ({line} the players draw)"
    assert _outside({"docs/engine.md": text}, tracked) == [
        f"docs/engine.md:1: {notes}", "docs/engine.md:1: drafts/", f"docs/engine.md:1: {line}"]
    fine = "see docs/rules.md, rules-notes.md, `docs/`, `tests/records/` and /boot/config.txt"
    assert _outside({"docs/engine.md": fine}, tracked) == []


def test_docs_rules_names_every_option_value_and_preset():
    text = (ROOT / "docs" / "rules.md").read_text()
    for key in OPTION_NAMES:
        assert f"`{key}`" in text, key
    for key, values in _CHOICES.items():
        for value in values:
            if value is not None:
                assert re.search(rf"\b{value}\b", text), (key, value)
    for name in PRESETS:
        assert f"**{name}** ({PRESET_TEXTS[name]})" in text, name


def _blocks(text: str, heading: str) -> list[str]:
    """The ```json blocks of a section of a Markdown text."""
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```json\n(.*?)```", section, re.S)


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_py.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)


def test_the_worked_example_of_the_record_format_replays_as_written(tmp_path):
    record, output = _blocks((ROOT / "docs" / "records.md").read_text(), "A worked example")
    path = tmp_path / "example.json"
    path.write_text(record)
    done = _replay(path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(output)


def test_the_worked_example_refuses_a_first_turn_draw_as_it_says(tmp_path):
    record = json.loads(_blocks((ROOT / "docs" / "records.md").read_text(),
                                "A worked example")[0])
    moves = record["rounds"][0]["moves"]
    assert moves[6] == {"seat": 2, "pass": True}
    moves[6] = {"seat": 2, "draw": True}
    path = tmp_path / "drew.json"
    path.write_text(json.dumps(record))
    done = _replay(path)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["move"], error["round"], error["code"]) == (6, 1, "first_turn_no_draw")
