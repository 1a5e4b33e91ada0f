"""The PostgreSQL back-end of `Store` and `FencedStore`: the log several nodes share.

In cluster mode (issue 16) every node's rooms write here: each room has one owner node at a
time (a lease in Redis, outside the store), and the owner's writes carry the fencing number
it claimed the room with. The check of that number runs in the transaction that appends
(`writer`), so a node paused past its lease can never append after a takeover.

Writes go through one connection and are group-committed (`writer`); reads use a
second connection, so a restart's replay or a list of recent matches never waits behind a
commit. A write returns once its transaction has committed (``synchronous_commit`` as the
server is set, ``on`` by default: flushed to PostgreSQL's WAL).

Why psycopg 3 and not asyncpg: both are well kept and fast enough for a group commit (one
batch is five round trips whatever its size, see `writer`). psycopg is the project
everyone else's PostgreSQL tooling is built on (libpq: the same connection strings,
``PG*`` environment variables, ``.pgpass`` and TLS settings an operator already uses with
``psql``), it adapts Python values the documented way (bytes to bytea, lists to arrays)
without a custom codec per type, and its sync and async APIs are the same, so tests and the
CLI can use the plain one where no event loop runs. asyncpg speaks the protocol itself and
is quicker per query, which a batch of one statement per kind does not need.

Arguments are checked here, in the caller, so that a malformed request fails its own caller
at once instead of reaching a transaction shared with other rooms. One difference from
SQLite: PostgreSQL's text and jsonb cannot hold a NUL character, so one in a code, a name or
a JSON value is refused here (`ValueError`) rather than by a failed transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import psycopg

from .. import rules
from ..base import FinishedMatch, LiveRoom, LogEntry, RoomRecord, Snapshot, StoreStats
from ..errors import StoreClosed, UnknownRoom
from ..writes import (
    Append,
    Claim,
    Claimed,
    CloseRoom,
    CreateRoom,
    RecordMatch,
    SaveSnapshot,
    UpdateMeta,
)
from . import reads
from .identity import shared_key
from .schema import check_schema_name, connect_kwargs, migrate
from .writer import Writer


class PostgresStore:
    """`FencedStore` on a PostgreSQL database. Open it with ``await PostgresStore.open(url)``
    on the event loop that will use it, and `close()` it there.

    ``schema``: keep the tables in this schema (made if missing) instead of the connection's
    default, e.g. one schema per site or per test. ``require_claim`` (the default, for a
    cluster): a write for a room this store has not created or claimed is `FencedOut`; with
    False such writes go unchecked, for a single node that replays with `load_live_rooms`.
    """

    def __init__(
        self,
        writer_conn: psycopg.AsyncConnection[Any],
        reader_conn: psycopg.AsyncConnection[Any],
        *,
        schema_version: int,
        require_claim: bool,
    ) -> None:
        # Use `open`: the connections must be made (and migrated) on the running loop.
        self.schema_version = schema_version
        self._reader_conn = reader_conn
        self._read_lock = asyncio.Lock()  # one read transaction at a time on the reader
        self._writer_conn = writer_conn
        self._writer = Writer(writer_conn, require_claim=require_claim)
        self._writer.start()
        self._closed = False

    @classmethod
    async def open(
        cls, url: str, *, schema: str | None = None, require_claim: bool = True
    ) -> PostgresStore:
        """Connect, create or migrate the tables (idempotent; safe when many nodes start at
        once), and start the writer."""
        schema = check_schema_name(schema)
        kwargs = connect_kwargs(schema)
        writer_conn = await psycopg.AsyncConnection.connect(url, **kwargs)
        try:
            version = await migrate(writer_conn, schema)
            reader_conn = await psycopg.AsyncConnection.connect(url, **kwargs)
        except BaseException:
            await writer_conn.close()
            raise
        return cls(writer_conn, reader_conn, schema_version=version, require_claim=require_claim)

    @property
    def writable(self) -> bool:
        """False once the write connection was lost: nothing more can be saved."""
        return self._writer.alive

    def on_writer_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) if the write connection is lost."""
        self._writer.on_lost = callback

    @property
    def stats(self) -> StoreStats:
        """Live counters: commits, acknowledged requests and entries, failed batches."""
        return self._writer.stats

    # -- writes -----------------------------------------------------------------

    async def create_room(
        self,
        code: str,
        game: str,
        *,
        public: bool,
        meta: Mapping[str, Any] | None = None,
        created_at: float | None = None,
        fence: int | None = None,
    ) -> RoomRecord:
        """Register a live room owned by this store from ``fence`` on (0 if None);
        `RoomExists` if a live room has the code."""
        room = RoomRecord(
            code=_no_nul("code", rules.text("code", code)),
            game=_no_nul("game", rules.text("game", game)),
            public=bool(public),
            created_at=rules.when(created_at),
            meta=dict(meta or {}),
        )
        start = 0 if fence is None else rules.fence(fence)
        meta_json = _json(room.meta)
        write = CreateRoom(room.code, room.game, room.public, room.created_at, meta_json, start)
        await self._writer.submit(write)
        return room

    async def claim(self, code: str, fence: int) -> LiveRoom:
        """Take the room over under ``fence`` (`FencedOut` unless it is above the stored one)
        and return everything committed before, for replay."""
        claimed: Claimed = await self._writer.submit(Claim(rules.code(code), rules.fence(fence)))
        # Read after the claim's COMMIT: every earlier owner's append either committed
        # before it (and is read here) or found the new fence and was refused.
        live = await self._read(lambda conn: reads.live_rooms(conn, room_id=claimed.room_id))
        if not live:  # closed since (by a still newer owner)
            raise UnknownRoom(f"no live room {code!r}")
        return live[0]

    def release(self, code: str) -> None:
        """Forget the room's claim: later writes of it through this store are `FencedOut`
        (or unchecked, with ``require_claim=False``)."""
        self._writer.held.pop(code, None)

    async def append(self, code: str, entries: LogEntry | Sequence[LogEntry]) -> None:
        """Append entries whose seqs continue the room's log by +1; durable on return.

        Cancelling the awaiting task does not withdraw the write: it may still commit."""
        await self.start_append(code, entries)

    def start_append(
        self,
        code: str,
        entries: LogEntry | Sequence[LogEntry],
        on_durable: Callable[[BaseException | None], None] | None = None,
    ) -> Awaitable[None]:
        """Queue the append now (bad arguments raise here); the future settles after COMMIT,
        and ``on_durable`` is called with the outcome just before."""
        batch = rules.entries(entries)
        if not batch:
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return self._writer.submit(
            Append(rules.code(code), batch), weight=len(batch), on_done=on_durable
        )

    def settle_answered(self) -> None:
        """Nothing to do here: an outcome reaches this process only through the writer task's
        own read of the connection, and the task settles every request of a batch the moment
        it reads the COMMIT's answer. (SQLite's writer answers over a socket that can be read
        ahead of the loop; see `Store.settle_answered`.)"""

    async def save_snapshot(
        self, code: str, seq: int, payload: bytes, *, at: float | None = None
    ) -> None:
        """Keep the room's state after entry `seq`; replay starts from the latest."""
        snapshot = Snapshot(rules.seq(seq), rules.when(at), rules.payload(payload))
        await self._writer.submit(SaveSnapshot(rules.code(code), snapshot))

    async def update_room_meta(self, code: str, meta: Mapping[str, Any]) -> None:
        """Replace the room's meta dict."""
        await self._writer.submit(UpdateMeta(rules.code(code), _json(dict(meta))))

    async def close_room(
        self, code: str, reason: str, *, at: float | None = None, keep_log: bool = False
    ) -> None:
        """Mark the room closed; its code becomes free. Drops its log unless `keep_log`."""
        reason = _no_nul("reason", rules.string("reason", reason))
        write = CloseRoom(rules.code(code), reason, rules.when(at), bool(keep_log))
        await self._writer.submit(write)

    async def record_finished_match(self, match: FinishedMatch) -> None:
        """Keep a finished match for `recent_matches`."""
        started_at = match.started_at
        write = RecordMatch(
            _no_nul("room", rules.string("room", match.room)),
            _no_nul("game", rules.string("game", match.game)),
            None if started_at is None else rules.moment("started_at", started_at),
            rules.moment("ended_at", match.ended_at),
            _json(match.players),
            _json(match.extra),
        )
        await self._writer.submit(write)

    # -- reads ------------------------------------------------------------------

    async def load_live_rooms(self) -> list[LiveRoom]:
        """Every room not closed, oldest first, with its snapshot and later entries."""
        return await self._read(reads.live_rooms)

    async def recent_matches(
        self, limit: int = 20, *, game: str | None = None, public_only: bool = False
    ) -> list[FinishedMatch]:
        """Finished matches, newest first (optionally of one game; optionally only those
        whose ``extra`` says ``"public": true``)."""
        if limit < 0:
            raise ValueError(f"expected limit >= 0, got {limit}")
        return await self._read(
            lambda conn: reads.recent_matches(conn, limit, game, public_only)
        )

    async def load_live_room(self, code: str, *, snapshot: bool = True) -> LiveRoom | None:
        """One live room as `load_live_rooms` gives it (None if none has the code); with
        ``snapshot=False``, its whole log and no snapshot."""
        live = await self._read(
            lambda conn: reads.live_rooms(conn, code=rules.code(code), snapshot=snapshot)
        )
        return live[0] if live else None

    async def remove_older_than(self, before: float, *, limit: int = 500) -> int:
        """Retention (`Store.remove_older_than`): one short transaction on the reading
        connection, so the writer's group commits never wait behind it."""
        if limit < 1:
            raise ValueError(f"expected limit >= 1, got {limit}")
        return await self._read(
            lambda conn: reads.remove_older_than(conn, rules.when(before), limit)
        )

    async def shared_identity_key(self) -> bytes:
        """The HMAC key every node derives player ids with (see `identity`)."""
        return await self._read(shared_key)

    async def _read(self, query: Callable[[psycopg.AsyncConnection[Any]], Awaitable[Any]]) -> Any:
        if self._closed:
            raise StoreClosed("the store is closed")
        async with self._read_lock:
            if self._closed:
                raise StoreClosed("the store is closed")
            return await query(self._reader_conn)

    # -- lifetime ---------------------------------------------------------------

    async def close(self) -> None:
        """Finish every write already submitted, then close both connections. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._writer.close()
        finally:
            async with self._read_lock:
                await self._reader_conn.close()
            await self._writer_conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


# -- argument checks (in the caller, see the module docstring) ----------------------


def _no_nul(name: str, value: str) -> str:
    if "\x00" in value:
        raise ValueError(f"{name} must not contain a NUL character (PostgreSQL text cannot)")
    return value


def _json(value: Any) -> str:
    text = rules.to_json(value)  # TypeError here, for a value JSON cannot hold
    if "\\u0000" in text:
        raise ValueError("a JSON value must not contain a NUL character (jsonb cannot hold it)")
    return text
