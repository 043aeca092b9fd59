"""The table: hardware events -> intents -> the game's flow -> journal -> public view.

One `Table` owns the game and is driven by one thread. It has one object for each part
of its work and owns them all: `Intents` reads what an event means
(firmware_py.intents), `Game.advance` checks and takes each input of a game
(firmware_py.game), `Pads` keeps what the hub's pads sense (firmware_py.pads), and
`ViewMaker` builds the public view (firmware_py.table_view). The table itself is the
flow between stages: it journals every accepted input before `handle` returns (the move
that ends a round with a snapshot of the game, which a start takes the game up from:
firmware_py.snapshots), and it carries out the table's own commands (joining,
starting, abandoning) that `TABLE_INPUTS` lists by stage.

docs/table.md tells the players' side, docs/flow.md draws the stages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from firmware_py.config import Config
from firmware_py.entries import Step, entry_to_json
from firmware_py.game import (
    Game,
    Moment,
    Refused,
    Replayed,
    TableError,
    preset_name,
    replay_journaled,
)
from firmware_py.intents import (
    PAD_NEWS,
    Binding,
    Enter,
    Intent,
    Intents,
    JoinOrLeave,
    LeaveGame,
    MarkerLifted,
    MarkerPlaced,
    NewGameCard,
    NextLanguage,
    NextPreset,
    Nothing,
    ReaderDown,
    ReaderUp,
    SeatPlayer,
    StartGame,
    TakeBack,
)
from firmware_py.journal import JournalError, JournalUnwritable, Snapshot
from firmware_py.pads import Pads
from firmware_py.rules import IllegalMove, Options, RulesError
from firmware_py.snapshots import History, Resumed, ends_round, resume_from, snapshot_text
from firmware_py.stages import GAME_STARTS, Stage
from firmware_py.table_view import ViewMaker
from hardware.events import Event
from roundhouse import messages as say
from roundhouse.message import Message, message
from roundhouse.render import languages
from roundhouse.value import Value, frozen
from roundhouse.view import Notice, View
from roundhouse.vocabulary import MEXICAN, SEATS, pad_seat

__all__ = ["TABLE_INPUTS", "Game", "Moment", "Refused", "Table", "TableError"]

log = logging.getLogger(__name__)


class _Journal(Protocol):
    # Whether the last service stopped without closing the journal (a kill, a power cut).
    unclean: bool

    def begin_game(self, meta: Mapping[str, Any]) -> int: ...
    def append(self, game_id: int, entry: Mapping[str, Any], *,
               finish: Mapping[str, Any] | None = None, reopen: bool = False,
               snapshot: str | None = None) -> int: ...
    def open_game_meta(self) -> tuple[int, dict[str, Any]] | None: ...
    def ended_game_meta(self) -> tuple[int, dict[str, Any]] | None: ...
    def entries(self, game_id: int, *, after: int = 0) -> list[dict[str, Any]]: ...
    def snapshot(self, game_id: int) -> Snapshot | None: ...
    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None: ...
    def reopen_game(self, game_id: int) -> None: ...
    def set_aside(self, game_id: int, entry: int, reason: str) -> None: ...
    def table_state(self) -> dict[str, Any]: ...
    def save_table_state(self, state: Mapping[str, Any]) -> None: ...
    def describe_game(self, game_id: int, meta: Mapping[str, Any]) -> None: ...


# The table's commands whose outcome lasts between games (journaled as its state).
_REMEMBERED = (JoinOrLeave, LeaveGame, NewGameCard, NextPreset, NextLanguage)

_IN_GAME = (Stage.LEAD, Stage.DEAL, Stage.HUNT, Stage.PLAY, Stage.REVEAL, Stage.SUMMARY)

# The table's own inputs, by stage, and the stages each can lead to (a game's own
# entries are `firmware_py.stages.GAME_INPUTS`). Undo takes back the last entry of a game
# in any of its stages, back into the stage before it.
TABLE_INPUTS: dict[Stage, dict[type[Intent], tuple[Stage, ...]]] = {
    Stage.LOBBY: {
        JoinOrLeave: (Stage.LOBBY,),
        StartGame: GAME_STARTS,
        NewGameCard: GAME_STARTS,
        NextPreset: (Stage.LOBBY,),
    },
    # During a game the first tap only asks for the second, which abandons it.
    **{stage: {NewGameCard: (stage, Stage.LOBBY)} for stage in _IN_GAME},
    Stage.OVER: {
        StartGame: GAME_STARTS,
        NewGameCard: GAME_STARTS,
        LeaveGame: (Stage.LOBBY,),
        NextPreset: (Stage.LOBBY,),
    },
}

_TABLE_COMMANDS = frozenset(kind for takes in TABLE_INPUTS.values() for kind in takes)


class Table:
    """The only owner of the game: feed it events, publish its view."""

    def __init__(
        self,
        config: Config,
        journal: _Journal,
        lookup: Callable[[str], Binding | None],
    ) -> None:
        self._config = config
        self._journal = journal
        self._seat_config = {s.seat: s for s in config.seats}
        self._intents = Intents({s.seat: s.name for s in config.seats}, lookup)
        # Only the pads whose readers can read a marker beside a tile sense markers: on the
        # others a marker that is not read says nothing about where it lies.
        self._pads = Pads((r.pad for r in config.readers),
                          sensing={r.pad for r in config.readers if r.markers})
        self._views = ViewMaker(config)
        self._rules: str | dict[str, object] = config.rules
        self._joined: list[int] = []  # table seats in the order they joined
        self._rejection: Notice | None = None
        # Languages chosen with the language card, by table seat, until a restart.
        self._languages: dict[int, str] = {}
        # Players seated by their cards in the lobby, by table seat, while they sit there.
        self._players: dict[int, _Player] = {}
        self._abandon_armed = False
        self._game: Game | None = None
        self._game_id: int | None = None
        self._history = History()
        self._entries = 0  # how many entries the game taken up at the start has
        self._commands: dict[type[Intent], Callable[[Any], None]] = {
            Enter: self._enter,
            TakeBack: self._take_back,
            JoinOrLeave: self._join_or_leave,
            StartGame: self._start_game,
            LeaveGame: self._leave_game,
            NewGameCard: self._new_game_card,
            NextPreset: self._next_preset,
            NextLanguage: self._next_language,
            SeatPlayer: self._seat_player,
            MarkerPlaced: lambda i: self._pads.marker_placed(i.pad, i.marker),
            MarkerLifted: lambda i: self._pads.marker_removed(i.pad, i.marker),
            ReaderUp: lambda i: self._pads.online(i.pad),
            ReaderDown: lambda i: self._pads.offline(i.pad, i.reason),
        }
        # What the table says to everyone until the next game starts (a game set aside).
        self._notices: list[Notice] = []
        # The game whose final ranking the table left for the lobby.
        self._left_game: int | None = None
        remembered = journal.table_state()
        self._recall_languages(remembered)
        opened = journal.open_game_meta()
        resumed = opened is not None and self._resume_open(*opened)
        if resumed:
            assert opened is not None
            # The game goes on as it was, and so does the preset chosen for it.
            assert self._game is not None
            self._rules = self._game.rules
            if journal.unclean:
                self._say_where_resumed(opened[0], self._entries)
            if self._history[-1].stage is Stage.OVER:
                # Journaled before the result was written together with the last move.
                try:
                    self._finish(abandoned=False)
                except JournalUnwritable as err:
                    log.warning("the game's result waits for the next start: %s", err)
        else:
            self._recall_lobby(remembered)
        if opened is None:
            if journal.unclean:
                log.warning("the last service stopped without closing the journal (a "
                            "power cut or a kill); no game was in progress")
            ended = journal.ended_game_meta()
            if ended is not None and ended[0] != self._left_game:
                # The last game's final ranking stays up, as it was before the restart.
                try:
                    self._resume(ended[0], self._take_up(*ended))
                except TableError as err:
                    # It is only shown, never played on: the lobby is as good a start.
                    log.warning("the last game's ranking cannot be shown: %s", err)

    # --- what the table holds between games, journaled as the table's state ----------

    def _remembered(self) -> dict[str, Any]:
        return {
            "joined": list(self._joined),
            "rules": self._rules,
            # The preset chosen holds only while the configuration names the same rules.
            "configured": self._config.rules,
            "languages": {str(seat): code for seat, code in sorted(self._languages.items())},
            "left_game": self._left_game,
        }

    def _recall_languages(self, state: Mapping[str, Any]) -> None:
        codes = languages()
        chosen = state.get("languages")
        for seat, code in (chosen.items() if isinstance(chosen, Mapping) else ()):
            if str(seat).isdigit() and int(seat) in self._seat_config and code in codes:
                self._languages[int(seat)] = code

    def _recall_lobby(self, state: Mapping[str, Any]) -> None:
        joined = state.get("joined")
        if isinstance(joined, list):
            self._joined = [s for s in dict.fromkeys(joined)
                            if isinstance(s, int) and s in self._seat_config]
        left = state.get("left_game")
        self._left_game = left if isinstance(left, int) else None
        rules = state.get("rules")
        presets = list(self._config.presets) or [preset_name(self._config.rules)]
        if state.get("configured") == self._config.rules and (
                rules == self._config.rules or rules in presets):
            self._rules = rules

    def _remembering(self, command: Callable[[Any], None], intent: Intent) -> None:
        """A table command whose outcome lasts between games: journaled before it shows,
        and not taken if it cannot be journaled."""
        before = self._remembered()
        kept = (self._joined[:], self._rules, dict(self._languages), self._left_game,
                self._game, self._history, self._game_id, dict(self._players))
        command(intent)
        after = self._remembered()
        if after == before or (self._game is not None and self._game is not kept[4]):
            return  # nothing lasting, or a new game: its meta holds its seats and rules
        try:
            self._journal.save_table_state(after)
        except JournalUnwritable:
            (self._joined, self._rules, self._languages, self._left_game,
             self._game, self._history, self._game_id, self._players) = kept
            raise

    def _say_where_resumed(self, game_id: int, entry: int) -> None:
        """After a kill or a power cut the commits after the log's last whole frame are
        gone, which no start can undo: the players check the table against the screen."""
        log.warning("the last service stopped without closing the journal (a power cut or "
                    "a kill): game %d is taken up again at entry %d; anything shown after "
                    "that entry was lost and is to be entered again", game_id, entry)
        self._notices.append(Notice(None, message(say.RESUMED_AT, game=game_id, entry=entry)))

    def _take_up(self, game_id: int, meta: Mapping[str, Any]) -> Replayed | Resumed:
        """A journaled game as far as it replays: from its snapshot and the entries after
        it if it has one that checks out (firmware_py.snapshots), else from every entry.
        `TableError` if its meta cannot be read."""
        journal = self._journal
        snapshot = journal.snapshot(game_id)
        if snapshot is not None:
            seq = snapshot.seq

            def before(game: Game) -> list[Moment]:
                return game.replay(journal.entries(game_id)[:seq])

            resumed = resume_from(meta, snapshot, journal.entries(game_id, after=seq), before)
            if resumed is not None:
                return resumed
        return replay_journaled(meta, journal.entries(game_id))

    def _resume_open(self, game_id: int, meta: Mapping[str, Any]) -> bool:
        """Take up the journal's open game; False if it cannot be replayed, and then it
        is set aside (kept in the journal, and said so on the screens and in the log)
        and the table starts in its lobby: an upgrade never stops the table."""
        try:
            replayed = self._take_up(game_id, meta)
        except TableError as err:
            self._set_aside(game_id, 1, str(err))
            return False
        if isinstance(replayed, Replayed) and replayed.failure is not None:
            self._set_aside(game_id, replayed.replayed + 1, str(replayed.failure))
            return False
        self._resume(game_id, replayed)
        game = replayed.game
        if "options" not in meta or meta.get("rules_version") != game.rules_version:
            log.warning("game %d was journaled %s; it goes on under the %s rules as rules "
                        "version %d played them", game_id,
                        "under another rules version" if "options" in meta
                        else "with its preset's name alone", game.preset, game.rules_version)
            # From now on its rules are in its meta, whatever the presets become.
            try:
                self._journal.describe_game(game_id, game.meta())
            except JournalError as err:
                log.warning("game %d: its rules are not written down yet: %s", game_id, err)
        return True

    def _set_aside(self, game_id: int, entry: int, reason: str) -> None:
        log.error("game %d cannot be taken up by this version: %s. It is set aside and "
                  "kept in the journal (`roundhouse games` lists it, `roundhouse export "
                  "%d` writes it as far as it replays); the table starts in the lobby",
                  game_id, reason, game_id)
        self._notices.append(Notice(None, message(say.GAME_SET_ASIDE, game=game_id)))
        try:
            self._journal.set_aside(game_id, entry, reason)
        except JournalError as err:
            # Not marked: it is set aside again at the next start, and said so again.
            log.warning("game %d could not be marked as set aside: %s", game_id, err)

    def _resume(self, game_id: int, replayed: Replayed | Resumed) -> Game:
        if isinstance(replayed, Resumed):
            self._history = replayed.history
            self._entries = replayed.snapshot + replayed.entries
        else:
            if replayed.failure is not None:
                raise replayed.failure
            self._history = History(replayed.history)
            self._entries = replayed.replayed
        game = replayed.game
        self._game, self._game_id = game, game_id
        self._joined = [game.seats[game.leader]] + [
            s for s in game.seats if s != game.seats[game.leader]
        ]
        return game

    # --- what the table shows (firmware_py.table_view.TableShown) ------------------------

    @property
    def game(self) -> Game | None:
        return self._game

    @property
    def moment(self) -> Moment | None:
        return self._history[-1] if self._history else None

    @property
    def history(self) -> Sequence[Moment]:
        return self._history

    @property
    def stage(self) -> Stage:
        m = self.moment
        return Stage.LOBBY if self._game is None or m is None else m.stage

    @property
    def joined(self) -> tuple[int, ...]:
        """The table seats that joined, the first one first."""
        return tuple(self._joined)

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self._seat_config))

    @property
    def rules(self) -> str | dict[str, object]:
        return self._rules

    @property
    def rejection(self) -> Notice | None:
        return self._rejection

    @property
    def notices(self) -> tuple[Notice, ...]:
        """What the table says to everyone, whatever the stage (a game set aside)."""
        return tuple(self._notices)

    @property
    def pads(self) -> Pads:
        return self._pads

    def view(self) -> View:
        """The public view of docs/view.md (without "seq"): nothing hidden in it."""
        return self._views.view(self)

    def language(self, seat: int) -> str:
        player = self._players.get(seat)
        if player is not None and player.language is not None:
            return player.language  # the player's, not the seat's: it leaves with them
        if seat in self._languages:
            return self._languages[seat]
        config = self._seat_config.get(seat)
        return config.language if config else self._config.language

    def pad_name(self, pad: str) -> Message:
        """A pad as a message: whose it is, by the seat's place in the view if it has one."""
        if pad == MEXICAN:
            return message(say.PAD_MEXICAN)
        seat = pad_seat(pad)
        if seat is None:
            return message(say.PAD_OTHER, text=repr(pad))
        place = self.view_seat(seat)
        if place is None:
            return message(say.PAD_NAMED, text=self._name(seat))
        return message(say.PAD_OF_SEAT, seat=place)

    def view_seat(self, seat: int | None) -> int | None:
        """A table seat as the view numbers it: its place among the game's seats, or in
        the lobby among the table's seats."""
        if seat is None:
            return None
        seats = self._game.seats if self._game is not None else self.seat_numbers
        return seats.index(seat) if seat in seats else None

    # --- taking an event ----------------------------------------------------------------

    def handle(self, event: Event) -> bool:
        """Take one event; True when the public view may have changed."""
        try:
            try:
                intent = self._intents.read(event, self)
            finally:
                # Abandoning a game is confirmed by the very next input only.
                armed, self._abandon_armed = self._abandon_armed, False
            if isinstance(intent, Nothing):
                self._abandon_armed = armed
                return False
            if isinstance(intent, (*PAD_NEWS, NewGameCard)):
                self._abandon_armed = armed
            before = self.stage
            command = self._commands[type(intent)]
            if isinstance(intent, _REMEMBERED):
                self._remembering(command, intent)
            else:
                command(intent)
            if type(intent) in _TABLE_COMMANDS:
                # The stages say where each command may lead; anywhere else is our fault.
                leads = TABLE_INPUTS.get(before, {}).get(type(intent), ())
                assert self.stage in leads, (before, intent, self.stage)
            if not isinstance(intent, PAD_NEWS):
                self._rejection = None
        except Refused as refusal:
            self._reject(self.view_seat(getattr(event, "seat", None)), refusal.message)
        except IllegalMove as err:
            # A button names who acted (a seat's reveal); a tap is played for the turn.
            seat = self.view_seat(getattr(event, "seat", None))
            m = self.moment
            if seat is None and m is not None:
                seat = m.state.turn
            self._reject(seat, err.message)
        except JournalUnwritable as err:
            # Every input is journaled before the table takes it: this one was not taken.
            log.warning("an input was refused: %s", err)
            self._reject(None, message(say.UNSAVED_FULL if err.full else say.UNSAVED_DISK))
        return True

    def _reject(self, seat: int | None, said: Message) -> None:
        self._rejection = Notice(seat, said)

    # --- the game's flow: accepted inputs -----------------------------------------------

    def _enter(self, intent: Enter) -> None:
        """The first entry of the intent that the game takes, journaled; the first
        refusal if it takes none."""
        refusal: RulesError | Refused | None = None
        for entry in intent.entries:
            try:
                self._commit(entry)
                return
            except (IllegalMove, Refused) as err:
                refusal = refusal or err
        assert refusal is not None
        raise refusal

    def _commit(self, entry: Step) -> None:
        game, m = self._game, self.moment
        assert game is not None and m is not None and self._game_id is not None
        moment = game.advance(m, entry)
        # The move that ends the game is written with the game's result, or neither is.
        over = moment.stage is Stage.OVER
        result = self._result(game, moment, abandoned=False) if over else None
        # The move that ends a round is written with the snapshot of the moment it
        # reached, which the next start resumes from (firmware_py.snapshots).
        snapshot = (snapshot_text(game, moment, len(self._history))
                    if ends_round(m, moment) else None)
        self._journal.append(self._game_id, entry_to_json(entry), finish=result,
                             snapshot=snapshot)
        self._history.append(moment)
        self._notices.clear()

    def _take_back(self, intent: TakeBack) -> None:
        game = self._game
        if game is None or self._game_id is None:
            raise Refused(say.NOTHING_TO_UNDO)
        game.check_undo(self._history, intent.undo)
        try:
            # Taken up from a snapshot, the moment before may have to be replayed first.
            self._history.reach_back_one()
        except TableError as err:
            log.error("game %d: the move cannot be undone: %s", self._game_id, err)
            raise Refused(say.NOTHING_TO_UNDO) from err
        m = self._history[-1]
        # At the ranking the last move goes with the result it gave (a wrong leftover
        # tile shown): both in one write.
        self._journal.append(self._game_id, entry_to_json(intent.undo),
                             reopen=m.stage is Stage.OVER)
        self._history.pop()
        self._notices.clear()

    def _join_or_leave(self, intent: JoinOrLeave) -> None:
        if intent.seat in self._joined:
            self._joined.remove(intent.seat)
            self._players.pop(intent.seat, None)  # the seat's own name again
        else:
            self._joined.append(intent.seat)

    def _start_game(self, intent: StartGame) -> None:
        game = self._game
        seats = list(game.seats) if intent.same_seats and game else sorted(self._joined)
        if len(seats) < 2:
            raise Refused(say.TWO_SEATS)
        leader = self._joined[0] if self._joined and self._joined[0] in seats else seats[0]
        try:
            new = Game(
                rules=self._rules,
                hand_mode=self._config.hand_mode,
                seats=tuple(seats),
                names=tuple(self._name(s) for s in seats),
                leader=seats.index(leader),
            )
            opening = new.opening()
        except RulesError as err:
            raise Refused(
                say.CANNOT_DEAL, text=preset_name(self._rules), n=len(seats),
                players=_spans(_player_counts(self._rules)),
            ) from err
        # Who sat where is the game's `players` and `seats`; `cards` says which names
        # came from a player card.
        # `card_ids` names the card of each (None: the seat's own name), so that the
        # league tells two players of the same name apart.
        meta = new.meta() | {
            "cards": [s in self._players for s in seats],
            "card_ids": [card_id(self._players[s].card) if s in self._players else None
                         for s in seats],
        }
        self._game_id = self._journal.begin_game(meta)
        self._game, self._history = new, History([opening])
        self._notices.clear()
        self._joined = [leader] + [s for s in seats if s != leader]

    def _leave_game(self, intent: LeaveGame) -> None:
        self._close_game()
        if intent.seat is not None:
            self._join_or_leave(JoinOrLeave(intent.seat))

    def _new_game_card(self, intent: NewGameCard) -> None:
        stage = self.stage
        if stage is Stage.LOBBY:
            self._start_game(StartGame(same_seats=False))
        elif stage is Stage.OVER:
            self._start_game(StartGame(same_seats=True))
        elif not self._abandon_armed:
            self._abandon_armed = True
            raise Refused(say.ABANDON_CONFIRM)
        else:
            self._abandon_armed = False
            self._finish(abandoned=True)
            self._close_game()

    def _next_preset(self, intent: NextPreset) -> None:
        stage = self.stage
        if stage is not Stage.LOBBY and stage is not Stage.OVER:
            raise Refused(say.PRESET_BETWEEN)
        # From the final ranking to the lobby, where the preset is shown.
        self._close_game()
        presets = list(self._config.presets) or [preset_name(self._rules)]
        current = preset_name(self._rules)
        index = presets.index(current) + 1 if current in presets else 0
        self._rules = presets[index % len(presets)]

    def _next_language(self, intent: NextLanguage) -> None:
        """The language card on a seat's own pad: that seat reads the next language."""
        codes = languages()
        current = self.language(intent.seat)
        index = codes.index(current) + 1 if current in codes else 0
        chosen = codes[index % len(codes)]
        player = self._players.get(intent.seat)
        if player is not None:
            # A seated player's choice goes with them; the seat keeps its own.
            self._players[intent.seat] = replace(player, language=chosen)
        else:
            self._languages[intent.seat] = chosen

    def _close_game(self) -> None:
        if self.stage is Stage.OVER:
            self._left_game = self._game_id  # its ranking is not shown again
        self._game, self._history, self._game_id = None, History(), None

    def _finish(self, *, abandoned: bool) -> None:
        game, m = self._game, self.moment
        assert game is not None and m is not None and self._game_id is not None
        self._journal.finish_game(self._game_id, self._result(game, m, abandoned=abandoned))

    @staticmethod
    def _result(game: Game, m: Moment, *, abandoned: bool) -> dict[str, Any]:
        ranking = m.state.ranking
        return {
            "ranking": list(ranking) if ranking is not None else None,
            "totals": list(m.state.totals),
            "winner": game.names[ranking[0]] if ranking and not abandoned else None,
            "abandoned": abandoned,
        }

    def _seat_player(self, intent: SeatPlayer) -> None:
        """A player card in the lobby: the seat joins under that player's name, and
        reads the player's language if the card has one. A card seated elsewhere moves
        its player here: one player never holds two seats."""
        for seat, player in list(self._players.items()):
            if seat != intent.seat and player.card == intent.card:
                del self._players[seat]  # that seat's own name and language again
                if seat in self._joined:
                    self._joined.remove(seat)
        self._players[intent.seat] = _Player(intent.name, intent.language, intent.card)
        if intent.seat not in self._joined:
            self._joined.append(intent.seat)

    def seat_name(self, seat: int) -> str:
        """The name a table seat goes by: its player's, seated by a card, else the
        configuration's."""
        return self._name(seat)

    def _name(self, seat: int) -> str:
        if seat in self._players:
            return self._players[seat].name
        config = self._seat_config.get(seat)
        return config.name if config else f"Seat {seat}"


@frozen
class _Player(Value):
    """A player seated by their card."""

    name: str
    language: str | None  # None: the seat's language
    card: str  # the card's UID


def card_id(uid: str) -> str:
    """The name a player card goes by beyond the table: stable for the card at every
    table, and not its UID (which would let anyone who reads the league copy the card)."""
    import hashlib

    return "card-" + hashlib.sha256(uid.encode()).hexdigest()[:12]


def _player_counts(rules: str | dict[str, object]) -> list[int]:
    """The numbers of players the rules deal for, at a table of any size."""
    options = Options.from_json(rules)
    counts = []
    for players in SEATS:
        try:
            options.deal_for(players)
        except RulesError:
            continue
        counts.append(players)
    return counts


def _spans(numbers: list[int]) -> list[int | Message]:
    """`[2, 3, 4, 7]` -> 2-4 and 7."""
    runs: list[list[int]] = []
    for k in numbers:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    return [run[0] if len(run) == 1 else message(say.SPAN, low=run[0], high=run[-1])
            for run in runs]
