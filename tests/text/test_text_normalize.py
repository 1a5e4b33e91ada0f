"""fold() and tidy(): the one comparison form, and the display form."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.text.normalize import fold, tidy


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Marrón", "marron"),
        ("MARRON", "marron"),
        ("AMARELO", "amarelo"),
        ("Żółty", "zolty"),
        ("ŁÓDŹ", "lodz"),  # ł has no decomposition: mapped by hand
        ("straße", "strasse"),  # casefold, not lower
        ("ｒｅｄ", "red"),  # full-width letters (NFKC)
        ("e\u0301", "e"),  # an accent typed as a combining mark
        ("ﬁre", "fire"),  # ligature (NFKC)
        ("sea\u2011blue", "sea-blue"),  # non-breaking hyphen compares as "-"
        ("Ñandú", "nandu"),
        ("cœur", "coeur"),
    ],
)
def test_fold_ignores_case_accents_and_width(text: str, expected: str) -> None:
    assert fold(text) == expected


def test_tidy_trims_and_keeps_single_spaces() -> None:
    assert tidy("  sea \t  blue\n") == "sea blue"


def test_tidy_composes_accents_for_display() -> None:
    assert tidy("cafe\u0301") == "café"


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.text(alphabet=st.characters(categories=["Lu", "Ll"])))
def test_fold_makes_case_irrelevant(text: str) -> None:
    assert fold(text.upper()) == fold(text.lower()) or fold(text.upper()) == fold(text)
