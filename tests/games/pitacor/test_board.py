"""Pitacor's boards: "The board has 480 cells: 30 columns (1 to 30) and 16 rows (A to P)."."""

from __future__ import annotations

import itertools

import pytest
from coloraide import Color

from tertulia.games.pitacor.board import CLASSIC, ULTRA_HARD


def test_the_board_has_480_cells_30_columns_and_16_rows_a_to_p():
    cells = CLASSIC.cells()
    assert len(cells) == 480 == len(set(cells))
    assert cells[0] == "A1" and cells[29] == "A30" and cells[-1] == "P30"
    assert {c[0] for c in cells} == set("ABCDEFGHIJKLMNOP")


@pytest.mark.parametrize(
    ("text", "cell"),
    [("H12", (7, 11)), ("h12", (7, 11)), (" A1 ", (0, 0)), ("P30", (15, 29)), ("p 30", (15, 29))],
)
def test_every_cell_has_a_coordinate_such_as_h12(text: str, cell: tuple[int, int]):
    assert CLASSIC.parse(text) == cell
    assert CLASSIC.name(*cell) == text.replace(" ", "").upper()


@pytest.mark.parametrize("text", ["Q1", "A0", "A31", "12H", "HH12", "", "A", "12", "A-1", "Á1"])
def test_a_coordinate_off_the_board_is_not_a_cell(text: str):
    assert CLASSIC.parse(text) is None


def test_ultra_hard_board_is_15_by_8():
    assert ULTRA_HARD.size == 120
    assert ULTRA_HARD.parse("H15") == (7, 14)
    assert ULTRA_HARD.parse("I1") is None and ULTRA_HARD.parse("A16") is None


def _oklch(cell: str, board=CLASSIC) -> tuple[float, float, float]:
    lightness, chroma, hue = Color(board.hex(cell)).convert("oklch").coords()
    return lightness, chroma, hue


def test_each_row_is_a_lightness_level_lightest_at_the_top():
    """ "Each column is a hue and each row a lightness level" — even steps in OKLCH."""
    for board in (CLASSIC, ULTRA_HARD):
        rows = []
        for r in range(board.rows):
            levels = [_oklch(board.name(r, c), board)[0] for c in range(board.cols)]
            assert max(levels) - min(levels) < 0.005  # one level per row
            rows.append(sum(levels) / len(levels))
        steps = [a - b for a, b in itertools.pairwise(rows)]
        assert all(s > 0 for s in steps)  # darker row after row
        assert max(steps) - min(steps) < 0.01  # and evenly so


def test_each_column_is_a_hue():
    """ "Each column is a hue": within a column the hue stays put (where there is colour)."""
    for c in range(CLASSIC.cols):
        hues = [
            _oklch(CLASSIC.name(r, c))[2]
            for r in range(2, CLASSIC.rows - 2)
            if _oklch(CLASSIC.name(r, c))[1] > 0.06
        ]
        spread = max(hues) - min(hues)
        assert min(spread, 360 - spread) < 3, (c, hues)


def test_neighbouring_columns_are_different_hues_all_around_the_wheel():
    middle = 7
    hues = [_oklch(CLASSIC.name(middle, c))[2] for c in range(CLASSIC.cols)]
    assert len({round(h) for h in hues}) == 30


def test_board_colours_are_pinned():
    """A change to the colour scheme must be deliberate: it changes every running match."""
    assert CLASSIC.hex("A1") == "#FFDFDE"
    assert CLASSIC.hex("H12") == "#00AA56"
    assert CLASSIC.hex("P30") == "#630026"
    assert ULTRA_HARD.hex("D8") == "#00ABA2"
    assert all(len(h) == 7 and h.startswith("#") for h in CLASSIC.palette())


def test_distance_counts_diagonals_as_neighbours_and_is_cut_off_by_edges():
    assert CLASSIC.distance("H12", "H12") == 0
    assert CLASSIC.distance("H12", "G11") == 1
    assert CLASSIC.distance("H12", "J14") == 2
    assert CLASSIC.distance("A1", "P30") == 29  # no wrap-around
    ring = [c for c in CLASSIC.cells() if CLASSIC.distance("A1", c) == 1]
    assert sorted(ring) == ["A2", "B1", "B2"]


@pytest.mark.parametrize("board", [CLASSIC, ULTRA_HARD])
def test_distance_reads_every_coordinate_as_parse_does_printed_or_not(board):
    """The distance looks printed coordinates up in a table (a restart measures every marker
    it replays); it must read each as ``parse`` does, and still read an unprinted one."""
    cells = board.cells()
    for a, b in itertools.product(cells[::7], cells[::5]):
        (ra, ca), (rb, cb) = board.parse(a), board.parse(b)
        assert board.distance(a, b) == max(abs(ra - rb), abs(ca - cb))
    assert board.distance(" a1", "A1") == 0 and board.distance("b2", "A1") == 1
    with pytest.raises(ValueError):
        board.distance("Z99", "A1")


def test_ultra_hard_candidates_relax_to_4_rings_in_a_few_draws_classic_never():
    """docs: "on the Ultra Hard board (15 × 8) about 5–6 % of draws end at 4 rings"; the
    classic board keeps 5 rings (issue 17 found the docs claimed 5 rings on both)."""
    from tertulia.games.base import Rng
    from tertulia.games.pitacor.board import CLASSIC, ULTRA_HARD
    from tertulia.games.pitacor.flow import draw_candidates

    def closest(board, seed):
        cells = draw_candidates(board, Rng.from_seed(seed), set())
        return min(board.distance(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :])

    seeds = range(600)
    ultra = [closest(ULTRA_HARD, seed) for seed in seeds]
    assert min(ultra) == 4 and 0.02 < ultra.count(4) / len(ultra) < 0.10
    assert min(closest(CLASSIC, seed) for seed in seeds[:200]) == 5
