"""Where a Pitacor guesser bot puts its marker: the free cell of highest expected points.

"3 on the exact cell, 2 on one of its 8 neighbours, 1 on the next ring out": when the bot is
sure of the colour (every word in the lexicon) that is the cell nearest it. When it is not
(the encoder read the clue as several colours), the target could be near any of them, and
a cell between two likely places can be worth more than the nearest cell of the likeliest:
the bot places the marker where the expected score is highest, not on the nearest cell.

The target is "the board cell nearest the colour the giver meant": for each colour of the
reading the bot pictures a small cloud of colours around it (how differently people picture
a thing), takes the cell nearest each, and weighs the cells by how often they come up. The
expected points of a cell are then those weights seen through the scoring zones (a 5×5
kernel 3/2/1, cut off at the board's edges, as the rules say). With a first marker of its
own already down, a cell is worth only what it adds: "The better of the two counts".
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .colours import BoardColours
from .reading import Reading

# How far, in OKLab, the pictures spread around each colour of a reading (a board step is
# ~0.04 in lightness; 0.03 measured best, 0.10 worse: the neighbours already spread it), and
# how many pictures the bot imagines per colour.
SPREAD = 0.03
_SAMPLES = 48
# Points by rings from the target (the default settings; the view does not carry them).
ZONE_POINTS = (3, 2, 1)


def ranked_cells(
    board: BoardColours, reading: Reading, taken: set[int], own: int | None, count: int
) -> list[int]:
    """The ``count`` free cells worth most for ``reading``, best first. ``own``: this seat's
    first marker, whose points a second marker only has to beat."""
    import numpy as np

    value = expected_points(board, reading, own)
    if taken:
        value[list(taken)] = -1.0
    order = np.argsort(-value, kind="stable")
    return [int(i) for i in order if int(i) not in taken][:count]


def expected_points(board: BoardColours, reading: Reading, own: int | None = None) -> Any:
    """Each cell's expected points for a marker put there (an (N,) numpy array)."""
    import numpy as np

    chance = target_chances(board, reading).reshape(board.rows, board.cols)
    if own is None:
        floor = np.zeros_like(chance)
    else:  # what the first marker already scores for each possible target
        floor = _zone_points(board, own).reshape(board.rows, board.cols)
    value = np.full_like(chance, float((chance * floor).sum()))
    padded_rows, padded_cols = board.rows + 4, board.cols + 4
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            gain = chance * np.maximum(ZONE_POINTS[max(abs(dr), abs(dc))] - floor, 0.0)
            # value[r, c] += gain[r + dr, c + dc], zero beyond the edges (the zones are cut)
            shifted = np.zeros((padded_rows, padded_cols))
            shifted[2 : 2 + board.rows, 2 : 2 + board.cols] = gain
            value += shifted[2 + dr : 2 + dr + board.rows, 2 + dc : 2 + dc + board.cols]
    return value.reshape(-1)


def target_chances(board: BoardColours, reading: Reading) -> Any:
    """How likely each cell is the target (sums to 1): the cells nearest a cloud of
    pictures around each colour of the reading, weighted by the colour's weight."""
    import numpy as np

    labs = np.asarray(reading.labs, dtype=np.float32)
    weights = np.asarray(reading.weights, dtype=np.float64)
    pictures = labs[:, None, :] + SPREAD * _offsets()[None, :, :]  # (K, S, 3)
    flat = pictures.reshape(-1, 3)
    cells = board.lab_array.astype(np.float32)
    # The nearest cell of each picture: argmin of |p|² − 2 p·c + |c|², where |p|² is the
    # same along a row and can be left out (one float32 matrix, pictures × cells: 1.5 MB).
    nearest = ((cells**2).sum(1)[None, :] - 2.0 * (flat @ cells.T)).argmin(1)
    chance = np.bincount(
        nearest, weights=np.repeat(weights, _SAMPLES), minlength=len(board.labs)
    ).astype(np.float64)
    return chance / chance.sum()


def _zone_points(board: BoardColours, cell: int) -> Any:
    """Points a marker on ``cell`` scores for each possible target."""
    import numpy as np

    rows, cols = np.divmod(np.arange(len(board.labs)), board.cols)
    r, c = divmod(cell, board.cols)
    rings = np.maximum(np.abs(rows - r), np.abs(cols - c))
    table = np.array([*ZONE_POINTS, 0], dtype=np.float64)
    return table[np.minimum(rings, len(ZONE_POINTS))]


@cache
def _offsets() -> Any:
    """The same cloud of pictures every time (a decision must not depend on luck here):
    the centre itself, then fixed normal draws."""
    import numpy as np

    draws = np.random.default_rng(18).standard_normal((_SAMPLES, 3)).astype(np.float32)
    draws[0] = 0.0
    return draws
