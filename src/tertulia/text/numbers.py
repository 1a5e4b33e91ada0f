"""Recognise numbers written as words: number words in our four languages, Roman numerals.

Games that forbid numbers in player text (Pitacor clues point at a column 1–30) use this.
Digits are easy to spot with ``str.isdigit``; words are not, so the word lists live in
``data/numbers.<lang>.txt`` (cardinals) and ``data/ordinals.<lang>.txt`` (ordinals) and are
turned into one set at import. A number written run together ("twentyfive", "treintaicinco",
"vigesimoprimero") is read piece by piece (``run_together_number``).
"""

from __future__ import annotations

import re
from importlib.resources import files

from tertulia.text.compounds import Pieces
from tertulia.text.normalize import fold
from tertulia.text.wordlist import Entry, load

LANGUAGES = ("en", "pt", "es", "pl")

_DATA = files("tertulia.text") / "data"
NUMBER_WORDS: dict[str, Entry] = {
    **load(_DATA, "ordinals", LANGUAGES),
    **load(_DATA, "numbers", LANGUAGES),  # a cardinal wins where both spell the same
}

# Only numerals written with I, V and X (1–39): those are the ones that can name a board
# column, and a wider pattern would catch ordinary words ("mix" is a valid 1009, "di" 501).
_ROMAN = re.compile(r"x{0,3}(ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10}

# What joins the parts of a number written as one word: es "treinta y cinco" run together is
# "treintaycinco" (or "treintaicinco", as "veintiuno" spells it), pt "vinte e cinco" is
# "vinteecinco", en "five and twenty" "fiveandtwenty".
_PIECES = Pieces(NUMBER_WORDS, joiners=("y", "i", "e", "and"))


def number_word(word: str) -> Entry | None:
    """Return the entry if ``word`` (any case or accents) is a number word, else None."""
    return NUMBER_WORDS.get(fold(word))


def run_together_number(word: str) -> tuple[Entry, ...] | None:
    """The number words ``word`` is made of, if it is two or more of them written as one
    ("twentyfive" → twenty, five; "dwadzieściapięć" → dwadzieścia, pięć), else None.

    Every piece is a whole listed number word of three letters or more, optionally joined by
    "y", "i", "e" or "and", with nothing left over (``compounds.Pieces``): "tennis" or
    "often" are not numbers. The lists were checked against simplemma's en, pt, es and pl
    dictionaries for real words spelled so; ``tests/text/test_numbers.py`` keeps them."""
    folded = fold(word)
    if folded in NUMBER_WORDS:
        return None
    pieces = _PIECES.split(folded)
    return tuple(NUMBER_WORDS[p] for p in pieces) if pieces else None


def roman_value(word: str) -> int | None:
    """Return the value of ``word`` read as a Roman numeral from II to XXXIX, else None.

    Single letters are left out: "I" and "X" are ordinary one-letter words, and one-letter
    clue words are refused as too short anyway.
    """
    folded = fold(word)
    if len(folded) < 2 or not _ROMAN.fullmatch(folded):
        return None
    values = [_ROMAN_VALUES[ch] for ch in folded]
    total = 0
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else 0
        total += -value if value < following else value
    return total
