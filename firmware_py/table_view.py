"""The public view of a table (docs/view.md): everything the screens draw, nothing
hidden. Hands never leave the table: the view has their sizes. Prompts, refusals and
alerts are messages, said by each screen in its reader's language.

`ViewMaker.view(table)` builds it from what the table shows (`TableShown`); the view's
types are `roundhouse.view`, which the screens read it back with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from firmware_py.config import Config
from firmware_py.game import Game, Moment, preset_name
from firmware_py.pads import Pads
from firmware_py.rules import Draw, Options, RulesError, StartRound, State, Train
from firmware_py.stages import Stage
from roundhouse import messages as say
from roundhouse.message import Message, message
from roundhouse.round_end import over_prompt, reveal_prompt, summary_prompt
from roundhouse.view import (
    KEY_OPTIONS,
    Branch,
    LastPlay,
    Notice,
    PendingDouble,
    Phase,
    SeatView,
    TrainView,
    View,
)
from roundhouse.vocabulary import MEXICAN, MEXICAN_NAME


class TableShown(Protocol):
    """What the view is made of: the table's game, lobby and senses."""

    @property
    def game(self) -> Game | None: ...
    @property
    def history(self) -> Sequence[Moment]: ...
    @property
    def joined(self) -> tuple[int, ...]: ...
    @property
    def rules(self) -> str | dict[str, object]: ...
    @property
    def rejection(self) -> Notice | None: ...
    @property
    def notices(self) -> tuple[Notice, ...]: ...
    @property
    def pads(self) -> Pads: ...

    def language(self, seat: int) -> str: ...
    def seat_name(self, seat: int) -> str: ...
    def pad_name(self, pad: str) -> Message: ...
    def view_seat(self, seat: int | None) -> int | None: ...


class ViewMaker:
    """Builds the public view of one table (its configuration's seats and screens)."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def _grammar(self, seat: int, name: str) -> dict[str, Any]:
        """The gender and forms the configuration gives a seat's name, while the seat goes
        by that name (a player seated by a card goes by the card's)."""
        config = next((s for s in self._config.seats if s.seat == seat), None)
        if config is None or config.name != name:
            return {}
        return {"gender": config.gender, "forms": config.forms}

    def view(self, table: TableShown) -> View:
        """The public view of docs/view.md (its "seq" is the publisher's): nothing hidden."""
        game, history = table.game, table.history
        if game is None or not history:
            return self._lobby_view(table)
        m = history[-1]
        state = m.state
        started = state.round > 0 and m.stage not in _SETTING_UP
        seats = []
        for e, seat in enumerate(game.seats):
            train = state.trains.get(e) if started else None
            seats.append(SeatView(
                seat=e,
                name=game.names[e],
                language=table.language(seat),
                joined=True,
                hand=_hand(game, m, e),
                one_tile=e in _one_tile(m),
                marker_expected=bool(train and train.open),
                marker_sensed=table.pads.marker_sensed(seat),
                total=state.totals[e],
                **self._grammar(seat, game.names[e]),
            ))
        trains: list[TrainView] = []
        if started:
            for e, name in enumerate(game.names):
                trains.append(_train_view(str(e), e, name, state.trains[e]))
            trains.append(_train_view(MEXICAN, None, MEXICAN_NAME, state.trains[MEXICAN]))
        engine = state.engine if started else game.next_engine(state)
        last_play = None
        if m.last_play is not None:
            last_play = LastPlay(m.last_play.seat, str(m.last_play.train), m.last_play.tile)
        # (Only play reads the state before: a game taken up from a snapshot replays the
        # moments before its snapshot's only when they are asked for.)
        before = history[-2].state if len(history) > 1 and m.stage is Stage.PLAY else None
        language, wall_language = self._languages()
        return View(
            language=language,
            wall_language=wall_language,
            phase=(Phase.DEAL if m.stage is Stage.PLAY and not state.engine_laid
                   else _PHASES[m.stage]),
            stage=m.stage,
            preset=game.preset,
            options=tuple((k, _option(game.option(k))) for k in KEY_OPTIONS),
            hand_mode=game.hand_mode,
            set=game.set_size,
            round=state.round if started else state.round + 1,
            rounds=game.rounds,
            engine=str(engine) if engine is not None else None,
            engine_laid=bool(started and state.engine_laid),
            turn=state.turn if started else None,
            seats=tuple(seats),
            trains=tuple(trains),
            pending_doubles=tuple(
                PendingDouble(str(train_id), str(tile), k)
                for k, (train_id, tile) in enumerate(state.pending_doubles if started else (), 1)
            ),
            boneyard=_boneyard(game, m),
            prompt=_prompt(game, m, table.pads),
            rejection=table.rejection,
            alerts=(_alerts(game, m, before, table) if started else _reader_alerts(table)),
            scores=tuple(tuple(row) for row in state.scores),
            round_engines=tuple(m.engines[: len(state.scores)]),
            totals=tuple(state.totals),
            ranking=tuple(state.ranking) if state.ranking else None,
            readers=table.pads.views(),
            last_play=last_play,
            revealed=_revealed(game, m),
            went_out=(state.went_out if m.stage in (Stage.REVEAL, Stage.SUMMARY, Stage.OVER)
                      else None),
        )

    def _lobby_view(self, table: TableShown) -> View:
        options = Options.from_json(table.rules)
        joined = len(table.joined)
        # Until two have joined, the set is the one the whole table would be dealt.
        players = joined if joined >= 2 else len(self._config.seats)
        try:
            set_size = options.deal_for(players)[0]
        except RulesError:
            set_size = options.set or 12
        rounds = options.rounds
        if joined == 0:
            prompt = message(say.LOBBY_JOIN)
        elif joined == 1:
            prompt = message(say.LOBBY_JOIN_TWO)
        else:
            prompt = message(say.LOBBY_START, n=joined)
        language, wall_language = self._languages()
        return View(
            language=language,
            wall_language=wall_language,
            phase=Phase.LOBBY,
            stage=Stage.LOBBY,
            preset=preset_name(table.rules),
            options=tuple((k, _option(getattr(options, k))) for k in KEY_OPTIONS),
            hand_mode=self._config.hand_mode,
            set=set_size,
            round=0,
            rounds=int(rounds) if rounds else set_size + 1,
            engine=None,
            engine_laid=False,
            turn=None,
            seats=tuple(
                SeatView(
                    seat=s.seat,
                    name=table.seat_name(s.seat),
                    language=table.language(s.seat),
                    joined=s.seat in table.joined,
                    hand=0,
                    one_tile=False,
                    marker_expected=False,
                    marker_sensed=table.pads.marker_sensed(s.seat),
                    total=0,
                    **self._grammar(s.seat, table.seat_name(s.seat)),
                )
                for s in sorted(self._config.seats, key=lambda s: s.seat)
            ),
            trains=(),
            pending_doubles=(),
            boneyard=0,
            prompt=prompt,
            rejection=table.rejection,
            alerts=_reader_alerts(table),
            scores=(),
            round_engines=(),
            totals=(0,) * len(self._config.seats),
            ranking=None,
            readers=table.pads.views(),
            last_play=None,
            revealed=None,
            went_out=None,
        )

    def _languages(self) -> tuple[str, str]:
        """The table screen's language (where no seat reads) and the wall's; each falls
        back on the table-wide language."""
        display, language = self._config.display, self._config.language
        return display.table.language or language, display.wall.language or language


_SETTING_UP = (Stage.LEAD, Stage.DEAL, Stage.HUNT)
_PHASES = {
    Stage.LEAD: Phase.DEAL,
    Stage.DEAL: Phase.DEAL,
    Stage.HUNT: Phase.DEAL,
    Stage.PLAY: Phase.PLAY,
    Stage.REVEAL: Phase.ROUND_OVER,
    Stage.SUMMARY: Phase.ROUND_OVER,
    Stage.OVER: Phase.GAME_OVER,
}


def _option(value: object) -> str | int | bool | None:
    return value if value is None or isinstance(value, str | int | bool) else str(value)


def _revealed(game: Game, m: Moment) -> tuple[int | None, ...] | None:
    """During the reveal, each seat's points once known (its tiles shown and PASS
    pressed, or none left), else None; None outside the reveal."""
    if m.stage is not Stage.REVEAL:
        return None
    blank = int(str(game.option("double_blank")))
    state = m.state
    return tuple(
        None if e in state.awaiting_reveal
        else sum(t.score(blank) for t in m.shown_by(e))
        for e in range(game.players)
    )


def _hand(game: Game, m: Moment, e: int) -> int:
    if m.stage is Stage.DEAL:
        return len(m.dealt[e])
    if m.stage is Stage.HUNT:
        return game.hand_size + m.hunted[e]
    if m.stage is Stage.LEAD:
        return 0
    return int(m.state.hand_counts[e])


def _boneyard(game: Game, m: Moment) -> int:
    if m.stage in _SETTING_UP:
        out = sum(_hand(game, m, e) for e in range(game.players))
        return len(game.set_tiles()) - out - (1 if game.set_aside else 0)
    return int(m.state.boneyard_count)


def _prompt(game: Game, m: Moment, pads: Pads) -> Message | None:
    state = m.state
    if m.stage in _SETTING_UP:
        return _deal_prompt(game, m)
    if m.stage is Stage.REVEAL:
        return reveal_prompt((e, len(m.shown_by(e)), state.hand_counts[e])
                             for e in state.awaiting_reveal)
    if m.stage is Stage.SUMMARY:
        return summary_prompt(state.round, state.went_out)
    if m.stage is Stage.OVER:
        return over_prompt(state.ranking or ())
    return _play_prompt(game, m, pads)


def _deal_prompt(game: Game, m: Moment) -> Message:
    state = m.state
    engine = str(game.next_engine(state))
    if m.stage is Stage.LEAD:
        return message(say.LEAD, round=state.round + 1, tile=engine)
    if m.stage is Stage.DEAL:
        dealt = [
            message(say.PROGRESS, seat=e, done=len(hand), of=game.hand_size)
            for e, hand in enumerate(m.dealt)
        ]
        if game.set_aside:
            return message(say.DEAL_ASIDE, round=state.round + 1, tile=engine, dealt=dealt)
        return message(say.DEAL, round=state.round + 1, dealt=dealt)
    return message(say.HUNT, round=state.round + 1, n=game.hand_size, tile=engine,
                   seat=m.hunter or 0)

def _play_prompt(game: Game, m: Moment, pads: Pads) -> Message | None:
    state = m.state
    seat = state.turn
    if seat is None:
        return None
    last = m.last_action
    fresh: list[Message] = []
    if isinstance(last, StartRound):
        if not game.tracked:
            fresh.append(message(say.TAKE_TILES, n=game.hand_size))
        if game.set_aside:
            fresh.append(message(say.PUT_ENGINE, tile=str(state.engine)))
    if m.drawing is not None:
        if pads.is_offline(str(game.seats[seat])):
            return message(say.DRAW_OFFLINE, seat=seat)
        return message(say.TAP_DRAWN, seat=seat)
    if not state.engine_laid:
        return message(say.FIND_ENGINE, seat=seat, tile=str(state.engine))
    if state.pending_doubles:
        train_id, tile = state.pending_doubles[0]
        return _after(fresh, message(say.SATISFY, seat=seat, tile=str(tile),
                                     train=str(train_id)))
    if isinstance(last, Draw) and last.seat == seat and last.tile is not state.engine:
        # (A draw that turned up the engine laid it: that seat leads the round.)
        return message(say.DRAWN, seat=seat)
    if game.option("first_turn") == "train" and not state.first_turn_done[seat]:
        lay = say.LAY_TRAIN_OR_DRAW if game.option("first_turn_draw") else say.LAY_TRAIN_OR_PASS
        return _after(fresh, message(lay, seat=seat))
    if state.boneyard_count == 0:
        return _after(fresh, message(say.PLAY_OR_PASS, seat=seat))
    return _after(fresh, message(say.PLAY_OR_DRAW, seat=seat))


def _one_tile(m: Moment) -> tuple[int, ...]:
    """Seats down to one tile in play. The table says it under every preset (the
    `one_tile_alert` rule makes players say it, and the table says it for them)."""
    if m.stage is not Stage.PLAY:
        return ()
    return tuple(e for e, count in enumerate(m.state.hand_counts) if count == 1)


def _alerts(game: Game, m: Moment, before: State | None,
            table: TableShown) -> tuple[Notice, ...]:
    one_tile = [Notice(e, message(say.ONE_TILE, seat=e)) for e in _one_tile(m)]
    markers = table.pads.marker_alerts(game, m, before, table.pad_name)
    return (*one_tile, *_reader_alerts(table), *markers)


def _reader_alerts(table: TableShown) -> tuple[Notice, ...]:
    """The table's own notices (a game set aside, where it resumed), then the readers'."""
    return (*table.notices, *table.pads.reader_alerts(table.view_seat, table.pad_name))


def _after(before: list[Message], prompt: Message) -> Message:
    """The sentences of a fresh round's start, then the prompt."""
    for first in reversed(before):
        prompt = message(say.SENTENCES, first=first, then=prompt)
    return prompt


def _train_view(train_id: str, owner: int | None, name: str, train: Train) -> TrainView:
    return TrainView(
        id=train_id,
        owner=owner,
        name=name,
        tiles=tuple(str(laid) for laid in train.tiles),
        open=train.open,
        branches=tuple(_branch_view(b) for b in train.branches),
    )


def _branch_view(branch: Train) -> Branch:
    return Branch(tuple(str(laid) for laid in branch.tiles),
                  tuple(_branch_view(b) for b in branch.branches))
