"""One writer thread that group-commits every waiting request in one transaction.

Why a thread: sqlite3 blocks, and an fsync must not stall the event loop. Why one:
SQLite has a single writer anyway, and one thread owning the write connection
needs no locks around it. Why group commit: while the thread waits on an fsync,
new requests queue up; the next transaction takes all of them, so N rooms acting
at once cost about one fsync per round, not N.

A request is a function of the connection. Each runs inside a savepoint, so a
refused request (a `StoreError`, or a caller's mistake such as a constraint) is
rolled back alone and fails alone; any other exception, or a failed COMMIT,
rolls the whole batch back and fails every request in it with `CommitFailed`.
Futures are resolved only after the outcome of the COMMIT is known: nothing is
acknowledged before it is durable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from .base import StoreStats
from .errors import CommitFailed, StoreClosed, StoreError

log = logging.getLogger(__name__)

Op = Callable[[sqlite3.Connection], Any]

# What a single request may raise without harming the rest of its batch: refusals,
# and the caller's own mistakes (a constraint, a value SQLite cannot bind). These
# leave the transaction intact, so rolling back to the request's savepoint is
# enough. Anything else (I/O, disk full, busy, corruption) ends the whole batch.
_REQUEST_ERRORS = (
    StoreError,
    sqlite3.IntegrityError,
    sqlite3.InterfaceError,
    sqlite3.ProgrammingError,
    TypeError,
    ValueError,
)

# A cap keeps one transaction (and the wait of its first caller) bounded under a
# flood; 2,000 simultaneous actions still take only a few commits.
MAX_BATCH = 1000


class _Request:
    __slots__ = ("future", "loop", "op", "weight")

    def __init__(self, op: Op, weight: int, loop: asyncio.AbstractEventLoop) -> None:
        self.op = op
        self.weight = weight  # log entries it appends, for the stats
        self.loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()


_STOP = object()


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    # Runs on the caller's loop. A caller that was cancelled no longer listens; the
    # write itself has happened (or not) regardless.
    if future.cancelled():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


class GroupCommitWriter:
    """Owns the write connection and the thread that uses it."""

    def __init__(self, conn: sqlite3.Connection, *, name: str = "tertulia-store-writer") -> None:
        self.stats = StoreStats()
        self._conn = conn
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        # Guards `_closing` together with the put, so no request can slip in
        # behind the stop marker and wait forever.
        self._lock = threading.Lock()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, op: Op, *, weight: int = 0) -> asyncio.Future[Any]:
        """Queue `op` for the next transaction; the future settles after COMMIT."""
        request = _Request(op, weight, asyncio.get_running_loop())
        with self._lock:
            if self._closing:
                raise StoreClosed("the store is closed")
            self._queue.put(request)
        return request.future

    async def close(self) -> None:
        """Let the thread finish every queued request, then close the connection."""
        with self._lock:
            if not self._closing:
                self._closing = True
                self._queue.put(_STOP)
        await asyncio.to_thread(self._thread.join)

    # -- the writer thread -------------------------------------------------------

    def _run(self) -> None:
        try:
            stopping = False
            while not stopping:
                batch: list[_Request] = []
                item = self._queue.get()
                while True:
                    if item is _STOP:
                        stopping = True
                        break
                    batch.append(item)
                    if len(batch) >= MAX_BATCH:
                        break
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                if batch:
                    self._commit(batch)
        finally:
            self._conn.close()

    def _commit(self, batch: list[_Request]) -> None:
        conn = self._conn
        outcomes: list[tuple[Any, BaseException | None]] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for request in batch:
                conn.execute("SAVEPOINT request")
                try:
                    result = request.op(conn)
                except _REQUEST_ERRORS as refused:
                    conn.execute("ROLLBACK TO request")
                    conn.execute("RELEASE request")
                    outcomes.append((None, refused))
                else:
                    conn.execute("RELEASE request")
                    outcomes.append((result, None))
            conn.execute("COMMIT")
        except Exception as exc:  # sqlite3.Error, or a bug in an op: the batch is lost
            self._rollback()
            self.stats.failed_batches += 1
            log.error("store transaction of %d requests failed: %r", len(batch), exc)
            for request in batch:
                error = CommitFailed(f"transaction failed, nothing written: {exc}")
                error.__cause__ = exc
                self._resolve(request, None, error)
            return
        self.stats.commits += 1
        for request, (result, error) in zip(batch, outcomes, strict=True):
            if error is None:
                self.stats.requests += 1
                self.stats.entries += request.weight
            self._resolve(request, result, error)

    def _rollback(self) -> None:
        # Some errors (disk full, I/O) make SQLite roll back by itself; others
        # (busy) leave the transaction open.
        if self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback after a failed store transaction failed")

    @staticmethod
    def _resolve(request: _Request, result: Any, error: BaseException | None) -> None:
        # RuntimeError: the caller's event loop is closed, so nobody is waiting.
        with contextlib.suppress(RuntimeError):
            request.loop.call_soon_threadsafe(_settle, request.future, result, error)
