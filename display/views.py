"""How a screen takes a view: in a language of its own, and whether it is worth drawing."""

from __future__ import annotations

from dataclasses import replace

from roundhouse.view import View


def in_language(view: View, screen: str, lang: str | None) -> View:
    """The view as a screen with a language of its own (`--lang`) draws it: the wall
    speaks `lang`; the table screen's hub does, and so does every seat's panel."""
    if lang is None:
        return view
    if screen == "wall":
        return replace(view, wall_language=lang)
    seats = tuple(replace(seat, language=lang) for seat in view.seats)
    return replace(view, language=lang, seats=seats)


def changed(new: View, old: View | None) -> bool:
    """Whether `new` shows anything `old` did not: its sequence number alone (the same
    table published again) draws nothing."""
    return old is None or replace(new, seq=old.seq) != old
