"""The real Haiclue decks: "at least 216 double-sided tiles (432 words)" per language, every
word a single word, no duplicates, nothing offensive; and how the target stacks are drawn
from them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.games.base import Player, Rng
from tertulia.games.haiclue import VERSION, decks, rules
from tertulia.games.haiclue.settings import Deck, Settings
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


@pytest.mark.parametrize("language", decks.LANGUAGES)
def test_small_connector_tiles_are_marked_in_every_deck(language):
    """ "a target word like "and", "too", "i", "z"": the small words are marked connector
    (every one- and two-letter word, and the issue's examples), and enough tiles are not."""
    tiles = decks.load(language)
    marked = {w for t in tiles if t.connector for w in (t.white, t.black)}
    short = {w for t in tiles for w in (t.white, t.black) if len(w) <= 2}
    assert short - {"nó"} <= marked  # pt "nó" is a knot, a fine target
    examples = {"en": {"and", "too", "with"}, "pl": {"i", "z"}, "es": {"sin"}, "pt-BR": {"sem"}}
    assert examples[language] <= marked
    assert 8 <= len([t for t in tiles if t.connector]) <= 20
    assert len([t for t in tiles if not t.connector]) >= 4 * 3 + 5 * 15


def _players(count: int) -> list[Player]:
    return [Player(f"p{i}", f"P{i}") for i in range(count)]


@settings(max_examples=60, deadline=None)
@given(
    language=st.sampled_from(decks.LANGUAGES),
    count=st.integers(min_value=2, max_value=12),
    seed=st.integers(0, 2**63 - 1),
)
def test_small_connector_tiles_must_not_be_drawn_as_target_words(language, count, seed):
    """Issue 17 point 15. The racks are dealt as before: 15 tiles each, none shared."""
    state = rules.start(Settings(deck=Deck(language)), _players(count), seed, 0.0)
    deck = decks.load(language)
    targets = [t for stack in state.stacks for t in stack]
    assert not [deck[t].word("white") for t in targets if deck[t].connector]
    racks = [t for rack in state.racks.values() for t in rack]
    assert all(len(rack) == rules.RACK_SIZE for rack in state.racks.values())
    assert len(set(targets + racks)) == len(targets) + len(racks)
    assert state.version == VERSION


def _old_draw(language: str, count: int, seed: int) -> list[list[int]]:
    """How the stacks were drawn before connectors were kept out (the code as it was)."""
    pool = [tile.id for tile in decks.load(language)]
    Rng.from_seed(seed).shuffle(pool)
    per_stack = rules.tiles_per_stack(count)
    return [pool[i * per_stack : (i + 1) * per_stack] for i in range(4)]


def _seed_drawing_a_connector(language: str, count: int) -> int:
    deck = decks.load(language)
    return next(
        seed
        for seed in range(1000)
        if any(deck[t].connector for stack in _old_draw(language, count, seed) for t in stack)
    )


@pytest.mark.parametrize("language", decks.LANGUAGES)
def test_a_match_started_before_versions_draws_as_its_old_seed_did(language):
    """The draw change applies to new matches only: version 0 (a log from before) deals the
    very stacks and racks the old code dealt, connector and all."""
    seed = _seed_drawing_a_connector(language, 4)
    settings = Settings(deck=Deck(language))
    old = rules.start(settings, _players(4), seed, 0.0, version=0)
    assert old.stacks == _old_draw(language, 4, seed)
    assert old.version == 0
    new = rules.start(settings, _players(4), seed, 0.0)
    assert new.stacks != old.stacks
    deck = decks.load(language)
    assert not any(deck[t].connector for stack in new.stacks for t in stack)
    # Everything else the seed decides is the same: one shuffle, so the cards follow alike.
    assert new.cards == old.cards and new.rng == old.rng
