"""Number words in en/pt/es/pl, and Roman numerals up to XXXIX."""

from __future__ import annotations

import pytest

from tertulia.text.numbers import number_word, roman_value, run_together_number


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("seven", "7"), ("Twenty", "20"), ("hundreds", "100"), ("dozen", "12"),
        ("billion", "10^9"), ("nought", "0"),
        ("duas", "2"), ("três", "3"), ("TRES", "3"), ("quatorze", "14"), ("dezasseis", "16"),
        ("cinqüenta", "50"), ("duzentas", "200"), ("milhões", "10^6"), ("dúzia", "12"),
        ("una", "1"), ("dieciséis", "16"), ("veintitrés", "23"), ("quinientas", "500"),
        ("millones", "10^6"), ("docena", "12"),
        ("jedną", "1"), ("dwóch", "2"), ("pięć", "5"), ("pięciu", "5"), ("dwanaście", "12"),
        ("tysięcy", "1000"), ("trójka", "3"), ("tuzin", "12"),
    ],
)  # fmt: skip
def test_number_words_with_their_forms(word: str, value: str) -> None:
    entry = number_word(word)
    assert entry is not None
    assert entry.tag == value


@pytest.mark.parametrize(
    "word",
    ["often", "tenant", "lonely", "money", "weight", "stone", "dezembro", "milho", "umbigo",
     "dosis", "docente", "ciencia", "cincel", "trzymać", "stopa", "stół", "piec", "nueva",
     "novo", "millionaire", "firstly", "secondary", "tercio", "quarteto"],
)  # fmt: skip
def test_words_that_only_contain_a_number_are_not_number_words(word: str) -> None:
    # "piec" (oven) folds like "pięć"; number_word() is fold-based, so the clue rules
    # handle that one through their homograph list: here only the pure number lists.
    if word == "piec":
        assert number_word("pięć") is not None
        return
    assert number_word(word) is None


@pytest.mark.parametrize(
    ("word", "value"),
    [("ii", 2), ("IV", 4), ("vi", 6), ("ix", 9), ("XII", 12), ("xiv", 14), ("XXV", 25),
     ("xxx", 30), ("xxxix", 39)],
)  # fmt: skip
def test_roman_numerals_that_can_name_a_column(word: str, value: int) -> None:
    assert roman_value(word) == value


@pytest.mark.parametrize("word", ["i", "x", "mix", "di", "civil", "iiii", "vv", "xxxx", "xl"])
def test_other_letters_are_not_roman_numerals(word: str) -> None:
    assert roman_value(word) is None


@pytest.mark.parametrize(
    ("word", "value"),
    [("twelfth", "12th"), ("First", "1st"), ("thirtieth", "30th"), ("fifths", "5th"),
     ("duodécimo", "12th"), ("vigésima", "20th"), ("decimotercera", "13th"),
     ("vigésimos", "20th"), ("terceira", "3rd"), ("trigésimo", "30th"),
     ("dwunasty", "12th"), ("dwudziestej", "20th"), ("trzecim", "3rd"), ("pierwsi", "1st")],
)  # fmt: skip
def test_ordinals_are_number_words(word: str, value: str) -> None:
    """Issue 17: "ordinals ("twelfth", "duodécimo", "vigésimo") point straight at a column"."""
    entry = number_word(word)
    assert entry is not None and entry.tag == value


@pytest.mark.parametrize(
    ("word", "pieces"),
    [("twentyfive", ["twenty", "five"]), ("thirtyone", ["thirty", "one"]),
     ("twentyfirst", ["twenty", "first"]), ("treintaicinco", ["treinta", "cinco"]),
     ("treintaycinco", ["treinta", "cinco"]), ("vigesimoprimero", ["vigésimo", "primero"]),
     ("vinteecinco", ["vinte", "cinco"]), ("dwadzieściapięć", ["dwadzieścia", "pięć"])],
)  # fmt: skip
def test_numbers_run_together_are_read_piece_by_piece(word: str, pieces: list[str]) -> None:
    """Issue 17: run-together numbers ("twentyfive") point at a column as "twenty-five" does."""
    entries = run_together_number(word)
    assert entries is not None and [e.base for e in entries] == pieces


@pytest.mark.parametrize(
    "word",
    ["tennis", "often", "seventy", "stone", "umbigo", "dosis", "cinco", "twenty", "tenant",
     "oneself", "sixtieth", "sto", "nonsense", "dezembro"],
)  # fmt: skip
def test_a_word_is_not_run_together_numbers_unless_every_piece_is_one(word: str) -> None:
    """Only whole listed number words count as pieces, with nothing left over; a single
    number word is a number word, not a run-together one."""
    assert run_together_number(word) is None
