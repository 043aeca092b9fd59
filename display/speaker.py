"""Spoken announcements through espeak-ng: the screens' speech, on the Pi's audio out.

`roundhouse display --view speech` follows the view socket like a screen and says what
`roundhouse.speech.announcements` finds in each new view, each in its language's voice
(espeak-ng speaks English, Persian, Arabic, Lithuanian, Greek and Telugu offline). A new
announcement cuts the one still being spoken short; speaking never holds up the loop, so
the table never waits for a sentence to end. A seat of `[display.speech] quiet_seats` is
(by name) is not spoken about (its turn, its double, its last tile); the table's news
still is.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from display import DisplayError
from display.views import changed, in_language
from roundhouse.speech import Announcement, announcements
from roundhouse.tablefile import SpeechSettings
from roundhouse.view import View

ESPEAK = "espeak-ng"
# espeak-ng's voice for each language of the table.
VOICES = {"en": "en-gb", "fa": "fa", "ar": "ar", "lt": "lt", "el": "el", "te": "te"}


class ViewFeedLike(Protocol):
    def poll(self, timeout: float) -> View | None: ...


class SpeechError(DisplayError):
    """No speech synthesiser to speak with."""


def espeak_command(said: Announcement, rate: int, wav: str | None = None) -> list[str]:
    """The espeak-ng command saying `said` at `rate` words a minute (into `wav` instead
    of the audio out, where given)."""
    command = [ESPEAK, "-v", VOICES.get(said.lang, said.lang), "-s", str(rate)]
    if wav:
        command += ["-w", wav]
    return [*command, "--", said.text]


class Speaker:
    """Says announcements one after the other in the background; a new lot cuts the lot
    being said. `command` makes the process that says one (espeak-ng by default)."""

    def __init__(self, command: Callable[[Announcement], list[str]] | None = None,
                 rate: int = 160) -> None:
        if command is None:
            if shutil.which(ESPEAK) is None:
                raise SpeechError("espeak-ng is not installed: sudo apt install espeak-ng")

            def command(said: Announcement) -> list[str]:
                return espeak_command(said, rate)
        self.command = command
        self.lock = threading.Lock()
        self.current: subprocess.Popen[bytes] | None = None
        self.generation = 0
        self.worker: threading.Thread | None = None

    def say(self, lot: Sequence[Announcement]) -> None:
        """Start saying `lot`, cutting short whatever is being said; returns at once."""
        with self.lock:
            self.generation += 1
            generation = self.generation
            self._stop_current()
            if not lot:
                return
            # The first starts here, so a caller sees it under way; the rest follow it.
            self.current = self._start(lot[0])
        self.worker = threading.Thread(target=self._rest, args=(generation, list(lot[1:])),
                                       daemon=True)
        self.worker.start()

    def _start(self, said: Announcement) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.command(said), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def _stop_current(self) -> None:
        if self.current is not None and self.current.poll() is None:
            self.current.kill()
            self.current.wait()

    def _rest(self, generation: int, rest: list[Announcement]) -> None:
        while True:
            with self.lock:
                current = self.current
            if current is not None:
                current.wait()
            with self.lock:
                if generation != self.generation or not rest:
                    return
                self.current = self._start(rest.pop(0))

    def close(self) -> None:
        with self.lock:
            self.generation += 1
            self._stop_current()


class Announcer:
    """What the speech view does with each new view: find what to say, leave out the quiet
    seats, hand it to the speaker."""

    def __init__(self, speaker: Speaker, settings: SpeechSettings) -> None:
        self.speaker = speaker
        self.settings = settings
        self.view: View | None = None

    def follow(self, new: View) -> list[Announcement]:
        old, self.view = self.view, new
        if not self.settings.enabled:
            return []
        quiet = self.settings.quiet
        lot = [a for a in announcements(old, new)
               if a.seat is None or str(new.seats[a.seat].name) not in quiet]
        if lot:
            self.speaker.say(lot)
        return lot


def follow(feed: ViewFeedLike, announcer: Announcer, lang: str | None = None,
           stop: Callable[[], bool] = lambda: False, wake: float = 0.25) -> None:
    """The speech view's loop: each view that shows something new is announced (in
    `lang` alone where given, as a screen's `--lang`)."""
    while not stop():
        news = feed.poll(wake)
        if news is not None and changed(news, announcer.view):
            announcer.follow(in_language(news, "table", lang))
