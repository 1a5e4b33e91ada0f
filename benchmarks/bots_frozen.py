"""The bots on the case sets frozen for issue 32 (``tests/bots/data/frozen/``, README there):
sets nobody tuned on, written before the bots changed, with colours from the xkcd survey.

- Haiclue guesser: how often it picks the target the clue's author meant (164 cases), for
  "good", "beginner" (mean over seeds) and the naive baseline (the whole clue against each
  target word by the encoder's cosine).
- Pitacor guesser: the points of its first marker on an empty board for each clue (524
  cases; the target is the board cell nearest the survey's colour), for "good" and
  "beginner", by language, one-word and two-word clues.

    .venv/bin/python benchmarks/bots_frozen.py            # a minute or two
    .venv/bin/python benchmarks/bots_frozen.py --misses   # and every miss
    .venv/bin/python benchmarks/bots_frozen.py --givers   # and the givers, judged twice

Results are recorded in benchmarks/README.md ("Bots on the frozen sets").
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tertulia.bots.base import Level
from tertulia.games import pitacor
from tertulia.games.haiclue import bot as haiclue_bot
from tertulia.games.pitacor import bot as pitacor_bot
from tertulia.games.pitacor.bot import colours
from tertulia.games.pitacor.scoring import guesser_points
from tertulia.text import meaning

FROZEN = Path(__file__).resolve().parents[1] / "tests" / "bots" / "data" / "frozen"
COLOURS = ["red", "yellow", "green", "blue"]
BEGINNER_SEEDS = 20


def rows(name: str) -> list[list[str]]:
    lines = (FROZEN / name).read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def haiclue_view(targets: list[str], clue: str) -> dict[str, Any]:
    return {
        "targets": [{"colour": c, "word": w} for c, w in zip(COLOURS, targets, strict=True)],
        "reading": {"author": "p2", "words": clue.split()},
        "results": [],
        "you": {"seat": "p1", "to_do": "guess"},
    }


def naive_guess(view: dict[str, Any]) -> str:
    """The baseline of issue 32: the whole clue against each target word, highest cosine."""
    encoder = meaning.encoder()
    assert encoder is not None
    words = [t["word"] for t in view["targets"]]
    similarity = encoder.encode(words) @ encoder.encode([" ".join(view["reading"]["words"])])[0]
    return view["targets"][int(similarity.argmax())]["colour"]


def haiclue_guessers(show_misses: bool) -> None:
    cases = rows("haiclue_cases.tsv")
    guessers = {
        "good": lambda v, s: haiclue_bot.guess(v, Level.GOOD, random.Random(s)),
        "beginner": lambda v, s: haiclue_bot.guess(v, Level.BEGINNER, random.Random(s)),
        "naive": lambda v, s: naive_guess(v),
    }
    print(f"\nHaiclue guesser, frozen set ({len(cases)} cases): right, by language")
    for name, guess in guessers.items():
        seeds = BEGINNER_SEEDS if name == "beginner" else 1
        by_language: dict[str, list[float]] = defaultdict(list)
        misses = []
        cpu = time.process_time()
        for lang, answer, *targets, clue in cases:
            view = haiclue_view(targets, clue)
            want = COLOURS[int(answer) - 1]
            right = sum(guess(view, s) == want for s in range(seeds)) / seeds
            by_language[lang].append(right)
            if right < 1 and seeds == 1:
                misses.append(f"{lang} {clue!r} → {targets[int(answer) - 1]}")
        cpu = (time.process_time() - cpu) / (len(cases) * seeds)
        every = [r for rs in by_language.values() for r in rs]
        parts = "  ".join(f"{lang} {sum(rs) / len(rs):6.1%}" for lang, rs in by_language.items())
        print(f"  {name:9} {sum(every) / len(every):6.1%}   {parts}   ({1e3 * cpu:.1f} ms/guess)")
        if show_misses and name == "good":
            print("    misses: " + "; ".join(misses))


def pitacor_guessers(show_misses: bool) -> None:
    cases = rows("pitacor_cases.tsv")
    board = colours.board("classic")
    settings = pitacor.Settings()
    print(f"\nPitacor guesser, frozen set ({len(cases)} cases): points of the first marker")
    for level in (Level.GOOD, Level.BEGINNER):
        seeds = BEGINNER_SEEDS if level is Level.BEGINNER else 1
        parts: dict[str, list[float]] = defaultdict(list)
        misses = []
        cpu = time.process_time()
        for lang, clue, colour, _ in cases:
            target = board.nearest(colours.to_lab(colour))
            scores = []
            for seed in range(seeds):
                cell = pitacor_bot.aim(board, clue, level, random.Random(seed), set(), None)[0]
                scores.append(guesser_points(board.rings(cell, target), settings))
            points = sum(scores) / seeds
            parts[lang].append(points)
            parts["one word" if " " not in clue else "two words"].append(points)
            parts[f"read by {_source(clue)}"].append(points)
            parts["exact"].append(sum(s == 3 for s in scores) / seeds)
            parts["any"].append(sum(s > 0 for s in scores) / seeds)
            if points == 0 and seeds == 1:
                misses.append(f"{lang} {clue} ({board.rings(cell, target)} rings)")
        cpu = (time.process_time() - cpu) / (len(cases) * seeds)
        every = parts["exact"]
        mean = sum(sum(parts[lang]) for lang in ("en", "pt-BR", "es", "pl")) / len(every)
        print(f"  {level.value:9} {mean:5.2f} points  ({1e3 * cpu:.1f} ms/marker)")
        sources = sorted(k for k in parts if k.startswith("read by"))
        for name in ("en", "pt-BR", "es", "pl", "one word", "two words", *sources):
            ps = parts[name]
            print(f"    {name:10} {sum(ps) / len(ps):5.2f}  ({len(ps)})")
        for name in ("exact", "any"):
            print(f"    {name:10} {sum(parts[name]) / len(every):6.1%}")
        if show_misses and level is Level.GOOD:
            print("    no points: " + "; ".join(misses))


def _source(clue: str) -> str:
    """Where the guesser's colour for ``clue`` comes from: our lexicon (with modifiers), the
    colour-naming data set, or the encoder's reading."""
    words = clue.split()
    if len(words) > 1 and _named(clue) is not None:
        return "data"
    if all(colours.lookup(w) or (len(words) > 1 and colours.modifier(w)) for w in words):
        return "lexicon"
    if all(colours.lookup(w) or _named(w) is not None or colours.modifier(w) for w in words):
        return "data"
    return "encoder"


def _named(text: str) -> Any:
    try:
        from tertulia.games.pitacor.bot.named import named
    except ImportError:  # the bots before issue 32 had no colour-naming data set
        return None
    return named(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="print every miss of 'good'")
    parser.add_argument("--givers", action="store_true", help="and the givers, two judges")
    args = parser.parse_args()
    if not meaning.available():
        print("needs the model: make venv")
        return 2
    started = time.perf_counter()
    haiclue_guessers(args.misses)
    pitacor_guessers(args.misses)
    if args.givers:
        import bots_givers

        bots_givers.haiclue_givers()
        bots_givers.pitacor_givers()
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
