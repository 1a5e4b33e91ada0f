"""Issue 32: Pitacor clues read through an openly licensed colour-naming data set
(``games/pitacor/bot/data/colour_names.tsv``, color-name-list, MIT) where our lexicon has
no word, and reds by the seam aimed at both ends of the board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tertulia.bots.base import Level
from tertulia.games.pitacor import bot, clues
from tertulia.games.pitacor.bot import colours, named, survey
from tertulia.games.pitacor.bot.reading import Reading, read

BOARD = colours.board("classic")
FROZEN = Path(__file__).parent / "data" / "frozen" / "pitacor_cases.tsv"


def test_the_data_set_holds_only_names_a_giver_may_write() -> None:
    """One or two words the clue checker accepts with every ban on."""
    table = named.table()
    assert len(table) > 15_000
    sample = list(table)[::200]
    strictest = clues.ClueRules()
    assert all(not clues.clue_problems(n, len(n.split()), strictest) for n in sample)


def test_the_data_set_copies_no_colour_of_the_survey_the_frozen_cases_use() -> None:
    """A frozen case must be read, not looked up: no name here has the survey's colour."""
    lines = FROZEN.read_text("utf-8").splitlines()
    for line in lines:
        if line.startswith("#"):
            continue
        _lang, _clue, colour, survey_name = line.split("\t")
        found = named.table().get(survey_name)
        if found is not None:
            assert colours.distance(found, colours.to_lab(colour)) >= 0.02, survey_name


@pytest.mark.parametrize(("word", "stem"), [("coppery", "copper"), ("tealish", "teal")])
def test_english_forms_of_a_name_read_as_the_name_less_vivid(word: str, stem: str) -> None:
    """An "-ish"/"-y" form is the name's colour at the survey's "-ish" chroma (greenish is
    less vivid than green), the same lightness and hue."""
    form, name = named.named(word), named.named(stem)
    assert form is not None and name is not None
    assert form == survey.ish(name)


def test_a_word_the_lexicon_lacks_is_read_from_the_data_set(no_model) -> None:
    """ "pewter" is in no lexicon line: the data set's grey, one colour, not the model's."""
    assert colours.lookup("pewter") == ()
    reading = read("pewter")
    assert reading is not None and reading.known
    assert reading.best() == named.named("pewter")


def test_a_colours_two_word_name_is_read_whole(no_model) -> None:
    assert read("burnt copper").best() == named.named("burnt copper")


def test_a_red_by_the_seam_is_aimed_at_both_ends() -> None:
    """Columns 1 and 30 are both red: a red between them may be meant at either end. The
    first marker goes to one end, a second marker of the same seat to the other."""
    first_column, last_column = BOARD.labs[7 * 30], BOARD.labs[7 * 30 + 29]
    between = colours.mean_lab([first_column, last_column])
    reading = Reading((between,), (1.0,), True)
    first = bot.cells_for(BOARD, reading, set(), None, 1)[0]
    second = bot.cells_for(BOARD, reading, {first}, first, 1)[0]
    assert {first % 30, second % 30} & {0, 1} and {first % 30, second % 30} & {28, 29}


def test_the_guesser_aims_a_data_set_word_at_its_colour(no_model) -> None:
    cell = bot.aim(BOARD, "pewter", Level.GOOD, random.Random(0), set(), None)[0]
    assert BOARD.rings(cell, BOARD.nearest(named.named("pewter"))) == 0


def _chroma(lab: colours.Lab) -> float:
    return (lab[1] ** 2 + lab[2] ** 2) ** 0.5


@pytest.mark.parametrize("grey", ["#303030", "#505050", "#808080", "#B0B0B0", "#D8D8D8"])
def test_a_grey_lands_on_the_least_saturated_cell_of_its_row(grey: str) -> None:
    """The board has no grey: a grey reading goes where the board is greyest at its
    lightness, not onto a vivid cell."""
    cell = bot.cells_for(BOARD, Reading((colours.to_lab(grey),), (1.0,), True), set(), None, 1)[0]
    row = cell // BOARD.cols
    chromas = sorted(_chroma(BOARD.labs[row * BOARD.cols + c]) for c in range(BOARD.cols))
    assert _chroma(BOARD.labs[cell]) == chromas[0]


@pytest.mark.parametrize("word", ["pewter", "graphite", "concrete"])
def test_grey_materials_land_among_the_greyest_cells_of_their_row(word: str, no_model) -> None:
    cell = bot.aim(BOARD, word, Level.GOOD, random.Random(0), set(), None)[0]
    row = cell // BOARD.cols
    chromas = sorted(_chroma(BOARD.labs[row * BOARD.cols + c]) for c in range(BOARD.cols))
    # Near-greys keep a tint ("graphite" is a little warm), so among the greyest: within
    # 0.02 of the row's least chroma, where the row's cells span 0.05 to 0.2.
    assert _chroma(BOARD.labs[cell]) <= chromas[0] + 0.02 < chromas[len(chromas) // 2]
