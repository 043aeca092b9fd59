"""The phone page in a real browser (Debian's chromium through Playwright), following a
real `roundhouse sim` through `roundhouse web`: the game as the room sees it, in the
phone's language, on a 360 px wide phone."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from night_services import Processes, free_port, listening, wait_until

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason="Debian's chromium is not installed (.ci/run installs it)")
PERSIAN = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def _start_web(processes: Processes, sock: Path) -> str:
    port = free_port()
    processes.roundhouse("web", "web", "--socket", str(sock), "--host", "127.0.0.1",
                         "--port", str(port))
    wait_until(lambda: listening(port), "roundhouse web listening")
    return f"http://127.0.0.1:{port}/"


def test_a_phone_follows_a_whole_game_in_persian(
    browser: playwright.Browser, processes: Processes, tmp_path: Path
) -> None:
    sock = tmp_path / "view.sock"
    url = _start_web(processes, sock)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fa-IR")
    page = context.new_page()
    page.goto(url)
    # The table is not there yet: the page says it waits for it.
    page.wait_for_function("document.getElementById('headline').textContent.includes('…')")
    sim = processes.roundhouse("sim", "sim", "--headless", "--socket", str(sock),
                               "--speed", "25", "--rounds", "2", "--seed", "11",
                               "--db", str(tmp_path / "sim.db"))
    # Whose turn, during play, in Persian, right to left.
    page.wait_for_function("document.body.dataset.phase === 'play' && "
                           "document.querySelector('#seats tr.turn') !== null",
                           timeout=60_000)
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator("#seats tbody tr").count() == 4
    assert re.search("[۰-۹]", page.locator("#seats tbody").inner_text())
    turn_name = page.locator("#seats tr.turn td.name").inner_text().strip()
    assert turn_name in page.locator("#headline").inner_text()
    # Usable on a 360 px phone: nothing runs off the side of the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.wait_for_function("document.body.dataset.phase === 'game_over'", timeout=120_000)
    assert sim.wait(timeout=60) == 0
    # The ranking the room saw is the one the table announced at the end.
    announced = re.search(r"Game 1: \S+ wins \((.*)\)", processes.log("sim"))
    assert announced is not None
    expected = [tuple(item.rsplit(" ", 1)) for item in announced.group(1).split(", ")]
    shown = [line.translate(PERSIAN).split() for line in
             page.locator("#ranking li").all_inner_texts()]
    assert [(name, total) for _place, name, total in shown] == expected
    assert [place for place, _name, _total in shown] == ["1", "2", "3", "4"]
    # Both rounds in the history, one line per player on the chart.
    assert page.locator("#history thead th").count() == 1 + 2 + 1
    assert page.locator("#chart polyline").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The table service is gone: the page keeps the result and says it waits.
    page.wait_for_function("!document.getElementById('offline').hidden")
    context.close()


def test_the_page_speaks_the_language_chosen_on_it(
    browser: playwright.Browser, processes: Processes, tmp_path: Path
) -> None:
    url = _start_web(processes, tmp_path / "view.sock")
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.goto(url)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option("#lang", "ar")
    page.wait_for_url(re.compile(r"\?lang=ar$"))
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # The choice is remembered: the page without ?lang= speaks Arabic again.
    page.goto(url)
    assert page.evaluate("document.documentElement.lang") == "ar"
    assert page.locator("#lang").input_value() == "ar"
    context.close()
