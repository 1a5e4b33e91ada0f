"""The real Haiclue decks: "at least 216 double-sided tiles (432 words)" per language, every
word a single word, no duplicates, nothing offensive."""

from __future__ import annotations

import re

import pytest

from tertulia.games.haiclue import decks
from tertulia.text.profanity import is_profane

_WORD = re.compile(r"^[^\W\d_]+$")  # letters only, any alphabet


@pytest.mark.parametrize("language", decks.LANGUAGES)
def test_each_deck_has_at_least_216_tiles_of_single_distinct_words(language):
    tiles = decks.load(language)
    assert len(tiles) >= 216
    words = [w for t in tiles for w in (t.white, t.black)]
    assert all(_WORD.match(w) for w in words), [w for w in words if not _WORD.match(w)]
    assert len({w.casefold() for w in words}) == len(words)
    assert not [w for w in words if is_profane(w)]


def test_enough_tiles_for_twelve_players():
    """4 stacks of 1 and 12 racks of 15: 184 tiles at the most."""
    assert min(len(decks.load(lang)) for lang in decks.LANGUAGES) >= 4 * 1 + 12 * 15
