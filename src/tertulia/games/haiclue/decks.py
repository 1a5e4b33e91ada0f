"""Haiclue's word tiles: one deck per language, each tile a white word and a black word.

Decks are data files written for this project (``decks/<lang>.txt``, see its README): one tile
per line, ``white<TAB>black``, and ``<TAB>connector`` for a tile of small connecting words
(and, with, too), which are good in a clue but no target to point at. A tile's id is its
position in the file, so a match stores ids and the words come from the deck; changing a
deck's order changes running matches' words.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import msgspec

LANGUAGES = ("en", "pt-BR", "es", "pl")
CONNECTOR = "connector"  # the third field of a tile of small connecting words


class Tile(msgspec.Struct, frozen=True):
    id: int
    white: str
    black: str
    connector: bool = False  # small connecting words: never drawn as a target

    def word(self, side: str) -> str:
        return self.white if side == "white" else self.black


@cache
def load(language: str) -> tuple[Tile, ...]:
    """Every tile of the deck in ``language`` (one of ``LANGUAGES``), in file order."""
    if language not in LANGUAGES:
        raise ValueError(f"expected one of {LANGUAGES}, got {language!r}")
    text = (resources.files(__package__) / "decks" / f"{language}.txt").read_text("utf-8")
    tiles: list[Tile] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split("\t")]
        if len(parts) not in (2, 3) or not all(parts) or parts[2:] not in ([], [CONNECTOR]):
            raise ValueError(
                f"{language}.txt line {number}: expected 'white<TAB>black[<TAB>{CONNECTOR}]'"
            )
        tiles.append(Tile(len(tiles), parts[0], parts[1], connector=len(parts) == 3))
    return tuple(tiles)
