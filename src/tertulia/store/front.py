"""What every back-end's store object does alike, written once: check a caller's arguments
(`rules`), turn the call into a typed write (`writes`) and hand it to the back-end's writer,
and say how that writer is doing (`writable`, `stats`, `on_writer_lost`).

A back-end subclasses `StoreFront`, gives it ``_writer`` (anything shaped like `Writer`) and
writes the rest itself: opening and `close`, `create_room` (through `_create_room`; a
fenced store's takes a fence), retention, and the reads (its dialect's SQL on its own read
connection). Where its database holds less than the rules allow, it narrows `_storable` and
`_json` (PostgreSQL: no NUL character).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self

from . import rules
from .base import FinishedMatch, LogEntry, MatchLog, RoomRecord, Snapshot, StoreStats
from .writes import Append, CloseRoom, CreateRoom, RecordMatch, SaveSnapshot, UpdateMeta, Write

_OnDone = Callable[[BaseException | None], None]


class Writer(Protocol):
    """A back-end's writer: runs each write in a group commit, settling its future (and
    calling its ``on_done``) once the outcome of that COMMIT is known."""

    stats: StoreStats
    on_lost: Callable[[], None] | None  # called once if it can no longer write

    @property
    def alive(self) -> bool: ...

    def submit(
        self, write: Write, *, weight: int = 0, on_done: _OnDone | None = None
    ) -> asyncio.Future[Any]: ...

    def settle_answered(self) -> None: ...


class StoreFront:
    """The part of `Store` every back-end shares; see the module docstring."""

    _writer: Writer

    # -- the writer ---------------------------------------------------------------------

    @property
    def writable(self) -> bool:
        """False once the writer is lost (its process died, its connection broke): nothing
        more can be saved (see ``on_writer_lost``)."""
        return self._writer.alive

    def on_writer_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) if the writer is lost on its own."""
        self._writer.on_lost = callback

    @property
    def stats(self) -> StoreStats:
        """Live counters: commits, acknowledged requests and entries, failed batches."""
        return self._writer.stats

    # -- writes -------------------------------------------------------------------------

    async def _create_room(
        self,
        code: str,
        game: str,
        public: bool,
        meta: Mapping[str, Any] | None,
        created_at: float | None,
        fence: int = 0,
    ) -> RoomRecord:
        room = RoomRecord(
            code=self._storable("code", rules.text("code", code)),
            game=self._storable("game", rules.text("game", game)),
            public=bool(public),
            created_at=rules.when(created_at),
            meta=dict(meta or {}),
        )
        meta_json = self._json(room.meta)
        await self._writer.submit(
            CreateRoom(room.code, room.game, room.public, room.created_at, meta_json, fence)
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
        """Settle every write whose outcome has reached this process (`Store.settle_answered`)."""
        self._writer.settle_answered()

    async def save_snapshot(
        self, code: str, seq: int, payload: bytes, *, at: float | None = None
    ) -> None:
        """Keep the room's state after entry `seq`; replay starts from the latest."""
        snapshot = Snapshot(rules.seq(seq), rules.when(at), rules.payload(payload))
        await self._writer.submit(SaveSnapshot(rules.code(code), snapshot))

    async def update_room_meta(self, code: str, meta: Mapping[str, Any]) -> None:
        """Replace the room's meta dict."""
        await self._writer.submit(UpdateMeta(rules.code(code), self._json(dict(meta))))

    async def close_room(
        self, code: str, reason: str, *, at: float | None = None, keep_log: bool = False
    ) -> None:
        """Mark the room closed; its code becomes free. Drops its log unless `keep_log`."""
        reason = self._storable("reason", rules.string("reason", reason))
        await self._writer.submit(
            CloseRoom(rules.code(code), reason, rules.when(at), bool(keep_log))
        )

    async def record_finished_match(
        self, match: FinishedMatch, log: MatchLog | None = None
    ) -> None:
        """Keep a finished match for `recent_matches` and its players' `matches_of`; with
        ``log``, its records too, for its page (`load_match`)."""
        started_at = match.started_at
        public_id = match.public_id
        first, last, skip, opening = 0, 0, [], None
        if log is not None:
            first, last = rules.seq(log.first_seq), rules.seq(log.last_seq)
            if last < first:
                raise ValueError(f"expected last_seq >= first_seq, got {first}..{last}")
            skip, opening = [rules.seq(s) for s in log.skip], rules.payload(log.opening)
        write = RecordMatch(
            self._storable("room", rules.string("room", match.room)),
            self._storable("game", rules.string("game", match.game)),
            None if started_at is None else rules.moment("started_at", started_at),
            rules.moment("ended_at", match.ended_at),
            self._json(match.players),
            self._json(match.extra),
            None
            if public_id is None
            else self._storable("public_id", rules.text("public_id", public_id)),
            opening,
            [self._storable("player", p) for p in rules.player_ids(match.players)],
            first,
            last,
            skip,
        )
        await self._writer.submit(write)

    # -- what a back-end narrows ----------------------------------------------------------

    def _storable(self, name: str, value: str) -> str:
        """``value`` (named ``name`` in an error), if this database can store it as text."""
        return value

    def _json(self, value: Any) -> str:
        """``value`` as JSON text, if this database can store it (`TypeError` if JSON can't)."""
        return rules.to_json(value)

    # -- lifetime -----------------------------------------------------------------------

    async def close(self) -> None:
        """Finish every write already submitted, then release the database."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
