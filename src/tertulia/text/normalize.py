"""Fold text to the one form we compare words in: case-, accent- and width-insensitive.

``fold("Marrón")`` and ``fold("MARRON")`` are both ``"marron"``. Display text is never
folded; folding is only for lookups and equality checks.
"""

from __future__ import annotations

import unicodedata

# Letters that carry their "accent" in the base letter itself, so NFD cannot split it off.
# Mapped to what a speaker typing on a plain keyboard writes instead (Polish "łódź" → "lodz").
_BASE_LETTERS = str.maketrans(
    {
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ħ": "h",
        "ı": "i",  # Turkish dotless i: casefold keeps it, a plain keyboard types "i"
        "œ": "oe",
        "æ": "ae",
    }
)

# Hyphen look-alikes that a phone keyboard or NFKC may produce; all compare as "-".
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})


def fold(text: str) -> str:
    """Return ``text`` in comparison form: NFKC, casefolded, combining accents removed.

    NFKC first so full-width and compatibility forms (``ｒｅｄ``, ``ﬁ``) become plain letters;
    casefold rather than lower so ``ß`` matches ``ss``; then NFD to split accents off their
    letters and drop the combining marks.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.translate(_BASE_LETTERS).translate(_HYPHENS)


def tidy(text: str) -> str:
    """Return ``text`` for display: NFC, trimmed, every run of whitespace one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())
