"""How a Pitacor bot reads a clue: words → the colour it pictures (OKLab).

Lexicon words are read from the lexicon (``colours.lookup``: "banana" is banana yellow); a
two-word clue blends its words. A clue the lexicon does not know ("grapefruit", "tangerina
madura") goes to the sentence encoder, which finds the lexicon names nearest in meaning, in
any of the four languages, and blends their colours, nearest first. Without the encoder, a
clue with no known word has no colour (the bot then guesses the middle of the board).

Giver and guessers read clues the same way, so a giver bot can predict where guesser bots
will put their markers — as a person gives clues thinking of how friends will read them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import colours, meaning
from .colours import Lab

NEIGHBOURS = 1  # lexicon names blended for a clue the lexicon does not know
# Blend weights fall off fast with similarity: the nearest name dominates unless others are
# nearly as near (cosine differences of 0.05 are already meaningful for this model).
_SHARPNESS = 30.0


def clue_colour(clue: str) -> Lab | None:
    """The colour ``clue`` pictures, or None if nothing in it can be read."""
    words = clue.split()
    known = [colours.lookup(w) for w in words]
    labs = [colours.mean_lab([t.lab for t in found]) for found in known if found]
    if labs and len(labs) == len(words):
        return colours.mean_lab(labs)
    guessed = _model_colour(clue)
    if guessed is not None and labs:
        # A known word counts double against the model's guess for the rest of the clue.
        return colours.mean_lab([*labs, guessed], [2.0] * len(labs) + [1.0])
    return guessed if guessed is not None else (colours.mean_lab(labs) if labs else None)


def _model_colour(clue: str) -> Lab | None:
    encoder = meaning.encoder()
    if encoder is None:
        return None
    _, labs, vectors = _name_vectors(encoder)
    import numpy as np

    similarity = vectors @ encoder.encode([clue])[0]
    best = np.argsort(-similarity)[:NEIGHBOURS]
    top = float(similarity[best[0]])
    weights = [float(np.exp(_SHARPNESS * (similarity[i] - top))) for i in best]
    return colours.mean_lab([labs[i] for i in best], weights)


@cache
def _name_vectors(encoder: meaning.Encoder) -> tuple[list[str], list[Lab], Any]:
    """Every name of every lexicon thing with its colour and vector (computed once)."""
    names: list[str] = []
    labs: list[Lab] = []
    for thing in colours.things():
        for per_language in thing.names.values():
            for name in per_language:
                names.append(name)
                labs.append(thing.lab)
    return names, labs, encoder.encode(names)
