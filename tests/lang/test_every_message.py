"""Every message says every name and tile it is given, in every language, whatever the
numbers: no translation drops or breaks an argument."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roundhouse.declension import cases, decline
from roundhouse.message import is_seat, is_train
from roundhouse.messages import TEMPLATES, message
from roundhouse.render import languages, render

NAMES = ["Ali", "Ελένη", "Gintarė", "వెంకట"]
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
NESTED = {
    "pad": st.sampled_from([message("pad.seat", seat=1), message("pad.mexican"),
                            message("pad.named", text="Zoë")]),
    "waiting": st.just([message("progress.seat", seat=2, done=1, of=3)]),
    "dealt": st.just([message("progress.seat", seat=2, done=1, of=3)]),
    "first": st.just(message("prompt.put_engine", tile="9-9")),
    "then": st.just(message("prompt.play_or_draw", seat=2)),
    "players": st.just([message("number.span", low=4, high=10)]),
}


def argument(name: str) -> st.SearchStrategy[Any]:
    if name in NESTED:
        return NESTED[name]
    if is_seat(name):
        return st.just(2)
    if is_train(name):
        return st.sampled_from(["0", "mexican"])
    if name == "tile":
        return st.just("12-7")
    if name == "text":
        return st.just("Zoë")
    return st.integers(min_value=0, max_value=250)


@pytest.mark.parametrize("message_id", sorted(TEMPLATES))
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_every_message_says_its_arguments_in_every_language(message_id: str, data: Any):
    template = TEMPLATES[message_id]
    names = sorted(set(PLACEHOLDER.findall(template.singular + (template.plural or ""))))
    args = {name: data.draw(argument(name), label=name) for name in names}
    for lang in languages():
        said = render(message(message_id, **args), lang, NAMES)
        assert said.strip() and "{" not in said, (lang, said)
        if any(is_seat(name) for name in names):
            # The name as written, or in a case its sentence needs ("Gintarės").
            forms = {NAMES[2]} | {decline(NAMES[2], lang, case) or "" for case in cases(lang)}
            assert any(form and form in said for form in forms), (lang, said)
        if "tile" in names:
            assert "12-7" in said, (lang, said)
        if "text" in names or ("pad" in names and args["pad"].id == "pad.named"):
            assert "Zoë" in said, (lang, said)
