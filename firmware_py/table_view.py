"""The public view of a table (docs/view.md): everything the screens draw, nothing
hidden. Hands never leave the table: the view has their sizes. Prompts, refusals and
alerts are messages (`firmware_py.messages`), said by each screen in its reader's
language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from firmware_py import messages as say
from firmware_py.messages import Message, message
from firmware_py.rules import MEXICAN, Draw, Options, RulesError, StartRound, Train
from firmware_py.tablegame import Game, Moment, preset_name

if TYPE_CHECKING:
    from firmware_py.config import Config
    from firmware_py.pads import Pads

VIEW_VERSION = 1
# The options the screens show next to the preset's name.
KEY_OPTIONS = ("engine", "first_turn", "double_follow", "chicken_foot", "double_blank")


class PublicView:
    """The part of `Table` that shows it."""

    if TYPE_CHECKING:
        _config: Config
        _rules: str | dict[str, object]
        _joined: list[int]
        _pads: Pads
        _rejection: dict[str, Any] | None
        _game: Game | None
        _history: list[Moment]

        def _moment(self) -> Moment | None: ...
        def _pad_name(self, pad: str) -> Message: ...
        def _view_seat(self, seat: int | None) -> int | None: ...
        def _language(self, seat: int) -> str: ...

    def view(self) -> dict[str, Any]:
        """The public view of docs/view.md (without "seq"): nothing hidden in it."""
        game, m = self._game, self._moment()
        if game is None or m is None:
            return self._lobby_view()
        state = m.state
        started = state.round > 0 and m.stage not in ("lead", "deal", "hunt")
        seats = []
        for e, seat in enumerate(game.seats):
            train = state.trains.get(e) if started else None
            seats.append(
                {
                    "seat": e,
                    "name": game.names[e],
                    "language": self._language(seat),
                    "joined": True,
                    "hand": self._hand(game, m, e),
                    "one_tile": e in self._one_tile(m),
                    "marker_expected": bool(train and train.open),
                    "marker_sensed": self._pads.marker_sensed(seat),
                    "total": state.totals[e],
                }
            )
        trains = []
        if started:
            for e, name in enumerate(game.names):
                trains.append(
                    {"id": str(e), "owner": e, "name": name}
                    | _train_view(state.trains[e])
                )
            trains.append(
                {"id": MEXICAN, "owner": None, "name": "Mexican train"}
                | _train_view(state.trains[MEXICAN])
            )
        engine = state.engine if started else game.next_engine(state)
        last_play = None
        if m.last_play is not None:
            actor, train_id, text = m.last_play
            last_play = {
                "seat": actor,
                "train": str(train_id),
                "tile": text,
            }
        return {
            "version": VIEW_VERSION,
            **self._languages_view(),
            "phase": "deal" if m.stage == "play" and not state.engine_laid else _PHASES[m.stage],
            "preset": game.preset,
            "options": {k: game.option(k) for k in KEY_OPTIONS},
            "hand_mode": game.hand_mode,
            "set": game.set_size,
            "round": state.round if started else state.round + 1,
            "rounds": game.rounds,
            "engine": str(engine) if engine is not None else None,
            "engine_laid": bool(started and state.engine_laid),
            "turn": state.turn if started else None,
            "seats": seats,
            "trains": trains,
            "pending_doubles": [
                {"train": str(train_id), "tile": str(tile), "order": k}
                for k, (train_id, tile) in enumerate(state.pending_doubles if started else (), 1)
            ],
            "boneyard": self._boneyard(game, m),
            "prompt": self._prompt(game, m),
            "rejection": self._rejection,
            "alerts": self._alerts(game, m) if started else self._reader_alerts(),
            "scores": [list(row) for row in state.scores],
            "round_engines": list(m.engines[: len(state.scores)]),
            "totals": list(state.totals),
            "ranking": list(state.ranking) if state.ranking else None,
            "readers": self._pads.views(),
            "last_play": last_play,
            "revealed": self._revealed(game, m),
            "went_out": state.went_out if m.stage in ("reveal", "summary", "over") else None,
        }

    @staticmethod
    def _revealed(game: Game, m: Moment) -> list[int | None] | None:
        """During the reveal, each seat's points once known (its tiles shown and PASS
        pressed, or none left), else None; None outside the reveal."""
        if m.stage != "reveal":
            return None
        blank = int(str(game.option("double_blank")))
        state = m.state
        return [
            None if e in state.awaiting_reveal
            else sum(t.score(blank) for t in (m.shown[e] if m.shown else ()))
            for e in range(game.players)
        ]

    def _lobby_view(self) -> dict[str, Any]:
        options = Options.from_json(self._rules)
        # Until two have joined, the set is the one the whole table would be dealt.
        players = len(self._joined) if len(self._joined) >= 2 else len(self._config.seats)
        try:
            set_size = options.deal_for(players)[0]
        except RulesError:
            set_size = options.set or 12
        rounds = options.rounds
        joined = len(self._joined)
        if joined == 0:
            prompt = message(say.LOBBY_JOIN)
        elif joined == 1:
            prompt = message(say.LOBBY_JOIN_TWO)
        else:
            prompt = message(say.LOBBY_START, n=joined)
        return {
            "version": VIEW_VERSION,
            **self._languages_view(),
            "phase": "lobby",
            "preset": preset_name(self._rules),
            "options": {k: getattr(options, k) for k in KEY_OPTIONS},
            "hand_mode": self._config.hand_mode,
            "set": set_size,
            "round": 0,
            "rounds": int(rounds) if rounds else set_size + 1,
            "engine": None,
            "engine_laid": False,
            "turn": None,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "language": self._language(s.seat),
                    "joined": s.seat in self._joined,
                    "hand": 0,
                    "one_tile": False,
                    "marker_expected": False,
                    "marker_sensed": self._pads.marker_sensed(s.seat),
                    "total": 0,
                }
                for s in sorted(self._config.seats, key=lambda s: s.seat)
            ],
            "trains": [],
            "pending_doubles": [],
            "boneyard": 0,
            "prompt": prompt,
            "rejection": self._rejection,
            "alerts": self._reader_alerts(),
            "scores": [],
            "round_engines": [],
            "totals": [0] * len(self._config.seats),
            "ranking": None,
            "readers": self._pads.views(),
            "last_play": None,
            "revealed": None,
            "went_out": None,
        }

    @staticmethod
    def _hand(game: Game, m: Moment, e: int) -> int:
        if m.stage == "deal":
            return len(m.dealt[e])
        if m.stage == "hunt":
            return game.hand_size + m.hunted[e]
        if m.stage == "lead":
            return 0
        return int(m.state.hand_counts[e])

    def _boneyard(self, game: Game, m: Moment) -> int:
        if m.stage in ("lead", "deal", "hunt"):
            out = sum(self._hand(game, m, e) for e in range(game.players))
            return len(game.set_tiles()) - out - (1 if game.set_aside else 0)
        return int(m.state.boneyard_count)

    def _prompt(self, game: Game, m: Moment) -> Message | None:
        state = m.state
        if m.stage in ("lead", "deal", "hunt"):
            return self._deal_prompt(game, m)
        if m.stage == "reveal":
            waiting = [
                message(say.PROGRESS, seat=e, done=len(m.shown[e]) if m.shown else 0,
                        of=state.hand_counts[e])
                for e in state.awaiting_reveal
            ]
            return message(say.REVEAL, waiting=waiting)
        if m.stage == "summary":
            if state.went_out is not None:
                return message(say.SUMMARY_OUT, round=state.round, seat=state.went_out,
                               next=state.round + 1)
            return message(say.SUMMARY_BLOCKED, round=state.round, next=state.round + 1)
        if m.stage == "over":
            if state.ranking:
                return message(say.OVER, winner_seat=state.ranking[0])
            return message(say.OVER_NOBODY)
        return self._play_prompt(game, m)

    def _deal_prompt(self, game: Game, m: Moment) -> Message:
        state = m.state
        engine = str(game.next_engine(state))
        if m.stage == "lead":
            return message(say.LEAD, round=state.round + 1, tile=engine)
        if m.stage == "deal":
            dealt = [
                message(say.PROGRESS, seat=e, done=len(hand), of=game.hand_size)
                for e, hand in enumerate(m.dealt)
            ]
            if game.set_aside:
                return message(say.DEAL_ASIDE, round=state.round + 1, tile=engine, dealt=dealt)
            return message(say.DEAL, round=state.round + 1, dealt=dealt)
        return message(say.HUNT, round=state.round + 1, n=game.hand_size, tile=engine,
                       seat=m.hunter or 0)

    def _play_prompt(self, game: Game, m: Moment) -> Message | None:
        state = m.state
        seat = state.turn
        if seat is None:
            return None
        last = m.steps.action if m.steps is not None else None
        fresh: list[Message] = []
        if isinstance(last, StartRound):
            if not game.tracked:
                fresh.append(message(say.TAKE_TILES, n=game.hand_size))
            if game.set_aside:
                fresh.append(message(say.PUT_ENGINE, tile=str(state.engine)))
        if m.drawing is not None:
            if self._pads.is_offline(str(game.seats[seat])):
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

    @staticmethod
    def _one_tile(m: Moment) -> tuple[int, ...]:
        """Seats down to one tile in play. The table says it under every preset (the
        `one_tile_alert` rule makes players say it, and the table says it for them)."""
        if m.stage != "play":
            return ()
        return tuple(e for e, count in enumerate(m.state.hand_counts) if count == 1)

    def _alerts(self, game: Game, m: Moment) -> list[dict[str, Any]]:
        alerts = [
            {"seat": e, "message": message(say.ONE_TILE, seat=e)} for e in self._one_tile(m)
        ]
        before = self._history[-2].state if len(self._history) > 1 else None
        return (alerts + self._reader_alerts()
                + self._pads.marker_alerts(game, m, before, self._pad_name))

    def _reader_alerts(self) -> list[dict[str, Any]]:
        return self._pads.reader_alerts(self._view_seat, self._pad_name)

    def _languages_view(self) -> dict[str, str]:
        """The table screen's language (where no seat reads) and the wall's; each falls
        back on the table-wide language."""
        display, language = self._config.display, self._config.language
        return {"language": display.table.language or language,
                "wall_language": display.wall.language or language}


_PHASES = {
    "lead": "deal",
    "deal": "deal",
    "hunt": "deal",
    "play": "play",
    "reveal": "round_over",
    "summary": "round_over",
    "over": "game_over",
}


def _after(before: list[Message], prompt: Message) -> Message:
    """The sentences of a fresh round's start, then the prompt."""
    for first in reversed(before):
        prompt = message(say.SENTENCES, first=first, then=prompt)
    return prompt


def _train_view(train: Train) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in train.tiles],
        "open": train.open,
        "branches": [_branch_view(b) for b in train.branches],
    }


def _branch_view(branch: Train) -> dict[str, Any]:
    return {
        "tiles": [str(laid) for laid in branch.tiles],
        "branches": [_branch_view(b) for b in branch.branches],
    }
