"""What the phone page shows of a table, said in one language: `board(view, lang)`.

The page draws this as it is and computes nothing but the chart's geometry. It holds
only what the wall shows the whole room (whose turn, every seat's tiles left and
points, the open doubles, the rounds' scores, the running totals, the ranking), picked
field by field from the view: nothing else of the view reaches a phone, so a field
added to the view later is never sent by accident. Every word comes from the project's
catalogues and every number is written in the language's digits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundhouse import messages as say
from roundhouse.declension import Name
from roundhouse.messages import message
from roundhouse.render import (
    Names,
    digits,
    direction,
    language_name,
    languages,
    number,
    render,
)
from roundhouse.view import Phase, View
from roundhouse.vocabulary import DEFAULT_LANGUAGE

# The display's seat colours, so a player has the same colour on the wall and the phone.
SEAT_COLOURS = (
    "#42a0ff", "#ff783c", "#aa6eff", "#3cd28c", "#ff5aaa", "#e6d23c", "#50dce6",
    "#f096c8", "#96c850", "#c88c5a", "#788cff", "#ffaa6e", "#6ee6c8", "#d278e6",
)


def seat_names(view: View, lang: str) -> list[str]:
    """The seats' names; a seat the configuration names nobody ("Seat 3") is said in the
    language, as the screens say it."""
    said = []
    for i, seat in enumerate(view.seats):
        if seat.name == f"Seat {i + 1}":
            text = render(message(say.SEAT_NUMBERED, number=i + 1), lang)
            said.append(text[:1].upper() + text[1:])
        else:
            said.append(seat.name)
    return said


def labels(lang: str) -> dict[str, str]:
    """The page's fixed words in `lang`."""
    words = {
        "title": say.SCREEN_TITLE, "player": say.SCREEN_PLAYER, "tiles": say.SCREEN_HAND,
        "total": say.SCREEN_TOTAL, "place": say.SCREEN_PLACE,
        "running_totals": say.SCREEN_RUNNING_TOTALS, "rounds": say.WEB_ROUNDS,
        "open_doubles": say.WEB_OPEN_DOUBLES, "language": say.WEB_LANGUAGE,
        "league": say.WEB_LEAGUE, "games": say.WEB_GAMES, "wins": say.WEB_WINS,
        "waiting": say.SCREEN_WAITING_TABLE,
    }
    return {key: render(message(mid), lang) for key, mid in words.items()}


def language_choices() -> list[dict[str, str]]:
    return [{"code": code, "name": language_name(code)} for code in languages()]


def _headline(view: View, lang: str, names: Names) -> str:
    def said(mid: str, **args: Any) -> str:
        return render(message(mid, **args), lang, names)

    if view.phase is Phase.LOBBY:
        joined = sum(1 for s in view.seats if s.joined)
        return said(say.SCREEN_WAITING, joined=joined, n=len(view.seats))
    if view.phase is Phase.GAME_OVER:
        if view.ranking:
            return said(say.SCREEN_WINNER, seat=view.ranking[0])
        return said(say.SCREEN_GAME_OVER)
    if view.phase is Phase.ROUND_OVER:
        if view.went_out is not None:
            return said(say.SCREEN_ROUND_OVER_OUT, round=view.round, seat=view.went_out)
        return said(say.SCREEN_ROUND_OVER_BLOCKED, round=view.round)
    if view.phase is Phase.DEAL:
        return said(say.SCREEN_DEALING)
    if view.turn is not None:
        return said(say.SCREEN_TURN, seat=view.turn)
    return said(say.SCREEN_ROUND_OF, round=view.round, rounds=view.rounds)


def board(view: View, lang: str) -> dict[str, Any]:
    """The page's content for one view in language `lang`."""
    names = seat_names(view, lang)
    # The sentences take the names with their grammar ("του Νίκου"), the page as written.
    people = [Name(text, p.gender, p.forms, p.number)
              for text, p in zip(names, view.people(), strict=True)]

    def said(mid: str, **args: Any) -> str:
        return render(message(mid, **args), lang, people)

    playing = view.phase is not Phase.LOBBY
    seats = [
        {
            "seat": i,
            "name": names[i],
            "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)],
            "tiles": said(say.SCREEN_TILES, n=seat.hand) if playing else "",
            "points": said(say.SCREEN_POINTS, n=seat.total) if playing else "",
            "turn": view.turn == i,
            "one_tile": seat.one_tile,
        }
        for i, seat in enumerate(view.seats)
        if playing or seat.joined
    ]
    running: list[list[int]] = []
    sums = [0] * len(view.seats)
    for row in view.scores:
        sums = [a + b for a, b in zip(sums, row, strict=True)]
        running.append(list(sums))
    ranking = None
    if view.ranking is not None:
        ranking = [
            {"place": number(place, lang), "name": names[seat],
             "total": number(view.totals[seat], lang),
             "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)]}
            for place, seat in enumerate(view.ranking, start=1)
        ]
    return {
        "lang": lang,
        "dir": direction(lang),
        "digits": digits("0123456789", lang),
        "phase": view.phase.value,
        "headline": _headline(view, lang, people),
        "round": said(say.SCREEN_ROUND_OF, round=view.round, rounds=view.rounds)
        if playing else "",
        "seats": seats,
        "doubles": [said(say.WEB_DOUBLE_ON, tile=d.tile, train=d.train)
                    for d in view.pending_doubles],
        "history": {
            "names": names,
            "engines": list(view.round_engines),
            "rows": [[number(v, lang) for v in row] for row in view.scores],
            "numbers": [number(r, lang) for r in range(1, len(view.scores) + 1)],
            "totals": [number(v, lang) for v in view.totals],
        },
        "chart": {"running": running,
                  "colours": [SEAT_COLOURS[i % len(SEAT_COLOURS)]
                              for i in range(len(view.seats))]},
        "ranking": ranking,
    }


def waiting(lang: str) -> dict[str, Any]:
    """The page's content while the table service is away."""
    return {"lang": lang, "dir": direction(lang), "digits": digits("0123456789", lang),
            "phase": "offline", "headline": labels(lang)["waiting"]}


def negotiate(accept: str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The best of the table's languages for an Accept-Language header (RFC 9110: a
    list of `range;q=weight`; `fa-IR` is taken as `fa`, `*` as the fallback); the
    fallback when none fits or the header cannot be read."""
    known = set(languages())
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((accept or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        weight = 1.0
        for param in fields[1:]:
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if not tag or not weight > 0.0 or weight > 1.0:
            continue
        code = fallback if tag == "*" else tag.split("-")[0]
        if code not in known:
            continue
        # The highest weight wins; among equals, the one the phone listed first.
        candidate = (-weight, index, code)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best is not None else fallback


def league_board(rows: Sequence[dict[str, Any]], tables_online: int,
                 lang: str) -> dict[str, Any]:
    """The league's standings (`gamenight.standings.Standings.rows`) said in `lang`."""
    return {
        "tables": render(message(say.WEB_TABLES_ONLINE, n=tables_online), lang),
        "rows": [
            {"place": number(place, lang), "name": str(row["player"]),
             "games": number(int(row["games"]), lang), "wins": number(int(row["wins"]), lang),
             "points": number(int(row["points"]), lang)}
            for place, row in enumerate(rows, start=1)
        ],
    }
