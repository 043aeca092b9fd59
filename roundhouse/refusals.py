"""Every refusal the rules engine can give: a message id, the stable code of its kind, and
its English template.

An `IllegalMove` carries its message id and arguments, so a screen can say it in any
language (`roundhouse.render`); its `str()` is the English sentence, with seats as
"seat N". The argument names follow docs/view.md ("Messages"). The codes are documented
in docs/engine.md; several messages may share one code when they refuse the same thing.
"""

from __future__ import annotations

from roundhouse.message import TEMPLATES, Template

# The engine's templates: each is one of TEMPLATES too.
REFUSALS: dict[str, Template] = {}


def refusal(message_id: str, code: str, template: str) -> str:
    TEMPLATES[message_id] = REFUSALS[message_id] = Template(template, None, code)
    return message_id


def refusal_n(message_id: str, code: str, singular: str, plural: str) -> str:
    TEMPLATES[message_id] = REFUSALS[message_id] = Template(singular, plural, code)
    return message_id


# --- whose turn, and the phase ---------------------------------------------------------
GAME_OVER = refusal("rules.game_over", "game_over", "The game is over.")
NO_ROUND = refusal("rules.no_round", "no_round", "No round has started yet.")
ROUND_OVER_REVEAL = refusal(
    "rules.round_over_reveal", "round_over",
    "The round is over: reveal the tiles left in your hand.",
)
ROUND_OVER = refusal("rules.round_over", "round_over", "The round is over.")
NO_SUCH_SEAT = refusal(
    "rules.no_such_seat", "no_such_seat", "There is no seat {text} at this table."
)
NOT_YOUR_TURN = refusal("rules.not_your_turn", "not_your_turn", "It's {seat}'s turn.")
NO_SUCH_TRAIN = refusal(
    "rules.no_such_train", "no_such_train", "There is no train {text} at this table."
)

# --- the tile played -------------------------------------------------------------------
MUST_FIND_ENGINE = refusal(
    "rules.must_find_engine", "engine_not_laid", "{seat} must draw to find the {tile}."
)
NOT_HELD = refusal("rules.not_held", "tile_not_held", "{seat} doesn't hold the {tile}.")
NO_TILES_LEFT = refusal("rules.no_tiles_left", "no_tiles_left", "{seat} has no tiles left.")
ONLY_DRAWN = refusal(
    "rules.only_drawn", "only_drawn_tile", "{seat} may only play the {tile} just drawn."
)
DOUBLES_LIMIT = refusal_n(
    "rules.doubles_limit", "doubles_limit",
    "At most {n} double may be laid in one turn.",
    "At most {n} doubles may be laid in one turn.",
)
NOT_IN_SET = refusal(
    "rules.not_in_set", "tile_not_in_set", "The {tile} is not part of the double-{set} set."
)
ON_TABLE = refusal("rules.on_table", "tile_on_table", "The {tile} is already on the table.")
OUT_OF_PLAY = refusal(
    "rules.out_of_play", "tile_out_of_play", "The {tile} is out of play this round."
)
IN_OTHER_HAND = refusal(
    "rules.in_other_hand", "tile_in_other_hand", "The {tile} is in {other_seat}'s hand."
)
NO_MATCH = refusal(
    "rules.no_match", "no_match", "That tile doesn't match the open {end} of {train}."
)
NO_MATCH_BRANCH = refusal(
    "rules.no_match_branch", "no_match",
    "That tile doesn't match the open {end} of {train} (branch {branch}).",
)

# --- where a tile may go ---------------------------------------------------------------
SATISFY_FIRST = refusal(
    "rules.satisfy_first", "double_unsatisfied", "{seat} must satisfy the {tile} first."
)
SATISFY_FIRST_ON = refusal(
    "rules.satisfy_first_on", "double_unsatisfied",
    "{seat} must satisfy the {tile} on {train} first.",
)
FIRST_TURN_LINE = refusal(
    "rules.first_turn_line", "first_turn_line",
    "{seat}'s first turn is a line on {train}.",
)
FIRST_TURN_OWN = refusal(
    "rules.first_turn_own", "first_turn_own_train",
    "On a first turn {seat} may only play on its own train.",
)
TRAIN_CLOSED = refusal("rules.train_closed", "train_closed", "{train} is closed.")
NAME_BRANCH = refusal(
    "rules.name_branch", "branch", "{train} has branches: name one (0-{last})."
)
NO_BRANCHES = refusal("rules.no_branches", "branch", "{train} has no branches.")
NO_SUCH_BRANCH = refusal("rules.no_such_branch", "branch", "{train} has no branch {branch}.")

# --- drawing and passing ---------------------------------------------------------------
BONEYARD_EMPTY = refusal("rules.boneyard_empty", "boneyard_empty", "The boneyard is empty.")
NOT_IN_BONEYARD = refusal(
    "rules.not_in_boneyard", "tile_not_in_boneyard", "The {tile} isn't in the boneyard."
)
PLAYED_PASS = refusal(
    "rules.played_pass", "played_this_turn",
    "You have played this turn; press PASS to end your first turn.",
)
NO_FIRST_TURN_DRAW = refusal(
    "rules.no_first_turn_draw", "first_turn_no_draw",
    "A seat that cannot start its train on its first turn does not draw: press PASS.",
)
DRAWN_ALREADY = refusal(
    "rules.drawn_already", "drawn_already", "You have already drawn this turn."
)
CAN_PLAY_NO_DRAW = refusal(
    "rules.can_play_no_draw", "must_play", "You can play the {tile}, so you may not draw."
)
MUST_PLAY_DRAWN = refusal(
    "rules.must_play_drawn", "must_play_drawn", "You must play the {tile} you drew."
)
SATISFY_DRAWN = refusal(
    "rules.satisfy_drawn", "must_satisfy_drawn",
    "The {tile} you drew satisfies the {double_tile} on {train}: lay it there.",
)
CAN_PLAY_NO_PASS = refusal(
    "rules.can_play_no_pass", "must_play", "You can play the {tile}, so you must play."
)
FOLLOW_DOUBLE = refusal(
    "rules.follow_double", "must_follow_double", "Follow your double: play a tile or draw."
)
DRAW_FIRST = refusal("rules.draw_first", "must_draw", "Draw a tile before passing.")
KEEP_DRAWING = refusal(
    "rules.keep_drawing", "must_draw", "Keep drawing until you can play."
)

# --- the end of a round ----------------------------------------------------------------
TRACKED_SCORED = refusal(
    "rules.tracked_scored", "reveal_not_needed",
    "Hands are tracked: the table has scored them already.",
)
NOTHING_TO_REVEAL = refusal(
    "rules.nothing_to_reveal", "reveal_not_needed", "{seat} has nothing to reveal."
)
REVEAL_AT_END = refusal(
    "rules.reveal_at_end", "reveal_too_early",
    "Tiles are revealed only at the end of a round.",
)
REVEAL_COUNT = refusal_n(
    "rules.reveal_count", "reveal_count",
    "{seat} holds {n} tile, not {given}.",
    "{seat} holds {n} tiles, not {given}.",
)
DRAWN_NOT_REVEALED = refusal(
    "rules.drawn_not_revealed", "reveal_missing_tile",
    "{seat} drew the {tile} and has not laid it: reveal it too.",
)
NAMED_TWICE = refusal("rules.named_twice", "tile_named_twice", "The {tile} is named twice.")
REVEALED_BY_OTHER = refusal(
    "rules.revealed_by_other", "tile_in_other_hand",
    "The {tile} was revealed by {other_seat}.",
)
ROUND_NOT_OVER = refusal("rules.round_not_over", "round_not_over", "The round isn't over yet.")

