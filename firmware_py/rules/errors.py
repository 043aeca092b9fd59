"""The engine's errors: one root, one leaf per kind of mistake; how a message quotes a value."""

import json


class RulesError(Exception):
    """Root of every error the rules engine raises."""


class IllegalMove(RulesError):
    """An action the rules forbid now; `str()` is a sentence a player can read."""


class BadTile(RulesError):
    """Text or numbers that do not name a domino."""


class BadOptions(RulesError):
    """An unknown preset or option, or a value an option does not take."""


class BadDeal(RulesError):
    """A player count or set the options cannot deal for."""


class BadAction(RulesError):
    """A move that is not well formed (as opposed to well formed but illegal)."""


QUOTE_LIMIT = 60


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` written as JSON for an error message, cut to about `limit` characters.

    A record may hold a huge or deeply nested value; a message quoting it stays one short
    line, and writing it out never recurses deeper than the characters it shows.
    """
    parts: list[str] = []
    room = limit + 1

    def put(text: str) -> None:
        nonlocal room
        if room > 0:
            parts.append(text[:room])
            room -= len(text)

    def walk(v: object) -> None:
        if room <= 0:
            return
        if isinstance(v, dict):
            put("{")
            for i, (k, x) in enumerate(v.items()):
                if room <= 0:
                    return
                put(", " if i else "")
                walk(str(k))
                put(": ")
                walk(x)
            put("}")
        elif isinstance(v, list | tuple):
            put("[")
            for i, x in enumerate(v):
                if room <= 0:
                    return
                put(", " if i else "")
                walk(x)
            put("]")
        elif isinstance(v, str):
            put(json.dumps(v[:room], ensure_ascii=False))
        elif v is None or isinstance(v, bool | float):
            put(json.dumps(v))
        elif isinstance(v, int):
            put(str(v) if v.bit_length() < 200 else "a number of many digits")
        else:
            put(str(v)[:room])

    walk(value)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."
