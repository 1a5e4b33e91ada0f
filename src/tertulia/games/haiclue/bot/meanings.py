"""How the Haiclue bot reads a row of tiles against the four target words.

The naive reading — the whole clue as one sentence against each target word, highest cosine
in the sentence encoder (``text/meaning.py``) — loses clues a person reads at once. Three
changes, each measured on the tuning cases (``tests/bots/data/haiclue_cases.tsv``; the
figures are in docs/games/bots.md):

- **Glosses.** The encoder knows English words far better than single Polish, Spanish or
  Portuguese ones, so clue and targets are read twice: as written, and through the deck's
  English glosses (``data/glosses.<lang>.tsv``); the two readings are mixed, the glossed one
  weighing ``GLOSS_WEIGHT``.
- **Words and sentence.** A clue's vector is the sentence's plus ``TILE_WEIGHT`` times the
  mean of its tiles' own vectors: a row of properties ("hump sand thirst") is read as those
  properties, not only as an odd sentence.
- **Hubs.** A target word near every word of the deck ("moon", "star") would win clues that
  point at nothing in particular; its mean similarity to its ``HUB_NEIGHBOURS`` nearest deck
  words, times ``HUBNESS``, is taken off (CSLS).

Scores are (targets,) arrays for a clue, or (rows, targets) for many at once (the giver).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from tertulia.games.haiclue import decks
from tertulia.text import meaning

GLOSS_WEIGHT = 0.7
TILE_WEIGHT = 0.5
HUBNESS = 0.3
HUB_NEIGHBOURS = 10


@cache
def glosses(language: str) -> dict[str, str]:
    """Deck word → its English gloss; {} for English (its words are their own gloss)."""
    if language == "en":
        return {}
    text = (files(__package__) / "data" / f"glosses.{language}.tsv").read_text("utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {word: gloss for word, gloss in rows}


def deck_language(words: list[str], fallback: str) -> str:
    """The deck every one of ``words`` is from (the view says its words, not their deck)."""
    for language in (fallback, *decks.LANGUAGES):
        if language in decks.LANGUAGES and set(words) <= _deck_words(language):
            return language
    return fallback


@cache
def _deck_words(language: str) -> frozenset[str]:
    return frozenset(w for tile in decks.load(language) for w in (tile.white, tile.black))


def readings(language: str) -> list[tuple[float, dict[str, str] | None]]:
    """The readings mixed for ``language``: (weight, gloss table or None for as written)."""
    if language == "en" or language not in decks.LANGUAGES:
        return [(1.0, None)]
    return [(1.0 - GLOSS_WEIGHT, None), (GLOSS_WEIGHT, glosses(language))]


def clue_scores(
    encoder: meaning.Encoder, language: str, targets: list[str], tiles: list[str]
) -> Any:
    """How strongly the clue ``tiles`` (in order) points at each target: (targets,)."""
    return rows_scores(encoder, language, targets, [tiles], exact=True)[0]


def rows_scores(
    encoder: meaning.Encoder,
    language: str,
    targets: list[str],
    rows: list[list[str]],
    *,
    exact: bool,
) -> Any:
    """``clue_scores`` of many rows at once, (rows, targets). ``exact``: each row's sentence
    is encoded as written; otherwise it is taken as the sum of its tiles' vectors (hundreds
    of rows in one product, to choose which few to encode)."""
    np = encoder._np
    total = np.zeros((len(rows), len(targets)), dtype=np.float32)
    for weight, table in readings(language):

        def say(word: str, table: dict[str, str] | None = table) -> str:
            return word if table is None else table.get(word, word)

        target_vectors = encoder.encode([say(t) for t in targets])
        words = sorted({w for row in rows for w in row})
        place = {w: i for i, w in enumerate(words)}
        tile_vectors = encoder.encode([say(w) for w in words])
        means = np.stack([tile_vectors[[place[w] for w in row]].mean(axis=0) for row in rows])
        if exact:
            sentences = encoder.encode([" ".join(say(w) for w in row) for row in rows])
        else:
            sentences = means.copy()
        vectors = sentences + TILE_WEIGHT * means
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        hub = _hubness(encoder, language, tuple(say(t) for t in targets), table is not None)
        total += weight * (vectors @ target_vectors.T - HUBNESS * hub[None, :])
    return total


def _hubness(
    encoder: meaning.Encoder, language: str, targets: tuple[str, ...], glossed: bool
) -> Any:
    """Each target's mean similarity to its nearest words of the deck (as read)."""
    np = encoder._np
    deck = _deck_vectors(encoder, language, glossed)
    similarity = encoder.encode(list(targets)) @ deck.T
    # The word itself is in the deck: its own similarity (1) is left out.
    nearest = np.sort(similarity, axis=1)[:, -HUB_NEIGHBOURS - 1 : -1]
    return nearest.mean(axis=1)


@cache
def _deck_vectors(encoder: meaning.Encoder, language: str, glossed: bool) -> Any:
    words = sorted(_deck_words(language))
    if glossed:
        words = sorted({glosses(language).get(w, w) for w in words})
    return encoder.encode(words)
