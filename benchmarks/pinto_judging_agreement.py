"""How often does Pintó's pre-mark agree with our labelled set, and what does one cost?

    python benchmarks/pinto_judging_agreement.py            # agreement, misses, timing
    PYTHONPATH=/tmp/old/src python benchmarks/pinto_judging_agreement.py   # another judge

Reads tests/games/pinto/judging_pairs.tsv; prints the agreement per language, every pair the
judge gets wrong, the time to load each language's dictionaries, and the time per judgement
once loaded (every pair judged again with the judge's caches emptied, then warm). The
results are recorded in benchmarks/README.md ("Pintó judging").
"""

from __future__ import annotations

import csv
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "games" / "pinto" / "judging_pairs.tsv"


def labelled() -> list[dict[str, str]]:
    lines = [ln for ln in PAIRS.read_text("utf-8").splitlines() if not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def main() -> int:
    from tertulia.games.pinto import judging

    rows = labelled()
    for language in sorted({r["lang"] for r in rows}):
        started = time.perf_counter()
        judging.warm_up(language)
        print(f"warm_up({language}): {time.perf_counter() - started:.1f} s")
    total, agreed = Counter(), Counter()
    misses = []
    for r in rows:
        mark = judging.premark(r["title"], r["interpretation"], r["lang"])
        total[r["lang"]] += 1
        if mark.right == (r["verdict"] == "right"):
            agreed[r["lang"]] += 1
        else:
            misses.append((r, mark))
    for language in sorted(total):
        print(f"{language}: {agreed[language]} of {total[language]}")
    print(f"all: {sum(agreed.values())} of {len(rows)} ({sum(agreed.values()) / len(rows):.1%})")
    for r, mark in misses:
        print(
            f"  miss {r['lang']}\t{r['title']}\t{r['interpretation']}\t{r['verdict']}"
            f"\t(judge: {mark.reason})"
        )
    cold = _time_all(judging, rows, clear=True)
    warm = _time_all(judging, rows, clear=False)
    print(f"per judgement: {cold * 1e6:.0f} µs cold caches, {warm * 1e6:.0f} µs warm")
    return 0


def _time_all(judging, rows: list[dict[str, str]], *, clear: bool) -> float:
    """Mean seconds per premark over the set; ``clear`` empties the per-word caches first."""
    if clear:
        for module in (judging, sys.modules.get("tertulia.games.pinto.judging_forms")):
            for name in ("bases", "flat", "lemma", "key", "_category_key"):
                cached = getattr(module, name, None)
                if hasattr(cached, "cache_clear"):
                    cached.cache_clear()
    started = time.perf_counter()
    for r in rows:
        judging.premark(r["title"], r["interpretation"], r["lang"])
    return (time.perf_counter() - started) / len(rows)


if __name__ == "__main__":
    sys.exit(main())
