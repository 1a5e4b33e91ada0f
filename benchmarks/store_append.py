"""Benchmark the store's `append`: throughput, latency and how well commits group.

Each of R rooms is one asyncio task that appends A entries one after another,
awaiting each (as a room's writer does). With --rate 0 every room appends as
fast as it can; with --rate N each room appends N times a second from a random
phase, like R rooms of players acting at once.

--backend picks SQLite (the default), PostgreSQL (the cluster's log, at --database-url,
in a schema of its own dropped afterwards), or both one after the other in the same run,
with the ratios of PostgreSQL to SQLite: the machine is shared, so compare within a run.

    .venv/bin/python benchmarks/store_append.py --rooms 200 --appends 50 --rate 0
    .venv/bin/python benchmarks/store_append.py --rooms 200 --appends 50 --rate 10
    .venv/bin/python benchmarks/store_append.py --rooms 200 --appends 20 --backend both
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from tertulia.store import LogEntry
from tertulia.store.sqlite import SQLiteStore

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def room(
    store: Any, code: str, appends: int, rate: float, payload: bytes, out: list[float]
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


async def bench(
    opened: AbstractAsyncContextManager[Any], rooms: int, appends: int, rate: float, size: int
) -> dict[str, float]:
    payload = b'{"action":"' + b"x" * max(0, size - 13) + b'"}'
    async with opened as store:
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
    return {
        "appends/s": total / elapsed,
        "p50": cuts[49],
        "p99": cuts[98],
        "appends per commit": total / commits,
    }


@asynccontextmanager
async def postgres_store(url: str) -> AsyncIterator[Any]:
    """A PostgresStore in a fresh schema, dropped afterwards with everything in it."""
    import psycopg

    from tertulia.store.postgres import PostgresStore

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    try:
        async with await PostgresStore.open(url, schema=schema) as store:
            yield store
    finally:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def run_backends(
    backends: list[str], sqlite_path: Path, args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    openers: dict[str, Callable[[], AbstractAsyncContextManager[Any]]] = {
        "sqlite": lambda: SQLiteStore(sqlite_path),
        "postgres": lambda: postgres_store(args.database_url),
    }
    results = {}
    for backend in backends:
        print(f"-- {backend}")
        results[backend] = asyncio.run(
            bench(openers[backend](), args.rooms, args.appends, args.rate, args.payload)
        )
    if len(results) == 2:
        sqlite, pg = results["sqlite"], results["postgres"]
        print("-- postgres / sqlite")
        print(
            f"appends/s x{pg['appends/s'] / sqlite['appends/s']:.2f}   "
            f"p50 x{pg['p50'] / sqlite['p50']:.2f}   p99 x{pg['p99'] / sqlite['p99']:.2f}   "
            f"appends per commit {sqlite['appends per commit']:.1f} vs "
            f"{pg['appends per commit']:.1f}"
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--appends", type=int, default=50, help="appends per room")
    parser.add_argument("--rate", type=float, default=0.0, help="appends/s per room; 0 = max")
    parser.add_argument("--payload", type=int, default=200, help="payload size in bytes")
    parser.add_argument("--db", type=Path, help="SQLite file (default: a temporary one)")
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TERTULIA_TEST_DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="PostgreSQL for --backend postgres/both (default: the tests' one)",
    )
    args = parser.parse_args()
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    if args.db:
        run_backends(backends, args.db, args)
        return
    # The temporary folder sits beside the repository, not in /tmp, which may be a
    # tmpfs where fsync costs nothing and the numbers would flatter us.
    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix=".store-bench-", dir=here) as folder:
        run_backends(backends, Path(folder) / "bench.db", args)
    print(f"(temporary databases removed; {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
