"""Text that fits its box: the font size and line breaks chosen before anything draws.

Latin, Greek and Cyrillic are written in pygame's default font (shipped with pygame-ce), so
a view renders to the same pixels on every machine; Arabic, Persian and Telugu, and
letters the default font lacks, in the fonts shipped in `display/fonts`
(`display/shaping.py` cuts each line into runs and picks their fonts). A text is laid out
for its reader's language: right-to-left languages put lines in right-to-left order and
align them to the right. Layouts call `fit` to turn a sentence and a box into a `Text`;
renderers only draw what was decided here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

import pygame

from display import shaping
from display.shaping import unshown as unshown  # the screens' fonts lack these letters
from roundhouse.render import FSI, PDI, clean, digits, direction

Rect = tuple[int, int, int, int]
Colour = tuple[int, int, int]


def reads_rtl(lang: str | None) -> bool:
    """Whether a reader of `lang` reads right to left, as its catalogue says (None: no
    language, left to right)."""
    return lang is not None and direction(lang) == "rtl"


def isolated(item: str, lang: str | None = None) -> str:
    """A name or a path to set into a sentence: between bidi isolates (U+2068, U+2069,
    drawn as nothing), without any bidi control of its own. Inside, it keeps its own
    direction ("/run/x.sock" in a Persian sentence keeps its leading slash); outside, it
    is one neutral letter, so a number after it stays with the sentence ("فرشته 4" in an
    English line would otherwise read "4 فرشته": rule W2 of the Bidirectional Algorithm).
    `lang` is the sentence's language; isolates need no knowledge of it."""
    del lang
    return f"{FSI}{clean(item)}{PDI}"


def numerals(value: object, lang: str | None) -> str:
    """`value` written with the digits `lang`'s catalogue gives (Persian ۰-۹, Arabic ٠-٩);
    the points on a tile are not text and never pass through here."""
    return digits(str(value), lang) if lang else str(value)


@dataclass(frozen=True)
class Text:
    """Lines of text placed in `box` (screen pixels), turned by `angle` degrees
    counter-clockwise (0, 90, 180 or 270) so they face whoever sits on that side."""

    lines: tuple[str, ...]  # each in logical order, as written
    size: int
    box: Rect
    angle: int
    colour: Colour
    align: str = "center"  # "left", "center" or "right" along the reading direction
    rtl: bool = False  # its reader reads right to left (lines ordered and aligned so)

    def reading_box(self) -> tuple[int, int]:
        """The box's width and height as the reader sees them."""
        _, _, w, h = self.box
        return (h, w) if self.angle in (90, 270) else (w, h)


def font(size: int) -> pygame.font.Font:
    """pygame's default font at `size`: Latin text, and the numbers on tiles."""
    return shaping.font(shaping.DEFAULT, size)


# Asked of every line placed and every size tried: without opening or setting up a font.
@lru_cache(maxsize=512)
def line_height(size: int) -> int:
    return font(size).get_linesize()


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, rtl: bool = False) -> int:
    return sum(shaping.run_font(run, size).size(run.text)[0]
               for run in shaping.runs(text, rtl))


def block_size(lines: tuple[str, ...], size: int, rtl: bool = False) -> tuple[int, int]:
    """The width and height the lines take when drawn (what must fit the box)."""
    width = max((text_width(line, size, rtl) for line in lines), default=0)
    return width, line_height(size) * len(lines)


# A tile as a sentence names it ("12-12", "5-5,"): its pips in any script's digits.
_TILE = re.compile(r"\d+-\d+")


def phrases(text: str) -> list[str]:
    """The pieces a line may break between: words, except that a tile is held together
    with the word before and after it, so "satisfy the 12-12 on Bo's train" never puts
    "the" and "12-12" on different lines (a tile alone at a line's end or start reads as
    a score)."""
    pieces: list[str] = []
    glue = False
    for word in text.split():
        tile = bool(_TILE.search(word))
        if pieces and (glue or tile):
            pieces[-1] = f"{pieces[-1]} {word}"
        else:
            pieces.append(word)
        glue = tile
    return pieces


# Marks that end a clause: a line that must break breaks after one where it can.
_CLAUSE_ENDS = (":", ";", "؛", ".", "!", "?", "؟")


def _greedy(words: list[str], size: int, width: int, rtl: bool) -> list[str] | None:
    """Each line as many of the words as fit; None where a word alone is too wide.

    Most texts fit on one line, measured once. Where they do not, where a line ends is
    guessed from its words' own widths, which recur from view to view ("Ana 2/4," in a
    reveal's prompt), and then checked by measuring the line: it fits, and with one word
    more it does not. A line grows wider with every word, so that check finds the same
    lines as measuring every longer start of the words would. The guess is mostly right,
    so a line costs two measures of itself, where halving the words measured half of
    everything left several times over."""
    whole = " ".join(words)
    if not words or text_width(whole, size, rtl) <= width:
        return [whole]
    lines: list[str] = []
    start, count = 0, len(words)
    space = text_width(" ", size, rtl)

    def line_to(end: int) -> tuple[str, ...] | None:
        line = " ".join(words[start:end])
        return (line,) if text_width(line, size, rtl) <= width else None

    while start < count:
        guess, used = start, -space
        while guess < count:
            used += space + text_width(words[guess], size, rtl)
            if used > width:
                break
            guess += 1
        found = _largest(line_to, start + 1, count, guess)
        if found is None:
            return None
        start, (line,) = found
        lines.append(line)
    return lines


def _wrap(
    text: str, size: int, width: int, max_lines: int, rtl: bool, keep: bool = True
) -> tuple[str, ...] | None:
    """Greedy wrap between phrases (between words where `keep` is off); None when they
    do not fit in `max_lines` lines. A break after a clause ("…is offline: / no answer
    from…") is taken over a greedy one ("…offline: no / answer…") when it needs no more
    lines."""
    words = phrases(text) if keep else text.split()
    lines = _greedy(words, size, width, rtl)
    if lines is None or len(lines) > max_lines:
        return None
    if len(lines) == 1:
        return tuple(lines)  # one line: no break to move
    for k in range(len(words) - 2, -1, -1):
        if not words[k].endswith(_CLAUSE_ENDS):
            continue
        head = _greedy(words[: k + 1], size, width, rtl)
        tail = _greedy(words[k + 1:], size, width, rtl)
        if head is not None and tail is not None and len(head) + len(tail) <= len(lines):
            return (*head, *tail)
    return tuple(lines)


def cluster_ends(text: str) -> list[int]:
    """The places `text` may be cut without splitting a letter as its reader sees it (an
    extended grapheme cluster, close to Unicode's rules): never before a combining mark or
    a joiner, nor between a virama and the consonant it joins (a Telugu "…తర్" left a stray
    virama), nor inside a pair of surrogates or a CR LF."""
    ends = []
    for at in range(1, len(text) + 1):
        if at < len(text):
            char, before = text[at], text[at - 1]
            if unicodedata.category(char) in ("Mn", "Mc", "Me") or char in "\u200c\u200d":
                continue
            if before == "\u200d" or (unicodedata.combining(before) == 9
                                       and unicodedata.category(char) == "Lo"):
                continue
        ends.append(at)
    return ends


def _shorten(text: str, size: int, width: int, rtl: bool) -> str:
    """The longest start of `text` that fits `width` with an ellipsis, cut between
    letters as they are seen (grapheme clusters), never inside one."""
    if text_width(text, size, rtl) <= width:
        return text
    ends = cluster_ends(text)
    low, high = 0, len(ends)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:ends[mid - 1]].rstrip() + "…", size, rtl) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:ends[low - 1]].rstrip() + "…" if low else ""


def _lines_at(
    text: str, size: int, width: int, height: int, max_lines: int, rtl: bool, keep: bool
) -> tuple[str, ...] | None:
    rows = min(max_lines, height // line_height(size))
    return _wrap(text, size, width, rows, rtl, keep) if rows >= 1 else None


def _cut(text: str, size: int, width: int, rows: int, rtl: bool) -> tuple[str, ...]:
    """Fill `rows` lines greedily and end the last one with "…" where words remain."""
    words = text.split()
    lines: list[str] = []
    while words and len(lines) < rows - 1:
        line = ""
        while words and text_width(f"{line} {words[0]}".strip(), size, rtl) <= width:
            line = f"{line} {words.pop(0)}".strip()
        if not line:
            break
        lines.append(line)
    lines.append(_shorten(" ".join(words), size, width, rtl))
    return tuple(lines)


@lru_cache(maxsize=1024)
def fit(
    text: str,
    box: Rect,
    *,
    max_size: int,
    min_size: int,
    angle: int = 0,
    colour: Colour = (255, 255, 255),
    max_lines: int = 1,
    align: str = "center",
    lang: str | None = None,
) -> Text:
    """The largest font size in [min_size, max_size] at which `text` fits `box`
    (wrapped to at most `max_lines`); at `min_size` the last line is cut with "…".

    `lang` is the reader's language: for a right-to-left one the lines read right to
    left and "left" and "right" alignment swap, so text starts at the reader's right."""
    rtl = reads_rtl(lang)
    if rtl:
        align = {"left": "right", "right": "left"}.get(align, align)
    width, height = Text((), 0, box, angle, colour).reading_box()
    top = max(min_size, max_size)
    likely = _likely_size(text, min_size, top, width, height, max_lines, rtl)
    shape = (width, height, max_lines, rtl, min_size, top)
    guess = round(likely * _MISSED_BY.get(shape, 1.0))  # `_largest` keeps it in range
    # A tile kept with its words where that fits at some size, else broken anywhere.
    for keep in (True, False):
        found = _largest(partial(_lines_at, text, width=width, height=height,
                                 max_lines=max_lines, rtl=rtl, keep=keep),
                         min_size, top, guess)
        if found is not None:
            _missed(shape, found[0] / max(1, likely))
            return Text(found[1], found[0], box, angle, colour, align, rtl)
    rows = max(1, min(max_lines, height // line_height(min_size)))
    return Text(_cut(text, min_size, width, rows, rtl), min_size, box, angle, colour, align,
                rtl)


# How far from its likely size the last text fitted in a box of each shape came out: a
# prompt that changes with every tap (a reveal's, "Ana 2/4, Bo 0/3, ...") comes out where
# the last one did, which the estimate alone misses by a few sizes, each one tried.
_MISSED_BY: dict[tuple[int, int, int, bool, int, int], float] = {}
MISSED_KEPT = 256  # box shapes: a screen's layout has a few dozen


def _missed(shape: tuple[int, int, int, bool, int, int], by: float) -> None:
    if shape not in _MISSED_BY and len(_MISSED_BY) >= MISSED_KEPT:
        del _MISSED_BY[next(iter(_MISSED_BY))]  # the shape kept longest
    _MISSED_BY[shape] = by


def _likely_size(
    text: str, low: int, high: int, width: int, height: int, max_lines: int, rtl: bool
) -> int:
    """Where the largest size that fits is likely to be, from the text measured once at
    the smallest size (widths and line heights grow about in step with the size)."""
    wide = text_width(text, low, rtl)
    tall = line_height(low)
    best = low
    for rows in range(1, max_lines + 1):
        # A wrapped line is rarely filled to its end: allow for a little room lost.
        by_width = low * width * rows * (1.0 if rows == 1 else 0.9) / max(1, wide)
        by_height = low * height / max(1, tall * rows)
        best = max(best, int(min(by_width, by_height)))
    return min(high, best)


def _largest(
    lines_at: Callable[[int], tuple[str, ...] | None], low: int, high: int, guess: int
) -> tuple[int, tuple[str, ...]] | None:
    """The largest size in [low, high] at which `lines_at` finds lines, and those lines
    (`_greedy` asks the same of a line's count of words).
    Each size tried opens a font at that size, and a font's first measure loads its
    letters (about a millisecond), so the search starts at the likely size and steps
    away from it, one size, then two, four and so on, until the largest size that fits
    is bracketed; only that bracket is halved. The answer is mostly within a few sizes
    of the guess, where this tries fewer sizes than halving the whole range, and stays
    among sizes near each other (fonts the screen has open)."""
    best: tuple[int, tuple[str, ...]] | None = None
    probe, step = min(max(guess, low), high), 1
    upward: bool | None = None  # where the answer lies from the guess, once it is tried
    bracketed = False
    while low <= high:
        lines = lines_at(probe)
        if lines is not None:
            best, low = (probe, lines), probe + 1
        else:
            high = probe - 1
        if upward is None:
            upward = lines is not None
        # Once a size answers otherwise than the guess did, the answer lies between the two.
        bracketed = bracketed or upward != (lines is not None)
        if bracketed:
            probe = (low + high) // 2
        else:
            probe = min(high, probe + step) if upward else max(low, probe - step)
            step *= 2
    return best


def fit_column(
    entries: list[tuple[str, Rect]], *, max_size: int, min_size: int, colours: list[Colour],
    align: str = "center", lang: str | None = None,
) -> list[Text]:
    """Fit several texts at one common size (a column of a table reads evenly)."""
    sizes = [fit(t, box, max_size=max_size, min_size=min_size, lang=lang).size
             for t, box in entries]
    common = min(sizes, default=max_size)
    return [fit(t, box, max_size=common, min_size=min_size, colour=colour, align=align,
                lang=lang)
            for (t, box), colour in zip(entries, colours, strict=True)]


def fits(item: Text) -> bool:
    """Whether the drawn lines stay inside the box (what the geometry tests check)."""
    width, height = item.reading_box()
    w, h = block_size(item.lines, item.size, item.rtl)
    return w <= width and h <= height


def to_screen(box: Rect, angle: int, local: Rect) -> Rect:
    """Map `local` (x, y, w, h in the frame of a reader facing `box` at `angle` degrees
    counter-clockwise) to screen pixels."""
    x, y, w, h = box
    lx, ly, lw, lh = local
    if angle == 0:
        return (x + lx, y + ly, lw, lh)
    if angle == 180:
        return (x + w - lx - lw, y + h - ly - lh, lw, lh)
    if angle == 270:
        return (x + w - ly - lh, y + lx, lh, lw)
    return (x + ly, y + h - lx - lw, lh, lw)


def line_image(line: str, size: int, colour: Colour, rtl: bool = False) -> pygame.Surface:
    """One line (logical order) drawn upright: its runs side by side in display order,
    on one baseline, one line height tall (or as tall as its marks need)."""
    return _line(line, size, colour, rtl)[0]


# Drawn lines are kept for the next frame (most of a view's words are the last one's);
# a line is up to a few hundred KiB, so the screens keep a frame's worth, not more.
LINE_CACHE = 128


@lru_cache(maxsize=LINE_CACHE)
def _line(line: str, size: int, colour: Colour, rtl: bool) -> tuple[pygame.Surface, int]:
    """The line's image and how far it reaches above its line's box."""
    # A run of only format characters (a direction mark) takes no room and is not drawn.
    runs = [r for r in shaping.runs(line, rtl) if shaping.run_font(r, size).size(r.text)[0]]
    if not runs or (len(runs) == 1 and runs[0].face is shaping.DEFAULT):
        return font(size).render("".join(r.text for r in runs), True, colour), 0
    # A run's font is set up for its script when asked for: each is used before the next.
    fonts: list[pygame.font.Font] = []
    pieces: list[pygame.Surface] = []
    tops: list[int] = []
    for run in runs:
        fonts.append(f := shaping.run_font(run, size))
        pieces.append(piece := f.render(run.text, True, colour))
        tops.append(_baseline(run.text, f, run.rtl, piece))
    # The baseline where the fonts' ascents and descents fit the line, centred (or in
    # their proportion, where together they exceed it). Marks reaching beyond that (a
    # shadda over a kasra, Telugu's stacked consonants) make the image taller instead of
    # being clipped, and it is drawn reaching above and below its line's box.
    height = line_height(size)
    ascent = max(f.get_ascent() for f in fonts)
    descent = max(-f.get_descent() for f in fonts)
    if ascent + descent <= height:
        baseline = (height - ascent - descent) // 2 + ascent
    else:
        baseline = round(height * ascent / (ascent + descent))
    above = max(0, max(tops) - baseline)
    below = max(0, max(p.get_height() - top for p, top in zip(pieces, tops, strict=True))
                - (height - baseline))
    img = pygame.Surface((sum(p.get_width() for p in pieces), above + height + below),
                         pygame.SRCALPHA)
    x = 0
    for piece, top in zip(pieces, tops, strict=True):
        img.blit(piece, (x, above + baseline - top))
        x += piece.get_width()
    return img, above


def _baseline(written: str, face: pygame.font.Font, rtl: bool, piece: pygame.Surface) -> int:
    """How far below the top of `piece` (`written` drawn in `face`) its baseline lies.

    SDL_ttf makes the image taller than the font's line where marks reach beyond it
    (Arabic shadda over kasra, Telugu's stacked consonants), above or below, and does not
    say which. Drawing the run again with a zero after it, which stands on the baseline
    and reaches no further than the font's line, shows where the baseline is."""
    extra = piece.get_height() - face.get_height()
    if extra <= 0:
        return int(face.get_ascent())
    probe = face.render(written + " 0", True, (255, 255, 255))
    zero_w = face.size("0")[0]
    zero = (0 if rtl else probe.get_width() - zero_w, 0, zero_w, probe.get_height())
    ink = probe.subsurface(zero).get_bounding_rect(min_alpha=128)
    metrics = face.metrics("0")[0]
    if probe.get_height() != piece.get_height() or not ink.height or metrics is None:
        return int(face.get_ascent()) + extra  # no way to tell: the marks are above
    return int(ink.bottom + metrics[2])


@lru_cache(maxsize=LINE_CACHE)
def _turned_line(
    line: str, size: int, colour: Colour, angle: int, rtl: bool
) -> tuple[pygame.Surface, int]:
    img, above = _line(line, size, colour, rtl)
    return (pygame.transform.rotate(img, angle) if angle else img), above


def draw(surface: pygame.Surface, item: Text) -> None:
    """Draw `item` centred in its box, turned to face its reader."""
    for img, at in placed_lines(item):
        surface.blit(img, at)


def placed_lines(item: Text) -> list[tuple[pygame.Surface, tuple[int, int]]]:
    """Each drawn line of `item` and where its top left corner goes on the screen (what
    `draw` blits; the table screen also reads from it which pixels a text covers)."""
    width, height = item.reading_box()
    lh = line_height(item.size)
    top = (height - lh * len(item.lines)) // 2
    placed = []
    for i, line in enumerate(item.lines):
        img, above = _turned_line(line, item.size, item.colour, item.angle, item.rtl)
        line_w, img_h = img.get_size()
        if item.angle in (90, 270):
            line_w, img_h = img_h, line_w
        if item.align == "left":
            x = 0
        elif item.align == "right":
            x = width - line_w
        else:
            x = (width - line_w) // 2
        y = top + i * lh - above
        sx, sy, _, _ = to_screen(item.box, item.angle, (x, y, line_w, img_h))
        placed.append((img, (sx, sy)))
    return placed
