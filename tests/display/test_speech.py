"""Spoken announcements: what the table says aloud, said for the ear in each seat's
language, synthesised by espeak-ng and measured with sox; a new one cuts the old and the
loop never waits."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from sample_views import all_view_names, as_view, load

from display.speaker import Announcer, Speaker, espeak_command
from roundhouse.messages import message
from roundhouse.speech import Announcement, announcements, spoken
from roundhouse.tablefile import SpeechSettings, TableFileError, speech_from

LANGS = ("en", "fa", "ar", "lt", "el", "te")
NO_ESPEAK = shutil.which("espeak-ng") is None or shutil.which("sox") is None


def in_lang(sample: dict, lang: str) -> dict:
    out = copy.deepcopy(sample)
    out["language"] = lang
    for seat in out["seats"]:
        seat["language"] = lang
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_tile_is_said_by_its_numbers_never_with_a_dash(lang):
    said = spoken(message("speech.satisfy", seat=0, tile="12-12"), lang, ["Bo"])
    assert "12" in said and "-" not in said and "/" not in said
    said = spoken(message("prompt.satisfy", seat=1, tile="12-5", train="0"), lang, ["Bo", "Eli"])
    assert re.search(r"12\D+5", said) and "12-5" not in said
    assert not re.search("[۰-۹٠-٩]", said)  # plain digits: espeak-ng says them as words


def test_english_says_double_twelve_and_greek_has_no_slash():
    assert spoken(message("speech.satisfy", seat=0, tile="12-12"), "en", ["Bo"]) == (
        "Bo, satisfy the double 12")
    train = spoken(message("prompt.satisfy", seat=0, tile="3-3", train="1"), "el", ["Bo", "Eli"])
    assert "/" not in train and "του παίκτη Eli" in train


def _public_tiles(sample: dict) -> set[str]:
    tiles = {p["tile"] for p in sample.get("pending_doubles") or []}
    for train in sample.get("trains") or []:
        tiles |= set(train["tiles"])
    return tiles


def test_the_announcements_of_a_game_name_no_tile_that_is_not_on_the_table():
    for name in all_view_names():
        sample = load(name)
        view = as_view(sample)
        for old in (None, as_view(load("play_8"))):
            for said in announcements(old, view):
                for a, b in re.findall(r"(\d+) (\d+)", said.text):
                    assert f"{a}-{b}" in _public_tiles(sample), (name, said.text)
                if "double" in said.text:
                    value = re.search(r"double (\d+)", said.text).group(1)
                    assert f"{value}-{value}" in _public_tiles(sample)


def test_whose_turn_one_tile_round_end_and_winner_are_announced():
    play = as_view(load("play_8"))
    assert [a.seat for a in announcements(None, play)] == [play.turn]
    moved = replace(play, turn=(play.turn + 1) % len(play.seats), pending_doubles=())
    (turn,) = announcements(play, moved)
    assert turn.text == f"{play.seats[moved.turn].name}, your turn"
    lonely = replace(moved, seats=tuple(replace(s, one_tile=True) for s in moved.seats))
    said = [a.text for a in announcements(moved, lonely)]
    assert sum(t.endswith("one tile!") for t in said) == sum(
        not s.one_tile for s in moved.seats)
    over = as_view(load("reveal_8"))
    (end,) = announcements(play, over)
    assert end.seat is None and end.text.startswith(f"Round {over.round} is over")
    final = as_view(load("game_over_8"))
    assert any(a.text.startswith("Game over.") for a in announcements(play, final))
    assert announcements(final, final) == []


def test_each_seat_is_spoken_to_in_its_language_and_a_quiet_seat_not_at_all():
    sample = load("play_4")
    for i, seat in enumerate(sample["seats"]):
        seat["language"] = LANGS[i]
    view = as_view(sample)
    (said,) = announcements(None, view)
    assert said.lang == LANGS[view.turn]

    class Mute:
        def __init__(self):
            self.lots = []

        def say(self, lot):
            self.lots.append(list(lot))

    mute = Mute()
    quiet = Announcer(mute, SpeechSettings(quiet=frozenset({view.seats[view.turn].name})))
    assert quiet.follow(view) == [] and mute.lots == []
    off = Announcer(mute, SpeechSettings(enabled=False))
    assert off.follow(view) == []


def test_a_new_announcement_cuts_the_old_and_the_caller_never_waits():
    speaker = Speaker(command=lambda said: ["sleep", "30"])
    try:
        speaker.say([Announcement(0, "en", "Bo, your turn"),
                     Announcement(None, "en", "Round 3 is over")])
        first = speaker.current
        # say() has returned while the sentence is still being said.
        assert first is not None and first.poll() is None
        speaker.say([Announcement(1, "fa", "نوبت شماست")])
        assert first.returncode is not None and first.returncode < 0  # cut short
        assert speaker.current is not first and speaker.current.poll() is None
    finally:
        speaker.close()
    assert speaker.current.poll() is not None


def test_the_speech_settings_are_checked():
    assert speech_from({}) == SpeechSettings()
    got = speech_from({"display": {"speech": {"quiet": ["Bo"], "rate": 140}}})
    assert got.quiet == {"Bo"} and got.rate == 140
    for bad in ({"loud": True}, {"quiet": "Bo"}, {"rate": 10}, {"enabled": "yes"}):
        with pytest.raises(TableFileError, match=r"display\.speech"):
            speech_from({"display": {"speech": bad}})


def _measure(wav) -> tuple[float, float]:
    length = float(subprocess.run(["soxi", "-D", str(wav)], capture_output=True, text=True,
                                  check=True).stdout)
    stat = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True,
                          check=True).stderr
    peak = float(re.search(r"Maximum amplitude:\s+([-\d.]+)", stat).group(1))
    return length, peak


@pytest.mark.skipif(NO_ESPEAK, reason="espeak-ng and sox are not installed "
                    "(Debian: apt install espeak-ng sox)")
@pytest.mark.parametrize("lang", LANGS)
def test_every_announcement_is_synthesised_in_every_language(lang, tmp_path):
    """Each kind of announcement, said in each language's voice into a WAV file: sox finds
    speech of a sensible length in it, not silence."""
    samples = [(None, load("play_8")), (load("play_8"), load("reveal_8")),
               (load("play_8"), load("game_over_8"))]
    said = []
    for old, new in samples:
        said += announcements(as_view(in_lang(old, lang)) if old else None,
                              as_view(in_lang(new, lang)))
    said.append(Announcement(0, lang, spoken(message("speech.one_tile", seat=0), lang, ["Bo"])))
    assert len(said) >= 4
    for n, one in enumerate(said):
        wav = tmp_path / f"{lang}-{n}.wav"
        subprocess.run(espeak_command(one, 160, str(wav)), check=True, capture_output=True)
        length, peak = _measure(wav)
        assert 0.4 < length < 15, (one.text, length)
        assert peak > 0.05, (one.text, peak)


def test_check_config_names_a_wrong_speech_or_sleep_setting():
    import tomllib

    from firmware_py.config import ConfigError, example_config, parse_config

    path = example_config("sim")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data.setdefault("display", {})["speech"] = {"quiet": ["Bo"], "rate": 150}
    data["display"]["sleep"] = {"dim_after_s": 300, "blank_after_s": 600}
    parse_config(data, path)  # good settings pass
    data["display"]["speech"] = {"rate": "fast"}
    data["display"]["sleep"] = {"dim_after_s": 600, "blank_after_s": 60}
    with pytest.raises(ConfigError) as err:
        parse_config(data, path)
    said = str(err.value)
    assert "display.speech.rate" in said and "display.sleep.blank_after_s" in said


def test_a_seat_that_keeps_its_turn_to_satisfy_its_double_is_told_so():
    play = as_view(load("play_8"))
    (pending,) = play.pending_doubles
    free = replace(play, pending_doubles=())
    # The seat to act lays a double: its turn goes on, and the double is now its task.
    (said,) = announcements(free, play)
    name = play.seats[play.turn].name
    value = pending.tile.split("-")[0]
    assert said.seat == play.turn and said.text == f"{name}, satisfy the double {value}"
    # Nothing new: nothing said again.
    assert announcements(play, play) == []
    # Satisfied, the turn passes: the next seat hears its turn, not the double.
    passed = replace(free, turn=(play.turn + 1) % len(play.seats))
    (turn,) = announcements(play, passed)
    assert turn.text == f"{play.seats[passed.turn].name}, your turn"
