"""The Haiclue bot: builds a clue from its own tiles that points at its card's word, and
guesses which target word each other clue points at.

Both halves read a row of tiles against the four target words the same way
(``meanings.py``): with the sentence encoder, as written and through the deck's English
glosses, the row read as a sentence and as its words, less each target's pull on every word
("hubs"). Building: every row of two or three tiles of the rack ("A clue must contain at
least two word tiles") is scored by how clearly it picks the card's word over the other
three — its score for that word minus the best of the others, plus its score itself — first
quickly (each row as the sum of its tiles' vectors: the rack's 15 words are encoded once and
the 560 rows scored at once), then the best few as written, in the order a person lays them;
the best of those is the clue. Guessing: the target the clue's row scores highest.

Levels: "good" plays its best; "beginner" sometimes builds a weaker clue (one of its top
five, a tile that does not quite fit) and guesses like someone torn between two words (it
picks at random, weighted towards the best-scored words).

Without the encoder the bot still plays by the rules — a clue of its first tiles, a guess at
random — so a room never waits on it; the measurements in docs/games/bots.md are with it.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from tertulia.games.base import Level
from tertulia.text import meaning

from . import meanings

MAX_TILES = 3  # longer rows blur: each extra tile pulls the clue towards its own meaning
# Rows encoded as written after the quick score (8 → 16: a row clear to the plain reader too
# is found more often).
RERANK = 16
ABSOLUTE = 0.5  # weight of a row's own similarity to the word, against its margin
_BEGINNER_WEAKER = 0.5  # how often a beginner settles for a weaker clue
_BEGINNER_TEMPERATURE = 0.05  # score units: a beginner hesitates between close words


def decide(
    view: dict[str, Any], *, language: str, level: Level, rng: random.Random
) -> dict[str, Any] | None:
    """The action this seat's player would send now, or None."""
    to_do = view["you"].get("to_do")
    if to_do == "build_clue":
        return {"type": "submit_clue", "words": build_clue(view, level, rng, language)}
    if to_do == "guess":
        return {"type": "guess", "colour": guess(view, level, rng, language)}
    if to_do == "ready":
        return {"type": "ready"}
    return None


def _targets(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(colour, word) of each target stack that still has a word."""
    return [(t["colour"], t["word"]) for t in view["targets"] if t["word"]]


def build_clue(
    view: dict[str, Any], level: Level, rng: random.Random, language: str = "en"
) -> list[str]:
    """An ordered row of the rack's words pointing at the card's target word."""
    rack: list[str] = view["rack"]
    least = max(2, view.get("min_clue_tiles", 2))
    encoder = meaning.encoder()
    targets = _targets(view)
    mine = [i for i, (colour, _) in enumerate(targets) if colour == view["card"]]
    if encoder is None or not mine or len(rack) < least:
        return rack[:least]
    np = encoder._np
    card = mine[0]
    words = [word for _, word in targets]
    language = meanings.deck_language([*words, *rack], language)
    rows: list[tuple[int, ...]] = []
    for size in range(least, max(least, MAX_TILES) + 1):
        rows.extend(itertools.combinations(range(len(rack)), size))
    # Quick score: each row as the sum of its tiles' vectors (560 rows in one product), to
    # choose the few worth encoding as written.
    as_words = [[rack[t] for t in row] for row in rows]
    quick = _margins(meanings.rows_scores(encoder, language, words, as_words, exact=False), card)
    best = np.argsort(-quick)[:RERANK]
    # Each row in the order a person would lay it: the tile nearest the word first.
    tile_scores = meanings.rows_scores(encoder, language, words, [[w] for w in rack], exact=False)
    written = [sorted(rows[i], key=lambda tile: -float(tile_scores[tile, card])) for i in best]
    texts = [[rack[t] for t in row] for row in written]
    exact = _margins(meanings.rows_scores(encoder, language, words, texts, exact=True), card)
    # A clue is for other people, who read it their own way: the row must also be clear read
    # plainly (the whole row against each word, as written), so a giver cannot win by
    # speaking only to its own reading.
    plain = encoder.encode([" ".join(row) for row in texts]) @ encoder.encode(words).T
    exact = np.minimum(exact, _margins(plain, card))
    order = list(np.argsort(-exact))
    pick = order[0]
    if level is Level.BEGINNER and rng.random() < _BEGINNER_WEAKER:
        pick = order[rng.randrange(1, min(5, len(order)))]
    return texts[pick]


def _margins(similarity: Any, card: int) -> Any:
    """How clearly each row points at ``card``: its score minus the best other's, plus its
    score itself — a row that is merely unlike the other three words ("not and") points at
    nothing a person would see."""
    others = similarity.copy()
    others[:, card] = -2.0
    return similarity[:, card] * (1.0 + ABSOLUTE) - others.max(axis=1)


def guess(view: dict[str, Any], level: Level, rng: random.Random, language: str = "en") -> str:
    """The colour of the target word the clue being read points at."""
    targets = _targets(view)
    encoder = meaning.encoder()
    if encoder is None:
        return rng.choice(targets)[0]
    words = [word for _, word in targets]
    tiles = list(view["reading"]["words"])
    language = meanings.deck_language([*words, *tiles], language)
    scores = [float(s) for s in meanings.clue_scores(encoder, language, words, tiles)]
    if level is Level.BEGINNER:
        top = max(scores)
        weights = [math.exp((s - top) / _BEGINNER_TEMPERATURE) for s in scores]
        return rng.choices(targets, weights=weights)[0][0]
    return targets[max(range(len(targets)), key=lambda i: scores[i])][0]
