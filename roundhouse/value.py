"""Small frozen values that cost nothing to define.

`@dataclass(frozen=True, slots=True)` writes the source of six functions for each class
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`) and compiles
it when the class's module is imported: about half a millisecond a class, two
milliseconds on a Raspberry Pi 4, and the table builds dozens of such classes before it
can tell systemd it is ready. A `Value` behaves as such a dataclass does, with shared
functions instead of generated ones, but for equality and the hash, which are written
and compiled for each class at their first use (the screens compare and hash values by
the hundred thousand). A subclass names its fields, in order, in `__match_args__`,
makes them its `__slots__`, and writes its `__init__`, which sets each with
`object.__setattr__`.

- equal only to a value of the same class whose fields are equal, and hashed on them
  (a class may leave a field out of both, as `field(compare=False)` does: `_key`);
- printed as the call that builds it, `Name(field=value, ...)`;
- frozen: setting or deleting a field raises `dataclasses.FrozenInstanceError`;
- matched by position in a `case Name(a, b)` pattern (`__match_args__`), copied and
  pickled as a slotted frozen dataclass is.

A value that `dataclasses.replace`, `fields` and `asdict` must know, or whose fields have
defaults, is written as a dataclass is and decorated with `@frozen` instead: the
dataclass machinery records its fields (and makes its slots) without writing a function,
and only its `__init__` is compiled at import. That costs a fifth to a third of what
`@dataclass(frozen=True, slots=True)` costs for the same class (`benchmarks/README.md`,
"Fewer functions compiled before READY").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import Any, TypeVar, cast, dataclass_transform

V = TypeVar("V", bound="Value")


class Value:
    """Base of a frozen value with the fields named in its class's `__slots__`."""

    __slots__ = ()
    # A subclass's fields, in order; its `__slots__` are the same names.
    __match_args__: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def _key(self) -> tuple[object, ...]:
        """What equality and the hash look at: every field, unless a class says less
        (as a dataclass's `field(compare=False)` does)."""
        return self._fields()

    # Each class's own, compiled at their first use (`_compiled`): the screens hash and
    # compare values by the hundred thousand in a game.
    def __eq__(self, other: object) -> bool:
        return cast(bool, _compiled(type(self), "__eq__")(self, other))

    def __hash__(self) -> int:
        return cast(int, _compiled(type(self), "__hash__")(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[object]:
        return list(self._fields())

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self.__match_args__, state, strict=True):
            object.__setattr__(self, name, value)


# A subclass's functions, written for it; one made for a class that is then subclassed
# hands its subclass's values back to `Value`, which writes the subclass's own.
_SOURCE = {
    "__eq__": """def __eq__(self, other):
    if self.__class__ is not _cls:
        return _Value.__eq__(self, other)
    if other.__class__ is self.__class__:
        return {mine} == {theirs}
    return NotImplemented
""",
    "__hash__": """def __hash__(self):
    if self.__class__ is not _cls:
        return _Value.__hash__(self)
    return hash({mine})
""",
}


def _compiled(cls: type[Value], name: str) -> Callable[..., object]:
    """`cls.__eq__` or `cls.__hash__` as a dataclass writes them (a tuple of the fields
    built in place, as fast as Python compares), compiled the first time one of its
    values is compared or hashed rather than when its module is imported."""
    if cls._key is Value._key:
        mine = "(" + "".join(f"self.{field}, " for field in cls.__match_args__) + ")"
        theirs = mine.replace("self.", "other.")
    else:
        mine, theirs = "self._key()", "other._key()"
    return _install(cls, name, _SOURCE[name].format(mine=mine, theirs=theirs),
                    {"_cls": cls, "_Value": Value})


def _install(cls: type, name: str, source: str, scope: dict[str, Any]) -> Callable[..., object]:
    """Compile `source`, the function `name`, and make it `cls`'s own."""
    exec(source, scope)
    function: Callable[..., object] = scope[name]
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, function)
    return function


@dataclass_transform(frozen_default=True)
def frozen(cls: type[V]) -> type[V]:
    """`@dataclass(frozen=True, slots=True)` for a subclass of `Value`: the same fields,
    defaults, slots, `__init__` and behaviour, known to `dataclasses` as that would be.
    Fields with a `default_factory`, keyword-only or `InitVar` fields and
    `__post_init__` need a real dataclass."""
    if not issubclass(cls, Value):
        raise TypeError(f"@frozen makes Values; {cls.__qualname__} is not one")
    documented = bool(cls.__doc__)
    made = dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    made_fields = fields(cast(Any, made))
    # An InitVar is not among the fields, but among what the dataclass recorded.
    recorded = cast(Any, made).__dataclass_fields__.values()
    init_vars = [f.name for f in recorded if "InitVar" in str(f.type)]
    if hasattr(made, "__post_init__") or init_vars:
        raise TypeError(f"{cls.__qualname__}: @frozen makes no __post_init__ nor InitVar; "
                        "use @dataclass(frozen=True)")
    params, lines = [], []
    scope: dict[str, Any] = {"_set": object.__setattr__}
    for f in made_fields:
        if f.default_factory is not MISSING or f.kw_only or not f.init \
                or f.name in ("self", "_set"):
            raise TypeError(f"{cls.__qualname__}.{f.name}: @frozen cannot make this field; "
                            "use @dataclass(frozen=True)")
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        lines.append(f"    _set(self, {f.name!r}, {f.name})\n")
    _install(made, "__init__",
             f"def __init__(self, {', '.join(params)}):\n{''.join(lines) or '    pass'}", scope)
    if not documented:  # as a dataclass is: by the call that builds it
        made.__doc__ = f"{made.__name__}({', '.join(params)})"
    return made
