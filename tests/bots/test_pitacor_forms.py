"""Issue 32: Polish, Portuguese and Spanish forms of a lexicon word read as the word — the
clue checker accepts them ("A word has letters only (accents are fine)"), so people write
them: adjectives made from a noun."""

from __future__ import annotations

import pytest

from tertulia.games.pitacor import clues
from tertulia.games.pitacor.bot import colours


def _english(word: str) -> set[str]:
    return {name for thing in colours.lookup(word) for name in thing.names["en"]}


@pytest.mark.parametrize(
    ("word", "thing"),
    [
        ("ceglasty", "brick"),  # pl -asty ← cegła
        ("ceglaste", "brick"),
        ("arcilloso", "clay"),  # es -oso ← arcilla
        ("barrento", "mud"),  # pt -ento ← barro
        ("ferrugento", "rust"),  # pt -ento ← ferrugem
        ("oxidado", "rust"),  # es -ado ← óxido
    ],
)
def test_a_form_of_a_lexicon_word_reads_as_the_word(word: str, thing: str) -> None:
    assert not clues.clue_problems(word, 1, clues.ClueRules())
    assert thing in _english(word)


@pytest.mark.parametrize("word", ["for", "fuera", "kwiaty", "ostry", "salsa", "ciasto"])
def test_words_that_merely_end_like_a_form_read_as_nothing_else(word: str) -> None:
    """Deck words that end like an adjective of a listed noun are not read as one."""
    assert not colours.lookup(word)
