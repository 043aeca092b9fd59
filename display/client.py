"""`roundhouse display`: a screen that follows the table service.

    roundhouse display --view table|wall [--socket PATH] [--size WxH] [--fullscreen] [--lang L]
    roundhouse display --view wall --qr URL|auto   (the phone page's QR code on the wall)
    roundhouse display --view table --from VIEW.json --screenshot OUT.png [--size WxH]
    roundhouse display --view wall --frames DIR

The loop draws a view the moment it arrives. The feed hands over the newest of the
views already received, so the only views skipped are those that queued up while the
last one was being drawn. A view that shows nothing new (the same table under a new
`seq`) is not drawn. The table screen repaints only what changed (`table_screen.Painter`)
and a window gets only those rectangles (`pygame.display.update`); a folder of frames
gets whole pictures. For 1.6 s after a view arrives, the newest tile's glow pulses at a
steady `--fps` beat, each frame repainting the cells around that tile; a last frame
leaves the glow at rest. Between them, and after, the table screen draws ahead what the
next view is likely to need (`table_screen.Painter.ahead`), a short step a turn, looking
at the socket between steps. The rest of the time the loop sleeps in `select` until the
socket has news, waking a few times a second to answer the window system. While the
service is away the screen shows "Waiting for the table" and reconnects with backoff.
Anything drawn over the view (the waiting screen, dimming, blanking) makes the next view
be painted whole.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Protocol

import pygame

from display import (
    DisplayError,
    memory,
    sleep,
    table_layout,
    table_screen,
    waiting_screen,
    wall_screen,
)
from display import qr as qr_code
from display.panel import BlackOnly, Switch, Where
from display.views import changed, in_language
from roundhouse.address import page_url
from roundhouse.feed import ViewFeed
from roundhouse.render import languages
from roundhouse.tablefile import (
    DEFAULT_SOCKET,
    SleepSettings,
    SpeechSettings,
    TableFileError,
    sleep_settings,
    speech_settings,
    view_socket,
)
from roundhouse.view import View, ViewError, load_view

DEFAULT_SIZE = (1280, 800)
RENDERERS: dict[str, Callable[..., None]] = {
    "table": table_screen.render,
    "wall": wall_screen.render,
}
IDLE_WAKE = 0.25  # seconds between checks of the window system while nothing changes
AHEAD_MARGIN = 0.01  # seconds: no work ahead closer than this to a frame that is due
AHEAD_DONE = object()


class ScreenError(DisplayError):
    """The screen cannot be opened or written (no video device, unwritable path)."""


class UsageError(DisplayError):
    """Options that do not go together, or a value in the wrong form."""


def parse_size(value: str) -> tuple[int, int]:
    parts = value.lower().split("x")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        width, height = int(parts[0]), int(parts[1])
        if 160 <= width <= 7680 and 120 <= height <= 4320:
            return width, height
    raise UsageError(f"--size {value!r}: give width x height in pixels, e.g. 1920x1080")


Rects = Sequence[pygame.Rect]


class Sink(Protocol):
    """Where frames go: a window, or PNG files."""

    surface: pygame.Surface

    def show(self, name: str, rects: Rects | None = None) -> None:
        """Put the surface on the screen: only `rects` of it where given (the parts
        that were repainted), else the whole of it."""
        ...

    def events(self) -> bool:
        """Handle the window system; False when the user asked to quit. Sets `touched`
        when someone pressed a key, clicked or tapped the screen."""
        ...

    touched: bool


class WindowSink:
    def __init__(self, size: tuple[int, int] | None, fullscreen: bool, screen: int) -> None:
        try:
            pygame.display.init()
            flags = pygame.FULLSCREEN if fullscreen else 0
            wanted = (0, 0) if fullscreen and size is None else (size or DEFAULT_SIZE)
            self.surface = pygame.display.set_mode(wanted, flags, display=screen)
        except pygame.error as exc:
            raise ScreenError(
                f"cannot open a screen ({exc}). On a Pi without a desktop set "
                "SDL_VIDEODRIVER=kmsdrm and add the user to the video, render and input "
                "groups; without any screen use --frames DIR or --screenshot OUT.png"
            ) from None
        pygame.display.set_caption("Roundhouse")
        pygame.mouse.set_visible(not fullscreen)
        self.touched = False

    def show(self, name: str, rects: Rects | None = None) -> None:
        if rects is None:
            pygame.display.flip()
        elif rects:
            pygame.display.update(rects)

    def events(self) -> bool:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q):
                return False
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
                self.touched = True  # wakes a sleeping screen
            if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
                # The picture is unchanged; the window system only lost it.
                pygame.display.flip()
        return True


class FrameSink:
    """One PNG per new view, written whole (readers never see half a file)."""

    def __init__(self, folder: Path, size: tuple[int, int], view: str,
                 keep: int | None = None) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ScreenError(f"cannot create the frames folder {folder}: {exc.strerror}") from None
        self.folder = folder
        self.view = view
        self.surface = pygame.Surface(size)
        # With `keep`, only the newest pictures stay: a screen that follows a table for
        # hours (`roundhouse sim --games 0`) never fills its disk.
        self.keep = keep
        self._written: deque[Path] = deque()
        self.touched = False  # no one touches a folder of pictures

    def show(self, name: str, rects: Rects | None = None) -> None:
        # A picture is always written whole, whatever part of it was repainted.
        path = self.folder / f"{self.view}-{name}.png"
        save_png(self.surface, path)
        if self.keep is None:
            return
        if path not in self._written:
            self._written.append(path)
        while len(self._written) > self.keep:
            with contextlib.suppress(OSError):
                self._written.popleft().unlink()

    def events(self) -> bool:
        return True


def save_png(surface: pygame.Surface, path: Path) -> None:
    partial = path.with_name(f".{path.stem}.partial.png")
    try:
        pygame.image.save(surface, str(partial))
        os.replace(partial, path)
    except (pygame.error, OSError) as exc:
        raise ScreenError(f"cannot write {path}: {exc}") from None


class Follower:
    """The display loop: the newest view from `feed`, drawn on `sink` when it changes."""

    def __init__(self, feed: ViewFeed, sink: Sink, view: str, *, fps: int = 30,
                 animate: bool = True, lang: str | None = None, qr: str | None = None,
                 sleep_settings: SleepSettings | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 panel: Switch | None = None) -> None:
        self.feed = feed
        # The phone page's address, drawn as a QR code over the wall (display.qr).
        self.qr = (qr, qr_code.matrix(qr)) if qr else None
        self.sink = sink
        self.render = RENDERERS[view]
        # The table screen repaints only what a view or a frame changed; the wall,
        # quick to draw whole, is drawn whole.
        self.painter = table_screen.Painter() if view == "table" else None
        self.screen = view
        self.lang = lang
        self.frame_time = 1.0 / max(1, fps)
        self.animate = animate and view == "table"
        self.view: View | None = None
        self._shown: tuple[View | None, View | None] = (None, None)  # in the screen's language
        self.received_at = 0.0
        self.redraws = 0  # frames drawn for new views (tests and benchmarks read it)
        self.pulse_frames = 0  # frames of the newest tile's pulse
        self.next_frame: float | None = None  # when the pulse's next frame is due
        # What the table screen draws ahead for the next view, a step a turn of the loop
        # while nothing else is due (table_screen.Painter.ahead).
        self.ahead: Iterator[None] | None = None
        self.waiting_shown = False
        self.sleep_settings = sleep_settings or SleepSettings()
        self.clock = clock
        self.active_at = clock()  # the last input or new view
        self.looks = sleep.AWAKE
        # What a blank screen switches off besides drawing black (display.panel).
        self.panel = panel or Switch(BlackOnly())

    def _draw_view(self, age: float) -> Rects | None:
        """Draw the view as it looks `age` seconds after it arrived; the rectangles
        repainted, None for the whole surface."""
        assert self.view is not None
        seen, shown = self._shown
        if seen is not self.view or shown is None:
            # Once per view: a pulse's frames are then laid out from the same one.
            shown = in_language(self.view, self.screen, self.lang)
            self._shown = (self.view, shown)
        if self.painter is not None:
            return self.painter.draw(self.sink.surface, shown, now=age)
        self.render(self.sink.surface, shown, now=age)
        if self.qr is not None and qr_code.shown(shown.phase):
            qr_code.draw(self.sink.surface, self.qr[0], shown.wall_language, self.qr[1])
        return None

    def _drawn_over(self) -> None:
        """Something other than the view was drawn (waiting, dimmed): the next view is
        painted whole."""
        if self.painter is not None:
            self.painter.forget()

    def step(self) -> bool:
        """One turn of the loop; False once the user asked to quit.

        A new view is drawn as soon as it comes: the feed hands over the newest of
        those already received, so only views that queued up while the last one was
        drawn are skipped. Between views, the loop waits in the feed until the next
        frame of the pulse is due, or a few times a second when nothing moves."""
        now = self.clock()
        due = self.next_frame
        wait = IDLE_WAKE if due is None else min(IDLE_WAKE, max(0.0, due - now))
        # Work ahead only while the next frame of the pulse is not close.
        ahead = self.ahead is not None and wait > AHEAD_MARGIN
        news = self.feed.poll(0.0 if ahead else wait)
        if news is not None:
            self.panel.on()  # news from the table wakes the panel before it is drawn
        now = self.clock()
        if news is not None and changed(news, self.view):
            self.view, self.received_at = news, now
            rects = self._draw_view(0.0)
            self.redraws += 1
            self.waiting_shown = False
            self.sink.show(f"{news.seq:06d}", rects)
            self._start_pulse(news, now)
            memory.release()
            if self.painter is not None:
                self.ahead = self.painter.ahead()
        elif not self.feed.connected and not self.waiting_shown:
            self.view, self.next_frame, self.ahead = None, None, None
            waiting_screen.render(self.sink.surface, self.feed.path, self.lang)
            self._drawn_over()
            self.sink.show("waiting")
            self.waiting_shown = True
        elif due is not None and now >= due:
            self._pulse(due, now)
        elif ahead and self.ahead is not None and next(self.ahead, AHEAD_DONE) is AHEAD_DONE:
            self.ahead = None
        going = self.sink.events()
        self._sleep_or_wake(heard=news is not None)
        return going

    def _start_pulse(self, view: View, now: float) -> None:
        pulses = self.animate and view.last_play is not None
        self.next_frame = now + self.frame_time if pulses else None

    def _pulse(self, due: float, now: float) -> None:
        """The next frame of the newest tile's pulse (only its glow is repainted); the
        last one, once the pulse is over, leaves the glow at rest. A dimmed or blank
        screen does not pulse."""
        if self.looks != sleep.AWAKE:
            self.next_frame = None
            return
        age = min(now - self.received_at, table_screen.NEWEST_PULSE)
        rects = self._draw_view(age)
        self.pulse_frames += 1
        self.sink.show("pulse", rects)
        if age >= table_screen.NEWEST_PULSE:
            self.next_frame = None
            return
        # Frames keep their beat; one that came late does not make the next ones hurry.
        following = due + self.frame_time
        self.next_frame = following if following > now else now + self.frame_time

    def _sleep_or_wake(self, heard: bool) -> None:
        """Dim or blank the screen after a while without a game, input or news from the
        table; wake it at once on any of them. Every view the service publishes follows
        an input it took (a button pressed, a card tapped), so one that shows nothing new
        (the same refusal again) wakes the screen too. A blank screen switches its panel
        off where it can (display.panel), and on again before the picture comes back."""
        now = self.clock()
        touched = getattr(self.sink, "touched", False)  # a sink of pictures has no input
        if heard or touched:
            self.active_at = now
        if touched:
            self.sink.touched = False
        looks = sleep.state(self.sleep_settings, now - self.active_at, self.view)
        if looks == self.looks:
            return
        self.looks = looks
        if looks != sleep.BLANK:
            self.panel.on()
        rects: Rects | None = None
        if self.view is not None:
            rects = self._draw_view(0.0)
        else:
            waiting_screen.render(self.sink.surface, self.feed.path, self.lang)
            self._drawn_over()
        if looks != sleep.AWAKE:
            sleep.darken(self.sink.surface, looks, self.sleep_settings)
            self._drawn_over()
            rects = None
        self.sink.show(looks, rects)
        if looks == sleep.BLANK:
            self.panel.off()

    def run(self, stop: Callable[[], bool] = lambda: False) -> None:
        try:
            while not stop() and self.step():
                pass
        finally:
            self.panel.on()  # a screen that ends leaves its panel lit


def configure_display(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--view", choices=sorted([*RENDERERS, "speech"]), default="table",
                        help="which screen to show (default: table); speech: say the "
                        "table's announcements aloud through espeak-ng")
    parser.add_argument("--socket", default=None,
                        help="the service's view socket (default: the --config file's, else "
                        f"$ROUNDHOUSE_SOCKET, else {DEFAULT_SOCKET})")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="the table's configuration (`roundhouse run --config FILE`): "
                        "follow the socket it names")
    parser.add_argument("--size", type=str, help="window or picture size, e.g. 1920x1080")
    parser.add_argument("--fullscreen", action="store_true", help="fill the whole screen")
    parser.add_argument("--screen", type=int,
                        default=int(os.environ.get("ROUNDHOUSE_SCREEN", "0") or 0),
                        help="which connected screen to use, from 0 (default: "
                        "$ROUNDHOUSE_SCREEN or 0)")
    parser.add_argument("--fps", type=int, default=30, help="frame rate cap (default: 30)")
    parser.add_argument("--lang", choices=languages(),
                        help="the screen's language (default: the table's configuration)")
    parser.add_argument("--from", dest="from_file", type=Path, metavar="VIEW.json",
                        help="draw this saved view instead of following the service")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="with --from: write the picture to this file, no window")
    parser.add_argument("--frames", type=Path, metavar="DIR",
                        help="follow the service without a window: one PNG per new view")
    parser.add_argument("--keep-frames", type=int, metavar="N",
                        help="with --frames: keep only the newest N pictures (default: all)")
    parser.add_argument("--parent", type=int, metavar="PID",
                        help="end when the process PID, which started this screen, ends "
                        "(`roundhouse sim` passes its own: its screens never outlive it)")
    parser.add_argument("--qr", metavar="URL",
                        help="the wall: show a QR code of the phone page at URL ('auto': "
                        "this Pi's LAN address, port 8080; docs/game-night.md)")


def check_size(view: str, size: tuple[int, int]) -> None:
    """The table screen is read from every seat: refused on a screen too small for it."""
    if view == "table" and not table_layout.fits_table(size):
        w, h = table_layout.MIN_SIZE
        raise ScreenError(
            f"the table screen needs at least {w}x{h} to be read from every seat; this "
            f"screen is {size[0]}x{size[1]}. Use a larger screen for the table (the wall "
            "screen works on this one)"
        )


def _screenshot(args: argparse.Namespace, size: tuple[int, int]) -> int:
    check_size(args.view, size)
    view = in_language(load_view(args.from_file), args.view, args.lang)
    surface = pygame.Surface(size)
    RENDERERS[args.view](surface, view)
    save_png(surface, args.screenshot)
    return 0


def _window(args: argparse.Namespace, size: tuple[int, int] | None) -> WindowSink:
    """A window on a screen that shows it: SDL's dummy and offscreen drivers draw
    nowhere, and a screen that would draw nowhere says so and ends."""
    sink = WindowSink(size, args.fullscreen, args.screen)
    driver = pygame.display.get_driver()
    if driver in ("dummy", "offscreen"):
        pygame.display.quit()
        raise ScreenError(
            f"no working screen: SDL's video driver is {driver!r} (SDL_VIDEODRIVER), which "
            "draws nowhere. Unset it on a desktop, set SDL_VIDEODRIVER=kmsdrm on a Pi "
            "without one; without any screen use --frames DIR or --screenshot OUT.png")
    return sink


def _show_file(args: argparse.Namespace, size: tuple[int, int] | None) -> int:
    view = in_language(load_view(args.from_file), args.view, args.lang)
    sink = _window(args, size)
    check_size(args.view, sink.surface.get_size())
    RENDERERS[args.view](sink.surface, view)
    sink.show("view")
    while sink.events():
        time.sleep(IDLE_WAKE)
    return 0


def _orphaned(parent: int | None) -> bool:
    """Whether the process that started this screen (`--parent`) has ended: a child
    outlives its parent under another one (even after a `kill -9` of the parent)."""
    return parent is not None and os.getppid() != parent


def _socket(args: argparse.Namespace) -> str:
    """The socket to follow: as given, else the configuration's, else the default."""
    if args.socket is not None:
        if args.config is not None:
            raise UsageError("give --socket or --config, not both")
        return str(args.socket)
    if args.config is not None:
        try:
            return str(view_socket(args.config))
        except TableFileError as exc:
            raise UsageError(f"--config {exc}") from None
    return os.environ.get("ROUNDHOUSE_SOCKET", str(DEFAULT_SOCKET))


def _qr(args: argparse.Namespace) -> str | None:
    if args.qr is None:
        return None
    if args.view != "wall":
        raise UsageError("--qr is for the wall (--view wall)")
    return page_url() if args.qr == "auto" else str(args.qr)


def _sleep(args: argparse.Namespace) -> SleepSettings:
    """When the screen dims and blanks: the configuration's `[display.sleep]`."""
    if args.config is None:
        return SleepSettings()
    try:
        return sleep_settings(args.config)
    except TableFileError as exc:
        raise UsageError(f"--config {exc}") from None


# Set by SIGTERM; the loop ends at its next turn (a few times a second at the least). The
# handler only sets it: an exception raised there could land inside pygame's C code, which
# calls back into Python (to read a font from memory), and would be printed, not raised.
_terminated = threading.Event()


@contextlib.contextmanager
def _ending_on_sigterm() -> Iterator[threading.Event]:
    """systemd stops a screen with SIGTERM: it ends as on Esc, its panel lit again."""
    _terminated.clear()
    if threading.current_thread() is not threading.main_thread():
        yield _terminated
        return
    before = signal.signal(signal.SIGTERM, _sigterm)
    try:
        yield _terminated
    finally:
        signal.signal(signal.SIGTERM, before)


def _sigterm(signum: int, frame: FrameType | None) -> None:
    _terminated.set()


def _panel(settings: SleepSettings, sink: Sink, screen: int) -> Switch:
    """What a blank window switches off besides drawing black (`[display.sleep] panel`);
    a folder of pictures has no panel."""
    if not isinstance(sink, WindowSink) or not settings.blank_after_s:
        return Switch(BlackOnly())
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    where = Where(driver=pygame.display.get_driver(), screen=screen,
                  screens=pygame.display.get_num_displays())
    return Switch.choose(settings.panel, where)


def _speak(args: argparse.Namespace, feed: ViewFeed) -> int:
    """The speech view: no window, the table's announcements through espeak-ng."""
    from display import speaker

    try:
        settings = (speech_settings(args.config) if args.config is not None
                    else SpeechSettings())
    except TableFileError as exc:
        raise UsageError(f"--config {exc}") from None
    voice = speaker.Speaker(rate=settings.rate)
    try:
        speaker.follow(feed, speaker.Announcer(voice, settings), args.lang)
    except KeyboardInterrupt:
        pass
    finally:
        voice.close()
        feed.close()
    return 0


def run_display(args: argparse.Namespace) -> int:
    try:
        size = parse_size(args.size) if args.size else None
        if args.screenshot and not args.from_file:
            raise UsageError("--screenshot needs --from VIEW.json (the view to draw)")
        if args.from_file and args.frames:
            raise UsageError("--frames follows the service; it does not go with --from")
        if args.from_file and args.screenshot:
            return _screenshot(args, size or (1920, 1080))
        if args.from_file:
            return _show_file(args, size)
        if args.keep_frames is not None and (not args.frames or args.keep_frames < 1):
            raise UsageError("--keep-frames takes a number from 1, with --frames")
        socket_path = _socket(args)
        if args.view == "speech":
            return _speak(args, ViewFeed(socket_path))
        sink: Sink
        if args.frames:
            sink = FrameSink(args.frames, size or (1920, 1080), args.view, args.keep_frames)
        else:
            sink = _window(args, size)
        check_size(args.view, sink.surface.get_size())
        settings = _sleep(args)
        with _ending_on_sigterm() as terminated:
            feed = ViewFeed(socket_path)
            try:
                Follower(feed, sink, args.view, fps=args.fps, animate=not args.frames,
                         lang=args.lang, qr=_qr(args), sleep_settings=settings,
                         panel=_panel(settings, sink, args.screen)
                         ).run(stop=lambda: terminated.is_set() or _orphaned(args.parent))
            finally:
                feed.close()
        if _orphaned(args.parent):
            print(f"roundhouse display: the process that started this screen (pid "
                  f"{args.parent}) has ended; so does the screen", file=sys.stderr)
        return 0
    except (DisplayError, ViewError) as exc:  # the screen's own, and a view file's
        print(f"roundhouse display: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
