"""Everything the table says outside the rules engine, as message ids with their English
templates (the engine's refusals are `roundhouse.refusals`; importing this module
registers both). `message(id, **args)` makes one (`roundhouse.message`);
`roundhouse.render` says it in a language.
"""

from __future__ import annotations

from roundhouse import refusals as _refusals  # noqa: F401  (registers the engine's templates)
from roundhouse.message import TEMPLATES, Message, message, say, say_n

__all__ = ["TEMPLATES", "Message", "message"]

# --- about a language itself (each catalogue answers them) ----------------------------
LANGUAGE_NAME = say("language.name", "English")
# Translators: the ten digits the language writes numbers with, 0 to 9.
LANGUAGE_DIGITS = say("language.digits", "0123456789")
# Translators: "ltr" or "rtl", the way the language's lines run.
LANGUAGE_DIRECTION = say("language.direction", "ltr")
LIST_SEPARATOR = say("language.list_separator", ", ")

# --- names of things inside sentences -------------------------------------------------
SEAT_NUMBERED = say("seat.numbered", "seat {number}")
TRAIN_MEXICAN = say("train.mexican", "the Mexican train")
TRAIN_OF_SEAT = say("train.seat", "{seat}'s train")
# The same titles in the genitive, for the catalogues whose sentences need that case: a
# catalogue writes "{train@genitive}" where its sentence takes the train in the genitive
# ("ant Eli traukinio"); English says them as above.
# Translators: a train's title in the genitive case, where the language has one.
TRAIN_MEXICAN_GENITIVE = say("train.mexican@genitive", "the Mexican train")
# Translators: a train's title in the genitive case, where the language has one.
TRAIN_OF_SEAT_GENITIVE = say("train.seat@genitive", "{seat}'s train")
# A seat in a grammatical case, for the catalogues of languages with cases
# (`roundhouse.declension`, docs/languages.md): a sentence that writes "{seat@genitive}"
# says a seat without a name with `seat.numbered@genitive` ("της θέσης 3"), and a name the
# language's rules cannot decline with `seat.name@genitive` ("του παίκτη Ali", "of the
# player Ali"). A language without that case leaves them untranslated.
# Translators: "seat N" in the nominative, with its article, for a language with cases.
SEAT_NUMBERED_NOMINATIVE = say("seat.numbered@nominative", "seat {number}")
# Translators: "seat N" in the genitive, with its article, for a language with cases.
SEAT_NUMBERED_GENITIVE = say("seat.numbered@genitive", "seat {number}")
# Translators: "seat N" in the dative, with its article, for a language with cases.
SEAT_NUMBERED_DATIVE = say("seat.numbered@dative", "seat {number}")
# Translators: "seat N" in the accusative, with its article, for a language with cases.
SEAT_NUMBERED_ACCUSATIVE = say("seat.numbered@accusative", "seat {number}")
# Translators: "seat N" in the vocative (calling the seat), for a language with cases.
SEAT_NUMBERED_VOCATIVE = say("seat.numbered@vocative", "seat {number}")
# Translators: a name {name} the rules cannot decline, said where the sentence needs the
# nominative (e.g. "the player {name}"), for a language with cases.
SEAT_NAME_NOMINATIVE = say("seat.name@nominative", "{name}")
# Translators: a name {name} the rules cannot decline, where the sentence needs the genitive.
SEAT_NAME_GENITIVE = say("seat.name@genitive", "{name}")
# Translators: a name {name} the rules cannot decline, where the sentence needs the dative.
SEAT_NAME_DATIVE = say("seat.name@dative", "{name}")
# Translators: a name {name} the rules cannot decline, where the sentence needs the accusative.
SEAT_NAME_ACCUSATIVE = say("seat.name@accusative", "{name}")
# Translators: a name {name} the rules cannot decline, where the sentence calls the player.
SEAT_NAME_VOCATIVE = say("seat.name@vocative", "{name}")
PAD_MEXICAN = say("pad.mexican", "the Mexican train's pad")
PAD_OF_SEAT = say("pad.seat", "{seat}'s pad")
PAD_NAMED = say("pad.named", "{text}'s pad")
PAD_OTHER = say("pad.other", "pad {text}")
# One seat's progress in a prompt: "Bo 2/7".
PROGRESS = say("progress.seat", "{seat} {done}/{of}")
# Two sentences of one prompt, one after the other.
SENTENCES = say("prompt.sentences", "{first} {then}")

# --- prompts: what the table waits for ------------------------------------------------
LOBBY_JOIN = say("prompt.lobby_join", "Press DRAW at your seat to join")
LOBBY_JOIN_TWO = say(
    "prompt.lobby_join_two", "Press DRAW at your seat to join; two seats are needed"
)
LOBBY_START = say_n(
    "prompt.lobby_start",
    "{n} seat joined: hold DRAW or tap the new-game card to start",
    "{n} seats joined: hold DRAW or tap the new-game card to start",
)
LEAD = say(
    "prompt.lead",
    "Round {round}: put the {tile} in the hub; the first seat to press DRAW leads",
)
DEAL = say("prompt.deal", "Round {round}: tap your dealt tiles on your own pad ({dealt})")
DEAL_ASIDE = say(
    "prompt.deal_aside",
    "Round {round}: put the {tile} in the hub, then tap your dealt tiles on your own pad "
    "({dealt})",
)
HUNT = say_n(
    "prompt.hunt",
    "Round {round}: take {n} tile each. Whoever has the {tile}, tap it on your own pad; "
    "nobody? {seat}: press DRAW",
    "Round {round}: take {n} tiles each. Whoever has the {tile}, tap it on your own pad; "
    "nobody? {seat}: press DRAW",
)
TAKE_TILES = say_n("prompt.take_tiles", "Each seat takes {n} tile.", "Each seat takes {n} tiles.")
PUT_ENGINE = say("prompt.put_engine", "Put the {tile} in the hub.")
DRAW_OFFLINE = say(
    "prompt.draw_offline",
    "{seat}: your pad's reader is offline; reconnect it to tap the tile you drew, or hold "
    "PASS to take the DRAW back",
)
TAP_DRAWN = say("prompt.tap_drawn", "{seat}: tap the tile you drew on your own pad")
FIND_ENGINE = say("prompt.find_engine", "{seat}: press DRAW to look for the {tile}")
SATISFY = say("prompt.satisfy", "{seat}: satisfy the {tile} on {train}")
DRAWN = say("prompt.drawn", "{seat}: play the drawn tile or PASS")
# A seat that cannot start its first-turn train draws once under `first_turn_draw`, and
# otherwise passes at once (docs/rules.md, "The options"): the prompt says which.
LAY_TRAIN_OR_DRAW = say(
    "prompt.lay_train_or_draw", "{seat}: lay your train, then PASS (or DRAW if you cannot start it)"
)
LAY_TRAIN_OR_PASS = say(
    "prompt.lay_train_or_pass", "{seat}: lay your train, then PASS (at once if you cannot start it)"
)
PLAY_OR_PASS = say("prompt.play_or_pass", "{seat}: play or PASS")
PLAY_OR_DRAW = say("prompt.play_or_draw", "{seat}: play or DRAW")
REVEAL = say("prompt.reveal", "Tap your leftover tiles on your own pad, then PASS ({waiting})")
SUMMARY_OUT = say(
    "prompt.summary_out",
    "Round {round} over ({seat} went out): hold DRAW for round {next}",
)
SUMMARY_BLOCKED = say(
    "prompt.summary_blocked", "Round {round} over (blocked): hold DRAW for round {next}"
)
OVER = say(
    "prompt.over",
    "Game over: {winner_seat} wins. Hold DRAW for a new game with the same seats",
)
OVER_NOBODY = say(
    "prompt.over_nobody", "Game over. Hold DRAW for a new game with the same seats"
)

# --- alerts: announcements for one seat (or the table) --------------------------------
ONE_TILE = say("alert.one_tile", "{seat} has one tile left")
MARKER_MOVE = say("alert.marker_move", "{seat}: move your marker from {pad} to your own pad")
MARKER_BACK_FROM = say("alert.marker_back_from", "{seat}: take your marker back from {pad}")
MARKER_OUT = say("alert.marker_out", "{seat}: put your marker out")
MARKER_BACK = say("alert.marker_back", "{seat}: take your marker back")
READER_OFFLINE = say("alert.reader_offline", "The reader of {pad} is offline")
READER_OFFLINE_WHY = say("alert.reader_offline_why", "The reader of {pad} is offline: {text}")
# The table's own notices after a start (docs/table.md, "The journal"): the host reads
# the details in the log.
GAME_SET_ASIDE = say(
    "alert.game_set_aside",
    "Game {game} cannot go on after the update: it is kept aside in the journal. "
    "Start a new game",
)
RESUMED_AT = say(
    "alert.resumed_at",
    "The table stopped without warning and took up game {game} again at entry {entry}: "
    "check that the tiles lie as the screen shows",
)

# --- what the table waits for, when an input does not fit -----------------------------
WAIT_LEAD = say("wait.lead", "First choose who leads: the first seat to press DRAW.")
WAIT_DEAL = say("wait.deal", "The deal is not finished: tap your dealt tiles on your own pad.")
WAIT_HUNT = say("wait.hunt", "First find the {tile}: tap it on your own pad.")
WAIT_REVEAL = say("wait.reveal", "Tap your leftover tiles on your own pad, then PASS.")
WAIT_SUMMARY = say("wait.summary", "The round is over: hold DRAW for the next round.")
WAIT_OVER = say("wait.over", "The game is over.")
WAIT_PLAY = say("wait.play", "Play goes on.")

# --- refusals of the table (the engine's are in roundhouse.refusals) -----------
NOT_AT_TABLE = say("refuse.not_at_table", "Seat {number} is not part of this table.")
OVER_HOLD_DRAW = say(
    "refuse.over_hold_draw", "The game is over: hold DRAW for a new game with the same seats."
)
NOT_IN_GAME = say("refuse.not_in_game", "{text} is not in this game.")
HOLD_DRAW_NOTHING = say(
    "refuse.hold_draw_nothing", "Holding DRAW does nothing now: press it and let go."
)
PRESS_DRAW_LEAD = say("refuse.press_draw_lead", "Press DRAW to lead this round.")
NOT_YOUR_TURN = say("refuse.not_your_turn", "Not your turn: it's {seat}'s turn.")
NOBODYS_TURN = say("refuse.nobodys_turn", "Not your turn.")
TAP_DRAWN_FIRST = say("refuse.tap_drawn", "{seat}: tap the tile you drew on your own pad.")
CANNOT_DRAW = say("refuse.cannot_draw", "{seat} cannot draw now.")
LOBBY_PASS = say("refuse.lobby_pass", "Press DRAW to join or leave; hold DRAW to start.")
JOIN_FIRST = say("refuse.join_first", "{seat}: press DRAW to join first.")
UNKNOWN_TAG = say("refuse.unknown_tag", "Unknown tag {text} on {pad}.")
RANDOM_CARD = say("refuse.random_card", "A phone or bank card lies on {pad}: take it away.")
TAG_UNUSED = say("refuse.tag_unused", "Tag {text} is bound to something the table does not use.")
NO_GAME = say("refuse.no_game", "No game is running: press DRAW to join, hold DRAW to start.")
DEAL_OWN_PAD = say("refuse.deal_own_pad", "Tap your dealt tiles on your own pad.")
ENGINE_OWN_PAD = say("refuse.engine_own_pad", "Tap the {tile} on your own pad.")
REVEAL_OWN_PAD = say("refuse.reveal_own_pad", "Tap your leftover tiles on your own pad.")
NOT_IN_SET = say("refuse.not_in_set", "The {tile} is not in this game's double-{set} set.")
SHOWN_BY_OTHER = say("refuse.shown_by_other", "The {tile} is already shown by {other_seat}.")
NOT_A_TRAIN = say("refuse.not_a_train", "{pad} is not a train of this game.")
PRESET_BETWEEN = say("refuse.preset_between", "The preset can change between games only.")
ABANDON_CONFIRM = say(
    "refuse.abandon_confirm", "A game is running: tap the new-game card again to abandon it."
)
CARD_UNUSED = say(
    "refuse.card_unused", "The {text} card is not for playing: the table ignores it."
)
NOTHING_TO_UNDO = say("refuse.nothing_to_undo", "There is nothing to undo.")
NOT_YOURS_TO_UNDO = say(
    "refuse.not_yours_to_undo", "{seat} has nothing to undo: the last move was not yours."
)
TWO_SEATS = say("refuse.two_seats", "At least two seats must join: press DRAW at your seat.")
CANNOT_DEAL = say_n(
    "refuse.cannot_deal",
    "The {text} rules cannot be played by {n} player: they are for {players} players.",
    "The {text} rules cannot be played by {n} players: they are for {players} players.",
)
# A run of numbers, as in "4-10 players".
SPAN = say("number.span", "{low}-{high}")
UNEXPECTED = say("refuse.unexpected", "The table does not expect {text} now.")
TURN_OF = say("refuse.turn_of", "It's {seat}'s turn.")
ENGINE_TO_HUB = say(
    "refuse.engine_to_hub", "The {tile} is this round's engine: put it in the hub."
)
ALREADY_DEALT = say("refuse.already_dealt", "The {tile} has already been dealt.")
DRAWN_DEALT = say("refuse.drawn_dealt", "The {tile} was dealt: tap a tile from the boneyard.")
HAND_FULL = say_n(
    "refuse.hand_full", "{seat} already has {n} tile.", "{seat} already has {n} tiles."
)
HUNT_TURN = say("refuse.hunt_turn", "It's {seat}'s turn to draw for the engine.")
SHOWN_ALREADY = say("refuse.shown_already", "{seat} has already shown the leftover tiles.")
ONLY_LEFT = say_n(
    "refuse.only_left", "{seat} has only {n} tile left.", "{seat} has only {n} tiles left."
)
ROUNDS_START = say("refuse.rounds_start", "Rounds start by themselves.")
LEFTOVER_AT_END = say("refuse.leftover_at_end", "Leftover tiles are shown at the end of a round.")
# An input the journal could not write was not taken: the game is as it was.
UNSAVED_FULL = say(
    "refuse.unsaved_full", "The table's disk is full: nothing was lost. Free some space."
)
UNSAVED_DISK = say(
    "refuse.unsaved_disk", "The table's disk takes no writes: nothing was lost. Check the disk."
)
# A seat's language card (docs/table.md) tapped anywhere but on that seat's own pad.
LANGUAGE_OWN_PAD = say("refuse.language_own_pad", "Tap the language card on your own pad.")
# A player card (docs/game-night.md) during a game, or off a seat's own pad.
PLAYER_LOBBY = say(
    "refuse.player_lobby", "Tap your player card on your own pad in the lobby, before the game."
)

# --- the screens' own words (labels of panels, the hub and the wall) ------------------
SCREEN_MEXICAN_TITLE = say("screen.mexican_title", "MEXICAN TRAIN")
SCREEN_OPEN_TO_ALL = say("screen.open_to_all", "open to everyone")
SCREEN_EMPTY_SEAT = say("screen.empty_seat", "empty seat")
SCREEN_TILES = say_n("screen.tiles", "{n} tile", "{n} tiles")
SCREEN_POINTS = say_n("screen.points", "{n} pt", "{n} pts")
SCREEN_ONE_TILE = say("screen.one_tile", "ONE TILE!")
SCREEN_YOUR_TURN = say("screen.your_turn", "YOUR TURN")
SCREEN_JOINED = say("screen.joined", "joined")
# What a seat must do between rounds, in its own panel (the hub speaks one language).
SCREEN_SHOW_TILES = say("screen.show_tiles", "Tap your tiles on your pad, then PASS")
SCREEN_HOLD_NEXT = say("screen.hold_next", "Hold DRAW for the next round")
SCREEN_HOLD_NEW_GAME = say("screen.hold_new_game", "Hold DRAW for a new game")
SCREEN_MARKER_OUT = say("screen.marker_out", "Put your marker out")
SCREEN_MARKER_BACK = say("screen.marker_back", "Take your marker back")
SCREEN_WAITING = say_n(
    "screen.waiting",
    "Waiting for players: {joined} of {n} seat taken",
    "Waiting for players: {joined} of {n} seats taken",
)
SCREEN_NOBODY_YET = say("screen.nobody_yet", "nobody yet")
SCREEN_LOOKING_FOR = say("screen.looking_for", "Looking for the {tile}")
SCREEN_DEALING = say("screen.dealing", "Dealing")
SCREEN_ROUND_OVER = say("screen.round_over", "Round {round} over")
SCREEN_ROUND_OVER_OUT = say("screen.round_over_out", "Round {round} over: {seat} went out")
SCREEN_ROUND_OVER_BLOCKED = say("screen.round_over_blocked", "Round {round} over: blocked")
SCREEN_HAND = say("screen.hand", "Tiles")  # the wall's column of tiles in hand
SCREEN_RUNNING_TOTALS = say("screen.running_totals", "Running totals")
SCREEN_WINNER = say("screen.winner", "Game over: {seat} wins")
SCREEN_GAME_OVER = say("screen.game_over", "Game over")
SCREEN_ROUND_OF = say("screen.round_of", "Round {round} of {rounds}")
SCREEN_SET = say("screen.set", "Double-{set}")
SCREEN_BONEYARD = say("screen.boneyard", "Boneyard {count}")
SCREEN_ENGINE = say("screen.engine", "engine {tile}")
SCREEN_TITLE = say("screen.title", "Mexican Train")
SCREEN_TURN = say("screen.turn", "Turn: {seat}")
SCREEN_PLAYER = say("screen.player", "Player")
SCREEN_TOTAL = say("screen.total", "Total")
SCREEN_PLACE = say("screen.place", "Place")
SCREEN_WAITING_TABLE = say("screen.waiting_table", "Waiting for the table…")
SCREEN_CONNECTING = say("screen.connecting", "connecting to {text}")

# --- the phone page and the league (roundhouse web, roundhouse league) ----------------
WEB_OPEN_DOUBLES = say("web.open_doubles", "Open doubles")
# One open double on the phone page: "6-6 on Bo's train".
WEB_DOUBLE_ON = say("web.double_on", "{tile} on {train}")
WEB_ROUNDS = say("web.rounds", "Rounds")
WEB_LANGUAGE = say("web.language", "Language")
WEB_LEAGUE = say("web.league", "League")
WEB_GAMES = say("web.games", "Games")
WEB_WINS = say("web.wins", "Wins")
WEB_TABLES_ONLINE = say_n("web.tables_online", "{n} table online", "{n} tables online")
# Under the wall's QR code of the phone page.
WEB_SCAN = say("web.scan", "Scan to follow the game on your phone")

# --- spoken announcements (roundhouse.speech; read aloud, never shown) -----------------
# Translators: a double tile read aloud, {value} its number ("double twelve").
SPEECH_DOUBLE = say("speech.double", "double {value}")
# Translators: a tile read aloud by its two numbers ("twelve five").
SPEECH_TILE = say("speech.tile", "{a} {b}")
SPEECH_TURN = say("speech.turn", "{seat}, your turn")
SPEECH_SATISFY = say("speech.satisfy", "{seat}, satisfy the {tile}")
SPEECH_ONE_TILE = say("speech.one_tile", "{seat}: one tile!")
SPEECH_ROUND_OVER = say("speech.round_over", "Round {round} is over. {seat} went out")
SPEECH_ROUND_BLOCKED = say("speech.round_blocked", "Round {round} is over: it is blocked")
SPEECH_WINNER = say("speech.winner", "Game over. {seat} wins")
