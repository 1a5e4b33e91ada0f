"""How people name colours, from the xkcd colour survey (Randall Munroe, 2010: about 222,500
people named colours shown to them; CC0 1.0), for the Pitacor bots.

``data/survey_names.tsv`` holds only the survey's names that no frozen test case could be
looked up by (``benchmarks/pitacor_survey_names.py`` says the rule and writes the file; a
test checks it): the frozen Pitacor cases take their colours from this same survey, so the
bots learn from its *other* names how people use colour words — mostly basic colour words
with modifiers ("dark pink", "pale green", "greenish blue"), a few things ("swamp",
"parchment", "shamrock").
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from tertulia.text.normalize import fold

from .colours import Lab, to_lab


@cache
def table() -> dict[str, Lab]:
    """Folded survey name → the colour people meant by it, in OKLab."""
    text = (files(__package__) / "data" / "survey_names.tsv").read_text("utf-8")
    found: dict[str, Lab] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, hex_colour = line.split("\t")
            found[fold(name)] = to_lab(hex_colour)
    return found


# A tint pictured by people. Our lexicon's and color-name-list's colours are a careful
# person's picture of a thing; the survey's are what people meant by a name, and for pale and
# muted tints (beige, light blue, pig pink, stormy blue, mulberry) they are more vivid. Fitted
# on the survey's kept names that another source also colours — 53 CSS colour names and 21
# survey names holding a lexicon word ("banana yellow", "army green"; benchmarks/README.md,
# "Bots on the frozen sets"): a colour of chroma between GREY_BELOW and TINT_FLOOR (OKLab) is
# read at TINT_FLOOR, the same hue and lightness: 1.19 → 1.28 points on those 74 pairs (both
# halves agree on 0.08–0.10). Greys and near-greys (stone, pewter, slate) keep their chroma:
# the survey's greys are as grey as ours.
GREY_BELOW = 0.03
TINT_FLOOR = 0.10
# "-ish" and "-y" forms of a colour's name ("tealish", "rusty"): the survey's greenish,
# reddish, pinkish, yellowish, orangish, pinky and orangey have 0.6–0.88 of the chroma of
# green, red… (median 0.8) at about the same lightness.
ISH_CHROMA = 0.8


def as_people_name(lab: Lab) -> Lab:
    """``lab``, a source's colour for a thing, as people in the survey picture its name."""
    lightness, a, b = lab
    chroma = (a * a + b * b) ** 0.5
    if chroma < GREY_BELOW or chroma >= TINT_FLOOR:
        return lab
    return lightness, a * TINT_FLOOR / chroma, b * TINT_FLOOR / chroma


def ish(lab: Lab) -> Lab:
    """The colour of "-ish"/"-y" form of a name whose colour is ``lab``: less vivid."""
    lightness, a, b = lab
    return lightness, a * ISH_CHROMA, b * ISH_CHROMA
