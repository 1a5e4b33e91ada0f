"""The PostgreSQL store's own behaviour: its schema, how its batches group and fail, what it
refuses that SQLite would take, and the identity key every node shares.

(What it shares with SQLite is tested on both back-ends through the `open_store` fixture.)
"""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from pg_testing import connect, logged, open_pg, row_held, until_blocked
from services import database_url
from store_testing import NoSuchOperation, entries, entry, run

from tertulia.store import CommitFailed, FinishedMatch, SeqError, StoreClosed, StoreError
from tertulia.store.postgres.schema import MIGRATIONS
from tertulia.store.postgres.store import load_shared_key
from tertulia.store.writes import UpdateMeta


def test_the_schema_is_made_on_first_connect_and_opening_again_changes_nothing(
    pg_schema: str,
) -> None:
    async def body() -> None:
        async with await open_pg(pg_schema) as store:
            assert store.schema_version == len(MIGRATIONS)
            await store.create_room("ABCD", "pitacor", public=True)
        async with await open_pg(pg_schema) as store:  # migrates nothing, keeps the room
            assert [live.room.code for live in await store.load_live_rooms()] == ["ABCD"]

    run(body)
    with connect(pg_schema) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]


def test_nodes_starting_at_once_on_an_empty_database_all_open_it(pg_schema: str) -> None:
    """Several nodes start together: the migration runs once, under a lock; none fails."""

    async def body() -> None:
        stores = await asyncio.gather(*(open_pg(pg_schema) for _ in range(4)))
        for store in stores:
            await store.close()

    run(body)
    with connect(pg_schema) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]


def test_a_database_newer_than_the_code_is_refused(pg_schema: str) -> None:
    run(lambda: _open_and_close(pg_schema))
    with connect(pg_schema) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS) + 1,))
    with pytest.raises(RuntimeError, match="newer than this code"):
        run(lambda: _open_and_close(pg_schema))


async def _open_and_close(schema: str) -> None:
    await (await open_pg(schema)).close()


@pytest.mark.parametrize("schema", ["", "1abc", "a-b", "a;DROP", "x" * 64])
def test_a_schema_name_that_would_need_quoting_is_refused(schema: str) -> None:
    with pytest.raises(ValueError, match="schema name"):
        run(lambda: open_pg(schema))


def test_appends_of_many_rooms_waiting_for_a_transaction_share_the_next_one(
    pg_schema: str,
) -> None:
    """Group commit: while a transaction runs, every room's appends queue for the next one."""

    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            codes = [f"R{i:02d}" for i in range(20)]
            for code in ["HOLD", *codes]:
                await store.create_room(code, "pitacor", public=True)
            with row_held(pg_schema, "HOLD"):
                first = store.start_append("HOLD", entry(1))
                await until_blocked(store)
                waiting = [store.start_append(code, entries(1, 2)) for code in codes]
                commits = store.stats.commits
            await first
            await asyncio.gather(*waiting)
            assert store.stats.commits == commits + 2  # the held batch, then all the rest

    run(body)
    assert logged(pg_schema)["R07"] == [(1, entry(1).payload), (2, entry(2).payload)]


def test_a_refused_request_does_not_harm_its_batch(pg_schema: str) -> None:
    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            for code in ("AAAA", "BBBB", "CCCC"):
                await store.create_room(code, "pitacor", public=True)
            with row_held(pg_schema, "CCCC"):
                first = store.start_append("CCCC", entry(1))
                await until_blocked(store)
                good = store.start_append("AAAA", entries(1, 2))
                bad = store.start_append("BBBB", entry(2))
                also_good = store.start_append("BBBB", entry(1))
                matches = store.record_finished_match(FinishedMatch("BBBB", "pitacor", 9.0, []))
                snapshot = store.save_snapshot("AAAA", 2, b"after the appends before it")
                # A value the database itself refuses (here, past the caller's checks): it
                # fails in its own savepoint, alone.
                bad_meta = store._writer.submit(UpdateMeta("BBBB", "{not json"))
                meta = store.update_room_meta("AAAA", {"after": "the refused one"})
            await first
            await good
            with pytest.raises(SeqError):
                await bad
            await also_good
            await matches
            await snapshot
            with pytest.raises(StoreError, match="InvalidTextRepresentation"):
                await bad_meta
            await meta
            [aaaa, *_] = await store.load_live_rooms()
            assert aaaa.snapshot is not None and aaaa.snapshot.seq == 2
            assert aaaa.room.meta == {"after": "the refused one"}
            assert store.stats.failed_batches == 0

    run(body)
    seqs = {code: [seq for seq, _ in rows] for code, rows in logged(pg_schema).items()}
    assert seqs == {"AAAA": [1, 2], "BBBB": [1], "CCCC": [1]}


def test_a_failed_transaction_fails_every_request_in_it_and_the_store_goes_on(
    pg_schema: str,
) -> None:
    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            for code in ("AAAA", "BBBB"):
                await store.create_room(code, "pitacor", public=True)
            with row_held(pg_schema, "AAAA") as other:
                results = asyncio.gather(
                    store.append("AAAA", entries(1, 2)),
                    store.append("BBBB", entry(1)),
                    return_exceptions=True,
                )
                await until_blocked(store)
                # An operator (or a statement timeout) cancels the writer's statement.
                pid = store._writer_conn.info.backend_pid
                with psycopg.connect(database_url(), autocommit=True) as admin:
                    admin.execute("SELECT pg_cancel_backend(%s)", (pid,))
                failed = await results
                other.rollback()
            assert all(isinstance(r, CommitFailed) for r in failed), failed
            assert isinstance(failed[0].__cause__, psycopg.errors.QueryCanceled)
            assert store.stats.failed_batches == 1 and store.writable
            await store.append("AAAA", entries(1, 2))  # nothing was written: same seqs again

    run(body)
    assert [seq for seq, _ in logged(pg_schema)["AAAA"]] == [1, 2]
    assert "BBBB" not in logged(pg_schema)


def test_an_unexpected_error_rolls_back_the_whole_batch(pg_schema: str) -> None:
    """A request the writer cannot even run (a bug in the server) fails its whole batch."""

    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            await store.create_room("AAAA", "pitacor", public=True)
            await store.create_room("BBBB", "pitacor", public=True)
            with row_held(pg_schema, "BBBB"):
                first = store.start_append("BBBB", entry(1))
                await until_blocked(store)
                innocent = store.start_append("AAAA", entry(1))
                culprit = store._writer.submit(NoSuchOperation())
            await first
            for future in (innocent, culprit):
                with pytest.raises(CommitFailed, match="nothing written"):
                    await future

    run(body)
    assert logged(pg_schema) == {"BBBB": [(1, entry(1).payload)]}


def test_a_lost_connection_fails_every_write_instead_of_hanging(pg_schema: str) -> None:
    """PostgreSQL gone (here: the writer's backend terminated) is the same path as SQLite's
    writer dying: the store says it can no longer write and every write fails."""

    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            lost: list[str] = []
            store.on_writer_lost(lambda: lost.append("lost"))
            await store.create_room("AAAA", "pitacor", public=True)
            pid = store._writer_conn.info.backend_pid
            with psycopg.connect(database_url(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            for seq in (1, 1):  # the one that finds the connection gone, and any later one
                with pytest.raises(CommitFailed):
                    await asyncio.wait_for(store.append("AAAA", entry(seq)), 10)
            assert not store.writable and lost == ["lost"]
            assert store.stats.failed_batches == 1

    run(body)


def test_close_finishes_every_submitted_write_then_refuses(pg_schema: str) -> None:
    async def body() -> None:
        store = await open_pg(pg_schema, require_claim=False)
        await store.create_room("AAAA", "pitacor", public=True)
        pending = [store.start_append("AAAA", entry(seq)) for seq in (1, 2, 3)]
        await store.close()
        await asyncio.gather(*pending)
        with pytest.raises(StoreClosed):
            store.start_append("AAAA", entry(4))

    run(body)
    assert [seq for seq, _ in logged(pg_schema)["AAAA"]] == [1, 2, 3]


def test_what_postgresql_text_cannot_hold_is_refused_in_the_caller(pg_schema: str) -> None:
    """A NUL character fails its own caller at once, never a transaction shared with others."""

    async def body() -> None:
        async with await open_pg(pg_schema, require_claim=False) as store:
            with pytest.raises(ValueError, match="NUL"):
                await store.create_room("AB\x00", "pitacor", public=True)
            with pytest.raises(ValueError, match="NUL"):
                await store.create_room("ABCD", "pitacor", public=True, meta={"n": "a\x00"})
            await store.create_room("ABCD", "pitacor", public=True)
            with pytest.raises(ValueError, match="NUL"):
                await store.update_room_meta("ABCD", {"name": "\x00"})
            with pytest.raises(ValueError, match="NUL"):
                await store.record_finished_match(
                    FinishedMatch("ABCD", "pitacor", 1.0, [{"name": "\x00"}])
                )
            with pytest.raises(ValueError, match="NUL"):
                await store.close_room("ABCD", "idle\x00")
            await store.append("ABCD", entry(1))
            assert store.stats.failed_batches == 0
            [live] = await store.load_live_rooms()
            assert live.room.meta == {} and live.entries == [entry(1)]

    run(body)


def test_every_node_gets_the_same_identity_key_made_once(pg_schema: str) -> None:
    """Player ids must not depend on the node a browser reaches: one key, made by the first
    node (nodes starting at once race safely), then read by all."""

    async def body() -> list[bytes]:
        return await asyncio.gather(
            *(load_shared_key(database_url(), schema=pg_schema) for _ in range(4))
        )

    keys = run(body)
    assert len(set(keys)) == 1 and len(keys[0]) == 32
    assert run(body)[0] == keys[0]  # kept: a restarted site keeps its players' ids
    with connect(pg_schema) as conn:
        assert conn.execute("SELECT count(*) FROM identity_key").fetchone() == (1,)
