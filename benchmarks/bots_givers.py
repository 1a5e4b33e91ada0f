"""The givers judged by two different guessers (issue 32, point 3), so that a giver cannot
win by speaking only to itself:

- Haiclue: for every target of the frozen set's groups (164), the giver builds a clue from a
  rack of 15 tiles dealt from the rest of that deck (seeded); judged by the team's guesser
  ("good") and by the naive guesser (the whole clue against each target by the encoder's
  cosine, a different method).
- Pitacor: for 100 targets per language drawn on the classic board (seeded), the giver's
  first clue; judged by the team's guesser (its first marker's points) and by a people's
  guesser that pictures each clue in the xkcd colour survey's colour (CC0,
  ``benchmarks/data/xkcd_colours.tsv``): the clue's own survey name, else the survey colour
  of the English name of the thing our lexicon says it names. Clues it cannot picture are
  counted apart ("not judged").

Run by ``benchmarks/bots_frozen.py --givers``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bots_frozen import COLOURS, haiclue_view, naive_guess, rows

from tertulia.bots.base import LANGUAGES, Level
from tertulia.games import pitacor
from tertulia.games.haiclue import bot as haiclue_bot
from tertulia.games.haiclue import decks
from tertulia.games.pitacor import bot as pitacor_bot
from tertulia.games.pitacor.bot import colours
from tertulia.games.pitacor.scoring import guesser_points
from tertulia.text.normalize import fold

SURVEY = Path(__file__).parent / "data" / "xkcd_colours.tsv"
PITACOR_TARGETS = 100


def haiclue_givers() -> None:
    groups = {(r[0], tuple(r[2:6])) for r in rows("haiclue_cases.tsv")}
    print(f"\nHaiclue giver on the frozen set's targets ({4 * len(groups)} clues): right")
    for level in (Level.GOOD, Level.BEGINNER):
        team = naive = total = 0
        for lang, targets in sorted(groups):
            for index in range(4):
                rng = random.Random(f"{lang}{targets}{index}")
                view = _haiclue_deal(lang, list(targets), index, rng)
                words = haiclue_bot.build_clue(view, level, rng, lang)
                judged = haiclue_view(list(targets), " ".join(words))
                want = COLOURS[index]
                team += haiclue_bot.guess(judged, Level.GOOD, random.Random(0), lang) == want
                naive += naive_guess(judged) == want
                total += 1
        print(
            f"  {level.value:9} team's guesser {team / total:6.1%}   "
            f"naive guesser {naive / total:6.1%}"
        )


def _haiclue_deal(lang: str, targets: list[str], card: int, rng: random.Random) -> dict[str, Any]:
    """A seat's view with a rack of 15 tiles of one side, none of them a target."""
    side = rng.choice(("white", "black"))
    words = [t.word(side) for t in decks.load(lang) if t.word(side) not in targets]
    return {
        "targets": [{"colour": c, "word": w} for c, w in zip(COLOURS, targets, strict=True)],
        "rack": rng.sample(words, 15),
        "card": COLOURS[card],
        "min_clue_tiles": 2,
        "you": {"seat": "p1", "to_do": "build_clue"},
    }


def pitacor_givers() -> None:
    board = colours.board("classic")
    settings = pitacor.Settings()
    survey = _survey()
    print(f"\nPitacor giver, first clues for {PITACOR_TARGETS} targets per language: points")
    for level in (Level.GOOD, Level.BEGINNER):
        for language in LANGUAGES:
            rng = random.Random(f"targets{language}")
            team: list[int] = []
            people: list[int] = []
            for _ in range(PITACOR_TARGETS):
                target = rng.randrange(len(board.labs))
                view = {
                    "board": {"id": "classic"},
                    "target": board.name(target),
                    "clues": [],
                    "history": [],
                    "players": [{"nickname": n} for n in ("Ana", "Bruno", "Carla", "Dario")],
                }
                clue = pitacor_bot.first_clue(view, language, level, rng)
                cell = pitacor_bot.aim(board, clue, Level.GOOD, random.Random(0), set(), None)[0]
                team.append(guesser_points(board.rings(cell, target), settings))
                pictured = _people_colour(clue, survey)
                if pictured is not None:
                    people.append(
                        guesser_points(board.rings(board.nearest(pictured), target), settings)
                    )
            print(
                f"  {level.value:9} {language:5} team's guesser {sum(team) / len(team):4.2f}   "
                f"people's guesser {sum(people) / max(1, len(people)):4.2f} "
                f"({len(people)} judged)"
            )


def _survey() -> dict[str, colours.Lab]:
    lines = SURVEY.read_text("utf-8").splitlines()
    return {
        fold(name): colours.to_lab(hex_colour)
        for name, hex_colour in (line.split("\t") for line in lines if not line.startswith("#"))
    }


def _people_colour(clue: str, survey: dict[str, colours.Lab]) -> colours.Lab | None:
    """The survey's colour for the clue, or for the English name of the thing it names."""
    if fold(clue) in survey:
        return survey[fold(clue)]
    for thing in colours.lookup(clue):
        for name in thing.names["en"]:
            if fold(name) in survey:
                return survey[fold(name)]
    return None
