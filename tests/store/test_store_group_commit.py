"""Group commit: many rooms' appends share transactions; a batch fails or lands as a whole."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from store_testing import entries, entry, run, seqs_by_room

from tertulia.store import CommitFailed, SeqError, SQLiteStore


def test_concurrent_appends_all_land_in_far_fewer_transactions(tmp_path: Path) -> None:
    rooms, per_room = 50, 20
    codes = [f"R{i:03d}" for i in range(rooms)]

    async def room_writer(store: SQLiteStore, code: str) -> None:
        # One writer per room, as in the rooms layer: each append awaited in turn.
        for seq in range(1, per_room + 1):
            await store.append(code, entry(seq))

    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            for code in codes:
                await store.create_room(code, "pitacor", public=True)
            before = store.stats.commits
            await asyncio.gather(*(room_writer(store, code) for code in codes))
            commits = store.stats.commits - before
            appends = rooms * per_room
            assert store.stats.entries == appends
            # One round of every room per transaction would be `per_room` commits;
            # allow plenty of slack for scheduling, but far from one per append.
            assert commits <= appends / 10, (commits, appends)

    run(body)
    logged = run(lambda: seqs_by_room(tmp_path / "t.db"))
    assert logged == {code: list(range(1, per_room + 1)) for code in codes}


async def _hold_writer(store: SQLiteStore) -> tuple[asyncio.Future[object], threading.Event]:
    """Park the writer thread inside a transaction until the event is set, so that
    everything submitted meanwhile goes into the next batch together."""
    entered, gate = threading.Event(), threading.Event()

    def hold(conn: sqlite3.Connection) -> None:
        entered.set()
        gate.wait(10)

    held = store._writer.submit(hold)
    await asyncio.to_thread(entered.wait, 10)
    return held, gate


def test_a_refused_request_does_not_harm_its_batch(tmp_path: Path) -> None:
    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            for code in ("AAAA", "BBBB"):
                await store.create_room(code, "pitacor", public=True)
            held, gate = await _hold_writer(store)
            commits = store.stats.commits
            good = asyncio.ensure_future(store.append("AAAA", entries(1, 2)))
            bad = asyncio.ensure_future(store.append("BBBB", entry(2)))
            also_good = asyncio.ensure_future(store.append("BBBB", entry(1)))
            await asyncio.sleep(0.05)  # let all three reach the queue
            gate.set()
            await held
            await good
            with pytest.raises(SeqError):
                await bad
            await also_good
            assert store.stats.commits == commits + 2  # the held batch, then the rest

    run(body)
    assert run(lambda: seqs_by_room(tmp_path / "t.db")) == {"AAAA": [1, 2], "BBBB": [1]}


def test_a_failed_transaction_fails_every_request_in_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"

    async def body() -> None:
        async with SQLiteStore(db, busy_timeout=0.2) as store:
            for code in ("AAAA", "BBBB"):
                await store.create_room(code, "pitacor", public=True)
            # A second process holding the write lock: the store's BEGIN times out,
            # as it would on a real lock-up, and no one must be told "done".
            other = sqlite3.connect(db, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            try:
                results = await asyncio.gather(
                    store.append("AAAA", entries(1, 2)),
                    store.append("BBBB", entry(1)),
                    return_exceptions=True,
                )
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert all(isinstance(r, CommitFailed) for r in results), results
            assert isinstance(results[0].__cause__, sqlite3.OperationalError)
            assert store.stats.failed_batches >= 1
            # Nothing was written, so the same seqs are accepted once the lock is gone.
            await store.append("AAAA", entries(1, 2))

    run(body)
    assert run(lambda: seqs_by_room(db)) == {"AAAA": [1, 2], "BBBB": []}


def test_an_unexpected_error_rolls_back_the_whole_batch(tmp_path: Path) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error (simulated by this op)")

    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            await store.create_room("AAAA", "pitacor", public=True)
            held, gate = await _hold_writer(store)
            innocent = asyncio.ensure_future(store.append("AAAA", entry(1)))
            culprit = store._writer.submit(broken)
            await asyncio.sleep(0.05)
            gate.set()
            await held
            for future in (innocent, culprit):
                with pytest.raises(CommitFailed, match="nothing written"):
                    await future

    run(body)
    assert run(lambda: seqs_by_room(tmp_path / "t.db")) == {"AAAA": []}


def test_close_finishes_every_submitted_write(tmp_path: Path) -> None:
    async def body() -> None:
        store = SQLiteStore(tmp_path / "t.db")
        await store.create_room("AAAA", "pitacor", public=True)
        pending = [asyncio.ensure_future(store.append("AAAA", entry(1)))]
        await asyncio.sleep(0)  # submitted, not yet committed
        pending += [asyncio.ensure_future(store.append("AAAA", entry(seq))) for seq in (2, 3)]
        await asyncio.sleep(0)
        await store.close()
        await asyncio.gather(*pending)

    run(body)
    assert run(lambda: seqs_by_room(tmp_path / "t.db")) == {"AAAA": [1, 2, 3]}
