"""A message: what the table says, as data until a screen says it in its reader's language.

`Message(id, args)` names the sentence by a stable id and holds what it is about, never
words: seats by number, tiles as "A-B", trains by key, counts, other messages. How each
argument is said follows from its name (docs/view.md, "Messages"). Its JSON form,
`{"id": ID, "args": {...}}`, is what the view socket carries.

Every id the table can say is registered here with its English template by `say`,
`say_n` (the table's, `roundhouse.messages`) and `refusal`, `refusal_n` (the rules
engine's, `roundhouse.refusals`); those are written as calls so that Babel's extraction
finds every template, with its id as gettext context (`roundhouse.catalogues`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, TypeAlias

from roundhouse.errors import RoundhouseError
from roundhouse.value import Value, frozen

Arg: TypeAlias = "int | str | bool | Message | tuple[Arg, ...] | None"


class MessageError(RoundhouseError):
    """A message that is not of the form `{"id": ID, "args": {...}}`."""


class Template(NamedTuple):
    singular: str
    plural: str | None
    # The stable name of a refusal's kind (docs/engine.md); None for the table's own.
    code: str | None = None


TEMPLATES: dict[str, Template] = {}


def say(message_id: str, template: str) -> str:
    TEMPLATES[message_id] = Template(template, None)
    return message_id


def say_n(message_id: str, singular: str, plural: str) -> str:
    TEMPLATES[message_id] = Template(singular, plural)
    return message_id


@frozen
class Message(Value):
    """One sentence of the table, by id, with its arguments in the order given."""

    id: str
    args: tuple[tuple[str, Arg], ...] = ()

    def get(self, name: str, default: Arg = None) -> Arg:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "args": {key: _arg_json(value) for key, value in self.args}}

    @classmethod
    def from_json(cls, obj: object, where: str = "message") -> Message:
        """A message from its JSON form. Its id is not checked against the templates: a
        service of another version may say what this one does not know."""
        if not isinstance(obj, Mapping):
            raise MessageError(f"{where}: expected a message {{\"id\": ..., \"args\": ...}}")
        message_id = obj.get("id")
        if not isinstance(message_id, str):
            raise MessageError(f"{where}.id: expected text, got {message_id!r}")
        args = obj.get("args") or {}
        if not isinstance(args, Mapping):
            raise MessageError(f"{where}.args: expected an object")
        return cls(message_id, tuple(
            (str(key), _arg_from_json(value, f"{where}.args.{key}"))
            for key, value in args.items()
        ))

    def __repr__(self) -> str:
        shown = "".join(f", {key}={value!r}" for key, value in self.args)
        return f"message({self.id!r}{shown})"


def message(message_id: str, **args: object) -> Message:
    """A message the table says; its id must be registered."""
    if message_id not in TEMPLATES:
        raise KeyError(f"no message {message_id!r}")
    return Message(message_id, tuple((key, _arg(value)) for key, value in args.items()))


def _arg(value: object) -> Arg:
    if value is None or isinstance(value, bool | int | str | Message):
        return value
    if isinstance(value, list | tuple):
        return tuple(_arg(v) for v in value)
    raise TypeError(f"a message argument is a number, text, a message or a list, not {value!r}")


def _arg_json(value: Arg) -> object:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple):
        return [_arg_json(v) for v in value]
    return value


def _arg_from_json(value: object, where: str) -> Arg:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, list):
        return tuple(_arg_from_json(v, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, Mapping):
        return Message.from_json(value, where)
    raise MessageError(f"{where}: unexpected value {value!r}")


def is_seat(name: str) -> bool:
    """`seat` and `*_seat` arguments name a seat (docs/view.md, "Messages")."""
    return name == "seat" or name.endswith("_seat")


def is_train(name: str) -> bool:
    return name == "train" or name.endswith("_train")
