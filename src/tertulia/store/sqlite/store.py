"""The SQLite back-end of `Store`: one file, WAL, fsync at every (group) commit.

Writes go to one writer process (`writer`, driven through `writer_client`) and return
once their transaction has committed. Reads use a second connection on a worker thread:
WAL lets them run while the writer commits, and they see everything acknowledged
before they started.

What every back-end does alike (checking arguments in the caller, so that a malformed
request fails its own caller at once instead of reaching a transaction shared with other
rooms; the writes as typed messages) is `front.StoreFront`'s.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import rules
from ..base import FinishedMatch, KeptMatch, LiveRoom, RoomRecord
from ..errors import StoreClosed
from ..front import StoreFront
from ..writes import RemoveExpired
from . import ops, schema
from .writer_client import WriterProcess


class SQLiteStore(StoreFront):
    """`Store` on an SQLite file. Open it, use it from any event loop, `close()` it.

    Opening (the constructor) runs migrations and blocks briefly: do it at start-up.
    """

    _writer: WriterProcess  # (the front's writer: this back-end's child process)

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
        return await self._create_room(code, game, public, meta, created_at)

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
        code = rules.code(code)
        return await self._read(lambda conn: ops.read_live_room(conn, code, snapshot))

    async def recent_matches(
        self, limit: int = 20, *, game: str | None = None, public_only: bool = False
    ) -> list[FinishedMatch]:
        """Finished matches, newest first (optionally of one game; optionally only those
        whose ``extra`` says ``"public": true``)."""
        limit = rules.recent_limit(limit)
        return await self._read(
            lambda conn: ops.read_recent_matches(conn, limit, game, public_only)
        )

    async def matches_of(
        self, player: str, limit: int = 20, *, before: float | None = None
    ) -> list[FinishedMatch]:
        """The finished matches ``player`` played, newest first."""
        player, limit = rules.string("player", player), rules.recent_limit(limit)
        before = None if before is None else rules.moment("before", before)
        return await self._read(lambda conn: ops.read_matches_of(conn, player, limit, before))

    async def load_match(self, public_id: str) -> KeptMatch | None:
        """The finished match whose page is ``public_id``, with its kept records."""
        public_id = rules.string("public_id", public_id)
        return await self._read(lambda conn: ops.read_match(conn, public_id))

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
