"""How the screens write each language: bidi order, runs by script, fonts with fallback,
each language's digits, right-to-left alignment, and no letter drawn as a box."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sample_views import plain

from display import shaping, text
from display.shaping import DEFAULT, DEJAVU, TELUGU
from roundhouse import catalogues

WHITE = (255, 255, 255)

# Lines in each language beyond the catalogues' (letters with two marks, a Greek ΐ).
SAMPLES = {
    "fa": ["نوبت Ali است", "قطار مکزیکی", "استخوان‌ها: ۱۲ کاشی", "جفت ۶-۶ را بپوشانید",
           "می‌شود (۳۴) امتیاز."],
    "ar": ["دور فريد", "القطار المكسيكي", "المخزن فارغ", "غطِّ الدبل ٦-٦", "٣٤ نقطة"],
    "lt": ["Meksikos traukinys", "Žaidėjo ėjimas", "Uždenkite dvigubą kauliuką",
           "Įdėkite žymeklį", "Šūksnis: ąčęėįšųūž"],
    "el": ["Μεξικάνικο τρένο", "Σειρά του Γιώργου", "Καλύψτε τη διπλή", "Ο σωρός άδειασε",
           "Ϊ ΐ ΰ ϋ"],
    "te": ["మెక్సికన్ రైలు", "రాము వంతు", "డబుల్‌ను కప్పండి", "స్త్రీ క్ష్మ ప్రశ్న",
           "మార్కర్ పెట్టండి"],
    "en": ["Mexican train", "Ali's turn", "Cover the double 6-6", "Boneyard: 12 tiles"],
}


def ink_columns(surface: pygame.Surface) -> tuple[int, int]:
    """The first and last column holding ink."""
    box = surface.get_bounding_rect(min_alpha=64)
    return box.left, box.right


def test_a_latin_name_and_a_score_in_a_persian_line_read_left_to_right():
    # Logical order: "score", then "Ali 34". In a right-to-left line the Persian word is
    # rightmost and "Ali 34" stands to its left, still reading "Ali 34", not "43 ilA".
    line = "امتیاز Ali 34"
    assert shaping.shown(line, rtl=True) == "Ali 34 " + "امتیاز"[::-1]
    runs = shaping.runs(line, rtl=True)
    assert [(r.text, r.rtl) for r in runs] == [("Ali 34", False), ("امتیاز ", True)]
    drawn = text.line_image(line, 60, WHITE, rtl=True)
    alone = shaping.font(DEJAVU, 60, "Latn").render("Ali 34", True, WHITE)
    w = alone.get_width()
    left = ink_columns(drawn.subsurface((0, 0, w, drawn.get_height())))
    assert left == ink_columns(alone), "the line's left end is not 'Ali 34' as written"


def test_persian_and_arabic_numbers_keep_their_digit_order_in_a_right_to_left_line():
    for line, number in (("امتیاز علی ۳۴", "۳۴"), ("نقطة ٣٤", "٣٤"), ("امتیاز 1205", "1205")):
        runs = shaping.runs(line, rtl=True)
        assert runs[0].text == number and not runs[0].rtl, runs


def test_the_persian_zero_width_non_joiner_stays_inside_its_word():
    [run] = shaping.runs("می‌شود", rtl=True)
    assert run.text == "می\u200cشود" and run.rtl
    joined = shaping.run_font(run, 60).size("میشود")[0]
    apart = shaping.run_font(run, 60).size(run.text)[0]
    assert apart != joined  # the letters on either side take their unjoined forms


def test_arabic_runs_are_shaped_right_to_left_with_script_and_direction_set():
    run = shaping.runs("فرید", rtl=False)[0]
    assert (run.face, run.script, run.rtl) == (DEJAVU, "Arab", True)
    shaped = text.line_image("فرید", 60, WHITE)
    # The same letters without the script set come out unjoined (isolated forms).
    loose = pygame.font.Font(DEJAVU.path, DEJAVU.pixels(60)).render("فرید", True, WHITE)
    assert shaped.get_bounding_rect().width != loose.get_bounding_rect().width


def test_a_telugu_name_on_an_english_line_and_a_latin_name_in_a_persian_one_both_render():
    runs = shaping.runs("Turn: రాము", rtl=False)
    assert [(r.text, r.face, r.script) for r in runs] == [
        ("Turn: ", DEFAULT, "Latn"), ("రాము", TELUGU, "Telu")]
    runs = shaping.runs("نوبت Ali است", rtl=True)
    assert [(r.text, r.face, r.rtl) for r in runs] == [
        (" است", DEJAVU, True), ("Ali", DEJAVU, False), ("نوبت ", DEJAVU, True)]


def test_a_word_takes_one_font_that_has_all_its_letters():
    # FreeSans has Greek but no ΐ: the whole word goes to DejaVu Sans, not one letter.
    [run] = shaping.runs("Διΐστασθαι", rtl=False)
    assert run.face is DEJAVU
    assert not shaping.covers(DEFAULT, "ΐ")
    [run] = shaping.runs("Γιώργος", rtl=False)
    assert run.face is DEFAULT


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_no_letter_of_any_language_is_drawn_as_a_box(lang):
    rtl = text.reads_rtl(lang)
    for line in SAMPLES[lang]:
        assert text.unshown(line) == ""
        for run in shaping.runs(line, rtl):
            lacking = [c for c in run.text if not shaping.covers(run.face, c)]
            assert not lacking, f"{lang}: {run.face.name} lacks {lacking} of {line!r}"


CATALOGUES = sorted((Path(catalogues.__file__).parent / "locale").glob("*.po"))
# Names of players in each script, as the sentences take them.
NAMES = ("فرشته", "فريد", "రాము", "Gintarė", "Ελένη", "Ioannis")


def _said(template: str, lang: str) -> str:
    """A catalogue's sentence with its placeholders filled as the screens fill them."""
    return re.sub(r"\{[a-z_]+\}", lambda m: f"{NAMES[len(m.group()) % len(NAMES)]} "
                  f"{text.numerals(1205, lang)} 12-5", template)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_no_letter_of_any_catalogue_sentence_is_drawn_as_a_box(path):
    lang = path.stem
    rtl = text.reads_rtl(lang)
    catalog = catalogues.read(path)
    said = 0
    for entry in catalog:
        if not entry.id:
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for form in forms:
            line = _said(form or "", lang)
            assert text.unshown(line) == "", f"{lang} {entry.context}: {text.unshown(line)}"
            for run in shaping.runs(line, rtl):
                lacking = [c for c in run.text if not shaping.covers(run.face, c)]
                assert not lacking, f"{lang} {entry.context}: {run.face.name} lacks {lacking}"
            said += 1
    assert said > 100  # every message of the table, not a handful


def test_the_box_check_finds_letters_no_font_has():
    assert shaping.unshown("Ana 太郎 राम") == "太郎राम"
    # ... and the run still gets a font (its script's first), so the line is measurable.
    assert text.text_width("太郎", 40) > 0


@pytest.mark.parametrize(("lang", "written"), [
    ("fa", "۱۲۰۵"), ("ar", "١٢٠٥"), ("en", "1205"), ("te", "1205"), ("lt", "1205"),
    ("el", "1205"), (None, "1205"),
])
def test_numbers_are_written_in_each_language_s_digits(lang, written):
    assert text.numerals(1205, lang) == written
    assert text.numerals("-15 / 34", "fa") == "-۱۵ / ۳۴"


@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_text_for_a_right_to_left_reader_is_aligned_right(lang):
    box = (0, 0, 600, 80)
    surface = pygame.Surface((600, 80), pygame.SRCALPHA)
    item = text.fit(SAMPLES[lang][0], box, max_size=40, min_size=10, align="left", lang=lang)
    assert item.rtl and item.align == "right"
    text.draw(surface, item)
    left, right = ink_columns(surface)
    assert right >= 590 and left > 300
    # ... and "right" alignment, for a right-to-left reader, is the start: the left.
    item = text.fit(SAMPLES[lang][0], box, max_size=40, min_size=10, align="right", lang=lang)
    assert item.align == "left"


def test_text_for_a_left_to_right_reader_keeps_its_alignment():
    item = text.fit("Ali's turn", (0, 0, 600, 80), max_size=40, min_size=10, align="left",
                    lang="lt")
    assert not item.rtl and item.align == "left"


def test_a_wrapped_right_to_left_sentence_is_broken_before_it_is_reordered():
    # Line breaking works in logical order: the first line holds the sentence's first words
    # (the rightmost), and each line is reordered on its own.
    sentence = "نوبت Ali است و ۳۴ امتیاز دارد در قطار مکزیکی"
    item = text.fit(sentence, (0, 0, 300, 200), max_size=40, min_size=30, max_lines=4,
                    lang="fa")
    assert len(item.lines) > 1
    assert " ".join(item.lines) == sentence
    assert item.lines[0].startswith("نوبت")
    for line in item.lines:
        assert text.text_width(line, item.size, True) <= 300


def test_marks_above_the_line_leave_the_letters_on_the_baseline():
    # A shadda over a kasra reaches above DejaVu Sans's line: SDL_ttf makes that run's
    # image taller at the top. Its letters must still stand where they stand unmarked.
    plain, plain_above = text._line("Bo غط الدبل", 66, WHITE, False)
    marked, marked_above = text._line("Bo غطِّ الدبل", 66, WHITE, False)
    assert marked_above > plain_above == 0
    latin = shaping.font(DEFAULT, 66).size("Bo ")[0]

    def bottoms(img: pygame.Surface, above: int) -> tuple[int, int]:
        h = img.get_height()
        left = img.subsurface((0, 0, latin, h)).get_bounding_rect(min_alpha=128)
        right = img.subsurface((latin, 0, img.get_width() - latin, h)).get_bounding_rect(
            min_alpha=128)
        return left.bottom - above, right.bottom - above

    assert bottoms(marked, marked_above) == bottoms(plain, plain_above)


def test_a_name_is_set_between_isolates():
    assert text.isolated("Bo") == "\u2068Bo\u2069"
    # A name's own bidi controls and control characters never reach the sentence.
    assert text.isolated("Al\u2069i\u202e\n") == "\u2068Ali\u2069"
    # The isolates keep "4" beside the name it follows, after it in the reading order...
    assert plain(shaping.shown(text.isolated("فرشته") + " 4", False)).endswith(" 4")
    assert shaping.shown("فرشته 4", False).startswith("4 ")
    # ... and a path's slashes with the path, in a Persian sentence.
    path = "/run/roundhouse/view.sock"
    said = f"در حال اتصال به {text.isolated(path)}"
    assert path in plain(shaping.shown(said, True))
    assert path not in shaping.shown(f"در حال اتصال به {path}", True)


def test_the_catalogues_say_which_languages_read_right_to_left():
    assert [lang for lang in ("ar", "el", "en", "fa", "lt", "te") if text.reads_rtl(lang)] == [
        "ar", "fa"]
    assert not text.reads_rtl("xx")  # an unknown code speaks English
    assert not text.reads_rtl(None)


def test_a_direction_mark_changes_nothing_of_how_the_letters_join():
    # "Game over: Bo wins", Bo closed with a right-to-left mark as the screens set names.
    closed = text.line_image("بازی تمام شد: Bo\u200f برنده است", 60, WHITE, True)
    plain = text.line_image("بازی تمام شد: Bo برنده است", 60, WHITE, True)
    assert closed.get_size() == plain.get_size()
    assert pygame.image.tobytes(closed, "RGBA") == pygame.image.tobytes(plain, "RGBA")
    assert all(run.script == "Arab" for run in shaping.runs("\u200f برنده", True) if run.rtl)


def test_a_number_opening_a_line_takes_the_font_of_the_words_after_it():
    [run] = shaping.runs("12 టైల్స్", False)
    assert run.face is TELUGU
    # ... but a score after a Persian name in an English line is the line's own.
    runs = shaping.runs(text.isolated("فرشته", "en") + " 4  రాము", False)
    assert [(r.text, r.face) for r in runs] == [
        ("فرشته", DEJAVU), (" 4  ", DEFAULT), ("రాము", TELUGU)]


# Latin letters, digits, spaces, punctuation, isolates and direction marks; or those
# with letters of every other script the screens write and digits of three kinds.
_LATIN = "aZé 09,.:()/…\u2068\u2069\u200e\u200f"
_LETTERS = st.one_of(st.text(alphabet=_LATIN, max_size=24),
                     st.text(alphabet=_LATIN + "Σωжאבسلا۱۲٣తె\u200c", max_size=24))


@settings(max_examples=400, deadline=None)
@given(line=_LETTERS, opens_line=st.booleans())
def test_a_line_is_cut_by_script_as_letter_by_letter(line, opens_line):
    """A line of Latin letters among digits, spaces and punctuation skips the walk letter
    by letter, and comes out as that walk cuts it."""
    assert shaping._by_script(line, opens_line) == shaping._cut_by_script(line, opens_line)


@settings(max_examples=300, deadline=None)
@given(line=_LETTERS)
def test_what_reads_right_to_left_and_a_number_alone_are_told_letter_by_letter(line):
    assert shaping.has_rtl(line) == any(shaping.is_rtl(c) for c in line)
    assert shaping._number_alone(line) == (
        any(c in shaping._INDIC_DIGITS for c in line)
        and all(c in shaping._INDIC_DIGITS or c in " ,.٫٬" for c in line))
