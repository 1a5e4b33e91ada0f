"""One batch of the PostgreSQL store's group commit: its transaction and each request in it.

In order (see `writer` for the queue around it):

1. `begin_and_lock`: lock the row of every live room the batch names (`SELECT ... FOR
   UPDATE`, in id order so two nodes never deadlock over them), then read each one's last
   seq and snapshot seq. A takeover (`claim`) updates that row, so a former owner's batch
   waits for it and then sees the new fence — in the very transaction that would append.
2. Each request in submission order (its handler in `HANDLERS`, by the type of its write),
   checked in Python against that state: one the
   log cannot take (`SeqError`, `UnknownRoom`, `FencedOut`, ...) raises a `StoreError`,
   fails alone and changes nothing; the others update the state, so the next request of the
   same room sees them. Appends accumulate; every other kind (rare) is written at once, in a
   savepoint of its own, after the appends before it (a close deletes the log).
3. `insert_and_commit`: every accepted entry in one statement, then COMMIT.

BEGIN and the lock share one round trip, and so do the insert and the COMMIT (psycopg's
pipeline mode): an ordinary batch costs three round trips and one WAL flush, whatever its
size.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from .. import rules, sql
from ..errors import FencedOut, MatchExists, RoomExists, StoreError, UnknownRoom
from ..writes import (
    Append,
    Claim,
    Claimed,
    CloseRoom,
    CreateRoom,
    RecordMatch,
    RoomWrite,
    SaveSnapshot,
    UpdateMeta,
    Write,
)
from .schema import DIALECT

log = logging.getLogger("tertulia.store.postgres")

# What a request written in its own savepoint may raise without harming its batch: the
# caller's own data the database refuses (a constraint, a value it cannot store).
_REQUEST_ERRORS = (psycopg.errors.DataError, psycopg.errors.IntegrityError)


@dataclass(slots=True)
class Request:
    """One write waiting for its batch; its future gets what its handler returns."""

    write: Write
    future: Any  # asyncio.Future
    on_done: Callable[[BaseException | None], None] | None = None
    weight: int = 0  # log entries it appends, for the stats

    @property
    def code(self) -> str | None:
        """The room whose row the batch locks for it, if any."""
        return self.write.code if isinstance(self.write, RoomWrite) else None


@dataclass(slots=True)
class Room:
    """A live room as this batch sees it (its row locked)."""

    id: int
    fence: int
    last_seq: int = 0
    snapshot_seq: int | None = None
    live: bool = True


class Batch:
    """One transaction's state. ``store_held``: the store's claims, code -> (room id,
    fence), read as each request is handled (so a `release` counts at once); the claims this
    batch makes or gives up are kept apart in ``held`` and count once it commits.
    ``require_claim``: a write of a room the store holds no claim on is `FencedOut`."""

    def __init__(
        self,
        conn: psycopg.AsyncConnection[Any],
        store_held: dict[str, tuple[int, int]],
        *,
        require_claim: bool,
    ) -> None:
        self.conn = conn
        self.store_held = store_held
        self.require_claim = require_claim
        self.rooms: dict[str, Room] = {}
        self.held: dict[str, tuple[int, int] | None] = {}  # None: given up (closed)
        self.rows: list[tuple[int, int, float, bytes]] = []  # entries to insert

    async def begin_and_lock(self, codes: set[str]) -> None:
        # Pipelined (BEGIN and the lock in one round trip), as is the end of the batch
        # (insert and COMMIT): a batch costs three round trips, whatever its size.
        codes = {code for code in codes if "\x00" not in code}  # such a code names no room
        async with self.conn.pipeline():
            await self.conn.execute("BEGIN")
            if not codes:
                return
            cursor = await self.conn.execute(
                "SELECT id, code, fence FROM rooms WHERE code = ANY(%s) AND closed_at IS NULL "
                "ORDER BY id FOR UPDATE",
                (list(codes),),
            )
        rows = await cursor.fetchall()
        self.rooms = rooms = {code: Room(room_id, fence) for room_id, code, fence in rows}
        if not rooms:
            return
        # A statement of its own, after the lock: its snapshot sees whatever the lock's last
        # holder committed (READ COMMITTED), where one statement would keep its older view.
        by_id = {room.id: room for room in rooms.values()}
        cursor = await self.conn.execute(
            "SELECT r.id, (SELECT max(seq) FROM log WHERE room_id = r.id), "
            "(SELECT seq FROM snapshots WHERE room_id = r.id) "
            "FROM unnest(%s::bigint[]) AS r (id)",
            (list(by_id),),
        )
        for room_id, last_seq, snapshot_seq in await cursor.fetchall():
            by_id[room_id].last_seq = last_seq or 0
            by_id[room_id].snapshot_seq = snapshot_seq

    def _insert_sql(self) -> tuple[str, tuple[list[Any], ...]]:
        room_ids, seqs, ats, payloads = zip(*self.rows, strict=True)
        self.rows = []
        # One statement for every entry of the batch: a round trip, whatever the count.
        return (
            "INSERT INTO log (room_id, seq, at, payload) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::float8[], %s::bytea[])",
            (list(room_ids), list(seqs), list(ats), list(payloads)),
        )

    async def _insert_rows(self) -> None:
        if self.rows:
            await self.conn.execute(*self._insert_sql())

    async def insert_and_commit(self) -> None:
        async with self.conn.pipeline():
            if self.rows:
                await self.conn.execute(*self._insert_sql())
            await self.conn.execute("COMMIT")

    async def rollback(self) -> None:
        """End a failed batch's transaction, if the connection still has one open."""
        if self.conn.broken or self.conn.closed:
            return
        if self.conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            return  # a failed COMMIT has already rolled back
        try:
            await self.conn.execute("ROLLBACK")
        except psycopg.Error:
            log.exception("rollback after a failed store transaction failed")

    def _owned(self, code: str) -> Room:
        """The live room ``code``, if this store may write it: `UnknownRoom` if no live room
        has the code, `FencedOut` if another owner's fence is above ours."""
        room = self.rooms.get(code)
        if room is None or not room.live:
            raise UnknownRoom(f"no live room {code!r}")
        # The batch's own claims first; then the store's (which `release` may just have cut).
        held = self.held[code] if code in self.held else self.store_held.get(code)
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

    # -- the writes, by type (see `HANDLERS`) ------------------------------------------

    async def _savepoint(self, sql: str, params: Any) -> list[Any]:
        """Run one statement of a rare request in its own savepoint, after the appends before
        it: a value the database refuses fails that request, not its batch."""
        await self._insert_rows()
        try:
            async with self.conn.pipeline():  # one round trip for the three
                await self.conn.execute("SAVEPOINT request")
                cursor = await self.conn.execute(sql, params)
                await self.conn.execute("RELEASE SAVEPOINT request")
        except _REQUEST_ERRORS as refused:
            await self.conn.execute("ROLLBACK TO SAVEPOINT request; RELEASE SAVEPOINT request")
            raise StoreError(f"{type(refused).__name__}: {refused}") from refused
        return await cursor.fetchall() if cursor.description else []

    async def create_room(self, write: CreateRoom) -> None:
        existing = self.rooms.get(write.code)
        if existing is not None and existing.live:
            raise RoomExists(f"a live room already has the code {write.code!r}")
        rows = await self._savepoint(
            "INSERT INTO rooms (code, game, public, created_at, meta, fence) "
            "VALUES (%s, %s, %s, %s, %s::jsonb, %s) "
            "ON CONFLICT (code) WHERE closed_at IS NULL DO NOTHING RETURNING id",
            (write.code, write.game, write.public, write.created_at, write.meta_json, write.fence),
        )
        if not rows:  # another node created it since this batch looked
            raise RoomExists(f"a live room already has the code {write.code!r}")
        room_id = rows[0][0]
        self.rooms[write.code] = Room(room_id, write.fence)
        self.held[write.code] = (room_id, write.fence)

    async def claim(self, write: Claim) -> Claimed:
        room = self.rooms.get(write.code)
        if room is None or not room.live:
            raise UnknownRoom(f"no live room {write.code!r}")
        if room.fence >= write.fence:
            raise FencedOut(
                f"room {write.code!r}: fence {write.fence} is not above the room's {room.fence}",
                stored_fence=room.fence,
            )
        await self._savepoint("UPDATE rooms SET fence = %s WHERE id = %s", (write.fence, room.id))
        room.fence = write.fence
        self.held[write.code] = (room.id, write.fence)
        return Claimed(room.id, write.fence)

    async def append(self, write: Append) -> None:
        room = self._owned(write.code)
        room.last_seq = rules.continue_log(write.code, room.last_seq, write.entries)
        self.rows.extend((room.id, e.seq, e.at, e.payload) for e in write.entries)

    async def save_snapshot(self, write: SaveSnapshot) -> None:
        room = self._owned(write.code)
        snapshot = write.snapshot
        rules.check_snapshot(write.code, snapshot.seq, room.last_seq, room.snapshot_seq)
        await self._savepoint(
            "INSERT INTO snapshots (room_id, seq, at, payload) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (room_id) DO UPDATE SET seq = excluded.seq, at = excluded.at, "
            "payload = excluded.payload",
            (room.id, snapshot.seq, snapshot.at, snapshot.payload),
        )
        room.snapshot_seq = snapshot.seq

    async def update_meta(self, write: UpdateMeta) -> None:
        room = self._owned(write.code)
        await self._savepoint(
            "UPDATE rooms SET meta = %s::jsonb WHERE id = %s", (write.meta_json, room.id)
        )

    async def close_room(self, write: CloseRoom) -> None:
        room = self._owned(write.code)
        # One statement (a CTE) so the close and the deletes share a savepoint round trip.
        drop = (
            ""
            if write.keep_log
            else (
                ", dropped_log AS (DELETE FROM log WHERE room_id = %(id)s), "
                "dropped_snapshot AS (DELETE FROM snapshots WHERE room_id = %(id)s)"
            )
        )
        await self._savepoint(
            f"WITH closed AS (UPDATE rooms SET closed_at = %(at)s, close_reason = %(reason)s "
            f"WHERE id = %(id)s){drop} SELECT 1",
            {"at": write.at, "reason": write.reason, "id": room.id},
        )
        room.live = False
        self.held[write.code] = None

    async def record_match(self, write: RecordMatch) -> None:
        """The match's row, its players and its records copied from its room's log, in one
        statement (its savepoint's): a `public_id` another match has fails it alone
        (`MatchExists`)."""
        try:
            await self._record_match(write)
        except StoreError as refused:
            if isinstance(refused.__cause__, psycopg.errors.UniqueViolation):
                raise MatchExists(
                    f"a finished match already has the page id {write.public_id!r}"
                ) from None
            raise

    async def _record_match(self, write: RecordMatch) -> None:
        await self._savepoint(
            f"WITH m AS ({sql.insert_match_sql(DIALECT)} RETURNING id), "
            "p AS (INSERT INTO match_players (match_id, player, ended_at) "
            "SELECT m.id, players.id, %s FROM m, unnest(%s::text[]) AS players (id)), "
            "l AS (INSERT INTO match_log (match_id, seq, at, payload) "
            "SELECT m.id, l.seq, l.at, l.payload FROM m, log l JOIN rooms r ON r.id = l.room_id "
            "WHERE r.code = %s AND r.closed_at IS NULL AND l.seq BETWEEN %s AND %s "
            f"AND {DIALECT.not_listed.format('l.seq')}) "
            "SELECT 1",
            (
                *write.row(),
                write.ended_at,
                write.player_ids,
                write.room,
                write.first_seq,
                write.last_seq,
                write.skip,
            ),
        )


# The handler of each write this writer runs (see `writes` for the one it does not:
# RemoveExpired, which runs on the read connection).
HANDLERS: dict[type[Any], Callable[[Batch, Any], Awaitable[Any]]] = {
    CreateRoom: Batch.create_room,
    Claim: Batch.claim,
    Append: Batch.append,
    SaveSnapshot: Batch.save_snapshot,
    UpdateMeta: Batch.update_meta,
    CloseRoom: Batch.close_room,
    RecordMatch: Batch.record_match,
}
