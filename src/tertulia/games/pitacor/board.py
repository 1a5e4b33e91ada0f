"""Pitacor's boards: coordinates, the colour of every cell, and distances between cells.

"The board has 480 cells: 30 columns (1 to 30) and 16 rows (A to P). Each column is a hue and
each row a lightness level. Every cell has a coordinate, such as H12."

Colours are computed, not listed: each column is a hue and each row a lightness in OKLCH, the
perceptual space where equal steps look equal, so neighbouring cells differ by about the same
amount everywhere on the board. Colours outside sRGB are brought in by lowering chroma only
(``oklch-chroma`` gamut mapping), which keeps every row's lightness and every column's hue.
The Ultra Hard board (15 × 8) uses the same scheme with coarser steps.

Changing any constant here changes every board in every running match: the test
``test_board_colours_are_pinned`` exists to make that a deliberate act.
"""

from __future__ import annotations

import re
from functools import cache

import msgspec
from coloraide import Color

# Lightness of the top (lightest) and bottom (darkest) rows, in OKLCH L (0 black, 1 white).
_LIGHTEST = 0.93
_DARKEST = 0.32
# Chroma asked for before gamut mapping: high enough that mid rows are vivid.
_CHROMA = 0.20
# Hue of column 1 in degrees (a warm red), so the board reads red → yellow → green → blue.
_FIRST_HUE = 20.0

_COORDINATE = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


class Board(msgspec.Struct, frozen=True):
    """A grid of ``cols`` hues × ``rows`` lightness levels; cells are named like ``H12``."""

    cols: int
    rows: int

    @property
    def size(self) -> int:
        return self.cols * self.rows

    def parse(self, coordinate: str) -> tuple[int, int] | None:
        """``"H12"`` → ``(7, 11)`` (zero-based row, column), or None if not a cell of this board."""
        match = _COORDINATE.match(coordinate) if isinstance(coordinate, str) else None
        if match is None:
            return None
        row = ord(match.group(1).upper()) - ord("A")
        col = int(match.group(2)) - 1
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return None
        return row, col

    def name(self, row: int, col: int) -> str:
        """``(7, 11)`` → ``"H12"``: the row's letter then the column's number."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(
                f"expected a cell of a {self.cols}×{self.rows} board, got {(row, col)}"
            )
        return f"{chr(ord('A') + row)}{col + 1}"

    def canonical(self, coordinate: str) -> str | None:
        """The coordinate as the board prints it (``" h12"`` → ``"H12"``), or None."""
        # What a client sends is printed already: one set lookup instead of a regex.
        if type(coordinate) is str and coordinate in _cell_set(self.cols, self.rows):
            return coordinate
        cell = self.parse(coordinate)
        return None if cell is None else self.name(*cell)

    def cells(self) -> list[str]:
        """Every coordinate, row by row (A1, A2, …): a new list each time, the names built
        once per board shape (every round's draw asks for them, and a replay draws often)."""
        return list(_cell_names(self.cols, self.rows))

    def distance(self, a: str, b: str) -> int:
        """Rings between two cells: 0 same cell, 1 one of its 8 neighbours, 2 the 5×5 square…

        Diagonals count as neighbours, so this is the Chebyshev distance. The board does not
        wrap around: zones near an edge are simply cut off.
        """
        ra, ca = self._cell(a)
        rb, cb = self._cell(b)
        return max(abs(ra - rb), abs(ca - cb))

    def hex(self, coordinate: str) -> str:
        """The cell's colour as ``#RRGGBB``."""
        row, col = self._cell(coordinate)
        return palette(self.cols, self.rows)[row * self.cols + col]

    def palette(self) -> tuple[str, ...]:
        """Every cell's ``#RRGGBB``, row by row, in the order of ``cells()``."""
        return palette(self.cols, self.rows)

    def _cell(self, coordinate: str) -> tuple[int, int]:
        # A stored coordinate is printed already: a dict lookup, not the regex (a restart
        # measures the distance of every marker it replays).
        cell = _cell_positions(self.cols, self.rows).get(coordinate) or self.parse(coordinate)
        if cell is None:
            raise ValueError(
                f"expected a cell of a {self.cols}×{self.rows} board, got {coordinate!r}"
            )
        return cell


CLASSIC = Board(cols=30, rows=16)
ULTRA_HARD = Board(cols=15, rows=8)


@cache
def palette(cols: int, rows: int) -> tuple[str, ...]:
    """Colours of a ``cols`` × ``rows`` board, computed once per board size."""
    colours: list[str] = []
    for row in range(rows):
        lightness = _LIGHTEST - (_LIGHTEST - _DARKEST) * row / (rows - 1)
        for col in range(cols):
            hue = (_FIRST_HUE + 360.0 * col / cols) % 360.0
            colour = Color("oklch", [lightness, _CHROMA, hue]).convert("srgb")
            # jnd=0: lower chroma alone, all the way, so lightness and hue stay exact.
            colour.fit(method="oklch-chroma", jnd=0)
            colours.append(colour.to_string(hex=True, upper=True))
    return tuple(colours)


@cache
def _cell_names(cols: int, rows: int) -> tuple[str, ...]:
    return tuple(f"{chr(ord('A') + r)}{c + 1}" for r in range(rows) for c in range(cols))


@cache
def _cell_set(cols: int, rows: int) -> frozenset[str]:
    return frozenset(_cell_names(cols, rows))


@cache
def _cell_positions(cols: int, rows: int) -> dict[str, tuple[int, int]]:
    """Each printed coordinate's (row, column), as ``parse`` gives it."""
    names = _cell_names(cols, rows)
    return {name: (i // cols, i % cols) for i, name in enumerate(names)}
