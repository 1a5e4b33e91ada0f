"""Builds the Pitacor bots' survey data (``src/tertulia/games/pitacor/bot/data/
survey_names.tsv``): the xkcd colour survey's names (CC0 1.0, ``data/xkcd_colours.tsv``)
**less every name a frozen case could be looked up by** (issue 32: the frozen Pitacor set
takes its colours from the same survey, so the bots may learn from its other names only).

The exclusion rule, strict on purpose (a name is left out if any holds):

1. **name**: its folded form, spaces, hyphens and slashes removed, is a frozen case's survey
   name or clue (any language) written the same way ("egg shell" ← "eggshell");
2. **spelling**: that form is within a SequenceMatcher ratio of 0.8 of one (misspelt doubles:
   "liliac", "toupe", "perrywinkle", "terracota"; it also takes "purple" ← "burple" and
   "custard" ← "mustard": strict);
3. **word**: any of its words, or that word less -ish, -ey, -y, -s, -en or -e, is a word (or
   such a stem) of a frozen survey name or clue ("dusty pink" ← "dusty teal", "wine red" ←
   "wine", "teal blue" ← "tealish");
4. **word spelling**: a word of five letters or more within a ratio of 0.85 of such a word
   ("forrest green" ← "forest", "light lavendar" ← "lavender").

    .venv/bin/python benchmarks/pitacor_survey_names.py          # writes the file, prints counts
    .venv/bin/python benchmarks/pitacor_survey_names.py --check  # exit 1 if it would change

``tests/bots/test_pitacor_survey.py`` checks the written file against the frozen set again.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from pathlib import Path

from tertulia.text.normalize import fold

ROOT = Path(__file__).resolve().parents[1]
SURVEY = ROOT / "benchmarks" / "data" / "xkcd_colours.tsv"
FROZEN = ROOT / "tests" / "bots" / "data" / "frozen" / "pitacor_cases.tsv"
OUT = ROOT / "src" / "tertulia" / "games" / "pitacor" / "bot" / "data" / "survey_names.tsv"
_SUFFIXES = ("ish", "ey", "y", "s", "en", "e")


def words(name: str) -> list[str]:
    return fold(name).replace("/", " ").replace("-", " ").replace("'", " ").split()


def stems(word: str) -> set[str]:
    return {word} | {
        word[: -len(s)] for s in _SUFFIXES if word.endswith(s) and len(word) > len(s) + 2
    }


def _near(a: str, b: str, ratio: float) -> bool:
    return difflib.SequenceMatcher(None, a, b).ratio() >= ratio


def frozen_forms(path: Path = FROZEN) -> tuple[set[str], set[str]]:
    """Every frozen survey name and clue, joined ("burntsienna"), and every word stem."""
    joined: set[str] = set()
    stemmed: set[str] = set()
    for line in path.read_text("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        _lang, clue, _colour, survey_name = line.split("\t")
        for name in (clue, survey_name):
            joined.add("".join(words(name)))
            for word in words(name):
                stemmed |= stems(word)
    return joined, stemmed


def why_left_out(name: str, joined: set[str], stemmed: set[str]) -> str | None:
    """Which rule leaves ``name`` out (see the module's docstring), or None to keep it."""
    form = "".join(words(name))
    if form in joined:
        return "name"
    if any(min(len(form), len(f)) >= 4 and _near(form, f, 0.8) for f in joined):
        return "spelling"
    for word in words(name):
        own = stems(word)
        if own & stemmed:
            return "word"
        if any(min(len(s), len(f)) >= 5 and _near(s, f, 0.85) for s in own for f in stemmed):
            return "word spelling"
    return None


def build() -> tuple[str, Counter[str]]:
    joined, stemmed = frozen_forms()
    counts: Counter[str] = Counter()
    kept: list[str] = []
    for line in SURVEY.read_text("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        name, hex_colour = line.split("\t")
        reason = why_left_out(name, joined, stemmed)
        counts[reason or "kept"] += 1
        if reason is None:
            kept.append(f"{name}\t{hex_colour.upper()}")
    total = sum(counts.values())
    header = [
        "# The xkcd colour survey's names (Randall Munroe, 2010; CC0 1.0 public domain",
        "# dedication; read from matplotlib 3.11.2's _color_data.py XKCD_COLORS) that no frozen",
        "# Pitacor case could be looked up by: benchmarks/pitacor_survey_names.py writes this",
        f"# file and says the rule. Of {total} names: {counts['kept']} kept; left out "
        f"{counts['name']} frozen names,",
        f"# {counts['spelling']} near spellings of one, {counts['word']} sharing a word with one, "
        f"{counts['word spelling']} a near-spelt word.",
        "# name\thex",
    ]
    return "\n".join(header + kept) + "\n", counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args()
    text, counts = build()
    print(dict(counts))
    if args.check:
        return 0 if OUT.read_text("utf-8") == text else 1
    OUT.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
