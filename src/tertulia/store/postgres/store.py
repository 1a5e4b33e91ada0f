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

Arguments are checked in the caller, as for every back-end (`front.StoreFront`), so that a
malformed request fails its own caller at once instead of reaching a transaction shared with
other rooms. One difference from SQLite: PostgreSQL's text and jsonb cannot hold a NUL
character, so one in a code, a name, a reason or a JSON value is refused here (`ValueError`)
rather than by a failed transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import psycopg

from .. import rules
from ..base import FinishedMatch, KeptMatch, LiveRoom, RoomRecord
from ..errors import StoreClosed, UnknownRoom
from ..front import StoreFront
from ..writes import Claim, Claimed
from . import reads
from .identity import shared_key
from .schema import check_schema_name, connect_kwargs, migrate
from .writer import Writer


class PostgresStore(StoreFront):
    """`FencedStore` on a PostgreSQL database. Open it with ``await PostgresStore.open(url)``
    on the event loop that will use it, and `close()` it there.

    ``schema``: keep the tables in this schema (made if missing) instead of the connection's
    default, e.g. one schema per site or per test. ``require_claim`` (the default, for a
    cluster): a write for a room this store has not created or claimed is `FencedOut`; with
    False such writes go unchecked, for a single node that replays with `load_live_rooms`.
    """

    _writer: Writer  # (the front's writer: this back-end's, which also knows the fences held)

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
        cls,
        url: str,
        *,
        schema: str | None = None,
        require_claim: bool = True,
        password: str | None = None,
    ) -> PostgresStore:
        """Connect, create or migrate the tables (idempotent; safe when many nodes start at
        once), and start the writer. ``password``: one kept out of ``url`` (a file's)."""
        schema = check_schema_name(schema)
        kwargs = connect_kwargs(schema, password)
        writer_conn = await psycopg.AsyncConnection.connect(url, **kwargs)
        try:
            version = await migrate(writer_conn, schema)
            reader_conn = await psycopg.AsyncConnection.connect(url, **kwargs)
        except BaseException:
            await writer_conn.close()
            raise
        return cls(writer_conn, reader_conn, schema_version=version, require_claim=require_claim)

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
        start = 0 if fence is None else rules.fence(fence)
        return await self._create_room(code, game, public, meta, created_at, start)

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

    # -- reads ------------------------------------------------------------------

    async def load_live_rooms(self) -> list[LiveRoom]:
        """Every room not closed, oldest first, with its snapshot and later entries."""
        return await self._read(reads.live_rooms)

    async def recent_matches(
        self, limit: int = 20, *, game: str | None = None, public_only: bool = False
    ) -> list[FinishedMatch]:
        """Finished matches, newest first (optionally of one game; optionally only those
        whose ``extra`` says ``"public": true``)."""
        limit = rules.recent_limit(limit)
        return await self._read(lambda conn: reads.recent_matches(conn, limit, game, public_only))

    async def matches_of(
        self, player: str, limit: int = 20, *, before: float | None = None
    ) -> list[FinishedMatch]:
        """The finished matches ``player`` played, newest first."""
        player, limit = rules.string("player", player), rules.recent_limit(limit)
        before = None if before is None else rules.moment("before", before)
        if "\x00" in player:
            return []  # (no player id has one: PostgreSQL text cannot)
        return await self._read(lambda conn: reads.matches_of(conn, player, limit, before))

    async def load_match(self, public_id: str) -> KeptMatch | None:
        """The finished match whose page is ``public_id``, with its kept records."""
        public_id = rules.string("public_id", public_id)
        if "\x00" in public_id:
            return None
        return await self._read(lambda conn: reads.load_match(conn, public_id))

    async def load_live_room(self, code: str, *, snapshot: bool = True) -> LiveRoom | None:
        """One live room as `load_live_rooms` gives it (None if none has the code); with
        ``snapshot=False``, its whole log and no snapshot."""
        code = rules.code(code)
        live = await self._read(lambda conn: reads.live_rooms(conn, code=code, snapshot=snapshot))
        return live[0] if live else None

    async def remove_older_than(self, before: float, *, limit: int = 500) -> int:
        """Retention (`Store.remove_older_than`): one short transaction on the reading
        connection, so the writer's group commits never wait behind it."""
        limit, before = rules.retention_limit(limit), rules.when(before)
        return await self._read(lambda conn: reads.remove_older_than(conn, before, limit))

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

    # -- what PostgreSQL cannot store (see the module docstring) -----------------------------

    def _storable(self, name: str, value: str) -> str:
        if "\x00" in value:
            raise ValueError(f"{name} must not contain a NUL character (PostgreSQL text cannot)")
        return value

    def _json(self, value: Any) -> str:
        text = rules.to_json(value)  # TypeError here, for a value JSON cannot hold
        if "\\u0000" in text:
            raise ValueError("a JSON value must not contain a NUL character (jsonb cannot hold it)")
        return text


async def load_shared_key(url: str, *, schema: str | None = None) -> bytes:
    """For the CLI: open the database at ``url`` (creating the tables if needed) just long
    enough to read the site's key (`identity`); give it to `tertulia.rooms.identity.Identity`."""
    store = await PostgresStore.open(url, schema=schema)
    try:
        return await store.shared_identity_key()
    finally:
        await store.close()
