"""Benchmark a restart: how long until every live room is back (issue 20: 1,000 live rooms
with long logs back in at most 2 s).

It writes a database as a server that ran for a while leaves it: R live Pitacor rooms, each
with a log of L records a real fold accepted (four players, matches one after another:
marker moves, confirmations, chat, timeouts, rematches) and a snapshot: at its last record,
as a server that stopped leaves it, or ``--after-snapshot`` records before it, as a crash
does (a room saves one every ``SNAPSHOT_EVERY``). Then it times what ``tertulia serve`` does
before it listens: open the store, read every live room (``load_live_rooms``: snapshot and tail) and
rebuild and start each one (``RoomManager.start``). ``--compare N`` also times N rooms
restored from their whole logs (the snapshots removed), for what the snapshots save.
``--replay`` also times folding one room's whole log in this process (decode and fold each
record, as ``replay`` does), the best of three.

``--against REV`` measures the code of git revision REV and this working tree in the same run,
turn by turn (``--repeat`` times each, in child processes that import ``tertulia`` from each
tree's ``src``), and prints each side's median and their ratio: on a shared machine a change
is only seen against a "before" measured in the same minutes.

    .venv/bin/python benchmarks/restart.py --rooms 1000 --records 1000 --compare 50
    .venv/bin/python benchmarks/restart.py --rooms 1000 --records 1000 --after-snapshot 100
    .venv/bin/python benchmarks/restart.py --rooms 200 --after-snapshot 99 --replay \
        --against 1975d6f --repeat 3

The database is written straight with sqlite3 (one transaction), not through the store's
writer: that is set-up, not what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tertulia
from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.model import check_new, fold
from tertulia.rooms.records import (
    Chatted,
    GameMove,
    Joined,
    MatchStarted,
    Rematched,
    record_decoder,
    record_encoder,
)
from tertulia.rooms.replay import SNAPSHOT_EVERY, snapshot_of
from tertulia.rooms.room_data import Status, new_room
from tertulia.store.sqlite import SQLiteStore

PLAYERS = ["p0", "p1", "p2", "p3"]


def one_log(
    records: int, after: int, seed: int = 7
) -> tuple[list[tuple[int, float, bytes]], tuple[int, float, bytes] | None]:
    """A room's accepted log of ``records`` records [(seq, at, payload)], and its snapshot
    ``after`` records before the end (None for 0 records)."""
    rng = random.Random(seed)
    model = new_room("BENCH", False, "pitacor", GAMES)
    log: list[tuple[int, float, bytes]] = []
    snapshot = None
    at = 1_000_000.0
    pending = [Joined(0, p, f"Player {p}") for p in PLAYERS]
    refused = 0  # moves refused in a row: the players wait, and the clock runs out
    while len(log) < records:
        at += rng.uniform(0.5, 20)
        if pending:
            record = pending.pop(0)
        elif model.status is Status.LOBBY:
            record = MatchStarted(at, "p0", rng.getrandbits(32))
        elif model.status is Status.ENDED:
            record = Rematched(at, "p0")
        elif refused > 8:
            at += 120
            record = GameMove(at, None, {"type": "timeout"})
        else:
            record = _play(model, rng, at)
        record = type(record)(**{**_fields(record), "at": at})
        try:
            check_new(model, record)
            fold(model, record)
        except RuleError:
            refused += 1
            continue
        refused = 0
        log.append((len(log) + 1, at, record_encoder.encode(record)))
        if len(log) == records - after:
            snapshot = (len(log), at, snapshot_of(model))
    return log, snapshot


# Made-up words (a clue may be any word that is not a colour, each once a match).
SYLLABLES = ["bra", "clo", "fen", "mur", "tav", "zor", "bix", "dal", "om", "ust", "ki", "pe"]


def _play(model, rng: random.Random, at: float):
    """One move of a Pitacor match as players make them: the giver chooses and gives clues,
    each guesser moves a marker a few times and confirms, a chat line now and then."""
    match = model.match
    phase, giver = match.phase.value, match.round.giver
    guessers = [p for p in PLAYERS if p != giver]
    if rng.random() < 0.05:
        return Chatted(at, rng.choice(PLAYERS), rng.choice(["nice", "hmm", "that one!", "gg"]))
    if phase == "choose":
        return GameMove(at, giver, {"type": "choose_target", "index": rng.randrange(4)})
    if phase == "clue2" and rng.random() < 0.3:
        return GameMove(at, giver, {"type": "pass_clue"})
    if phase in ("clue1", "clue2"):
        return GameMove(at, giver, {"type": "give_clue", "text": _word(rng)})
    if phase in ("guess1", "guess2"):
        who = rng.choice(guessers)
        if rng.random() < 0.3:
            return GameMove(at, who, {"type": "confirm"})
        cell = f"{rng.choice('ABCDEFGHIJKLMNOP')}{rng.randint(1, 30)}"
        return GameMove(at, who, {"type": "select_cell", "cell": cell})
    if phase == "reveal":
        return GameMove(at, rng.choice(PLAYERS), {"type": "next_round"})
    return GameMove(at + 120, None, {"type": "timeout"})


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(3))


def _fields(record) -> dict:
    return {name: getattr(record, name) for name in record.__struct_fields__}


def write_database(path: Path, rooms: int, records: int, after: int) -> None:
    asyncio.run(_create_schema(path))
    log, latest = one_log(records, after)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    for n in range(rooms):
        room_id = conn.execute(
            "INSERT INTO rooms (code, game, public, created_at, meta) VALUES (?, ?, 0, ?, '{}')",
            (f"R{n:05d}", "pitacor", 1_000_000.0),
        ).lastrowid
        conn.executemany(
            "INSERT INTO log (room_id, seq, at, payload) VALUES (?, ?, ?, ?)",
            [(room_id, seq, at, payload) for seq, at, payload in log],
        )
        if latest is not None:
            conn.execute(
                "INSERT INTO snapshots (room_id, seq, at, payload) VALUES (?, ?, ?, ?)",
                (room_id, *latest),
            )
    conn.execute("COMMIT")
    conn.close()


async def _create_schema(path: Path) -> None:
    async with SQLiteStore(path):
        pass


async def restart(path: Path) -> tuple[int, dict[str, float]]:
    """What ``tertulia serve`` does before it listens; seconds for each part."""
    began, cpu_began = time.perf_counter(), time.process_time()
    store = SQLiteStore(path)
    opened = time.perf_counter()
    lives = await store.load_live_rooms()
    read = time.perf_counter()
    tail = sum(len(live.entries) for live in lives)
    # RoomManager.start reads them again itself: time it whole, as the server runs it.
    manager = RoomManager(store, GAMES)
    started = time.perf_counter()
    count = await manager.start()
    back, cpu_back = time.perf_counter(), time.process_time()
    await manager.shutdown()
    await store.close()
    return count, {
        "open": opened - began,
        "read": read - opened,
        "tail_records": tail,
        "start": back - started,
        "total": (opened - began) + (back - started),
        # This process's CPU for the same span (the read's thread included): on a machine
        # shared with other work the wall time is mostly waiting for a core.
        "cpu": cpu_back - cpu_began,
    }


def replay_one_log(records: int) -> dict[str, float]:
    """Fold one room's whole log of ``records`` records into an empty room as ``replay`` does
    (decode each record, fold it without judging text again): the best of three, seconds."""
    payloads = [payload for _, _, payload in one_log(records, 0)[0]]
    moves = sum(1 for p in payloads if isinstance(record_decoder.decode(p), GameMove))
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        model = new_room("BENCH", False, "pitacor", GAMES)
        for payload in payloads:
            fold(model, record_decoder.decode(payload), replaying=True)
        best = min(best, time.perf_counter() - began)
    return {"replay": best, "replay_records": len(payloads), "replay_moves": moves}


def measure(args: argparse.Namespace) -> dict[str, float]:
    """One run: the database written, the restart timed (and the rest ``args`` asks for)."""
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="tertulia-restart-") as folder:
        path = Path(folder) / "restart.sqlite3"
        write_database(path, args.rooms, args.records, args.after_snapshot)
        results["rooms"], t = asyncio.run(restart(path))
        results.update(t)
    if args.replay:
        results.update(replay_one_log(args.records))
    return results


def against(args: argparse.Namespace) -> None:
    """This tree and revision ``args.against`` in the same run, turn by turn (ABBA...)."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="tertulia-before-") as before:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", args.against, "src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", before], input=archive, check=True)
        trees = {"before": Path(before) / "src", "after": root / "src"}
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        child = [sys.executable, __file__, "--json", "--rooms", str(args.rooms)]
        child += ["--records", str(args.records), "--after-snapshot", str(args.after_snapshot)]
        child += ["--replay"] if args.replay else []
        for turn in range(args.repeat):
            for side in ("before", "after") if turn % 2 == 0 else ("after", "before"):
                env = {**os.environ, "PYTHONPATH": str(trees[side])}
                out = subprocess.run(child, env=env, check=True, capture_output=True, text=True)
                result = json.loads(out.stdout.splitlines()[-1])
                if not result.pop("tertulia").startswith(str(trees[side])):
                    raise RuntimeError(f"the {side} run did not import tertulia from its tree")
                runs[side].append(result)
                line = f"restart {result['total']:.2f} s (CPU {result['cpu']:.2f} s)"
                if args.replay:
                    line += f", one whole log replayed {result['replay'] * 1000:.1f} ms"
                print(f"  {side:6} {line}", flush=True)
    for key, label in (("total", "restart wall"), ("cpu", "restart CPU"), ("replay", "replay")):
        if key not in runs["after"][0]:
            continue
        old = statistics.median(r[key] for r in runs["before"])
        new = statistics.median(r[key] for r in runs["after"])
        print(f"{label}: before {old:.3f} s, after {new:.3f} s: {old / new:.1f}x as fast")
    tail = runs["after"][0]["tail_records"]
    moves = runs["after"][0].get("replay_moves")
    replayed = f"; the replayed log: {args.records} records, {moves} game moves" if moves else ""
    print(f"({args.rooms} rooms, {tail} records after the snapshots{replayed})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--records", type=int, default=1000, help="log length of each room")
    parser.add_argument(
        "--after-snapshot",
        type=int,
        default=0,
        help="records after each room's snapshot: 0 as a server that stopped leaves them, up "
        f"to {SNAPSHOT_EVERY - 1} after a crash",
    )
    parser.add_argument(
        "--compare", type=int, default=0, help="also restore this many rooms from whole logs"
    )
    parser.add_argument(
        "--replay", action="store_true", help="also time one whole log folded in this process"
    )
    parser.add_argument(
        "--against", metavar="REV", help="also measure git revision REV, turn by turn with this"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (--against)")
    parser.add_argument("--json", action="store_true", help="one run, its numbers as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps({**measure(args), "tertulia": tertulia.__file__}))
        return
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.against:
        against(args)
        return
    with tempfile.TemporaryDirectory(prefix="tertulia-restart-") as folder:
        path = Path(folder) / "restart.sqlite3"
        t0 = time.perf_counter()
        write_database(path, args.rooms, args.records, args.after_snapshot)
        size = path.stat().st_size / 2**20
        print(
            f"database: {args.rooms} live rooms x {args.records} records, each with a "
            f"snapshot {args.after_snapshot} records before its end: {size:.0f} MiB, written "
            f"in {time.perf_counter() - t0:.1f} s"
        )
        count, t = asyncio.run(restart(path))
        print(
            f"restart with snapshots: {count} rooms back in {t['total']:.2f} s "
            f"({t['cpu']:.2f} s of CPU) "
            f"(open {t['open']:.2f} s, RoomManager.start {t['start']:.2f} s; "
            f"load_live_rooms alone {t['read']:.2f} s, {t['tail_records']} records after "
            f"the snapshots)"
        )
        if args.compare:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("DELETE FROM snapshots")
            conn.execute("UPDATE rooms SET closed_at = 1 WHERE id > ?", (args.compare,))
            conn.close()
            count, t = asyncio.run(restart(path))
            per_room = t["total"] / max(count, 1)
            print(
                f"restart from whole logs: {count} rooms back in {t['total']:.2f} s "
                f"({t['cpu']:.2f} s of CPU) "
                f"({per_room * 1000:.1f} ms a room: {per_room * args.rooms:.1f} s for "
                f"{args.rooms})"
            )
    if args.replay:
        t = replay_one_log(args.records)
        print(
            f"one whole log of {t['replay_records']} records ({t['replay_moves']} game moves) "
            f"replayed in {t['replay'] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
