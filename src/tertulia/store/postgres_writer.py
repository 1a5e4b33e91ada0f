"""Group commit on PostgreSQL: one task, one connection, one transaction per batch.

Every write request joins a queue; the writer task takes everything queued (up to
`MAX_BATCH`) and writes it in one transaction, while the next requests queue behind it. So
N rooms acting during one commit cost one commit, not N. A request's future settles only
after the outcome of that COMMIT is known: nothing is acknowledged before it is durable.

Why a task and not a process, as SQLite's writer is: psycopg's async connection waits on its
socket like any other I/O, so the event loop is free while PostgreSQL writes and fsyncs; what
a process saved SQLite (holding the GIL through every statement) does not arise here.

One batch, in order:

1. Lock the row of every live room the batch names (`SELECT ... FOR UPDATE`, in id order so
   two nodes never deadlock over them) and read each one's last seq and snapshot seq. A
   takeover (`claim`) updates that row, so a former owner's batch waits for it and then sees
   the new fence — in the very transaction that would append.
2. Walk the requests in submission order against that state, in Python: a request the log
   cannot take (`SeqError`, `UnknownRoom`, `FencedOut`, ...) fails alone and changes nothing;
   the others update the state, so the next request of the same room sees them. Appends
   accumulate; every other kind (rare) is written at once, in a savepoint of its own, after
   the appends before it (a close deletes the log).
3. Insert every accepted entry in one statement, COMMIT, then settle everyone.

Beginning and locking share one round trip, and so do the insert and the COMMIT (psycopg's
pipeline mode): an ordinary batch costs three round trips and one WAL flush, whatever its
size.

Any database error outside a request's own savepoint, or a failed COMMIT, fails every
request of the batch with `CommitFailed`. If the connection itself is gone, the store is lost
(as when SQLite's writer process dies): nothing more can be written through it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg

from .base import FinishedMatch, LogEntry, RoomRecord, Snapshot, StoreStats
from .errors import (
    CommitFailed,
    FencedOut,
    RoomExists,
    SeqError,
    SnapshotError,
    StoreClosed,
    StoreError,
    UnknownRoom,
)

log = logging.getLogger("tertulia.store.postgres")

# Bounds one transaction (and the wait of its first caller) under a flood, as in SQLite.
MAX_BATCH = 1000

_OnDone = Callable[[BaseException | None], None]

# What a request written in its own savepoint may raise without harming its batch: the
# caller's own data the database refuses (a constraint, a value it cannot store).
_REQUEST_ERRORS = (psycopg.errors.DataError, psycopg.errors.IntegrityError)


@dataclass(slots=True)
class Request:
    """One write: ``op`` names its handler in `Writer`; ``result`` is what its future gets."""

    op: str
    code: str | None
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    on_done: _OnDone | None = None
    weight: int = 0  # log entries it appends, for the stats


@dataclass(slots=True)
class _Room:
    """A live room as this batch sees it (its row locked)."""

    id: int
    fence: int
    last_seq: int = 0
    snapshot_seq: int | None = None
    live: bool = True


@dataclass(slots=True)
class _Batch:
    rooms: dict[str, _Room]
    # Claims made (a tuple) or given up (None) by this batch; they count once it commits.
    held: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    rows: list[tuple[int, int, float, bytes]] = field(default_factory=list)  # entries to insert


class Writer:
    """The queue and the task that drains it. Open with `start`, end with `close`.

    ``held`` maps a room code to the (room id, fence) this store last created or claimed it
    with; the writer reads it when it handles a request and updates it only after COMMIT.
    ``require_claim``: a write for a room this store holds no claim on is `FencedOut`
    (cluster mode); otherwise such a write is not fence-checked (one node)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any], *, require_claim: bool) -> None:
        self.stats = StoreStats()
        self.held: dict[str, tuple[int, int]] = {}
        self.require_claim = require_claim
        self.on_lost: Callable[[], None] | None = None
        self._conn = conn
        self._queue: list[Request] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._lost = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="store writer")

    @property
    def alive(self) -> bool:
        """False once the connection was lost: nothing more can be saved."""
        return not self._lost

    def submit(
        self,
        op: str,
        code: str | None,
        *args: Any,
        weight: int = 0,
        on_done: _OnDone | None = None,
    ) -> asyncio.Future[Any]:
        if self._closing:
            raise StoreClosed("the store is closed")
        future = asyncio.get_running_loop().create_future()
        request = Request(op, code, args, future, on_done, weight)
        if self._lost:
            _settle(request, _connection_lost())
            return future
        self._queue.append(request)
        self._wake.set()
        return future

    async def close(self) -> None:
        """Write everything already submitted, then stop the task."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task

    # -- the task ----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            if not self._queue:
                if self._closing or self._lost:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            outcomes = await self._commit(batch)
            for request, outcome in zip(batch, outcomes, strict=True):
                _settle(request, outcome)
                if not isinstance(outcome, BaseException):
                    self.stats.requests += 1
                    self.stats.entries += request.weight
            if self._lost:
                pending, self._queue = self._queue, []
                for request in pending:
                    _settle(request, _connection_lost())
                if self.on_lost is not None:
                    try:
                        self.on_lost()
                    except Exception:
                        log.exception("the store's on_lost failed")
                return

    async def _commit(self, batch: list[Request]) -> list[BaseException | Any]:
        """Write ``batch`` in one transaction; each request's error, or its result."""
        outcomes: list[Any] = [None] * len(batch)
        state = _Batch(rooms={})
        try:
            state.rooms = await self._begin_and_lock({r.code for r in batch if r.code})
            for index, request in enumerate(batch):
                try:
                    outcomes[index] = await getattr(self, f"_{request.op}")(state, request)
                except StoreError as refused:
                    outcomes[index] = _Refused(refused)
            await self._insert_and_commit(state)
        except Exception as exc:  # psycopg.Error, or a bug: nothing of the batch was written
            await self._rollback()
            self.stats.failed_batches += 1
            log.error("store transaction of %d requests failed: %r", len(batch), exc)
            if self._conn.broken or self._conn.closed:
                self._lost = True
                log.error("the store lost its PostgreSQL connection; no more writes are possible")
            failed: list[Any] = []
            for _ in batch:
                error = CommitFailed(f"transaction failed, nothing written: {exc}")
                if self._lost:  # a COMMIT sent on a connection that broke may have landed
                    error = CommitFailed(
                        f"connection lost, this write may not have been saved: {exc}"
                    )
                error.__cause__ = exc
                failed.append(error)
            return failed
        self.stats.commits += 1
        for code, held in state.held.items():  # claims and creations count from COMMIT on
            if held is None:
                self.held.pop(code, None)
            else:
                self.held[code] = held
        return [o.error if isinstance(o, _Refused) else o for o in outcomes]

    async def _begin_and_lock(self, codes: set[str]) -> dict[str, _Room]:
        # Pipelined (BEGIN and the lock in one round trip), as is the end of the batch
        # (insert and COMMIT): a batch costs three round trips, whatever its size.
        codes = {code for code in codes if "\x00" not in code}  # such a code names no room
        async with self._conn.pipeline():
            await self._conn.execute("BEGIN")
            if not codes:
                return {}
            cursor = await self._conn.execute(
                "SELECT id, code, fence FROM rooms WHERE code = ANY(%s) AND closed_at IS NULL "
                "ORDER BY id FOR UPDATE",
                (list(codes),),
            )
        rooms = {code: _Room(room_id, fence) for room_id, code, fence in await cursor.fetchall()}
        if not rooms:
            return rooms
        # A statement of its own, after the lock: its snapshot sees whatever the lock's last
        # holder committed (READ COMMITTED), where one statement would keep its older view.
        by_id = {room.id: room for room in rooms.values()}
        cursor = await self._conn.execute(
            "SELECT r.id, (SELECT max(seq) FROM log WHERE room_id = r.id), "
            "(SELECT seq FROM snapshots WHERE room_id = r.id) "
            "FROM unnest(%s::bigint[]) AS r (id)",
            (list(by_id),),
        )
        for room_id, last_seq, snapshot_seq in await cursor.fetchall():
            by_id[room_id].last_seq = last_seq or 0
            by_id[room_id].snapshot_seq = snapshot_seq
        return rooms

    def _insert_sql(self, state: _Batch) -> tuple[str, tuple[list[Any], ...]]:
        room_ids, seqs, ats, payloads = zip(*state.rows, strict=True)
        state.rows = []
        # One statement for every entry of the batch: a round trip, whatever the count.
        return (
            "INSERT INTO log (room_id, seq, at, payload) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::float8[], %s::bytea[])",
            (list(room_ids), list(seqs), list(ats), list(payloads)),
        )

    async def _insert_rows(self, state: _Batch) -> None:
        if state.rows:
            await self._conn.execute(*self._insert_sql(state))

    async def _insert_and_commit(self, state: _Batch) -> None:
        async with self._conn.pipeline():
            if state.rows:
                await self._conn.execute(*self._insert_sql(state))
            await self._conn.execute("COMMIT")

    async def _rollback(self) -> None:
        """End a failed batch's transaction, if the connection still has one open."""
        if self._conn.broken or self._conn.closed:
            return
        if self._conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            return  # a failed COMMIT has already rolled back
        try:
            await self._conn.execute("ROLLBACK")
        except psycopg.Error:
            log.exception("rollback after a failed store transaction failed")

    def _owned(self, state: _Batch, code: str) -> _Room:
        """The live room ``code``, if this store may write it: `UnknownRoom` if no live room
        has the code, `FencedOut` if another owner's fence is above ours."""
        room = state.rooms.get(code)
        if room is None or not room.live:
            raise UnknownRoom(f"no live room {code!r}")
        # The batch's own claims first; then the store's (which `release` may just have cut).
        held = state.held[code] if code in state.held else self.held.get(code)
        if held is None:
            if self.require_claim:
                raise FencedOut(f"room {code!r}: this node holds no claim on it")
            return room
        held_id, held_fence = held
        if held_id != room.id or room.fence > held_fence:
            raise FencedOut(
                f"room {code!r}: claimed by another node (fence {room.fence}, ours {held_fence})"
            )
        return room

    # -- the requests, by op ------------------------------------------------------------

    async def _savepoint(self, state: _Batch, sql: str, params: Any) -> list[Any]:
        """Run one statement of a rare request in its own savepoint, after the appends before
        it: a value the database refuses fails that request, not its batch."""
        await self._insert_rows(state)
        try:
            async with self._conn.pipeline():  # one round trip for the three
                await self._conn.execute("SAVEPOINT request")
                cursor = await self._conn.execute(sql, params)
                await self._conn.execute("RELEASE SAVEPOINT request")
        except _REQUEST_ERRORS as refused:
            await self._conn.execute("ROLLBACK TO SAVEPOINT request")
            raise StoreError(f"{type(refused).__name__}: {refused}") from refused
        return await cursor.fetchall() if cursor.description else []

    async def _create_room(self, state: _Batch, request: Request) -> int:
        room: RoomRecord
        room, meta_json, fence = request.args
        existing = state.rooms.get(room.code)
        if existing is not None and existing.live:
            raise RoomExists(f"a live room already has the code {room.code!r}")
        rows = await self._savepoint(
            state,
            "INSERT INTO rooms (code, game, public, created_at, meta, fence) "
            "VALUES (%s, %s, %s, %s, %s::jsonb, %s) "
            "ON CONFLICT (code) WHERE closed_at IS NULL DO NOTHING RETURNING id",
            (room.code, room.game, room.public, room.created_at, meta_json, fence),
        )
        if not rows:  # another node created it since this batch looked
            raise RoomExists(f"a live room already has the code {room.code!r}")
        room_id = rows[0][0]
        state.rooms[room.code] = _Room(room_id, fence)
        state.held[room.code] = (room_id, fence)
        return room_id

    async def _claim(self, state: _Batch, request: Request) -> int:
        assert request.code is not None
        (fence,) = request.args
        room = state.rooms.get(request.code)
        if room is None or not room.live:
            raise UnknownRoom(f"no live room {request.code!r}")
        if room.fence >= fence:
            raise FencedOut(
                f"room {request.code!r}: fence {fence} is not above the room's {room.fence}"
            )
        await self._savepoint(state, "UPDATE rooms SET fence = %s WHERE id = %s", (fence, room.id))
        room.fence = fence
        state.held[request.code] = (room.id, fence)
        return room.id

    async def _append(self, state: _Batch, request: Request) -> None:
        assert request.code is not None
        room = self._owned(state, request.code)
        entries: list[LogEntry] = request.args[0]
        # Consecutive, not just increasing: a gap means an entry was lost or a second writer
        # is racing, and replay of a gapped log would silently diverge.
        expected = room.last_seq + 1
        for entry in entries:
            if entry.seq != expected:
                raise SeqError(
                    f"room {request.code!r}: expected seq {expected}, got {entry.seq} "
                    f"(batch seqs {[e.seq for e in entries]})"
                )
            expected += 1
        state.rows.extend((room.id, e.seq, e.at, e.payload) for e in entries)
        room.last_seq = expected - 1

    async def _snapshot(self, state: _Batch, request: Request) -> None:
        assert request.code is not None
        room = self._owned(state, request.code)
        snapshot: Snapshot = request.args[0]
        if snapshot.seq > room.last_seq:
            raise SnapshotError(
                f"room {request.code!r}: snapshot at seq {snapshot.seq} "
                f"but the log ends at {room.last_seq}"
            )
        if room.snapshot_seq is not None and snapshot.seq <= room.snapshot_seq:
            raise SnapshotError(
                f"room {request.code!r}: snapshot at seq {snapshot.seq} "
                f"is not after the one at {room.snapshot_seq}"
            )
        await self._savepoint(
            state,
            "INSERT INTO snapshots (room_id, seq, at, payload) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (room_id) DO UPDATE SET seq = excluded.seq, at = excluded.at, "
            "payload = excluded.payload",
            (room.id, snapshot.seq, snapshot.at, snapshot.payload),
        )
        room.snapshot_seq = snapshot.seq

    async def _meta(self, state: _Batch, request: Request) -> None:
        assert request.code is not None
        room = self._owned(state, request.code)
        (meta_json,) = request.args
        await self._savepoint(
            state, "UPDATE rooms SET meta = %s::jsonb WHERE id = %s", (meta_json, room.id)
        )

    async def _close(self, state: _Batch, request: Request) -> None:
        assert request.code is not None
        room = self._owned(state, request.code)
        reason, at, keep_log = request.args
        # One statement (a CTE) so the close and the deletes share a savepoint round trip.
        drop = (
            ""
            if keep_log
            else (
                ", dropped_log AS (DELETE FROM log WHERE room_id = %(id)s), "
                "dropped_snapshot AS (DELETE FROM snapshots WHERE room_id = %(id)s)"
            )
        )
        await self._savepoint(
            state,
            f"WITH closed AS (UPDATE rooms SET closed_at = %(at)s, close_reason = %(reason)s "
            f"WHERE id = %(id)s){drop} SELECT 1",
            {"at": at, "reason": reason, "id": room.id},
        )
        room.live = False
        state.held[request.code] = None

    async def _finished_match(self, state: _Batch, request: Request) -> None:
        match: FinishedMatch
        match, players_json, extra_json = request.args
        await self._savepoint(
            state,
            "INSERT INTO finished_matches (room_code, game, started_at, ended_at, players, extra) "
            "VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb)",
            (match.room, match.game, match.started_at, match.ended_at, players_json, extra_json),
        )


class _Refused:
    """A request's refusal, kept apart from a result (a result is never an exception)."""

    __slots__ = ("error",)

    def __init__(self, error: StoreError) -> None:
        self.error = error


def _settle(request: Request, outcome: Any) -> None:
    error = outcome if isinstance(outcome, BaseException) else None
    if request.on_done is not None:
        try:
            request.on_done(error)
        except Exception:  # the caller's bug must not stop the answers to everyone else
            log.exception("a store caller's on_done failed")
    if request.future.done():  # a cancelled caller no longer listens; the write stands
        return
    if error is None:
        request.future.set_result(outcome)
    else:
        request.future.set_exception(error)


def _connection_lost() -> CommitFailed:
    return CommitFailed("the store lost its PostgreSQL connection; nothing more can be saved")
