"""The SQLite back-end of `Store`: one file, WAL, fsync at every (group) commit.

Writes go to one writer process (`writer`, driven through `writer_client`) and return
once their transaction has committed. Reads use a second connection on a worker thread:
WAL lets them run while the writer commits, and they see everything acknowledged
before they started.

Arguments are checked here, in the caller, so that a malformed request fails its
own caller at once instead of reaching a transaction shared with other rooms.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from .. import rules
from ..base import FinishedMatch, LiveRoom, LogEntry, RoomRecord, Snapshot, StoreStats
from ..errors import StoreClosed
from ..writes import (
    Append,
    CloseRoom,
    CreateRoom,
    RecordMatch,
    RemoveExpired,
    SaveSnapshot,
    UpdateMeta,
)
from . import ops, schema
from .writer_client import WriterProcess


class SQLiteStore:
    """`Store` on an SQLite file. Open it, use it from any event loop, `close()` it.

    Opening (the constructor) runs migrations and blocks briefly: do it at start-up.
    """

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0) -> None:
        self.path = schema.check_path(path)
        conn = schema.connect(self.path, busy_timeout=busy_timeout)
        try:
            self.schema_version = schema.migrate(conn)
        finally:
            conn.close()  # the writer process opens its own
        self._reader = schema.connect(self.path, busy_timeout=busy_timeout, read_only=True)
        self._read_lock = threading.Lock()  # one read at a time on the read connection
        self._closed = False
        try:  # last: nothing above can leak its process
            self._writer = WriterProcess(self.path, busy_timeout=busy_timeout)
        except BaseException:
            self._reader.close()
            raise

    @property
    def writable(self) -> bool:
        """False once the writer process has died: nothing more can be saved (see
        ``on_writer_lost``)."""
        return self._writer.alive

    def on_writer_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) if the writer process dies on its own."""
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
    ) -> RoomRecord:
        """Register a live room; `RoomExists` if a live room has the code."""
        room = RoomRecord(
            code=rules.text("code", code),
            game=rules.text("game", game),
            public=bool(public),
            created_at=rules.when(created_at),
            meta=dict(meta or {}),
        )
        meta_json = rules.to_json(room.meta)
        await self._writer.submit(
            CreateRoom(room.code, room.game, room.public, room.created_at, meta_json)
        )
        return room

    async def append(self, code: str, entries: LogEntry | Sequence[LogEntry]) -> None:
        """Append entries whose seqs continue the room's log by +1; durable on return.

        Cancelling the awaiting task does not withdraw the write: it may still
        commit. A room that must know its last seq should not cancel (or shield) it.
        """
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
        self._writer.settle_answered()

    async def save_snapshot(
        self, code: str, seq: int, payload: bytes, *, at: float | None = None
    ) -> None:
        """Keep the room's state after entry `seq`; replay starts from the latest."""
        snapshot = Snapshot(rules.seq(seq), rules.when(at), rules.payload(payload))
        await self._writer.submit(SaveSnapshot(rules.code(code), snapshot))

    async def update_room_meta(self, code: str, meta: Mapping[str, Any]) -> None:
        """Replace the room's meta dict."""
        meta_json = rules.to_json(dict(meta))
        await self._writer.submit(UpdateMeta(rules.code(code), meta_json))

    async def close_room(
        self, code: str, reason: str, *, at: float | None = None, keep_log: bool = False
    ) -> None:
        """Mark the room closed; its code becomes free. Drops its log unless `keep_log`."""
        reason = rules.string("reason", reason)
        write = CloseRoom(rules.code(code), reason, rules.when(at), bool(keep_log))
        await self._writer.submit(write)

    async def record_finished_match(self, match: FinishedMatch) -> None:
        """Keep a finished match for `recent_matches`."""
        started_at = match.started_at
        write = RecordMatch(
            rules.string("room", match.room),
            rules.string("game", match.game),
            None if started_at is None else rules.moment("started_at", started_at),
            rules.moment("ended_at", match.ended_at),
            rules.to_json(match.players),
            rules.to_json(match.extra),
        )
        await self._writer.submit(write)

    async def remove_older_than(self, before: float, *, limit: int = 500) -> int:
        """Remove up to ``limit`` rows of finished matches that ended, and closed rooms that
        closed, before ``before``; how many went (call again until 0)."""
        limit = rules.retention_limit(limit)
        return await self._writer.submit(RemoveExpired(rules.when(before), limit))

    # -- reads ------------------------------------------------------------------

    async def load_live_rooms(self) -> list[LiveRoom]:
        """Every room not closed, oldest first, with its snapshot and later entries."""
        return await self._read(ops.read_live_rooms)

    async def load_live_room(self, code: str, *, snapshot: bool = True) -> LiveRoom | None:
        """One live room as ``load_live_rooms`` gives it (None if it is not live); with
        ``snapshot=False``, its whole log from seq 1 and no snapshot."""
        return await self._read(lambda conn: ops.read_live_room(conn, code, snapshot))

    async def recent_matches(
        self, limit: int = 20, *, game: str | None = None, public_only: bool = False
    ) -> list[FinishedMatch]:
        """Finished matches, newest first (optionally of one game; optionally only those
        whose ``extra`` says ``"public": true``)."""
        if limit < 0:
            raise ValueError(f"expected limit >= 0, got {limit}")
        return await self._read(
            lambda conn: ops.read_recent_matches(conn, limit, game, public_only)
        )

    async def _read(self, query: Any) -> Any:
        if self._closed:
            raise StoreClosed("the store is closed")

        def run() -> Any:
            with self._read_lock:
                if self._closed:  # closed while this read waited for a thread
                    raise StoreClosed("the store is closed")
                return query(self._reader)

        return await asyncio.to_thread(run)

    # -- lifetime ---------------------------------------------------------------

    async def close(self) -> None:
        """Finish every write already submitted, then release the file. Idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._writer.close()
        with self._read_lock:
            self._reader.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
