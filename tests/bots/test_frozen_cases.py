"""The case sets frozen for issue 32 (``data/frozen/``, README there): large enough, in the
four languages, and well formed, so ``benchmarks/bots.py --frozen`` measures what they say.
Nothing here scores a bot: the sets are for measuring, and the benchmark reports them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tertulia.games.haiclue import decks
from tertulia.games.pitacor import clues
from tertulia.text.normalize import fold

DATA = Path(__file__).parent / "data"
LANGUAGES = {"en", "pt-BR", "es", "pl"}


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def test_at_least_150_haiclue_cases_in_the_four_languages_from_deck_tiles() -> None:
    """ "≥ 150 Haiclue cases ... in the four languages": targets a deck can draw (no
    connector tile), a clue of two or more other tiles of that deck."""
    rows = _rows("frozen/haiclue_cases.tsv")
    assert len(rows) >= 150
    assert set(Counter(r[0] for r in rows)) == LANGUAGES
    for lang, answer, *targets, clue in rows:
        tiles = decks.load(lang)
        words = {w for t in tiles for w in (t.white, t.black)}
        drawable = {w for t in tiles if not t.connector for w in (t.white, t.black)}
        assert 1 <= int(answer) <= 4 and len(set(targets)) == 4 <= len(targets)
        assert set(targets) <= drawable, targets
        tiles_laid = clue.split()
        assert len(tiles_laid) >= 2 and set(tiles_laid) <= words - set(targets), clue


def test_no_frozen_haiclue_target_is_a_target_of_the_tuning_set() -> None:
    tuning = {t for r in _rows("haiclue_cases.tsv") for t in r[2:6]}
    frozen = {t for r in _rows("frozen/haiclue_cases.tsv") for t in r[2:6]}
    assert not tuning & frozen


def test_at_least_200_pitacor_cases_in_the_four_languages_that_are_valid_clues() -> None:
    """ "≥ 200 Pitacor word→colour cases": one-word clues are valid first clues, two-word
    clues valid second clues, with every ban on."""
    rows = _rows("frozen/pitacor_cases.tsv")
    assert len(rows) >= 200
    assert set(Counter(r[0] for r in rows)) == LANGUAGES
    for _lang, clue, colour, source in rows:
        assert colour.startswith("#") and len(colour) == 7 and source
        words = len(clue.split())
        assert words in (1, 2)
        assert clues.clue_problems(clue, words, clues.ClueRules()) == [], clue


def test_no_frozen_pitacor_clue_is_a_clue_of_the_tuning_set() -> None:
    tuning = {fold(r[1]) for r in _rows("pitacor_cases.tsv")}
    assert not tuning & {fold(r[1]) for r in _rows("frozen/pitacor_cases.tsv")}
