"""docs/flow.md is the drawing of the stages' own tables, and says every input."""

from __future__ import annotations

from pathlib import Path

from firmware_py.flowchart import GAME_DOINGS, TABLE_DOINGS, diagram, page
from firmware_py.stages import GAME_INPUTS, Stage
from firmware_py.table import TABLE_INPUTS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_flow_page_is_the_one_the_tables_draw():
    assert (DOCS / "flow.md").read_text(encoding="utf-8") == page(), (
        "docs/flow.md is out of date: python -m firmware_py.flowchart > docs/flow.md"
    )


def test_every_stage_is_drawn_and_every_input_said():
    drawn = diagram()
    for stage in Stage:
        assert f" {stage.value} --> " in drawn, stage
    assert {k for takes in GAME_INPUTS.values() for k in takes} == set(GAME_DOINGS)
    assert {k for takes in TABLE_INPUTS.values() for k in takes} == set(TABLE_DOINGS)


def test_only_the_ranking_is_the_end_of_a_game():
    assert GAME_INPUTS[Stage.OVER] == {}
    leaving = {after for takes in TABLE_INPUTS[Stage.OVER].values() for after in takes}
    assert Stage.LOBBY in leaving
