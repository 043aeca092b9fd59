"""The Mexican Train rules engine: no I/O, no hardware, no pygame; Python, compiled by
mypyc where the build could (`BUILD`), pure where not, playing the same either way.

docs/engine.md describes the interface; docs/rules.md the rules it implements.
"""

from firmware_py.rules import engine as _engine
from firmware_py.rules.actions import (
    MEXICAN,
    Action,
    Draw,
    Pass,
    Play,
    Reveal,
    StartRound,
    TrainId,
    action_from_json,
    action_to_json,
)
from firmware_py.rules.deal import deal
from firmware_py.rules.errors import (
    BadAction,
    BadDeal,
    BadOptions,
    BadTile,
    IllegalMove,
    RulesError,
)
from firmware_py.rules.jsonstate import state_to_json
from firmware_py.rules.legal import LegalActions, legal_actions
from firmware_py.rules.options import (
    OPTION_NAMES,
    PRESETS,
    RULES_VERSION,
    Options,
    options_as_of,
)
from firmware_py.rules.position import Phase
from firmware_py.rules.rounds import ranking
from firmware_py.rules.state import State, apply, new_game
from firmware_py.rules.statecodec import (
    STATE_SCHEMA,
    StateUnreadable,
    state_from_stored,
    state_to_stored,
)
from firmware_py.rules.tiles import Laid, Tile, set_tiles
from firmware_py.rules.trains import Train

# "compiled" when the engine's modules were built by mypyc (setup.py), else "pure".
BUILD = "pure" if _engine.__file__.endswith(".py") else "compiled"

__all__ = [
    "BUILD",
    "MEXICAN",
    "OPTION_NAMES",
    "PRESETS",
    "RULES_VERSION",
    "STATE_SCHEMA",
    "Action",
    "BadAction",
    "BadDeal",
    "BadOptions",
    "BadTile",
    "Draw",
    "IllegalMove",
    "Laid",
    "LegalActions",
    "Options",
    "Pass",
    "Phase",
    "Play",
    "Reveal",
    "RulesError",
    "StartRound",
    "State",
    "StateUnreadable",
    "Tile",
    "Train",
    "TrainId",
    "action_from_json",
    "action_to_json",
    "apply",
    "deal",
    "legal_actions",
    "new_game",
    "options_as_of",
    "ranking",
    "set_tiles",
    "state_from_stored",
    "state_to_json",
    "state_to_stored",
]
