"""is_profane(): glin-profanity's lists, whole words only, minus our allow-list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.text.profanity import LANGUAGES, banned, is_profane


@pytest.mark.parametrize(
    "text",
    ["fuck", "FUCK", "shit", "bitches", "caralho", "Merda", "putas", "mierda", "gilipollas",
     "Coño", "cono", "kurwa", "chuj", "gówno", "gowno", "foda-se", "vai tomar no cu"],
)  # fmt: skip
def test_listed_words_are_profane_in_any_case_or_accent(text: str) -> None:
    assert is_profane(text)


@pytest.mark.parametrize(
    "word",
    # substrings of listed words must not count
    ["class", "grass", "assistant", "pass", "document", "scunthorpe", "analysis", "cocktail",
     "shitake", "computer", "cucumber", "title", "sussex"],
)  # fmt: skip
def test_whole_words_only(word: str) -> None:
    assert not is_profane(word)


@pytest.mark.parametrize(
    "word",
    # ordinary words the raw lists ban; our allow-list puts them back
    ["aranha", "burro", "cerveja", "torneira", "comer", "saco", "pinto", "veado", "amador",
     "inferno", "martillo", "concha", "asno", "infierno", "maldito", "jajko", "jajo",
     "dmuchać", "hoe", "tit", "snatch", "aranhas", "burros", "martillos", "frango assado"],
)  # fmt: skip
def test_allow_list_keeps_ordinary_words(word: str) -> None:
    assert not is_profane(word)


def test_languages_can_be_narrowed() -> None:
    assert is_profane("kurwa")
    assert not is_profane("kurwa", languages=("en",))


def test_every_language_loads() -> None:
    for lang in LANGUAGES:
        assert banned(lang)


def test_unknown_language_is_an_error() -> None:
    with pytest.raises(ValueError):
        banned("xx")


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.text(max_size=40))
def test_never_raises(text: str) -> None:
    assert is_profane(text) in (True, False)


@pytest.mark.parametrize("text", ["Fuck!", "(fuck)", "shit.", "well...shit", "_shit_"])
def test_punctuation_around_a_word_hides_nothing(text: str) -> None:
    assert is_profane(text)


@pytest.mark.parametrize("text", ["what a piece of shit", "WHITE POWER!"])
def test_listed_phrases_are_found_inside_a_longer_line(text: str) -> None:
    assert is_profane(text)
