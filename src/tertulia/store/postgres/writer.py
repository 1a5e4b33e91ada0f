"""Group commit on PostgreSQL: one task, one connection, one transaction per batch.

Every write request joins a queue; the writer task takes everything queued (up to
`MAX_BATCH`) and writes it in one transaction, while the next requests queue behind it. So
N rooms acting during one commit cost one commit, not N. A request's future settles only
after the outcome of that COMMIT is known: nothing is acknowledged before it is durable.

Why a task and not a process, as SQLite's writer is: psycopg's async connection waits on its
socket like any other I/O, so the event loop is free while PostgreSQL writes and fsyncs; what
a process saved SQLite (holding the GIL through every statement) does not arise here.

One batch is one `batch.Batch`: the rows of its rooms locked, its requests checked
in Python against them (a refused one fails alone), then its entries inserted and committed
(three round trips and one WAL flush, whatever its size).

Any database error outside a request's own savepoint, or a failed COMMIT, fails every
request of the batch with `CommitFailed`. If the connection itself is gone, the store is lost
(as when SQLite's writer process dies): nothing more can be written through it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import psycopg

from ..base import StoreStats
from ..errors import CommitFailed, StoreClosed, StoreError
from ..writes import Write
from .batch import HANDLERS, Batch, Request

log = logging.getLogger("tertulia.store.postgres")

# Bounds one transaction (and the wait of its first caller) under a flood, as in SQLite.
MAX_BATCH = 1000

_OnDone = Callable[[BaseException | None], None]


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
        self, write: Write, *, weight: int = 0, on_done: _OnDone | None = None
    ) -> asyncio.Future[Any]:
        """Queue ``write`` for the next batch; the future settles after its COMMIT, with what
        the write returned (None for most)."""
        if self._closing:
            raise StoreClosed("the store is closed")
        future = asyncio.get_running_loop().create_future()
        request = Request(write, future, on_done, weight)
        if self._lost:
            _settle(request, _connection_lost())
            return future
        self._queue.append(request)
        self._wake.set()
        return future

    def settle_answered(self) -> None:
        """Nothing to do here: an outcome reaches this process only through the writer task's
        own read of the connection, and the task settles every request of a batch the moment
        it reads the COMMIT's answer. (SQLite's writer answers over a socket that can be read
        ahead of the loop; see `Store.settle_answered`.)"""

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
        state = Batch(self._conn, self.held, require_claim=self.require_claim)
        try:
            await state.begin_and_lock({r.code for r in batch if r.code})
            for index, request in enumerate(batch):
                try:
                    outcomes[index] = await HANDLERS[type(request.write)](state, request.write)
                except StoreError as refused:
                    outcomes[index] = _Refused(refused)
            await state.insert_and_commit()
        except Exception as exc:  # psycopg.Error, or a bug: nothing of the batch was written
            await state.rollback()
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
