"""Issue 32: the Pitacor bots learn how people name colours from the xkcd colour survey's
*other* names (``games/pitacor/bot/data/survey_names.tsv``, CC0 1.0), never from a name a
frozen case could be looked up by (tests/bots/data/frozen/README.md: "The bots' colour data
must not copy these values")."""

from __future__ import annotations

import random
from importlib.resources import files
from pathlib import Path

from tertulia.bots.base import Level
from tertulia.games.pitacor import bot, clues
from tertulia.games.pitacor.bot import colours, named, survey
from tertulia.games.pitacor.bot.reading import read
from tertulia.text.normalize import fold

BOARD = colours.board("classic")
FROZEN = Path(__file__).parent / "data" / "frozen" / "pitacor_cases.tsv"
DATA = files("tertulia.games.pitacor.bot") / "data" / "survey_names.tsv"


def _words(name: str) -> list[str]:
    return fold(name).replace("/", " ").replace("-", " ").replace("'", " ").split()


def _frozen() -> list[list[str]]:
    lines = FROZEN.read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def test_the_bots_survey_data_holds_no_frozen_survey_name_or_clue() -> None:
    """Checked here apart from the script that wrote the file: no name is a frozen case's
    survey name or clue, however spaced ("egg shell"), and no name shares a word with one
    (so "dusty pink" is out with "dusty teal", "wine red" with "wine")."""
    frozen_forms = {"".join(_words(n)) for _, clue, _, name in _frozen() for n in (clue, name)}
    frozen_words = {w for _, clue, _, name in _frozen() for n in (clue, name) for w in _words(n)}
    table = survey.table()
    assert 400 < len(table) < 949  # the survey's 949 names, less the frozen ones' kin
    for name in table:
        assert "".join(_words(name)) not in frozen_forms, name
        assert not set(_words(name)) & frozen_words, name
    # The frozen set's English clues are survey names: none is readable as a survey look-up.
    assert not [clue for lang, clue, _, _ in _frozen() if fold(clue) in table]


def test_the_data_is_the_survey_s_with_its_licence() -> None:
    """The values are the survey's as matplotlib ships them (benchmarks/data), CC0 1.0."""
    text = DATA.read_text("utf-8")
    assert "CC0 1.0" in text
    survey_file = Path(__file__).parents[2] / "benchmarks" / "data" / "xkcd_colours.tsv"
    whole = dict(
        line.split("\t")
        for line in survey_file.read_text("utf-8").splitlines()
        if not line.startswith("#")
    )
    for line in text.splitlines():
        if not line.startswith("#"):
            name, hex_colour = line.split("\t")
            assert whole[name].upper() == hex_colour


def test_a_survey_name_a_giver_may_write_reads_as_people_meant_it() -> None:
    """ "First clue: one word." A clue the survey names and our lexicon lacks ("swamp") is
    the survey's colour, not another list's."""
    assert not colours.lookup("swamp")
    assert not clues.clue_problems("swamp", 1, clues.ClueRules())
    reading = read("swamp")
    assert reading is not None and reading.best() == survey.table()["swamp"]


def test_a_pale_tint_is_pictured_as_vivid_as_people_name_it() -> None:
    """The survey's colours for pale and muted tints are more vivid than a careful
    source's: a tint is read at chroma ``TINT_FLOOR``, same lightness and hue."""
    tint = colours.to_lab("#F5E6E8")  # a near-grey pink: chroma under GREY_BELOW
    pale = colours.to_lab("#E8C4CC")  # chroma ~0.04: a tint
    lightness, a, b = survey.as_people_name(pale)
    assert abs(lightness - pale[0]) < 1e-9
    assert abs((a * a + b * b) ** 0.5 - survey.TINT_FLOOR) < 1e-9
    assert abs(a * pale[2] - b * pale[1]) < 1e-9  # the same hue
    assert survey.as_people_name(tint) == tint  # a near-grey stays grey
    vivid = colours.to_lab("#E03A1E")
    assert survey.as_people_name(vivid) == vivid


def test_greys_still_land_on_the_least_saturated_cells() -> None:
    """A neutral grey keeps no chroma, so its marker goes where the board is least vivid."""
    grey = colours.to_lab("#808080")
    assert survey.as_people_name(grey) == grey
    cell = bot.aim(BOARD, "cement", Level.GOOD, random.Random(0), set(), None)[0]
    lab = BOARD.labs[cell]
    row = [BOARD.labs[i] for i in range(len(BOARD.labs)) if i // BOARD.cols == cell // BOARD.cols]
    chroma = sorted((x[1] ** 2 + x[2] ** 2) ** 0.5 for x in row)
    assert (lab[1] ** 2 + lab[2] ** 2) ** 0.5 <= chroma[len(chroma) // 3]


def test_named_tries_the_survey_before_color_name_list() -> None:
    for name, lab in list(survey.table().items())[::40]:
        assert named.named(name) == lab


def test_modifiers_taken_from_the_survey_match_its_names() -> None:
    """dark, deep, pastel and dull shift a colour as the survey's "dark cyan" is from its
    "cyan": the table holds the medians of those pairs (colour_modifiers.tsv says why)."""
    import statistics

    table = survey.table()
    for name in ("dark", "deep", "pastel", "dull"):
        modifier = next(m for m in colours.modifiers().values() if m.name == name)
        pairs = [
            (table[rest], lab)
            for whole, lab in table.items()
            for first, _, rest in [whole.partition(" ")]
            if rest in table and " " not in rest and colours.modifier(first) == modifier
        ]
        assert len(pairs) >= 5
        shift = statistics.median(lab[0] - base[0] for base, lab in pairs)
        assert abs(shift - modifier.lightness) < 0.006, name
