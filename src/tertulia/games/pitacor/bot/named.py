"""Colour names from an openly licensed colour-naming data set, for words our lexicon lacks.

``data/colour_names.tsv`` is the npm package ``color-name-list`` (14.51.0, MIT licence,
David Aerne and contributors: names gathered from many lists and thousands of people's
contributions), cut to the names a giver may write — one or two words of letters that the
clue checker accepts with every ban on — and **without the 479 entries that copy the xkcd
colour survey's values**, because the frozen test cases take their colours from that survey
(tests/bots/data/frozen/README.md): a frozen case must be read, not looked up. What is
left are other people's colours for those names and thousands of others ("burnt copper",
"gunmetal", "wisteria"), in English.

A clue word the lexicon (``colours.lookup``) does not know is looked up here as written, then
as an English form of a listed name ("tealish" ← "teal", "rusty" ← "rust", "golden" ←
"gold"; an "-ish"/"-y" form less vivid, as the survey's "greenish" is beside "green"); a
two-word clue is looked up whole first ("burnt sienna"). The xkcd survey's own names
(``survey``, CC0; none a frozen case could be looked up by) come before this data set's.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from tertulia.text.normalize import fold

from . import survey
from .colours import Lab, to_lab

# English forms made from a name, tried in this order: "-ish" and "-y" blends (True: less
# vivid than the name, ``survey.ish``), "-en" materials, plurals.
_FORMS = (
    ("ish", "", True), ("ish", "e", True), ("y", "", True), ("y", "e", True), ("ey", "", True),
    ("en", "", False), ("s", "", False),
)  # fmt: skip


@cache
def table() -> dict[str, Lab]:
    """Folded name → its colour in OKLab."""
    text = (files(__package__) / "data" / "colour_names.tsv").read_text("utf-8")
    found: dict[str, Lab] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, hex_colour = line.split("\t")
            found.setdefault(fold(name), to_lab(hex_colour))
    return found


def named(text: str) -> Lab | None:
    """The colour people give ``text`` (a word or a two-word clue), or None: the survey's
    own name first (``survey``: how people name colours), then the data set's, pictured as
    people picture a name (``survey.as_people_name``)."""
    folded = " ".join(fold(text).split())
    found = _named(folded)
    if found is not None or " " in folded:
        return found
    for suffix, replacement, blend in _FORMS:
        if folded.endswith(suffix) and len(folded) > len(suffix) + 2:
            found = _named(folded[: -len(suffix)] + replacement)
            if found is not None:
                return survey.ish(found) if blend else found
    return None


def _named(folded: str) -> Lab | None:
    """A name's colour: the survey's, else color-name-list's as people picture a name."""
    if folded in survey.table():
        return survey.table()[folded]
    found = table().get(folded)
    return None if found is None else survey.as_people_name(found)
