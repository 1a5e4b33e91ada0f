"""Group commit: many rooms' appends share transactions; a batch fails or lands as a whole."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_testing import NoSuchOperation, StoreOpener, entries, entry, run, seqs_by_room

from tertulia.store import CommitFailed, SeqError, Store
from tertulia.store.sqlite import SQLiteStore


def test_concurrent_appends_all_land_in_far_fewer_transactions(open_store: StoreOpener) -> None:
    rooms, per_room = 50, 20
    codes = [f"R{i:03d}" for i in range(rooms)]

    async def room_writer(store: Store, code: str) -> None:
        # One writer per room, as in the rooms layer: each append awaited in turn.
        for seq in range(1, per_room + 1):
            await store.append(code, entry(seq))

    async def body() -> None:
        async with open_store() as store:
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
    logged = run(lambda: seqs_by_room(open_store))
    assert logged == {code: list(range(1, per_room + 1)) for code in codes}


@contextlib.contextmanager
def _writer_held(db: Path) -> Iterator[None]:
    """Another connection holds SQLite's write lock, so the writer waits in BEGIN and
    everything submitted meanwhile goes into its next batch together."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_refused_request_does_not_harm_its_batch(tmp_path: Path) -> None:
    db = tmp_path / "t.db"

    async def body() -> None:
        async with SQLiteStore(db) as store:
            for code in ("AAAA", "BBBB", "CCCC"):
                await store.create_room(code, "pitacor", public=True)
            commits = store.stats.commits
            with _writer_held(db):
                first = store.start_append("CCCC", entry(1))
                await asyncio.sleep(0.2)  # the writer has it and waits for the lock
                good = store.start_append("AAAA", entries(1, 2))
                bad = store.start_append("BBBB", entry(2))
                also_good = store.start_append("BBBB", entry(1))
                await asyncio.sleep(0.05)  # all three reach the writer's socket
            await first
            await good
            with pytest.raises(SeqError):
                await bad
            await also_good
            assert store.stats.commits <= commits + 2  # the held batch, then the rest

    run(body)
    assert run(lambda: seqs_by_room(db)) == {"AAAA": [1, 2], "BBBB": [1], "CCCC": [1]}


def test_a_failed_transaction_fails_every_request_in_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"

    async def body() -> None:
        async with SQLiteStore(db, busy_timeout=0.2) as store:
            for code in ("AAAA", "BBBB"):
                await store.create_room(code, "pitacor", public=True)
            # A second process holding the write lock: the store's BEGIN times out,
            # as it would on a real lock-up, and no one must be told "done".
            with _writer_held(db):
                results = await asyncio.gather(
                    store.append("AAAA", entries(1, 2)),
                    store.append("BBBB", entry(1)),
                    return_exceptions=True,
                )
            assert all(isinstance(r, CommitFailed) for r in results), results
            assert isinstance(results[0].__cause__, sqlite3.OperationalError)
            assert store.stats.failed_batches >= 1
            # Nothing was written, so the same seqs are accepted once the lock is gone.
            await store.append("AAAA", entries(1, 2))

    run(body)
    assert run(lambda: seqs_by_room(db)) == {"AAAA": [1, 2], "BBBB": []}


def test_an_unexpected_error_rolls_back_the_whole_batch(tmp_path: Path) -> None:
    """A request the writer cannot even run (here: an operation it does not know, as a bug
    in the server would send) fails its whole batch, innocent neighbours included."""
    db = tmp_path / "t.db"

    async def body() -> None:
        async with SQLiteStore(db) as store:
            await store.create_room("AAAA", "pitacor", public=True)
            await store.create_room("BBBB", "pitacor", public=True)
            with _writer_held(db):
                first = store.start_append("BBBB", entry(1))
                await asyncio.sleep(0.2)
                innocent = store.start_append("AAAA", entry(1))
                culprit = store._writer.submit(NoSuchOperation())
                await asyncio.sleep(0.05)
            await first
            for future in (innocent, culprit):
                with pytest.raises(CommitFailed, match="nothing written"):
                    await future

    run(body)
    assert run(lambda: seqs_by_room(db)) == {"AAAA": [], "BBBB": [1]}


def test_a_killed_writer_fails_every_write_instead_of_hanging(tmp_path: Path) -> None:
    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            await store.create_room("AAAA", "pitacor", public=True)
            store._writer._process.kill()
            await asyncio.to_thread(store._writer._process.wait)
            for seq in (1, 1):  # the one in flight, and any later one
                with pytest.raises(CommitFailed, match="writer process stopped"):
                    await asyncio.wait_for(store.append("AAAA", entry(seq)), 10)

    run(body)


def test_the_writer_ends_when_the_server_is_killed(tmp_path: Path) -> None:
    """SIGKILL leaves no time to say goodbye: the writer sees its socket close and exits,
    so a restarted server never finds the old one holding the file."""
    script = (
        "import asyncio, sys\n"
        "from tertulia.store.sqlite import SQLiteStore\n"
        "async def main():\n"
        "    store = SQLiteStore(sys.argv[1])\n"
        "    await store.create_room('AAAA', 'pitacor', public=True)\n"
        "    print(store._writer._process.pid, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path / "t.db")], stdout=subprocess.PIPE, text=True
    )
    try:
        writer_pid = int(server.stdout.readline())
        server.kill()
        server.wait(10)
        deadline = time.monotonic() + 10
        while _alive(writer_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(writer_pid)
    finally:
        server.kill()
        server.wait(10)


def _alive(pid: int) -> bool:
    """Running (not a zombie waiting for its parent's wait)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


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


def test_appends_of_many_rooms_made_in_one_turn_of_the_loop_share_one_transaction(
    tmp_path: Path,
) -> None:
    """What the rooms ask of the store in one turn of the event loop goes to the writer
    together, so it lands in one transaction instead of the first request's alone and the
    rest in others as the writer wakes for each (at 5,000 players a turn holds many moves:
    CPU per action, p95 and p99 all fell; benchmarks/README.md, "Load")."""
    codes = [f"R{i:03d}" for i in range(40)]

    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            for code in codes:
                await store.create_room(code, "pitacor", public=True)
            before = store.stats.commits
            # Each task submits on its first step: all of them in the same turn.
            await asyncio.gather(*(store.append(code, entry(1)) for code in codes))
            assert store.stats.commits - before == 1

    run(body)
    assert run(lambda: seqs_by_room(tmp_path / "t.db")) == {code: [1] for code in codes}
