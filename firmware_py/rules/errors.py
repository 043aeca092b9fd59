"""The engine's errors: one root, one leaf per kind of mistake; how a message quotes a value."""

from __future__ import annotations

import json

from roundhouse.errors import RoundhouseError
from roundhouse.message import TEMPLATES, Message, is_train, message
from roundhouse.render import render


class RulesError(RoundhouseError):
    """Root of every error the rules engine raises."""


class IllegalMove(RulesError):
    """An action the rules forbid now.

    It carries a message (`message_id` and `arguments`, see `roundhouse.refusals`)
    and `code`, the stable name of its kind; `str()` is the English sentence.
    """

    def __init__(self, message_id: str, **arguments: object) -> None:
        self.message_id = message_id
        self.code = TEMPLATES[message_id].code or message_id
        self.arguments = arguments
        self.message: Message = message(
            message_id, **{k: _plain(k, v) for k, v in arguments.items()})
        super().__init__(render(self.message, "en"))


def _plain(name: str, value: object) -> object:
    """An argument as JSON: seats and counts stay numbers, tiles and train ids are text."""
    if is_train(name) or isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    return value


class BadTile(RulesError):
    """Text or numbers that do not name a domino."""


class BadOptions(RulesError):
    """An unknown preset or option, or a value an option does not take; `option` names the
    option at fault, when one is."""

    def __init__(self, text: str, option: str | None = None) -> None:
        super().__init__(text)
        self.option = option


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
