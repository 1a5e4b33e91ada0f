"""Benchmark `SQLiteStore.append`: throughput, latency and how well commits group.

Each of R rooms is one asyncio task that appends A entries one after another,
awaiting each (as a room's writer does). With --rate 0 every room appends as
fast as it can; with --rate N each room appends N times a second from a random
phase, like R rooms of players acting at once.

    .venv/bin/python benchmarks/store_append.py --rooms 200 --appends 50 --rate 0
    .venv/bin/python benchmarks/store_append.py --rooms 200 --appends 50 --rate 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from tertulia.store import LogEntry, SQLiteStore


async def room(
    store: SQLiteStore, code: str, appends: int, rate: float, payload: bytes, out: list[float]
) -> None:
    start = time.perf_counter() + (random.random() / rate if rate else 0.0)
    for seq in range(1, appends + 1):
        if rate:
            delay = start + (seq - 1) / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        began = time.perf_counter()
        await store.append(code, LogEntry(seq, time.time(), payload))
        out.append(time.perf_counter() - began)


async def bench(path: Path, rooms: int, appends: int, rate: float, size: int) -> None:
    payload = b'{"action":"' + b"x" * max(0, size - 13) + b'"}'
    async with SQLiteStore(path) as store:
        codes = [f"B{i:04d}" for i in range(rooms)]
        for code in codes:
            await store.create_room(code, "bench", public=False)
        latencies: list[float] = []
        commits_before = store.stats.commits
        began = time.perf_counter()
        await asyncio.gather(
            *(room(store, code, appends, rate, payload, latencies) for code in codes)
        )
        elapsed = time.perf_counter() - began
        commits = store.stats.commits - commits_before

    total = len(latencies)
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    mode = f"{rate:g}/s per room" if rate else "as fast as possible"
    print(f"rooms={rooms} appends/room={appends} payload={len(payload)} B  ({mode})")
    print(f"appends      {total} in {elapsed:.2f} s = {total / elapsed:,.0f} appends/s")
    print(f"latency      p50 {cuts[49] * 1e3:.2f} ms   p99 {cuts[98] * 1e3:.2f} ms")
    print(
        f"commits      {commits} = {commits / elapsed:,.0f} commits/s, "
        f"{total / commits:.1f} appends per commit"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--appends", type=int, default=50, help="appends per room")
    parser.add_argument("--rate", type=float, default=0.0, help="appends/s per room; 0 = max")
    parser.add_argument("--payload", type=int, default=200, help="payload size in bytes")
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = parser.parse_args()
    if args.db:
        asyncio.run(bench(args.db, args.rooms, args.appends, args.rate, args.payload))
        return
    # The temporary folder sits beside the repository, not in /tmp, which may be a
    # tmpfs where fsync costs nothing and the numbers would flatter us.
    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix=".store-bench-", dir=here) as folder:
        db = Path(folder) / "bench.db"
        asyncio.run(bench(db, args.rooms, args.appends, args.rate, args.payload))
    print(f"(temporary database removed; {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
