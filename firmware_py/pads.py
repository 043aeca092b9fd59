"""What the hub's pads sense, and the table's checks on it: each train's marker and each
reader's health.

A pad senses the markers lying on it while its reader is online; a reader that goes
offline senses nothing until it is back (docs/table.md), and what it knew of the pad
stays until the reader, back, says what changed. The checks
compare what the pads sense with what the rules say: a marker to put out or take back,
a marker lying on another train's pad, a pad's reader offline. They are alerts of the
public view, each for the seat it concerns (docs/view.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from firmware_py.game import Game, Moment
from firmware_py.rules import State
from firmware_py.stages import Stage
from roundhouse import messages as say
from roundhouse.message import Message, message
from roundhouse.view import Notice, ReaderView
from roundhouse.vocabulary import pad_seat

# A reader that has not reported since the service started.
STARTING = "starting"

class Pads:
    """The markers each pad senses and each reader's health, by pad."""

    def __init__(self, pads: Iterable[str], sensing: Iterable[str]) -> None:
        """`sensing`: the pads whose readers read a marker beside a tile."""
        self._markers: dict[str, set[str]] = {}
        self._readers: dict[str, tuple[bool, str | None]] = {}
        self._senses_markers = set(sensing)
        for pad in pads:
            self._markers[pad] = set()
            self._readers[pad] = (False, STARTING)

    # --- what the readers report ------------------------------------------------------

    def marker_placed(self, pad: str, marker: str) -> None:
        self._markers.setdefault(pad, set()).add(marker)

    def marker_removed(self, pad: str, marker: str) -> None:
        self._markers.setdefault(pad, set()).discard(marker)

    def online(self, pad: str) -> None:
        self._readers[pad] = (True, None)

    def offline(self, pad: str, reason: str | None) -> None:
        # The markers stay known: the reader keeps the tags it had through a reconnection
        # and reports those that are gone once it is back, not those still lying there.
        # While it is offline nothing is asked of them (`marker_sensed` is None).
        self._readers[pad] = (False, reason)

    # --- what they sense ----------------------------------------------------------------

    def reader(self, pad: str) -> tuple[bool, str | None] | None:
        """(online, why not) of the pad's reader; None for a pad without one."""
        return self._readers.get(pad)

    def is_offline(self, pad: str) -> bool:
        """The pad's reader went offline (not merely still starting)."""
        online, reason = self._readers.get(pad, (True, None))
        return not online and reason != STARTING

    def marker_sensed(self, seat: int) -> bool | None:
        """Whether a seat's own pad senses its marker; None when it cannot sense."""
        pad = str(seat)
        online, _ = self._readers.get(pad, (False, None))
        if not online or pad not in self._senses_markers:
            return None
        return pad in self._markers.get(pad, set())

    def marker_astray(self, seat: int) -> str | None:
        """The pad of another train where a seat's marker lies, if one senses it."""
        for pad, markers in self._markers.items():
            if (pad != str(seat) and str(seat) in markers and pad in self._senses_markers
                    and self._readers.get(pad, (False,))[0]):
                return pad
        return None

    def views(self) -> tuple[ReaderView, ...]:
        """The view's `readers`: every configured reader's health."""
        return tuple(
            ReaderView(pad, online, reason) for pad, (online, reason) in self._readers.items()
        )

    # --- the checks ---------------------------------------------------------------------

    def reader_alerts(
        self, view_seat: Callable[[int], int | None], pad_name: Callable[[str], Message]
    ) -> tuple[Notice, ...]:
        """One alert per offline reader, for the seat whose pad it reads (if in the view)."""
        alerts = []
        for pad, (online, reason) in self._readers.items():
            if online or reason == STARTING:
                # A reader that has not reported yet is no news.
                continue
            table_seat = pad_seat(pad)
            seat = view_seat(table_seat) if table_seat is not None else None
            where = pad_name(pad)
            said = (message(say.READER_OFFLINE_WHY, pad=where, text=reason) if reason
                    else message(say.READER_OFFLINE, pad=where))
            alerts.append(Notice(seat, said))
        return tuple(alerts)

    def marker_alerts(
        self, game: Game, m: Moment, before: State | None, pad_name: Callable[[str], Message]
    ) -> tuple[Notice, ...]:
        """Each seat's marker that is not where the rules put it, while play goes on;
        `before` is the state before the last input (a pad that cannot sense is reminded
        of a change only)."""
        if m.stage is not Stage.PLAY:
            return ()
        state = m.state
        alerts = []
        for e, seat in enumerate(game.seats):
            expected = state.trains[e].open
            sensed = self.marker_sensed(seat)
            astray = None if sensed else self.marker_astray(seat)
            if astray is not None:
                where = pad_name(astray)
                said = (message(say.MARKER_MOVE, seat=e, pad=where) if expected
                        else message(say.MARKER_BACK_FROM, seat=e, pad=where))
                alerts.append(Notice(e, said))
                continue
            if sensed is None:
                # Without a reader on that pad the table can only remind at the change.
                was = before.trains[e].open if before is not None and before.round else expected
                if expected == was:
                    continue
                sensed = was
            if expected and not sensed:
                alerts.append(Notice(e, message(say.MARKER_OUT, seat=e)))
            elif sensed and not expected:
                alerts.append(Notice(e, message(say.MARKER_BACK, seat=e)))
        return tuple(alerts)
