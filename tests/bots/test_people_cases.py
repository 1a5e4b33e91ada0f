"""The clues written by people (``data/``) that ``benchmarks/bots.py`` measures the bots on:
enough of them, in all four languages, and well formed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tertulia.bots.base import LANGUAGES
from tertulia.games.haiclue import decks
from tertulia.games.pitacor import clues

DATA = Path(__file__).parent / "data"


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def test_at_least_100_haiclue_cases_across_the_four_languages_using_deck_tiles() -> None:
    """ "write ≥ 100 Haiclue cases ... in the four languages" — every word a deck tile."""
    rows = _rows("haiclue_cases.tsv")
    assert len(rows) >= 100
    assert set(Counter(r[0] for r in rows)) == set(LANGUAGES)
    for lang, answer, *targets, clue in rows:
        words = {w for t in decks.load(lang) for w in (t.white, t.black)}
        assert 1 <= int(answer) <= 4 and len(targets) == 4
        assert set(targets) <= words and len(set(targets)) == 4
        assert len(clue.split()) >= 2 and set(clue.split()) <= words, clue


def test_at_least_100_pitacor_cases_across_the_four_languages_that_are_valid_clues() -> None:
    """ "≥ 100 Pitacor clue→colour cases" — each one a clue the game accepts."""
    rows = _rows("pitacor_cases.tsv")
    assert len(rows) >= 100
    assert set(Counter(r[0] for r in rows)) == set(LANGUAGES)
    for _lang, clue, colour in rows:
        assert colour.startswith("#") and len(colour) == 7
        assert clues.clue_problems(clue, 1, clues.ClueRules()) == [], clue
