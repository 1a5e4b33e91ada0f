"""Colours for the Pitacor bots: the lexicon of coloured things, and the board in OKLab.

The lexicon (``data/colour_things.tsv``, see ``data/README.md``) lists things — fruit,
nature, materials, food — with the colour most people picture, named in the four room
languages. Colours are compared in OKLab, the perceptual space the board itself is built in
(``games/pitacor/board.py``), so "nearest colour" means what a person would call nearest.
Modifiers (``data/colour_modifiers.tsv``: "dark", "pálido", "jasna"…) shift a colour's
lightness and chroma.
"""

from __future__ import annotations

from functools import cache, cached_property, lru_cache
from importlib.resources import files
from typing import Any

import msgspec
from coloraide import Color

from tertulia.games.pitacor import static_data
from tertulia.text.normalize import fold

# The lexicon's name columns, in file order: the room's languages.
LANGUAGES = ("en", "pt-BR", "es", "pl")

Lab = tuple[float, float, float]
_NEAREST_CACHE = 50_000  # colours whose nearest cell is remembered, per board


class Thing(msgspec.Struct, frozen=True):
    """One coloured thing: its colour and its names per language (main name first)."""

    kind: str  # fruit, nature, material, food
    hex: str
    lab: Lab
    names: dict[str, tuple[str, ...]]


def to_lab(hex_colour: str) -> Lab:
    lab = Color(hex_colour).convert("oklab")
    return (float(lab["lightness"]), float(lab["a"]), float(lab["b"]))


@cache
def things() -> tuple[Thing, ...]:
    """Every thing of the lexicon, in file order."""
    text = (files(__package__) / "data" / "colour_things.tsv").read_text("utf-8")
    found: list[Thing] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 + len(LANGUAGES):
            raise ValueError(
                f"colour_things.tsv line {number}: expected {2 + len(LANGUAGES)} fields"
            )
        kind, hex_colour, *cells = fields
        names = {
            lang: tuple(n for n in cell.split("|") if n and n != "-")
            for lang, cell in zip(LANGUAGES, cells, strict=True)
        }
        found.append(Thing(kind, hex_colour, to_lab(hex_colour), names))
    return tuple(found)


@cache
def index() -> dict[str, tuple[Thing, ...]]:
    """Folded name → the things it names, in every language (a clue's language is unknown:
    "mango" is the same fruit in four of them, "pera" in two)."""
    table: dict[str, list[Thing]] = {}
    for thing in things():
        for names in thing.names.values():
            for name in names:
                bucket = table.setdefault(fold(name), [])
                if thing not in bucket:
                    bucket.append(thing)
    return {name: tuple(bucket) for name, bucket in table.items()}


@lru_cache(maxsize=8192)  # the same clue words come back at every decision
def lookup(word: str) -> tuple[Thing, ...]:
    """The things a clue word names: exactly, as a plural of a listed name, as the
    Polish adjective made from it ("malinowy", "wiśniowa": raspberry-, cherry-coloured), or
    as an adjective made from it in another way (``_DERIVED``). Not by simplemma's
    dictionary form: its Polish table alone costs 3.8 s of CPU and ~400 MiB in the bots'
    worker, for inflected forms people seldom write as a colour clue."""
    folded = fold(word)
    table = index()
    if folded in table:
        return table[folded]
    for suffix, replacement in _ENDINGS + _DERIVED:
        if folded.endswith(suffix) and len(folded) > len(suffix) + 2:
            stem = folded[: -len(suffix)] + replacement
            if stem in table:
                return table[stem]
    return ()


# Plurals people write ("cherries", "limones", "truskawki"), then Polish adjectives in -owy
# of a noun ("malin-owy" ← "malin-a", "koral-owy" ← "koral"), tried in this order.
_ENDINGS = (
    ("ies", "y"), ("es", ""), ("s", ""), ("y", ""), ("i", ""), ("y", "a"), ("i", "a"),
    *((f"ow{end}", stem) for end in ("y", "a", "e", "ego", "ej", "ym", "ą") for stem in ("a", "")),
)  # fmt: skip
# Adjectives made from a noun, tried after those (issue 32, "Polish and Portuguese forms"):
# Polish -asty, -awy, -isty, -aty, -any, -ny in any gender or case ("ceglasty" ← "cegła",
# "złocisty" ← "złoto"), Spanish and Portuguese -oso, -izo, -ento, -ado, -eado ("arcilloso" ←
# "arcilla", "barrento" ← "barro", "ferrugento" ← "ferrugem").
_DERIVED = tuple(
    (f"{suffix}{end}", stem)
    for suffix, ends in (
        *(
            (s, ("y", "a", "e", "ego", "ej", "ym", "ą", "i"))
            for s in ("ast", "aw", "ist", "at", "an", "n")
        ),
        *((s, ("o", "a", "os", "as")) for s in ("os", "iz", "ent", "ead", "ad")),
    )
    for end in ends
    for stem in ("a", "o", "e", "", "em")
    if not (stem == "em" and suffix != "ent")
)


class Modifier(msgspec.Struct, frozen=True):
    """A word that shifts a thing's colour: "dark" (lightness down), "pale" (lighter and
    less vivid), "neon" (more vivid)."""

    name: str
    lightness: float  # added to OKLab L
    chroma: float  # OKLab a and b are multiplied by it

    def apply(self, lab: Lab) -> Lab:
        lightness, a, b = lab
        return (min(1.0, max(0.0, lightness + self.lightness)), a * self.chroma, b * self.chroma)


@cache
def modifiers() -> dict[str, Modifier]:
    """Folded word → its modifier, every language (``data/colour_modifiers.tsv``)."""
    text = (files(__package__) / "data" / "colour_modifiers.tsv").read_text("utf-8")
    table: dict[str, Modifier] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, lightness, chroma, *cells = line.split("\t")
        modifier = Modifier(name, float(lightness), float(chroma))
        for cell in cells:
            for word in cell.split("|"):
                table[fold(word)] = modifier
    return table


def modifier(word: str) -> Modifier | None:
    return modifiers().get(fold(word))


def mean_lab(labs: list[Lab], weights: list[float] | None = None) -> Lab:
    """The weighted average colour (OKLab is close enough to linear for blending)."""
    weights = weights or [1.0] * len(labs)
    total = sum(weights)
    lightness, a, b = (
        sum(w * lab[i] for w, lab in zip(weights, labs, strict=True)) / total for i in range(3)
    )
    return lightness, a, b


def distance(a: Lab, b: Lab) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


class BoardColours:
    """A board as the bots see it: every cell's coordinate and OKLab colour."""

    def __init__(self, board_id: str) -> None:
        board = static_data()["boards"][board_id]
        self.cols: int = board["cols"]
        self.rows: int = board["rows"]
        self.labs: list[Lab] = [to_lab(h) for h in board["cells"]]
        self._nearest: dict[Lab, int] = {}

    @cached_property
    def lab_array(self) -> Any:
        """The cells' colours as an (N, 3) numpy array, for the guesser's expected points
        (numpy comes with the model, the only source of spread readings)."""
        import numpy as np

        return np.array(self.labs, dtype=np.float64)

    def name(self, index: int) -> str:
        row, col = divmod(index, self.cols)
        return f"{chr(ord('A') + row)}{col + 1}"

    def index_of(self, cell: str) -> int:
        row = ord(cell[0].upper()) - ord("A")
        return row * self.cols + int(cell[1:]) - 1

    def rings(self, a: int, b: int) -> int:
        """Chebyshev distance, as the rules score: "Diagonals count as neighbours"."""
        ra, ca = divmod(a, self.cols)
        rb, cb = divmod(b, self.cols)
        return max(abs(ra - rb), abs(ca - cb))

    def nearest(self, lab: Lab) -> int:
        """The cell whose colour is nearest ``lab`` (remembered: the lexicon's colours come
        back at every decision)."""
        found = self._nearest.get(lab)
        if found is not None:
            return found
        lightness, a, b = lab
        best, nearest = float("inf"), -1  # (a board has cells: one of them is nearest)
        for index, (x, y, z) in enumerate(self.labs):
            d = (x - lightness) ** 2 + (y - a) ** 2 + (z - b) ** 2
            if d < best:
                best, nearest = d, index
        if len(self._nearest) < _NEAREST_CACHE:
            self._nearest[lab] = nearest
        return nearest

    def nearest_free(self, wanted: int, taken: set[int]) -> int:
        """``wanted`` if free, else the closest free cell ("One cell, one marker"), ties
        broken by colour so the marker stays on the clue's side of the taken cell."""
        if wanted not in taken:
            return wanted
        return self.nearest_free_cells(wanted, taken, 1)[0]

    def nearest_free_cells(self, wanted: int, taken: set[int], count: int) -> list[int]:
        """The ``count`` free cells closest to ``wanted``, closest first."""
        free = [i for i in range(len(self.labs)) if i not in taken]
        free.sort(key=lambda i: (self.rings(i, wanted), distance(self.labs[i], self.labs[wanted])))
        return free[:count]


@cache
def board(board_id: str) -> BoardColours:
    return BoardColours(board_id)
