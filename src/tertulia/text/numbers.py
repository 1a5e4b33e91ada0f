"""Recognise numbers written as words: number words in our four languages, Roman numerals.

Games that forbid numbers in player text (Pitacor clues point at a column 1–30) use this.
Digits are easy to spot with ``str.isdigit``; words are not, so the word lists live in
``data/numbers.<lang>.txt`` and are turned into one set at import.
"""

from __future__ import annotations

import re
from importlib.resources import files

from tertulia.text.normalize import fold
from tertulia.text.wordlist import Entry, load

LANGUAGES = ("en", "pt", "es", "pl")

NUMBER_WORDS: dict[str, Entry] = load(files("tertulia.text") / "data", "numbers", LANGUAGES)

# Only numerals written with I, V and X (1–39): those are the ones that can name a board
# column, and a wider pattern would catch ordinary words ("mix" is a valid 1009, "di" 501).
_ROMAN = re.compile(r"x{0,3}(ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10}


def number_word(word: str) -> Entry | None:
    """Return the entry if ``word`` (any case or accents) is a number word, else None."""
    return NUMBER_WORDS.get(fold(word))


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
