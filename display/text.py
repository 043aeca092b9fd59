"""Text that fits its box: the font size and line breaks chosen before anything draws.

Both screens use pygame's default font (shipped with pygame-ce), so a view renders to
the same pixels on every machine. It has no Arabic letters, so runs of Arabic script (a
player's name in Persian or Arabic) are written with DejaVu Sans, shipped in
`display/fonts`, shaped right to left; the line itself reads left to right. Layouts
call `fit` to turn a sentence and a box into a `Text`; renderers only draw what was
decided here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pygame
import pygame.freetype

Rect = tuple[int, int, int, int]
Colour = tuple[int, int, int]

ARABIC_FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold.ttf"
# Arabic letters, their presentation forms, and the spaces between words of one run.
_ARABIC_RUN = re.compile(r"[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]+"
                         r"(?:\s+[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]+)*")
# DejaVu Sans at this share of a default-font size keeps Arabic lines, with their
# marks above and below, within the default font's line height.
ARABIC_SCALE = 0.62


@dataclass(frozen=True)
class Text:
    """Lines of text placed in `box` (screen pixels), turned by `angle` degrees
    counter-clockwise (0, 90, 180 or 270) so they face whoever sits on that side."""

    lines: tuple[str, ...]
    size: int
    box: Rect
    angle: int
    colour: Colour
    align: str = "center"  # "left", "center" or "right" along the reading direction

    def reading_box(self) -> tuple[int, int]:
        """The box's width and height as the reader sees them."""
        _, _, w, h = self.box
        return (h, w) if self.angle in (90, 270) else (w, h)


@lru_cache(maxsize=128)
def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


@lru_cache(maxsize=64)
def arabic_font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    face = pygame.font.Font(ARABIC_FONT, max(1, round(size * ARABIC_SCALE)))
    face.set_script("Arab")
    face.set_direction(pygame.DIRECTION_RTL)
    return face


@lru_cache(maxsize=2)
def _glyphs(rtl: bool) -> pygame.freetype.Font:
    """The font of a run, opened to ask which letters it has (pygame.font cannot tell)."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    path = ARABIC_FONT if rtl else Path(pygame.__file__).parent / pygame.font.get_default_font()
    return pygame.freetype.Font(str(path), 12)


def unshown(text: str) -> str:
    """The letters of `text` that the font of their run lacks, once each in order: the
    screens would draw them as boxes (a name in a script neither font covers)."""
    missing: dict[str, None] = {}
    for piece, rtl in runs(text):
        for letter, metrics in zip(piece, _glyphs(rtl).get_metrics(piece), strict=True):
            if metrics is None and not letter.isspace():
                missing[letter] = None
    return "".join(missing)


def runs(line: str) -> list[tuple[str, bool]]:
    """`line` cut into pieces of Arabic script (True) and everything else (False)."""
    out: list[tuple[str, bool]] = []
    at = 0
    for match in _ARABIC_RUN.finditer(line):
        if match.start() > at:
            out.append((line[at : match.start()], False))
        out.append((match.group(), True))
        at = match.end()
    if at < len(line):
        out.append((line[at:], False))
    return out


def line_height(size: int) -> int:
    return font(size).get_linesize()


def text_width(text: str, size: int) -> int:
    if not _ARABIC_RUN.search(text):
        return int(font(size).size(text)[0])
    return sum((arabic_font(size) if rtl else font(size)).size(piece)[0]
               for piece, rtl in runs(text))


def block_size(lines: tuple[str, ...], size: int) -> tuple[int, int]:
    """The width and height the lines take when drawn (what must fit the box)."""
    width = max((text_width(line, size) for line in lines), default=0)
    return width, line_height(size) * len(lines)


def _wrap(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...] | None:
    """Greedy word wrap; None when the words do not fit in `max_lines` lines."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if text_width(trial, size) <= width:
            current = trial
            continue
        if not current or text_width(word, size) > width:
            return None
        lines.append(current)
        current = word
    lines.append(current)
    return tuple(lines) if len(lines) <= max_lines else None


def _shorten(text: str, size: int, width: int) -> str:
    """The longest start of `text` that fits `width` with an ellipsis."""
    if text_width(text, size) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…" if low else ""


def _lines_at(
    text: str, size: int, width: int, height: int, max_lines: int
) -> tuple[str, ...] | None:
    rows = min(max_lines, height // line_height(size))
    return _wrap(text, size, width, rows) if rows >= 1 else None


def _cut(text: str, size: int, width: int, rows: int) -> tuple[str, ...]:
    """Fill `rows` lines greedily and end the last one with "…" where words remain."""
    words = text.split()
    lines: list[str] = []
    while words and len(lines) < rows - 1:
        line = ""
        while words and text_width(f"{line} {words[0]}".strip(), size) <= width:
            line = f"{line} {words.pop(0)}".strip()
        if not line:
            break
        lines.append(line)
    lines.append(_shorten(" ".join(words), size, width))
    return tuple(lines)


@lru_cache(maxsize=4096)
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
) -> Text:
    """The largest font size in [min_size, max_size] at which `text` fits `box`
    (wrapped to at most `max_lines`); at `min_size` the last line is cut with "…"."""
    width, height = Text((), 0, box, angle, colour).reading_box()
    best: tuple[str, ...] | None = None
    low, high = min_size, max(min_size, max_size)
    best_size = min_size
    while low <= high:
        mid = (low + high) // 2
        lines = _lines_at(text, mid, width, height, max_lines)
        if lines is None:
            high = mid - 1
        else:
            best, best_size, low = lines, mid, mid + 1
    if best is None:
        rows = max(1, min(max_lines, height // line_height(min_size)))
        best = _cut(text, min_size, width, rows)
    return Text(best, best_size, box, angle, colour, align)


def fit_column(
    entries: list[tuple[str, Rect]], *, max_size: int, min_size: int, colours: list[Colour],
    align: str = "center",
) -> list[Text]:
    """Fit several texts at one common size (a column of a table reads evenly)."""
    sizes = [fit(t, box, max_size=max_size, min_size=min_size).size for t, box in entries]
    common = min(sizes, default=max_size)
    return [fit(t, box, max_size=common, min_size=min_size, colour=colour, align=align)
            for (t, box), colour in zip(entries, colours, strict=True)]


def fits(item: Text) -> bool:
    """Whether the drawn lines stay inside the box (what the geometry tests check)."""
    width, height = item.reading_box()
    w, h = block_size(item.lines, item.size)
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


@lru_cache(maxsize=2048)
def _line_image(line: str, size: int, colour: Colour, angle: int) -> pygame.Surface:
    if _ARABIC_RUN.search(line):
        pieces = [(arabic_font(size) if rtl else font(size)).render(piece, True, colour)
                  for piece, rtl in runs(line)]
        height = line_height(size)
        img = pygame.Surface((sum(p.get_width() for p in pieces), height), pygame.SRCALPHA)
        x = 0
        for piece in pieces:
            img.blit(piece, (x, (height - piece.get_height()) // 2))
            x += piece.get_width()
    else:
        img = font(size).render(line, True, colour)
    return pygame.transform.rotate(img, angle) if angle else img


def draw(surface: pygame.Surface, item: Text) -> None:
    """Draw `item` centred in its box, turned to face its reader."""
    width, height = item.reading_box()
    lh = line_height(item.size)
    top = (height - lh * len(item.lines)) // 2
    for i, line in enumerate(item.lines):
        img = _line_image(line, item.size, item.colour, item.angle)
        line_w = img.get_height() if item.angle in (90, 270) else img.get_width()
        if item.align == "left":
            x = 0
        elif item.align == "right":
            x = width - line_w
        else:
            x = (width - line_w) // 2
        sx, sy, _, _ = to_screen(item.box, item.angle, (x, top + i * lh, line_w, lh))
        surface.blit(img, (sx, sy))
