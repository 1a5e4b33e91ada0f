"""Durable storage: every room's action log, written before anyone is told.

"Nothing acknowledged is ever lost. Persist, then broadcast." A room appends each
accepted action with `Store.append` and broadcasts only after it returns; on start
the server rebuilds every live room from `Store.load_live_rooms`. Finished matches
are kept for "recent matches", their players' own lists and their pages (with the
match's records, copied from its room's log as it ends). The store never looks inside a log entry.

`base` is the contract and `errors` what can go wrong; `rules` are the checks every
back-end applies alike. The back-ends are packages of their own, each imported only by
whoever opens one: `sqlite` (the default, `SQLiteStore`) and `postgres` (cluster mode,
`PostgresStore`). Neither imports the other.
"""

from .base import (
    FinishedMatch,
    KeptMatch,
    LiveRoom,
    LogEntry,
    MatchLog,
    RoomRecord,
    Snapshot,
    Store,
    StoreStats,
)
from .errors import (
    CommitFailed,
    MatchExists,
    RoomExists,
    SeqError,
    SnapshotError,
    StoreClosed,
    StoreError,
    UnknownRoom,
)

__all__ = [
    "CommitFailed",
    "FinishedMatch",
    "KeptMatch",
    "LiveRoom",
    "LogEntry",
    "MatchExists",
    "MatchLog",
    "RoomExists",
    "RoomRecord",
    "SeqError",
    "Snapshot",
    "SnapshotError",
    "Store",
    "StoreClosed",
    "StoreError",
    "StoreStats",
    "UnknownRoom",
]
