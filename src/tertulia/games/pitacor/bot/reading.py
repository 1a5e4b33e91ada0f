"""How a Pitacor bot reads a clue: words → the colours it pictures (OKLab).

Lexicon words are read from the lexicon (``colours.lookup``: "banana" is banana yellow); a
two-word clue blends its words; a word the lexicon lacks is looked up in the colour-naming
data (``named``: the xkcd survey's names, then color-name-list's); a modifier ("dark",
"pálido", "jasna") shifts the colour of the rest ("dark cherry" is cherry, darker). Colours
are pictured as people in the survey name them (``survey.as_people_name``: pale tints more
vivid). A clue none of these knows ("tangerina madura") goes to the sentence encoder, which
finds the lexicon names (any of the four languages) and the survey's English colour names
nearest in meaning: the reading is then several colours, each weighted by how near its name
is, and the guesser puts its marker where the expected points are highest
(``aiming``). Without the encoder, a clue with no known word has no colour (the bot then
guesses the middle of the board).

Giver and guessers read clues the same way, so a giver bot can predict where guesser bots
will put their markers — as a person gives clues thinking of how friends will read them.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any, NamedTuple

from tertulia.text import meaning

from . import colours, named, survey
from .colours import Lab

# A clue the lexicon does not know: the encoder's NEIGHBOURS nearest lexicon names, each
# weighted by exp(SHARPNESS × (similarity − best similarity)), with CSLS's correction for
# "hubs" (names near everything: HUBNESS × their mean similarity to their 10 nearest names).
# Tuned by reading every lexicon name as if its thing were not listed (benchmarks/bots.py,
# "lexicon names read as unknown words"), not on the people's cases: one neighbour 0.26
# points, sixteen aimed at by expected points 0.35, with the hub correction 0.41.
NEIGHBOURS = 16
SHARPNESS = 10.0
HUBNESS = 1.0
# A known word counts this much against the encoder's reading of the rest of the clue.
_KNOWN_WEIGHT = 2.0


class Reading(NamedTuple):
    """The colours a clue makes a guesser picture, with their weights. One colour when the
    lexicon knows every word; several when the encoder reads the clue (``known`` False)."""

    labs: tuple[Lab, ...]
    weights: tuple[float, ...]
    known: bool

    def best(self) -> Lab:
        """The colour pictured most: the whole reading when it is one colour."""
        return self.labs[max(range(len(self.labs)), key=self.weights.__getitem__)]


def clue_colour(clue: str) -> Lab | None:
    """The colour ``clue`` pictures most, or None if nothing in it can be read."""
    reading = read(clue)
    return None if reading is None else reading.best()


def read(clue: str) -> Reading | None:
    """What ``clue`` pictures, or None if nothing in it can be read."""
    words = clue.split()
    whole = named.named(clue) if len(words) > 1 else None
    if whole is not None:  # a colour's own two-word name ("burnt sienna")
        return Reading((whole,), (1.0,), True)
    shifts = [colours.modifier(w) for w in words] if len(words) > 1 else [None]
    things = [w for w, shift in zip(words, shifts, strict=True) if shift is None]
    if not things:  # only modifiers ("dark pale"): nothing to shift
        return None
    labs = [lab for lab in map(_word_colour, things) if lab is not None]
    reading: Reading | None = None
    if len(labs) < len(things):
        reading = _model_reading(" ".join(things))
    if reading is None:
        if not labs:
            return None
        reading = Reading((colours.mean_lab(labs),), (1.0,), len(labs) == len(things))
    elif labs:
        # A known word counts double against each colour the encoder read in the rest.
        weights = [_KNOWN_WEIGHT] * len(labs) + [1.0]
        mixed = tuple(colours.mean_lab([*labs, lab], weights) for lab in reading.labs)
        reading = reading._replace(labs=mixed)
    for shift in shifts:
        if shift is not None:
            reading = reading._replace(labs=tuple(shift.apply(lab) for lab in reading.labs))
    return reading


def _word_colour(word: str) -> Lab | None:
    """One word's colour: the lexicon's thing, else the survey's or the colour-naming data
    set's name; as people in the survey picture a name (``survey.as_people_name``)."""
    found = colours.lookup(word)
    if found:
        return survey.as_people_name(colours.mean_lab([t.lab for t in found]))
    return named.named(word)


def _model_reading(text: str) -> Reading | None:
    encoder = meaning.encoder()
    return None if encoder is None else _encoded_reading(encoder, text)


@lru_cache(maxsize=4096)  # the same clue is read by every guesser and by its giver
def _encoded_reading(encoder: meaning.Encoder, text: str) -> Reading:
    return vector_reading(encoder, encoder.encode([text])[0])


def vector_reading(encoder: meaning.Encoder, vector: Any, leave_out: int | None = None) -> Reading:
    """The reading of a clue from its vector: the nearest lexicon things' colours.
    ``leave_out``: a thing (its index in ``colours.things()``) to read as if the lexicon did
    not list it — how ``benchmarks/bots.py`` measures reading unknown words on the lexicon."""
    import numpy as np

    _, labs, vectors = _name_vectors(encoder)
    similarity = vectors @ vector
    if HUBNESS:  # CSLS: a name near everything ("hub") counts less near this clue too
        similarity = similarity - HUBNESS * _hubness(encoder)
    if leave_out is not None:
        similarity = np.where(_name_owners(encoder) == leave_out, -9.0, similarity)
    best = np.argsort(-similarity)[:NEIGHBOURS]
    top = float(similarity[best[0]])
    found = [labs[i] for i in best]
    weights = [float(np.exp(SHARPNESS * (similarity[i] - top))) for i in best]
    return Reading(tuple(found), tuple(weights), False)


_HUB_NEIGHBOURS = 10


@cache
def _hubness(encoder: meaning.Encoder) -> Any:
    """How near each lexicon name is to names in general: the mean similarity of its
    ``_HUB_NEIGHBOURS`` nearest other names (CSLS's r term)."""
    import numpy as np

    _, _, vectors = _name_vectors(encoder)
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -1.0)
    nearest = np.sort(similarity, axis=1)[:, -_HUB_NEIGHBOURS:]
    return nearest.mean(axis=1)


@cache
def _name_owners(encoder: meaning.Encoder) -> Any:
    """For each name of ``_name_vectors``, the index of its thing in ``colours.things()``
    (-1 for a survey name)."""
    import numpy as np

    owners = [
        i
        for i, thing in enumerate(colours.things())
        for names in thing.names.values()
        for _ in names
    ]
    return np.array(owners + [-1] * len(_anchors()))


@cache
def _name_vectors(encoder: meaning.Encoder) -> tuple[list[str], list[Lab], Any]:
    """Every name of every lexicon thing with its colour (as people picture it), then the
    survey's names (``_anchors``), with their vectors (computed once)."""
    names: list[str] = []
    labs: list[Lab] = []
    for thing in colours.things():
        for per_language in thing.names.values():
            for name in per_language:
                names.append(name)
                labs.append(survey.as_people_name(thing.lab))
    for name, lab in _anchors():
        names.append(name)
        labs.append(lab)
    return names, labs, encoder.encode(names)


# The survey's names (``survey``, "dark pink", "swamp", "greenish blue") are read beside the
# lexicon's, with the colours people meant: an English word the lexicon lacks finds the
# colour words people use near it. On the tuning cases the lexicon does not know, 0.44 → 0.59
# points; on the 97 tuning cases that are not themselves survey names, 1.76 → 1.77 (a few
# tenths of a second of CPU once per worker to encode the 474 names). False: the lexicon
# alone (to compare).
SURVEY_ANCHORS = True


@cache
def _anchors() -> tuple[tuple[str, Lab], ...]:
    """The survey's names and colours read beside the lexicon's (``SURVEY_ANCHORS``)."""
    return tuple(survey.table().items()) if SURVEY_ANCHORS else ()
