"""The store's contract: what a room may persist and what comes back on restart.

The store knows nothing of games or of a room's internals. A room writes opaque
log entries (bytes, usually msgspec-encoded JSON) under strictly consecutive seq
numbers; on start the server reads every live room back with its log in order and
replays it. SQLite is the default back-end (`tertulia.store.sqlite`); another
back-end implements `Store` and passes the same tests. A back-end shared by several nodes
(PostgreSQL, `tertulia.store.postgres`) implements `FencedStore` too.

The promise every back-end keeps: when an awaited write returns, it is durable.
"Persist, then broadcast" is the rooms layer's half of that promise.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec


class RoomRecord(msgspec.Struct, frozen=True):
    """A room as created. `game` is the game it was created with; lobby changes
    after that are log entries (or `meta`), not edits of this record."""

    code: str
    game: str
    public: bool
    created_at: float
    meta: dict[str, Any] = msgspec.field(default_factory=dict)


class LogEntry(msgspec.Struct, frozen=True):
    """One accepted action of a room. `seq` counts from 1 with no gaps."""

    seq: int
    at: float
    payload: bytes


class Snapshot(msgspec.Struct, frozen=True):
    """A room's state after entry `seq`, as the rooms layer encoded it."""

    seq: int
    at: float
    payload: bytes


class LiveRoom(msgspec.Struct, frozen=True):
    """What replay needs: the room, its latest snapshot (if any) and every
    entry after that snapshot, in seq order."""

    room: RoomRecord
    snapshot: Snapshot | None
    entries: list[LogEntry]

    @property
    def last_seq(self) -> int:
        """The seq the next append must follow (0 for an empty log)."""
        if self.entries:
            return self.entries[-1].seq
        return self.snapshot.seq if self.snapshot else 0


class FinishedMatch(msgspec.Struct, frozen=True):
    """A match that ended, kept for "recent matches", its players' own lists and its page.

    `players` is one dict per seat, e.g. ``{"id": ..., "name": ..., "score": 12}``;
    the store only requires it to be JSON-able, and reads one thing of it: each ``id``
    (a string) is kept as one of the match's players (`Store.matches_of`), unless its
    ``bot`` is true. `public_id` names the match's page (None: it has none).
    """

    room: str
    game: str
    ended_at: float
    players: list[dict[str, Any]]
    started_at: float | None = None
    extra: dict[str, Any] = msgspec.field(default_factory=dict)
    public_id: str | None = None


class MatchLog(msgspec.Struct, frozen=True):
    """What to keep of a finished match's records, for its page: the entries ``first_seq``
    to ``last_seq`` of its room's log (live: its code is the match's `room`), but ``skip``,
    copied in the transaction that keeps the match, and ``opening``, the room's state just
    before them as the rooms layer encoded it (opaque, like entries)."""

    first_seq: int
    last_seq: int
    opening: bytes
    skip: list[int] = msgspec.field(default_factory=list)


class KeptMatch(msgspec.Struct, frozen=True):
    """A finished match with what its page folds: its opening and its kept entries, in seq
    order (None and [] when it kept none)."""

    match: FinishedMatch
    opening: bytes | None
    entries: list[LogEntry]


class StoreStats(msgspec.Struct):
    """Counters for tests, benchmarks and /metrics."""

    commits: int = 0  # transactions committed (one fsync each)
    requests: int = 0  # write requests acknowledged, of any kind
    entries: int = 0  # log entries appended
    failed_batches: int = 0  # transactions that failed; all their requests failed


class Store(Protocol):
    """A durable, per-room, append-only log plus the few records around it.

    Every write is async and returns only once it is durable. Writes are applied
    in the order they were submitted. A refused request (`SeqError`, `UnknownRoom`,
    ...) writes nothing; a `CommitFailed` means nothing of that request was written.
    """

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
        ...

    async def append(self, code: str, entries: LogEntry | Sequence[LogEntry]) -> None:
        """Append one or several entries; their seqs must continue the log by +1."""
        ...

    def start_append(
        self,
        code: str,
        entries: LogEntry | Sequence[LogEntry],
        on_durable: Callable[[BaseException | None], None] | None = None,
    ) -> Awaitable[None]:
        """``append``, already on its way when this returns: await the result to know it is
        durable. Lets a caller do other work (never telling anyone) while the disk writes.

        ``on_durable``, if given, may be called on the event loop with the outcome (None:
        durable) as soon as it is known, before the awaitable's waiters wake; a store need
        not call it, and a caller must not rely on it."""
        ...

    def settle_answered(self) -> None:
        """Settle now every write whose outcome has already reached this process (calling
        its ``on_durable``), instead of when the event loop next polls; cheap when there is
        none. A caller about to start new work calls it to finish older work first."""
        ...

    async def save_snapshot(
        self, code: str, seq: int, payload: bytes, *, at: float | None = None
    ) -> None:
        """Keep the room's state after entry `seq`; replay starts from the latest. Only the
        latest is kept: one at the same seq replaces it (another version's); one behind it,
        or ahead of the log, is refused (`SnapshotError`)."""
        ...

    async def update_room_meta(self, code: str, meta: Mapping[str, Any]) -> None:
        """Replace the room's meta dict."""
        ...

    async def close_room(
        self, code: str, reason: str, *, at: float | None = None, keep_log: bool = False
    ) -> None:
        """Mark the room closed; its code becomes free. Drops its log unless `keep_log`."""
        ...

    async def record_finished_match(
        self, match: FinishedMatch, log: MatchLog | None = None
    ) -> None:
        """Keep a finished match for `recent_matches`, its players' `matches_of` and, with
        ``log``, its records for its page (`load_match`), all in one transaction. A
        `public_id` another match has is refused (nothing kept)."""
        ...

    async def remove_older_than(self, before: float, *, limit: int = 500) -> int:
        """Retention (``--keep-days``): remove finished matches whose ``ended_at`` (with
        their kept records and players) and closed rooms whose close time (with any log and
        snapshot kept by ``keep_log``) are before ``before``, at most ``limit`` rows of
        matches, kept records, rooms and logs in one short write, and return how many of
        those went; the caller calls again until it returns 0. Live rooms are never touched.
        Short on purpose: the rooms' appends wait behind it in a single writer."""
        ...

    async def load_live_rooms(self) -> list[LiveRoom]:
        """Every room not closed, oldest first, each with what replay needs."""
        ...

    async def load_live_room(self, code: str, *, snapshot: bool = True) -> LiveRoom | None:
        """One room as ``load_live_rooms`` would give it, or None if no live room has the
        code. With ``snapshot=False`` it comes with no snapshot and its whole log, from seq
        1: what replay needs when the latest snapshot cannot be used (one written by another
        version). A room rebuilding itself after a failed save reads itself with this."""
        ...

    async def recent_matches(
        self, limit: int = 20, *, game: str | None = None, public_only: bool = False
    ) -> list[FinishedMatch]:
        """Finished matches, newest first; with ``public_only``, those whose ``extra`` says
        ``"public": true``."""
        ...

    async def matches_of(
        self, player: str, limit: int = 20, *, before: float | None = None
    ) -> list[FinishedMatch]:
        """The finished matches ``player`` played, newest first (those that ended before
        ``before``, if given)."""
        ...

    async def load_match(self, public_id: str) -> KeptMatch | None:
        """The finished match whose page is ``public_id``, with its kept records; None if
        none has that id (or it was removed after ``--keep-days``)."""
        ...

    async def close(self) -> None:
        """Finish every write already submitted, then release the database."""
        ...

    @property
    def writable(self) -> bool:
        """False once the writer is lost: nothing more can be saved."""
        ...

    def on_writer_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) if the writer is lost on its own."""
        ...


@runtime_checkable
class FencedStore(Store, Protocol):
    """A `Store` that several nodes share (cluster mode, `tertulia.store.postgres`): each
    room has one owner at a time, and the store refuses the writes of a former owner.

    Ownership is decided elsewhere (a lease in Redis); the lease hands out a *fencing
    number* that grows with every new owner. The store keeps, per room, the highest fence
    claimed, and each store object remembers the fence it last claimed or created each room
    with. Every append, snapshot, meta update and close of a room carries that fence, and the
    transaction that writes it first checks it against the room's row: if another owner has
    claimed a higher fence since, the request fails with `FencedOut` and writes nothing, so
    a node paused past its lease (GC, SIGSTOP, a slow disk) can never append after a takeover.
    Only that room's requests fail; the rest of the same group commit is written.

    SQLite (`SQLiteStore`, one process) has no use for fencing and does not implement this.
    """

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
        """Register a live room owned by this store, starting at ``fence`` (0 if None)."""
        ...

    async def claim(self, code: str, fence: int) -> LiveRoom:
        """Become the room's owner under ``fence``: in one transaction, `FencedOut` if the
        room's stored fence is already >= ``fence``, else store it. Returns what replay needs
        (everything committed under earlier fences); `UnknownRoom` if no live room has it."""
        ...

    def release(self, code: str) -> None:
        """Forget the room locally (this node let it go): its fence is no longer held, so
        later writes of it through this store are refused with `FencedOut` (a store may be
        opened to allow writes without a claim, for a single node: then they go unchecked)."""
        ...
