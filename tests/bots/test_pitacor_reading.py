"""How the Pitacor bot reads a clue and where it aims: modifiers, Polish adjectives, and the
marker put where the expected points are highest ("3 on the exact cell, 2 on one of its 8
neighbours, 1 on the next ring out")."""

from __future__ import annotations

import random

import pytest
from bot_helpers import needs_model

from tertulia.bots.base import Level
from tertulia.games import pitacor
from tertulia.games.pitacor import bot
from tertulia.games.pitacor.bot import aiming as pitacor_aim
from tertulia.games.pitacor.bot import colours
from tertulia.games.pitacor.bot.reading import NEIGHBOURS, Reading, read
from tertulia.games.pitacor.scoring import guesser_points

BOARD = colours.board("classic")


def _row(clue: str) -> int:
    """The board row (0 lightest … 15 darkest) the good guesser aims at for ``clue``."""
    cell = bot.aim(BOARD, clue, Level.GOOD, random.Random(0), set(), None)[0]
    return cell // BOARD.cols


@pytest.mark.parametrize(
    ("thing", "darker"),
    [("cherry", "dark cherry"), ("cereja", "cereja escura"), ("wiśnia", "ciemna wiśnia"),
     ("mint", "deep mint"), ("uva", "uva oscura")],
)  # fmt: skip
def test_dark_and_deep_things_land_on_darker_rows(thing: str, darker: str, no_model) -> None:
    """ "Each ... row a lightness level": "dark cherry" is cherry, further down the board."""
    assert _row(darker) >= _row(thing) + 2


@pytest.mark.parametrize(
    ("thing", "lighter"),
    [("mint", "pale mint"), ("grape", "light grape"), ("mięta", "jasna mięta"),
     ("lavanda", "lavanda clara"), ("plum", "pastel plum")],
)  # fmt: skip
def test_light_and_pale_things_land_on_lighter_rows(thing: str, lighter: str, no_model) -> None:
    assert _row(lighter) <= _row(thing) - 2


def test_pale_and_dull_things_are_less_vivid_and_neon_more(no_model) -> None:
    def chroma(clue: str) -> float:
        _, a, b = read(clue).best()
        return (a * a + b * b) ** 0.5

    assert chroma("pale tomato") < 0.7 * chroma("tomato")
    assert chroma("faded tomato") < 0.7 * chroma("tomato")
    assert chroma("neon lime") > 1.3 * chroma("lime")


def test_a_modifier_alone_is_not_a_colour_and_neon_alone_is_a_thing(no_model) -> None:
    assert read("dark pale") is None
    assert read("neon") is not None and read("neon").known


def test_polish_adjectives_read_as_their_noun(no_model) -> None:
    """People write "malinowy" (raspberry-coloured) as often as "malina"."""
    assert colours.lookup("malinowy") == colours.lookup("malina")
    assert colours.lookup("wiśniowa") == colours.lookup("wiśnia")
    assert colours.lookup("czekoladowe") == colours.lookup("czekolada")


def _reading_on(cells: list[int], weights: list[float]) -> Reading:
    return Reading(tuple(BOARD.labs[c] for c in cells), tuple(weights), False)


def _brute_force(reading: Reading, own: int | None) -> list[float]:
    """Expected points of every cell straight from the rules: "The better of the two
    counts", zones cut off at the edges (``board.rings`` does not wrap)."""
    chance = pitacor_aim.target_chances(BOARD, reading)
    settings = pitacor.Settings()
    values = []
    for cell in range(len(BOARD.labs)):
        total = 0.0
        for target in range(len(BOARD.labs)):
            if chance[target]:
                rings = BOARD.rings(cell, target)
                if own is not None:
                    rings = min(rings, BOARD.rings(own, target))
                total += chance[target] * guesser_points(rings, settings)
        values.append(total)
    return values


@pytest.mark.parametrize("own", [None, 0, 7 * 30 + 12])
def test_expected_points_are_the_rules_points_weighted_by_the_targets_chances(own) -> None:
    """Corner and middle, with and without a first marker of one's own."""
    reading = _reading_on([0, 1, 31, 7 * 30 + 14, 7 * 30 + 17, 15 * 30 + 29], [3, 1, 1, 2, 2, 1])
    fast = pitacor_aim.expected_points(BOARD, reading, own)
    assert fast.tolist() == pytest.approx(_brute_force(reading, own))


def test_an_unsure_guesser_aims_where_the_expected_points_are_highest() -> None:
    """Likeliest colour alone on one side, two almost as likely colours together on the
    other: the marker goes between the pair, not on the likeliest colour's cell."""
    row = 7 * 30
    reading = _reading_on([row + 4, row + 12, row + 13], [0.4, 0.3, 0.3])
    best = pitacor_aim.ranked_cells(BOARD, reading, set(), None, 1)[0]
    assert best in {row + 12, row + 13}
    values = pitacor_aim.expected_points(BOARD, reading)
    assert values[best] > values[BOARD.nearest(reading.best())]


def test_a_second_marker_covers_what_the_first_does_not() -> None:
    """ "The better of the two counts": with the first marker on the likeliest place, the
    second goes to the other likely one, not next to the first."""
    row = 7 * 30
    reading = _reading_on([row + 4, row + 20], [0.6, 0.4])
    first = pitacor_aim.ranked_cells(BOARD, reading, set(), None, 1)[0]
    assert BOARD.rings(first, row + 4) <= 1
    second = pitacor_aim.ranked_cells(BOARD, reading, {first}, first, 1)[0]
    assert BOARD.rings(second, row + 20) <= 1


def test_aim_never_picks_a_taken_cell() -> None:
    row = 7 * 30
    reading = _reading_on([row + 4, row + 5], [0.5, 0.5])
    taken = {row + 3, row + 4, row + 5, row + 6}
    assert not set(pitacor_aim.ranked_cells(BOARD, reading, taken, None, 10)) & taken


@needs_model
def test_a_clue_the_lexicon_does_not_know_is_read_as_several_likely_colours() -> None:
    """ "Clues from people that are not in the lexicon still need a sensible guess": the
    encoder's nearest lexicon things, nearest weighted most, and the guesser aims where
    they are worth most together."""
    reading = read("zeppelin")
    assert reading is not None and not reading.known
    assert len(reading.labs) == NEIGHBOURS and max(reading.weights) == 1.0
    cell = bot.aim(BOARD, "zeppelin", Level.GOOD, random.Random(0), set(), None)[0]
    values = pitacor_aim.expected_points(BOARD, reading)
    assert values[cell] == values.max()
