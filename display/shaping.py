"""How one line of text becomes glyphs: bidi order, runs by script, a font per run.

pygame-ce (SDL_ttf with HarfBuzz) shapes a string in one font, one script and one
direction, and does no bidi reordering; a Persian sentence with a Latin name and a score
in it must therefore be cut up here first:

1. The line (already broken, in logical order) is put in display order with
   python-bidi (the Unicode Bidirectional Algorithm), in the direction of the reader's
   language, so "Ali 34" inside a Persian line stays "Ali 34".
2. The display-order line is cut into runs. Each stretch at a right-to-left level is
   turned back into logical order and shaped right to left, so its letters join;
   everything else is shaped left to right, one run per script.
3. Each run gets the first font of its script's chain that has all its letters (a Telugu
   name on an English wall, a Latin name in a Persian sentence); a run no single font
   covers is written letter by letter, each in the first font that has it.

The runs are drawn side by side on one baseline in display order (`display/text.py`).
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import bidi as uba  # type: ignore[import-untyped]
import pygame
import pygame.freetype

FONTS = Path(__file__).resolve().parent / "fonts"


# The nominal sizes whose pixels a face keeps worked out, far above any a screen asks for.
_KEPT_SIZES = 512


# Compared and hashed by identity: a face keys the caches of every letter measured, and
# the few faces are the constants below.
@dataclass(frozen=True, eq=False)
class Face:
    """A font file and the share of a nominal size it is opened at, chosen so its
    letters match the default font's in height and its lines fit the default line."""

    name: str  # its family and style, as fontconfig names it
    path: Path
    scale: float
    truncated: bool = False  # its pixels cut down to a whole number, not rounded
    # Worked out once: `font` asks for them for every piece of text measured.
    file: str = field(init=False, repr=False)
    sizes: tuple[int, ...] = field(init=False, repr=False)  # pixels by nominal size

    def __post_init__(self) -> None:
        object.__setattr__(self, "file", str(self.path))
        object.__setattr__(self, "sizes", tuple(self._pixels(n) for n in range(_KEPT_SIZES)))

    def _pixels(self, size: int) -> int:
        return max(1, int(size * self.scale) if self.truncated else round(size * self.scale))

    def pixels(self, size: int) -> int:
        """Its size in pixels (the em) at nominal `size`."""
        return self.sizes[size] if 0 <= size < _KEPT_SIZES else self._pixels(size)


# pygame's own default font (FreeSans Bold, shipped with pygame-ce), which pygame opens at
# 0.6875 of the size asked for, cut down to whole pixels: Latin, Greek, Cyrillic.
DEFAULT = Face("FreeSans Bold", Path(pygame.__file__).resolve().parent
               / pygame.font.get_default_font(), 0.6875, truncated=True)
# DejaVu Sans: Latin, Greek, Cyrillic, Arabic (with the Persian letters and digits), Hebrew.
DEJAVU = Face("DejaVu Sans Bold", FONTS / "DejaVuSans-Bold.ttf", 0.62)
# Noto Sans Telugu: its marks and stacked consonants reach far above and below the line,
# hence the smaller share (its letters still stand as tall as Latin small letters).
TELUGU = Face("Noto Sans Telugu Bold", FONTS / "NotoSansTelugu-Bold.ttf", 0.6)
# A number standing alone in Arabic-Indic digits (a total, a count, a place on the wall):
# DejaVu Sans drawn larger, so its digits stand as tall as the default font's digits
# beside it; within a sentence the digits keep the letters' size.
NUMERALS = Face("DejaVu Sans Bold", FONTS / "DejaVuSans-Bold.ttf", 0.78)
FACES = (DEFAULT, DEJAVU, TELUGU)

# The fonts tried for each script, best first (ISO 15924 codes, as HarfBuzz takes them).
CHAINS: dict[str, tuple[Face, ...]] = {
    "Latn": (DEFAULT, DEJAVU, TELUGU),
    "Grek": (DEFAULT, DEJAVU),
    "Cyrl": (DEFAULT, DEJAVU),
    "Arab": (DEJAVU,),
    "Hebr": (DEJAVU,),
    "Telu": (TELUGU, DEJAVU),
    "Zyyy": (DEFAULT, DEJAVU, TELUGU),  # digits, spaces, punctuation on their own
}
# A right-to-left line is written in one typeface where it can: a Latin name or number in a
# Persian sentence takes DejaVu Sans, the font of the sentence around it.
CHAINS_RTL: dict[str, tuple[Face, ...]] = {
    **CHAINS,
    "Latn": (DEJAVU, DEFAULT, TELUGU),
    "Grek": (DEJAVU, DEFAULT),
    "Cyrl": (DEJAVU, DEFAULT),
    "Zyyy": (DEJAVU, DEFAULT, TELUGU),
}

# Unicode blocks of the scripts that need their own shaping or font.
_BLOCKS = (
    (0x0370, 0x03FF, "Grek"), (0x1F00, 0x1FFF, "Grek"),
    (0x0400, 0x052F, "Cyrl"),
    (0x0590, 0x05FF, "Hebr"), (0xFB1D, 0xFB4F, "Hebr"),
    (0x0600, 0x06FF, "Arab"), (0x0750, 0x077F, "Arab"), (0x08A0, 0x08FF, "Arab"),
    (0xFB50, 0xFDFF, "Arab"), (0xFE70, 0xFEFF, "Arab"),
    (0x0C00, 0x0C7F, "Telu"),
)
_RTL_CLASSES = ("R", "AL")
# Bidi controls: embeddings and overrides (U+202A-202E), isolates (U+2066-2069).
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Left-to-right, right-to-left and Arabic letter marks, and the bidi controls.
_NO_MARKS = str.maketrans("", "", "\u200e\u200f\u061c" + BIDI_CONTROLS)


@dataclass(frozen=True)
class Run:
    """A piece of a display-order line shaped in one go: `text` in logical order."""

    text: str
    face: Face
    script: str
    rtl: bool


# Asked of every letter of every line a screen measures: a new view's words run to some
# thousands of letters, from a few hundred distinct ones.
@lru_cache(maxsize=4096)
def script_of(char: str) -> str:
    """The script of a letter or mark; "Zyyy" (common) for digits, spaces, punctuation."""
    code = ord(char)
    for low, high, script in _BLOCKS:
        if low <= code <= high:
            # Arabic's own digits and punctuation too: written in its font, in the direction
            # the bidi levels give them (the digits left to right).
            return script
    if unicodedata.category(char)[0] in "LM":
        return "Latn"
    return "Zyyy"


@lru_cache(maxsize=4096)
def is_rtl(char: str) -> bool:
    """A letter of a right-to-left script, or a mark on one."""
    kind = unicodedata.bidirectional(char)
    return kind in _RTL_CLASSES or (kind == "NSM" and script_of(char) in ("Arab", "Hebr"))


def has_rtl(text: str) -> bool:
    # Each distinct letter once: a line is measured a prefix at a time while it is broken.
    return not text.isascii() and any(is_rtl(c) for c in set(text))


# Whitespace and isolate controls at a line's end return to the paragraph's level (L1).
_ENDING = frozenset(" \t\u2066\u2067\u2068\u2069")
_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def _levels(line: str, base: int) -> list[int]:
    """Each character's resolved embedding level, by python-bidi's implementation of the
    Unicode Bidirectional Algorithm (Rust's unicode-bidi: UAX #9 with isolates, rules P2
    to I2). It reports one level per byte of the line's UTF-8; a character takes its
    first byte's. Characters the algorithm removes (X9: joiners, embedding controls) have
    the level of the character before them."""
    info = str(uba.get_display(line, base_dir="LR"[base], debug=True))
    section = info[info.index("levels:"):info.index("paragraphs:")]
    per_byte = [int(level) for level in _LEVEL.findall(section)]
    levels, at = [], 0
    for char in line:
        levels.append(per_byte[at] if at < len(per_byte) else base)
        at += len(char.encode("utf-8"))
    # L1: trailing whitespace and isolate controls take the paragraph's level.
    end = len(line)
    while end and line[end - 1] in _ENDING:
        end -= 1
        levels[end] = base
    return levels


@lru_cache(maxsize=1024)
def display_order(line: str, rtl: bool | None = None) -> tuple[tuple[str, int], ...]:
    """The letters of `line` in the order they are seen, left to right (a zero-width
    joiner or non-joiner rides with the letter before it), each with its
    embedding level (odd: it reads right to left), for a reader of a right-to-left
    language (`rtl` True), a left-to-right one (False), or by its first strong letter
    (None). python-bidi resolves the levels (isolates included, so a name wrapped in
    U+2068...U+2069 keeps its own direction); they are reordered here (rule L2);
    mirroring (L4) is left to HarfBuzz, which mirrors brackets in the runs it shapes
    right to left."""
    if not rtl and not has_rtl(line):
        return tuple((c, 0) for c in line)
    base = uba.get_base_level(line) if rtl is None else int(rtl)
    units = _keep_joiners(list(zip(line, _levels(line, base), strict=True)))
    top = max((level for _, level in units), default=0)
    lowest_odd = min((level for _, level in units if level % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        at = 0
        while at < len(units):
            if units[at][1] >= level:
                end = at
                while end < len(units) and units[end][1] >= level:
                    end += 1
                units[at:end] = units[at:end][::-1]
                at = end
            else:
                at += 1
    return tuple(units)


def _keep_joiners(units: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Fold zero-width joiners and non-joiners into the letter before them (the one
    after, opening a line), so reordering never parts them: Persian needs its
    non-joiner (می‌شود) between the two letters of one word."""
    out: list[tuple[str, int]] = []
    pending = ""
    for char, level in units:
        if char in "\u200c\u200d":
            if out:
                out[-1] = (out[-1][0] + char, out[-1][1])
            else:
                pending += char
            continue
        out.append((pending + char, level))
        pending = ""
    if pending:
        out.append((pending, units[-1][1] if units else 0))
    return out


def shown(line: str, rtl: bool | None = None) -> str:
    """`line` in display order (without mirroring): what a reader sees, letter by letter."""
    return "".join(c for c, _ in display_order(line, rtl))


@lru_cache(maxsize=1024)
def runs(line: str, rtl: bool | None = None) -> tuple[Run, ...]:
    """`line` (logical order) as runs in display order, left to right on the screen."""
    chains = CHAINS_RTL if rtl else CHAINS
    out: list[Run] = []
    if not rtl and not has_rtl(line):
        # Left to right throughout (most lines): one piece, already in display order.
        pieces = [([line], False)] if line else []
    else:
        pieces = _direction_pieces(display_order(line, rtl))
    for n, (units, backwards) in enumerate(pieces):
        if backwards:
            logical = "".join(reversed(units))
            # The script of its letters (a direction mark among them belongs to none).
            scripts = (script_of(c) for c in logical if is_rtl(c))
            script = next((s for s in scripts if s != "Zyyy"), "Arab")
            out += [Run(t, face, script, True)
                    for t, face in _by_font(logical, script, chains)]
        else:
            for text, script in _by_script("".join(units), n == 0):
                out += [Run(t, face, script, False)
                        for t, face in _by_font(text, script, chains)]
    # The direction marks have done their work in the ordering; HarfBuzz, given one inside
    # a run, stops joining the letters around it.
    bare = [Run(r.text.translate(_NO_MARKS), r.face, r.script, r.rtl) for r in out]
    merged = _merged([r for r in bare if r.text])
    if len(merged) == 1 and _number_alone(merged[0].text):
        merged = [Run(merged[0].text, NUMERALS, "Arab", merged[0].rtl)]
    return tuple(merged)


# Persian (U+06F0-06F9) and Arabic (U+0660-0669) digits.
_INDIC_DIGITS = frozenset("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩")


def _number_alone(written: str) -> bool:
    return not _INDIC_DIGITS.isdisjoint(written) and _NUMBER_ALONE.issuperset(written)


_NUMBER_ALONE = _INDIC_DIGITS | frozenset(" ,.٫٬")


def _merged(runs: list[Run]) -> list[Run]:
    """Neighbouring runs of one font and direction as one (punctuation before a word)."""
    out: list[Run] = []
    for run in runs:
        last = out[-1] if out else None
        if last and last.face is run.face and last.rtl == run.rtl and (
                "Zyyy" in (last.script, run.script) or last.script == run.script):
            script = run.script if last.script == "Zyyy" else last.script
            joined = run.text + last.text if run.rtl else last.text + run.text
            out[-1] = Run(joined, run.face, script, run.rtl)
        else:
            out.append(run)
    return out


def _direction_pieces(
    seen: tuple[tuple[str, int], ...]
) -> list[tuple[list[str], bool]]:
    """Display-order letters grouped into stretches of one direction (True: odd level,
    right to left)."""
    out: list[tuple[list[str], bool]] = []
    for char, level in seen:
        backwards = level % 2 == 1
        if out and out[-1][1] == backwards:
            out[-1][0].append(char)
        else:
            out.append(([char], backwards))
    return out


def _by_script(text: str, opens_line: bool) -> list[tuple[str, str]]:
    """Left-to-right `text` cut where its script changes; digits, spaces and punctuation
    go with the letters before them. Before any letter, they go with the letters after
    them where `text` opens the line ("12 టైల్స్" in one font), and are a run of their own
    in the line's font where they follow a right-to-left stretch (the score after a
    Persian name in an English line is the line's, not the next name's)."""
    if {script_of(c) for c in set(text)} <= _LATIN_AND_COMMON:
        # Most lines: Latin letters among digits, spaces and punctuation are one run from
        # the first letter on, so only where that letter is needs finding.
        first = next((at for at, c in enumerate(text) if script_of(c) == "Latn"), None)
        if first is None:
            return [(text, "Zyyy")] if text else []
        if first == 0 or opens_line:
            return [(text, "Latn")]
        return [(text[:first], "Zyyy"), (text[first:], "Latn")]
    return _cut_by_script(text, opens_line)


_LATIN_AND_COMMON = frozenset(("Latn", "Zyyy"))


def _cut_by_script(text: str, opens_line: bool) -> list[tuple[str, str]]:
    """`_by_script` letter by letter, for any scripts."""
    out: list[list[str]] = []
    for char in text:
        script = script_of(char)
        if out and out[-1][1] == "Zyyy" and script != "Zyyy" and opens_line and len(out) == 1:
            out[-1][1] = script
        if out and (script == "Zyyy" or out[-1][1] == script):
            out[-1][0] += char
        else:
            out.append([char, script])
    return [(t, s) for t, s in out]


def _by_font(
    text: str, script: str, chains: dict[str, tuple[Face, ...]]
) -> list[tuple[str, Face]]:
    """`text` in the first font of the script's chain that has all its letters, or
    letter by letter in the first that has each (the chain's first when none has it)."""
    chain = chains.get(script, chains["Latn"])
    for face in chain:
        if _covers_all(face, text):
            return [(text, face)]
    out: list[tuple[str, Face]] = []
    for char in text:
        face = next((f for f in FACES if covers(f, char)), chain[0])
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + char, face)
        else:
            out.append((char, face))
    return out


@cache
def _glyph_font(face: Face) -> pygame.freetype.Font:
    """The font opened to ask which letters it has (pygame.font cannot tell)."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return pygame.freetype.Font(io.BytesIO(font_bytes(face.path)), 12)


@lru_cache(maxsize=8192)
def covers(face: Face, char: str) -> bool:
    """Whether `face` has a glyph for `char` (spaces, joiners and direction marks need
    none: HarfBuzz draws format characters as nothing)."""
    if char.isspace() or unicodedata.category(char) == "Cf":
        return True
    return _glyph_font(face).get_metrics(char)[0] is not None


# The letters each face is known to have: a line's letters are checked against the set
# at once, and one by one only where a letter is new.
_HAS: dict[Face, set[str]] = {}


def _covers_all(face: Face, text: str) -> bool:
    known = _HAS.setdefault(face, set())
    if known.issuperset(text):
        return True
    if all(covers(face, c) for c in text):
        known.update(text)
        return True
    return False


def unshown(text: str) -> str:
    """The letters of `text` that no font of the screens has, once each in order: the
    screens would draw them as boxes."""
    missing: dict[str, None] = {}
    for char in text:
        if not any(covers(face, char) for face in FACES):
            missing[char] = None
    return "".join(missing)


# How many opened fonts a screen keeps: a round's words need a few dozen sizes; 512 fonts
# held 280 MiB and 500 open files after every sample view in six languages. Evicted fonts
# are closed, so memory and files stay bounded. A font opened again measures its first
# words slowly (its letters are loaded anew), so a round's sizes should fit: 48 hold an
# English or Greek round of 14 seats (42 sizes) and most of a Persian or Telugu one (73),
# and a table screen at 74 MiB after every sample view; each font kept beyond them costs
# about a quarter of a MiB (benchmarks/display_memory.py: 76 MiB with 56, 78 with 64).
FONT_CACHE = 48


@cache
def font_bytes(path: Path) -> bytes:
    """A font file's contents, read once: every size of it is opened from memory, so no
    opened font holds a file open."""
    return path.read_bytes()


def font(face: Face, size: int, script: str = "Latn", rtl: bool = False) -> pygame.font.Font:
    """`face` at nominal `size`, set up to shape `script` in the given direction (pygame-ce
    shapes complex scripts only when both are set on the font). One font serves every
    script and direction of its file and size and is set up anew each time it is asked
    for, so it is to be used before the next is asked for."""
    # `face.pixels(size)`, without a call for the sizes it keeps: asked for every run measured.
    made = opened(face.file, face.sizes[size] if 0 <= size < _KEPT_SIZES else face.pixels(size))
    made.set_script(script)
    made.set_direction(_RTL if rtl else _LTR)
    return made


_RTL, _LTR = pygame.DIRECTION_RTL, pygame.DIRECTION_LTR


# Kept by file and size in pixels, not by the face, nominal size, script and direction
# asked for: nominal sizes next to each other often open the same pixels (32 and 33 are
# both 22 px of the default font), a face's two shares of one file (DejaVu Sans for words
# and for numbers) meet at some sizes, and a font's letters, once loaded, serve any script
# and direction it is set up for. Kept by what was asked for, a 14-seat round asked for 93
# fonts where 46 were distinct, more than the cache holds, so it reopened fonts 369 times;
# in Persian, Greek or Telugu, where a script's runs and the digits between them each had
# fonts of their own, 430 to 650 times.
@lru_cache(maxsize=FONT_CACHE)
def opened(file: str, pixels: int) -> pygame.font.Font:
    """The font file `file` opened at `pixels`."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(io.BytesIO(font_bytes(Path(file))), pixels)


def run_font(run: Run, size: int) -> pygame.font.Font:
    return font(run.face, size, run.script, run.rtl)
