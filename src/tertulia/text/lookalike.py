"""Names that look alike, and the invisible characters player text may not hide behind.

Nicknames are compared the way Unicode's security report says (UTS #39, "Confusable
Detection"): two names look alike when their *skeletons* are equal. ``skeleton`` puts a
string in NFD, drops the default-ignorable code points (zero-width spaces, joiners,
variation selectors, Hangul fillers), maps every character to its prototype from
``confusables.txt`` (Cyrillic "о" and fullwidth "ｏ" become "o", "0" becomes "O", "rn" stands
for "m") and puts the result in NFD again. A skeleton is only a comparison key: it is never
shown. ``mixed_scripts`` is UTS #39's "highly restrictive" level, word by word: one word may
not mix Latin with Cyrillic or Greek (or any two scripts, except the ones Chinese, Japanese
and Korean writing combine).

Why Unicode's data and not a library: of the Python packages for this, confusable-homoglyphs
(3.3.1, 2024) only asks whether single characters have a look-alike in another script, and
has no skeleton; confusables (1.2.0, 2021) is unmaintained, on Unicode 13, and matches with
generated regular expressions; disarm (0.17, 2026) is a 4.6 MB compiled beta whose API
changes every few weeks and which deliberately leaves out parts of the UTS #39 mapping
("m" → "rn", digits); unicode-confusables is not on PyPI. ICU's spoof checker is the
reference implementation, but Python reaches it only through PyICU, which needs a C++ build
against ICU (or an 18 MB unofficial wheel). So we ship Unicode's own tables, compacted
(``data/unicode-*.txt``, see ``data/README.md``), and implement the four steps of the
skeleton here.

The bidirectional controls (``BIDI_CONTROLS``) are another matter: they reorder how the text
around them is displayed, so a nickname or a clue could show something other than what it
holds. ``protocol.decode`` removes them from every string a client sends.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from importlib.resources import files

# Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), and the three marks
# (LRM, RLM, the Arabic letter mark).
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_WITHOUT_BIDI = dict.fromkeys(map(ord, BIDI_CONTROLS))

# UTS #39's "highly restrictive" level: one script, or one of these combinations.
_SCRIPTS_THAT_MIX = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)

# Where an emoji needs an invisible character: a zero-width joiner (or non-joiner) between
# two pictographs (👩‍💻, 🏳️‍🌈), a variation selector after a symbol (❤️, 1️⃣), the tag characters
# of a subdivision flag (🏴 then tags, e.g. Scotland's).
_JOINERS = frozenset("\u200c\u200d")
_PRESENTATION = frozenset("\ufe0e\ufe0f")
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE0080)


def strip_bidi_controls(text: str) -> str:
    """``text`` without bidirectional controls; anything else is left as it is."""
    return text.translate(_WITHOUT_BIDI)


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (case-sensitive, as the report defines it)."""
    decomposed = unicodedata.normalize("NFD", text)
    visible = "".join(ch for ch in decomposed if not _is_default_ignorable(ch))
    return unicodedata.normalize("NFD", visible.translate(_prototypes()))


@functools.lru_cache(maxsize=1024)
def lookalike_keys(text: str) -> tuple[str, str, str]:
    """The skeletons ``text`` is compared by: as written, in lower case, in upper case.

    Case counts as in ``nickname.taken`` (where "bob" is "Bob"): a name that looks like
    "BOB" ("ВОВ" in Cyrillic capitals) looks like "Bob" too. Each case is compared with the
    same case only, so "Ian" and "Lan" stay apart although "I" looks like "l". Runs of
    spaces count as one, as in a nickname."""
    written, lower, upper = (
        " ".join(skeleton(form).split()) for form in (text, text.lower(), text.upper())
    )
    return written, lower, upper


def looks_alike(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` could be taken for each other on screen."""
    return any(x == y for x, y in zip(lookalike_keys(a), lookalike_keys(b), strict=True))


def shows_nothing(text: str) -> bool:
    """Whether ``text`` would look blank: nothing but invisible characters and spaces
    (a Hangul filler, a blank Braille pattern)."""
    return not lookalike_keys(text)[0]


def mixed_scripts(text: str) -> bool:
    """Whether a word of ``text`` mixes scripts ("Bоb" with a Cyrillic "о"), beyond what
    UTS #39's highly restrictive level allows. Words are separated by spaces; characters of
    every script (digits, punctuation, emoji, accents) mix with anything."""
    for word in text.split():
        scripts = {script for ch in word if (script := _script(ch)) is not None}
        if len(scripts) > 1 and not any(scripts <= allowed for allowed in _SCRIPTS_THAT_MIX):
            return True
    return False


def unshowable(text: str) -> bool:
    """Whether ``text`` has a character that is not printable (a control, a format
    character, a line break), other than the invisible ones an emoji needs."""
    glue = _emoji_glue(text)
    return any(not ch.isprintable() and i not in glue for i, ch in enumerate(text))


def hides_characters(text: str) -> bool:
    """Whether ``text`` holds a default-ignorable code point (shown as nothing at all) other
    than the ones an emoji needs: a Hangul filler, a variation selector after a letter."""
    glue = _emoji_glue(text)
    return any(_is_default_ignorable(ch) and i not in glue for i, ch in enumerate(text))


def _emoji_glue(text: str) -> set[int]:
    """The positions of the invisible characters that hold emoji together."""
    glue: set[int] = set()
    for i, ch in enumerate(text):
        if ch in _JOINERS:
            before = _emoji_base_before(text, i)
            after = text[i + 1] if i + 1 < len(text) else ""
            if before and after and _is_pictograph(before) and _is_pictograph(after):
                glue.add(i)
        elif ch in _PRESENTATION:
            if i > 0 and unicodedata.category(text[i - 1])[0] not in "LMZC":
                glue.add(i)
        elif ord(ch) in _TAGS:
            j = i
            while j > 0 and ord(text[j - 1]) in _TAGS:
                j -= 1
            if j > 0 and text[j - 1] == _BLACK_FLAG:
                glue.add(i)
    return glue


def _emoji_base_before(text: str, i: int) -> str:
    """The character a joiner at ``i`` attaches to, past presentation selectors and skin
    tones ("🧑🏽‍🦰": the person, not the tone)."""
    j = i - 1
    while j >= 0 and (text[j] in _PRESENTATION or ord(text[j]) in _SKIN_TONES):
        j -= 1
    return text[j] if j >= 0 else ""


def _is_pictograph(ch: str) -> bool:
    return unicodedata.category(ch) == "So"


def _is_default_ignorable(ch: str) -> bool:
    starts, ends = _ignorable_ranges()
    at = bisect.bisect_right(starts, ord(ch)) - 1
    return at >= 0 and ord(ch) <= ends[at]


def _script(ch: str) -> str | None:
    """The script of ``ch``; None for Common and Inherited (and unassigned) characters."""
    starts, ends, names = _script_ranges()
    at = bisect.bisect_right(starts, ord(ch)) - 1
    return names[at] if at >= 0 and ord(ch) <= ends[at] else None


def _data_lines(name: str) -> list[list[str]]:
    text = (files("tertulia.text") / "data" / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def _range(field: str) -> tuple[int, int]:
    first, _, last = field.partition("..")
    return int(first, 16), int(last or first, 16)


@functools.cache
def _prototypes() -> dict[int, str]:
    return {
        int(source, 16): "".join(chr(int(cp, 16)) for cp in target.split())
        for source, target in _data_lines("unicode-confusables.txt")
    }


@functools.cache
def _ignorable_ranges() -> tuple[list[int], list[int]]:
    ranges = [_range(fields[0]) for fields in _data_lines("unicode-ignorable.txt")]
    return [a for a, _ in ranges], [b for _, b in ranges]


@functools.cache
def _script_ranges() -> tuple[list[int], list[int], list[str]]:
    rows = [(*_range(first_last), name) for first_last, name in _data_lines("unicode-scripts.txt")]
    return [a for a, _, _ in rows], [b for _, b, _ in rows], [n for _, _, n in rows]
