"""The screens' text against an independent renderer: Pango (with HarfBuzz and FriBidi),
given the same fonts at the same pixel size, must draw each language's lines in the same
order and shape. Compared are the ink's bounding box and its column profile (how much ink
each column of pixels holds, left to right), which tell a reversed number, a word out of
place or unjoined letters apart while forgiving the small differences of hinting.

`pango-view` comes from Debian's pango1.0-tools (.ci/run installs it). To look at both
pictures, set ROUNDHOUSE_TEXT_PICTURES to a folder: each case writes ours and Pango's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pygame
import pytest

from display import shaping, text
from roundhouse.messages import message
from roundhouse.render import render

PANGO = shutil.which("pango-view")
pytestmark = pytest.mark.skipif(PANGO is None, reason="pango-view is not installed "
                                "(Debian's pango1.0-tools): nothing to compare against")

SIZE = 60  # nominal size, as the layouts ask for it
# Lines that each use a single font, so that Pango's choice of font (by fontconfig,
# among the screens' three) cannot differ from the screens' own: a line of each language
# with a Latin name or a number inside, and sentences of the catalogues.
LINES = {
    "fa": "نوبت Ali است: ۳۴ امتیاز در قطار مکزیکی",
    "ar": "دور Farid: ٣٤ نقطة في القطار المكسيكي",
    "te": "మెక్సికన్ రైలు: రాము వంతు, 34 పాయింట్లు",
    "el": "Μεξικάνικο τρένο: σειρά του Γιώργου, 34 πόντοι",
    "lt": "Meksikos traukinys: Žaidėjas įdėjo dvigubą, 34 taškai",
    "en": "Mexican train: Ali's turn, 34 points",
}
# Names in each language's own script, for the catalogues' sentences.
NAMES = {"fa": ["فرشته", "علی"], "ar": ["فريد", "ليلى"], "te": ["రాము", "లక్ష్మి"],
         "el": ["Ελένη", "Γιώργος"], "lt": ["Gintarė", "Jurgis"], "en": ["Bo", "Ana"]}
MESSAGES = (
    message("prompt.satisfy", seat=0, tile="5-5", train="1"),
    message("alert.one_tile", seat=1),
    message("screen.round_of", round=3, rounds=13),
    message("screen.tiles", n=12),
)
CASES = [(lang, LINES[lang]) for lang in sorted(LINES)] + [
    (lang, render(said, lang, NAMES[lang])) for lang in sorted(NAMES) for said in MESSAGES]
WIDTH_SHARE = 0.05  # the ink's widths may differ by this share (hinted advances)
# Measured on Debian 12: 1.0 for DejaVu Sans (Persian, Arabic), 0.97 for Noto Sans Telugu,
# 0.87-0.9 for FreeSans, whose hinted advances SDL_ttf and Pango round differently; the
# same lines drawn without bidi or unshaped score 0.5 and below.
MIN_CORRELATION = 0.8


@pytest.fixture(scope="module")
def fontconfig(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment in which Pango sees exactly the screens' fonts and no other."""
    home = tmp_path_factory.mktemp("fonts")
    for face in shaping.FACES:
        (home / face.path.name).symlink_to(face.path)
    conf = home / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>'
        f"<dir>{home}</dir><cachedir>{home / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(conf)}


def pango(line: str, face: shaping.Face, rtl: bool, env: dict[str, str],
          out: Path) -> pygame.Surface:
    # At 72 dpi a point is a pixel: the font's em is exactly the screens' pixel size.
    command = [str(PANGO), "--no-display", "-q", "--dpi=72", "--margin=4",
               f"--font={face.name} {face.pixels(SIZE)}", "--background=black",
               "--foreground=white", "--hinting=full", "-o", str(out), f"--text={line}"]
    if rtl:
        command.append("--rtl")
    subprocess.run(command, check=True, env=env, timeout=60)
    return pygame.image.load(str(out))


def ours(line: str, rtl: bool) -> pygame.Surface:
    img = text.line_image(line, SIZE, (255, 255, 255), rtl)
    framed = pygame.Surface((img.get_width() + 8, img.get_height() + 8))
    framed.blit(img, (4, 4))
    return framed


def naive(line: str, face: shaping.Face, script: str, rtl: bool) -> pygame.Surface:
    """The line as pygame-ce draws it on its own: one run, no bidi reordering."""
    img = shaping.font(face, SIZE, script, rtl).render(line, True, (255, 255, 255))
    framed = pygame.Surface((img.get_width() + 8, img.get_height() + 8))
    framed.blit(img, (4, 4))
    return framed


def ink(surface: pygame.Surface) -> tuple[tuple[int, int, int, int], list[int]]:
    """The ink's bounding box and the ink in each of its columns."""
    w, h = surface.get_size()
    raw = pygame.image.tobytes(surface.convert(24) if surface.get_bitsize() != 24
                               else surface, "RGB")
    light = [[raw[(y * w + x) * 3] for x in range(w)] for y in range(h)]
    rows = [y for y in range(h) if max(light[y]) > 96]
    cols = [x for x in range(w) if max(light[y][x] for y in range(h)) > 96]
    left, right, top, bottom = cols[0], cols[-1] + 1, rows[0], rows[-1] + 1
    profile = [sum(light[y][x] for y in range(top, bottom)) for x in range(left, right)]
    return (left, top, right - left, bottom - top), profile


def _resample(profile: list[int], bins: int) -> list[float]:
    n = len(profile)
    out = []
    for i in range(bins):
        lo = i * n // bins
        hi = max(lo + 1, (i + 1) * n // bins)
        out.append(sum(profile[lo:hi]) / (hi - lo))
    return out


def _pearson(x: list[float], y: list[float]) -> float:
    mx, my = sum(x) / len(x), sum(y) / len(y)
    cov = sum((p - mx) * (q - my) for p, q in zip(x, y, strict=True))
    vx = sum((p - mx) ** 2 for p in x) ** 0.5
    vy = sum((q - my) ** 2 for q in y) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0


def correlation(mine: list[int], theirs: list[int], window: int = 48, slack: int = 4) -> float:
    """The worst Pearson correlation of two column profiles over windows of about a word,
    Pango's stretched to our width and each window allowed to slide by `slack` pixels
    (hinting moves letters by a pixel or two): a word or number out of place shows."""
    n = len(mine)
    x = [float(v) for v in mine]
    y = _resample(theirs, n)
    worst = 1.0
    for at in range(0, max(1, n - window + 1), window // 2):
        best = -1.0
        for shift in range(-slack, slack + 1):
            lo, hi = at + shift, at + shift + window
            if lo < 0 or hi > n:
                continue
            best = max(best, _pearson(x[at:at + window], y[lo:hi]))
        worst = min(worst, best)
    return worst


def pictures() -> Path | None:
    folder = os.environ.get("ROUNDHOUSE_TEXT_PICTURES")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


@pytest.mark.parametrize(("lang", "line"), CASES,
                         ids=[f"{lang}-{n}" for n, (lang, _) in enumerate(CASES)])
def test_each_language_reads_as_pango_writes_it(lang, line, fontconfig, tmp_path):
    rtl = text.reads_rtl(lang)
    faces = {run.face for run in shaping.runs(line, rtl)}
    assert len(faces) == 1, f"{lang}: the sample must use one font, not {faces}"
    face = faces.pop()
    mine = ours(line, rtl)
    theirs = pango(line, face, rtl, fontconfig, tmp_path / f"pango-{lang}.png")
    folder = pictures()
    if folder:
        stem = f"{lang}-{CASES.index((lang, line))}"
        pygame.image.save(mine, str(folder / f"{stem}-ours.png"))
        pygame.image.save(theirs, str(folder / f"{stem}-pango.png"))
    (_, _, my_w, my_h), my_profile = ink(mine)
    (_, _, their_w, their_h), their_profile = ink(theirs)
    assert abs(my_w - their_w) <= WIDTH_SHARE * their_w + 2, (
        f"{lang}: ink {my_w} px wide, Pango's {their_w} px")
    assert abs(my_h - their_h) <= 0.15 * their_h + 2, (
        f"{lang}: ink {my_h} px tall, Pango's {their_h} px")
    score = correlation(my_profile, their_profile)
    assert score >= MIN_CORRELATION, f"{lang}: column profiles correlate {score:.3f}"


@pytest.mark.parametrize(("lang", "script"), [("fa", "Arab"), ("ar", "Arab"), ("te", "Telu")])
def test_the_comparison_tells_unordered_or_unshaped_text_apart(lang, script, fontconfig,
                                                               tmp_path):
    """pygame-ce alone (no bidi for Persian and Arabic; Telugu without its script set, so
    unshaped) draws lines Pango does not: the comparison above would catch either."""
    line = LINES[lang]
    rtl = text.reads_rtl(lang)
    face = shaping.runs(line, rtl)[0].face
    theirs = pango(line, face, rtl, fontconfig, tmp_path / f"pango-{lang}.png")
    wrong = naive(line, face, "Latn" if script == "Telu" else script, rtl)
    folder = pictures()
    if folder:
        pygame.image.save(wrong, str(folder / f"{lang}-naive.png"))
    (_, _, wrong_w, _), wrong_profile = ink(wrong)
    (_, _, their_w, _), their_profile = ink(theirs)
    mine = correlation(ink(ours(line, rtl))[1], their_profile)
    off = correlation(wrong_profile, their_profile)
    assert off < MIN_CORRELATION or abs(wrong_w - their_w) > WIDTH_SHARE * their_w + 2, (
        f"{lang}: the naive drawing correlates {off:.3f}, ours {mine:.3f}")
