"""The log: what is appended comes back, in order, after reopening; bad seqs are refused."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from store_testing import StoreOpener, entries, entry, run, seqs_by_room

from tertulia.store import (
    LogEntry,
    RoomExists,
    SeqError,
    SnapshotError,
    StoreClosed,
    UnknownRoom,
)
from tertulia.store.sqlite import SQLiteStore


def test_appended_entries_survive_reopening_in_order(open_store: StoreOpener) -> None:
    async def write() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True, meta={"host": "p1"})
            await store.create_room("WXYZ", "pinto", public=False, created_at=5.0)
            await store.append("ABCD", entry(1))
            await store.append("ABCD", entries(2, 4))
            await store.append("WXYZ", entries(1, 2))

    async def read() -> None:
        async with open_store() as store:
            rooms = await store.load_live_rooms()
            assert [live.room.code for live in rooms] == ["ABCD", "WXYZ"]
            abcd, wxyz = rooms
            assert abcd.room.game == "pitacor" and abcd.room.public
            assert abcd.room.meta == {"host": "p1"}
            assert abcd.entries == entries(1, 4)  # seq, time and payload all kept
            assert abcd.snapshot is None and abcd.last_seq == 4
            assert wxyz.room.created_at == 5.0 and not wxyz.room.public
            assert [e.payload for e in wxyz.entries] == [e.payload for e in entries(1, 2)]

    run(write)
    run(read)


def test_duplicate_seq_is_refused(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            await store.append("ABCD", entries(1, 3))
            with pytest.raises(SeqError, match="expected seq 4, got 3"):
                await store.append("ABCD", entry(3, "second writer"))

    run(body)
    assert run(lambda: seqs_by_room(open_store)) == {"ABCD": [1, 2, 3]}


@pytest.mark.parametrize(
    "batch",
    [
        [3, 4, 6],  # a gap inside the batch
        [3, 5],  # a gap between batches' entries
        [4, 3],  # out of order
        [3, 3],  # a duplicate inside the batch
        [2, 3],  # starts in the past
        [5],  # starts after a gap
    ],
)
def test_a_bad_batch_writes_nothing_of_itself(open_store: StoreOpener, batch: list[int]) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            await store.append("ABCD", entries(1, 2))
            with pytest.raises(SeqError):
                await store.append("ABCD", [entry(seq, "bad") for seq in batch])
            await store.append("ABCD", entry(3, "good"))  # the log goes on from 2

    run(body)
    assert run(lambda: seqs_by_room(open_store)) == {"ABCD": [1, 2, 3]}


def test_the_first_seq_of_a_room_is_one(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            with pytest.raises(SeqError):
                await store.append("ABCD", entry(2))
            with pytest.raises(ValueError):
                await store.append("ABCD", entry(0))

    run(body)


def test_payload_must_be_bytes(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            with pytest.raises(TypeError, match="payload bytes"):
                await store.append("ABCD", LogEntry(1, 1.0, "text"))  # type: ignore[arg-type]
            await store.append("ABCD", LogEntry(1, 1.0, bytearray(b"ok")))  # type: ignore[arg-type]
            [live] = await store.load_live_rooms()
            assert live.entries[0].payload == b"ok"

    run(body)


def test_unknown_and_duplicate_rooms_are_refused(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            with pytest.raises(UnknownRoom):
                await store.append("NOPE", entry(1))
            await store.create_room("ABCD", "pitacor", public=True)
            with pytest.raises(RoomExists):
                await store.create_room("ABCD", "pinto", public=True)
            with pytest.raises(UnknownRoom):
                await store.update_room_meta("NOPE", {})
            with pytest.raises(UnknownRoom):
                await store.close_room("NOPE", "idle")

    run(body)


def test_closed_room_takes_no_more_entries_and_its_code_can_be_reused(
    open_store: StoreOpener,
) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            await store.append("ABCD", entries(1, 5))
            await store.close_room("ABCD", "idle")
            with pytest.raises(UnknownRoom):
                await store.append("ABCD", entry(6))
            await store.create_room("ABCD", "haiclue", public=False)
            await store.append("ABCD", entry(1))  # a new room, a new log
            [live] = await store.load_live_rooms()
            assert live.room.game == "haiclue" and live.entries == [entry(1)]

    run(body)


def test_closed_rooms_are_not_loaded(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            for code in ("AAAA", "BBBB", "CCCC"):
                await store.create_room(code, "pitacor", public=True)
                await store.append(code, entries(1, 2))
            await store.close_room("BBBB", "finished")
            await store.close_room("CCCC", "idle", keep_log=True)

    run(body)
    assert run(lambda: seqs_by_room(open_store)) == {"AAAA": [1, 2]}


def test_meta_update_replaces_meta(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True, meta={"a": 1})
            await store.update_room_meta("ABCD", {"b": [1, "dois"]})
        async with open_store() as store:
            [live] = await store.load_live_rooms()
            assert live.room.meta == {"b": [1, "dois"]}

    run(body)


def test_replay_starts_from_the_latest_snapshot(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            await store.append("ABCD", entries(1, 6))
            await store.save_snapshot("ABCD", 3, b"state@3", at=7.0)
            await store.save_snapshot("ABCD", 5, b"state@5", at=8.0)
            with pytest.raises(SnapshotError):  # behind the latest one
                await store.save_snapshot("ABCD", 4, b"state@4")
            # At the same seq it replaces it (a newer version writes the state it reads).
            await store.save_snapshot("ABCD", 5, b"state@5 again", at=8.5)
            with pytest.raises(SnapshotError):  # ahead of the log
                await store.save_snapshot("ABCD", 7, b"state@7")
            await store.append("ABCD", entry(7))  # seqs go on from the log, not the snapshot
        async with open_store() as store:
            [live] = await store.load_live_rooms()
            assert live.snapshot is not None
            assert (live.snapshot.seq, live.snapshot.payload) == (5, b"state@5 again")
            assert [e.seq for e in live.entries] == [6, 7] and live.last_seq == 7

    run(body)


def test_a_closed_store_refuses_requests_and_close_is_idempotent(open_store: StoreOpener) -> None:
    async def body() -> None:
        store = await open_store()
        await store.create_room("ABCD", "pitacor", public=True)
        await store.close()
        await store.close()
        with pytest.raises(StoreClosed):
            await store.append("ABCD", entry(1))
        with pytest.raises(StoreClosed):
            await store.load_live_rooms()

    run(body)


def test_start_append_is_on_its_way_before_the_caller_awaits(tmp_path: Path) -> None:
    """The write must not wait for the await: it leaves at the end of the turn of the loop
    that made it (with every other request of that turn, in one send), and nothing is
    durable-acknowledged before COMMIT (the future settles only after it)."""
    import sqlite3
    import time

    db = tmp_path / "t.db"

    def logged() -> list[int]:
        with sqlite3.connect(db) as conn:
            return [row[0] for row in conn.execute("SELECT seq FROM log ORDER BY seq")]

    async def body() -> None:
        async with SQLiteStore(db) as store:
            await store.create_room("ABCD", "pitacor", public=True)
            saving = store.start_append("ABCD", entries(1, 2))
            await asyncio.sleep(0)  # the turn ends; the caller has not awaited the save
            deadline = time.monotonic() + 10
            while logged() != [1, 2] and time.monotonic() < deadline:
                time.sleep(0.01)  # blocks the loop: only the writer process can make progress
            assert logged() == [1, 2]
            assert await saving is None
            with pytest.raises(SeqError):  # refused on the writer, reported when awaited
                await store.start_append("ABCD", entry(2))

    run(body)


def test_an_answer_already_arrived_is_settled_on_demand_without_a_turn_of_the_loop(
    tmp_path: Path,
) -> None:
    """A room starting new work first finishes the saves the writer has confirmed, instead of
    leaving them until the event loop next polls (under load, many frames later)."""

    async def body() -> None:
        async with SQLiteStore(tmp_path / "t.db") as store:
            await store.create_room("ABCD", "pitacor", public=True)
            heard: list[object] = []
            store.settle_answered()  # nothing in flight: nothing happens
            saving = store.start_append("ABCD", entry(1), on_durable=heard.append)
            await asyncio.sleep(0)  # sent as the turn ends
            deadline = time.monotonic() + 10
            while not heard and time.monotonic() < deadline:
                time.sleep(0.01)  # the loop is blocked: only settle_answered can hear it
                store.settle_answered()
            assert heard == [None]
            await saving
            assert heard == [None]  # told once

    run(body)


def test_on_durable_hears_the_outcome_before_the_waiters_wake(open_store: StoreOpener) -> None:
    """A room tells its players from this callback, without waiting for its task to wake."""

    async def body() -> None:
        async with open_store() as store:
            await store.create_room("ABCD", "pitacor", public=True)
            heard: list[object] = []
            await store.start_append("ABCD", entry(1), on_durable=heard.append)
            heard.append("waiter woke")
            assert heard == [None, "waiter woke"]
            heard.clear()
            with pytest.raises(SeqError):
                await store.start_append("ABCD", entry(1), on_durable=heard.append)
            assert len(heard) == 1 and isinstance(heard[0], SeqError)

    run(body)
