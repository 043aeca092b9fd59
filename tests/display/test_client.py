"""The display loop against a real Unix socket server: it follows the views, redraws
only on change, shows "waiting" while the service is away and reconnects."""

import json
import os
import socket
import threading
import time
from pathlib import Path

import pygame
import pytest

from display import client
from display.client import Follower, FrameSink, WindowSink
from firmware_py.cli import main
from roundhouse.feed import ViewFeed

VIEWS = Path(__file__).resolve().parents[1] / "views"
FAST = (0.02, 0.1)  # reconnect backoff for tests


def sample(seq: int, name: str = "play_4") -> dict:
    view = json.loads((VIEWS / f"{name}.json").read_text())
    view["seq"] = seq
    return view


def line(view: dict) -> bytes:
    return (json.dumps(view) + "\n").encode()


class ViewServer:
    """A stand-in for the table service's view socket: sends the latest view to each
    client that connects, then whatever the test sends."""

    def __init__(self, path: Path, latest: dict) -> None:
        self.latest = latest
        self.clients: list[socket.socket] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen()
        self.sock.settimeout(0.05)
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            # Listed first: a client that has drawn the latest view gets what follows.
            self.clients.append(conn)
            conn.sendall(line(self.latest))

    def send(self, data: bytes) -> None:
        for conn in self.clients:
            conn.sendall(data)

    def drop_clients(self) -> None:
        for conn in self.clients:
            conn.close()
        self.clients.clear()

    def close(self) -> None:
        self.closed.set()
        self.thread.join()
        self.drop_clients()
        self.sock.close()


def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def follow():
    """Run a Follower in a thread; stopped at the end of the test."""
    stop = threading.Event()
    threads = []

    def start(follower: Follower) -> Follower:
        thread = threading.Thread(target=follower.run, args=(stop.is_set,), daemon=True)
        thread.start()
        threads.append((thread, follower))
        return follower

    yield start
    stop.set()
    for thread, follower in threads:
        thread.join(timeout=5)
        follower.feed.close()


def test_follows_the_service_and_waits_while_it_is_away(tmp_path, follow, capsys):
    path = tmp_path / "view.sock"
    frames = tmp_path / "frames"
    feed = ViewFeed(str(path), backoff=FAST)
    follower = follow(Follower(feed, FrameSink(frames, (640, 400), "table"), "table",
                               animate=False))
    # No service yet: the screen says so.
    wait_for(lambda: (frames / "table-waiting.png").exists())
    server = ViewServer(path, sample(1))
    try:
        wait_for(lambda: (frames / "table-000001.png").exists())
        # The same view again costs nothing; a changed one is drawn.
        server.send(line(sample(1)))
        data = line(sample(2, "busy_8"))
        server.send(data[:100])  # a view may arrive in pieces
        server.send(data[100:])
        wait_for(lambda: (frames / "table-000002.png").exists())
        assert follower.redraws == 2
        # A line that is not a view is skipped and reported; the next one is drawn.
        server.send(b"this is not json\n" + line(sample(3, "two_pending_5")))
        wait_for(lambda: (frames / "table-000003.png").exists())
        assert "skipped a view" in capsys.readouterr().err
        # The service goes away and comes back with a newer view.
        (frames / "table-waiting.png").unlink()
        server.latest = sample(4, "round_over_5")
        server.drop_clients()
        wait_for(lambda: (frames / "table-waiting.png").exists())
        wait_for(lambda: (frames / "table-000004.png").exists())
        assert follower.redraws == 4
        shot = pygame.image.load(str(frames / "table-000004.png"))
        assert shot.get_size() == (640, 400)
    finally:
        server.close()


class Recorder:
    """A sink that remembers what was shown, and when."""

    def __init__(self) -> None:
        self.surface = pygame.Surface((480, 320))
        self.shown: list[tuple[str, float]] = []

    def show(self, name: str, rects=None) -> None:
        self.shown.append((name, time.monotonic()))

    def events(self) -> bool:
        return True


def test_newest_tile_animates_at_a_capped_rate_then_the_loop_sleeps(tmp_path, follow):
    path = tmp_path / "view.sock"
    server = ViewServer(path, sample(7, "two_pending_5"))
    try:
        feed = ViewFeed(str(path), backoff=FAST)
        polls = []
        original = feed.poll

        def counting_poll(timeout: float):
            polls.append(time.monotonic())
            return original(timeout)

        feed.poll = counting_poll
        recorder = Recorder()
        follow(Follower(feed, recorder, "table", fps=20))
        wait_for(lambda: any(name == "000007" for name, _ in recorder.shown))
        start = next(t for name, t in recorder.shown if name == "000007")
        wait_for(lambda: time.monotonic() > start + client.table_screen.NEWEST_PULSE + 0.8)
        pulses = [t for name, t in recorder.shown if name == "pulse"]
        assert pulses, "the newest tile pulses"
        assert len(pulses) <= 20 * client.table_screen.NEWEST_PULSE + 3, "frame rate capped"
        assert max(pulses) <= start + client.table_screen.NEWEST_PULSE + 0.2
        # Idle: nothing drawn, and the loop wakes only a few times a second.
        idle_from = start + client.table_screen.NEWEST_PULSE + 0.3
        idle_polls = [t for t in polls if idle_from < t <= idle_from + 0.5]
        assert len(idle_polls) <= 0.5 / client.IDLE_WAKE + 2
        assert not [t for _, t in recorder.shown if t > idle_from]
    finally:
        server.close()


def test_a_window_opens_and_shows_the_view(tmp_path, follow):
    path = tmp_path / "view.sock"
    server = ViewServer(path, sample(1, "game_over_8"))
    try:
        sink = WindowSink((400, 300), False, 0)
        follower = follow(Follower(ViewFeed(str(path), backoff=FAST), sink, "wall"))
        wait_for(lambda: follower.redraws == 1)
        colours = {sink.surface.get_at((x, y))[:3] for x in range(0, 400, 40)
                   for y in range(0, 300, 30)}
        assert len(colours) > 2
    finally:
        server.close()


@pytest.mark.parametrize("event", [
    pygame.event.Event(pygame.QUIT),
    pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q),
    pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE),
], ids=["close", "Q", "Esc"])
def test_closing_a_window_ends_its_screen(event):
    sink = WindowSink((200, 150), False, 0)
    pygame.event.clear()
    assert sink.events()
    pygame.event.post(event)
    assert not sink.events()


def test_screenshot_of_a_saved_view(tmp_path, capsys):
    out = tmp_path / "table.png"
    args = ["display", "--view", "table", "--from", str(VIEWS / "busy_8.json"),
            "--screenshot", str(out), "--size", "1280x720"]
    assert main(args) == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 720)
    wall = tmp_path / "wall.png"
    assert main(["display", "--view", "wall", "--from", str(VIEWS / "busy_8.json"),
                 "--screenshot", str(wall)]) == 0
    assert pygame.image.load(str(wall)).get_size() == (1920, 1080)
    small = tmp_path / "small.png"
    assert main(["display", "--view", "wall", "--from", str(VIEWS / "busy_8.json"),
                 "--screenshot", str(small), "--size", "800x480"]) == 0


def test_the_table_screen_is_refused_on_the_7_inch_screen_naming_the_least_size(
        tmp_path, capsys):
    out = tmp_path / "table.png"
    args = ["display", "--view", "table", "--from", str(VIEWS / "busy_8.json"),
            "--screenshot", str(out), "--size", "800x480"]
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        "roundhouse display: the table screen needs at least 1280x720 to be read from every "
        "seat; this screen is 800x480. Use a larger screen for the table (the wall screen "
        "works on this one)"
    )
    assert not out.exists()
    # A window (or the frames of a screen following the service) is refused the same way.
    assert main(["display", "--view", "table", "--frames", str(tmp_path / "f"),
                 "--size", "800x480", "--socket", str(tmp_path / "none.sock")]) == 1
    assert "at least 1280x720" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--size", "big", "--from", "x.json", "--screenshot", "o.png"], 2, "--size 'big'"),
        (["--screenshot", "o.png"], 2, "needs --from"),
        (["--from", "missing.json", "--screenshot", "o.png"], 1, "cannot read the view file"),
    ],
)
def test_mistakes_on_the_command_line_are_explained(args, status, message, tmp_path, capsys,
                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["display", *args]) == status
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_a_broken_view_file_is_reported_not_drawn(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "phase": "play", "seq": 1, "seats": []}))
    assert main(["display", "--from", str(bad), "--screenshot", str(tmp_path / "o.png")]) == 1
    assert "2 to 14" in capsys.readouterr().err
    assert not (tmp_path / "o.png").exists()


def parsed(*argv: str):
    import argparse

    parser = argparse.ArgumentParser()
    client.configure_display(parser)
    return parser.parse_args(list(argv))


def test_default_socket_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("ROUNDHOUSE_SOCKET", "/tmp/elsewhere.sock")
    assert client._socket(parsed()) == "/tmp/elsewhere.sock"
    monkeypatch.delenv("ROUNDHOUSE_SOCKET")
    assert client._socket(parsed()) == "/run/roundhouse/view.sock"


def test_the_socket_comes_from_the_tables_configuration(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUNDHOUSE_SOCKET", "/tmp/elsewhere.sock")
    shipped = Path(__file__).resolve().parents[2] / "firmware_py" / "configs" / "sim.toml"
    expected = str(Path("~/.local/state/roundhouse/sim.sock").expanduser())
    assert client._socket(parsed("--config", str(shipped))) == expected
    # A screen following the service started with that file really connects there.
    config = tmp_path / "table.toml"
    config.write_text(shipped.read_text().replace(
        'socket = "~/.local/state/roundhouse/sim.sock"', 'socket = "run/view.sock"'))
    (tmp_path / "run").mkdir()
    server = ViewServer(tmp_path / "run" / "view.sock", sample(7))
    try:
        feed = ViewFeed(client._socket(parsed("--config", str(config))), backoff=FAST)
        deadline = time.monotonic() + 10
        got = None
        while got is None and time.monotonic() < deadline:
            got = feed.poll(0.1)
        feed.close()
        assert got is not None and got.seq == 7
    finally:
        server.close()


def test_a_bad_configuration_is_one_line(tmp_path, capsys):
    assert main(["display", "--config", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("roundhouse display: --config ") and "no such file" in err
    assert "\n" not in err


def test_views_that_queued_up_are_drawn_once_ending_on_the_newest(tmp_path, follow):
    path = tmp_path / "view.sock"
    server = ViewServer(path, sample(1))
    try:
        recorder = Recorder()
        follower = follow(Follower(ViewFeed(str(path), backoff=FAST), recorder, "wall"))
        wait_for(lambda: follower.redraws == 1)
        burst = []
        for seq in range(2, 62):
            view = sample(seq)
            view["boneyard"] = seq  # each view shows something new
            burst.append(line(view))
        # Sixty views in one write: the screen skips to the newest of those waiting.
        server.send(b"".join(burst))
        wait_for(lambda: recorder.shown and recorder.shown[-1][0] == "000061")
        assert follower.view is not None and follower.view.seq == 61
        assert follower.redraws < 20
    finally:
        server.close()


def test_frames_kept_to_the_newest_few(tmp_path):
    sink = FrameSink(tmp_path / "f", (64, 40), "wall", keep=3)
    for seq in range(10):
        sink.show(f"{seq:06d}")
    sink.show("waiting")
    assert sorted(p.name for p in (tmp_path / "f").iterdir()) == [
        "wall-000008.png", "wall-000009.png", "wall-waiting.png"]


def test_a_screen_that_would_draw_nowhere_says_so_and_ends(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["display", "--socket", str(tmp_path / "none.sock")]) == 1
    err = capsys.readouterr().err
    assert "no working screen" in err and "--frames DIR" in err and "\n" not in err.strip()
    assert main(["display", "--from", str(VIEWS / "busy_8.json")]) == 1
    assert "no working screen" in capsys.readouterr().err


def test_a_screen_ends_with_the_process_that_started_it(tmp_path, capsys):
    # Its parent is given as one it does not have, as after that parent was killed: its
    # own number, never its parent's (1 is, where the tests run under init, and the
    # screen then waited for its socket for ever).
    assert main(["display", "--view", "wall", "--frames", str(tmp_path / "f"),
                 "--socket", str(tmp_path / "none.sock"), "--parent", str(os.getpid())]) == 0
    assert "has ended; so does the screen" in capsys.readouterr().err
