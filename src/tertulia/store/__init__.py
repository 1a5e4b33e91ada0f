"""Durable storage: every room's action log, written before anyone is told.

"Nothing acknowledged is ever lost. Persist, then broadcast." A room appends each
accepted action with `Store.append` and broadcasts only after it returns; on start
the server rebuilds every live room from `Store.load_live_rooms`. Finished matches
are kept for "recent matches". The store never looks inside a log entry.

`base` is the contract, `sqlite` the default back-end (with `schema`, `ops` and the
group-commit `writer` behind it), `errors` what can go wrong.
"""

from .base import (
    FinishedMatch,
    LiveRoom,
    LogEntry,
    RoomRecord,
    Snapshot,
    Store,
    StoreStats,
)
from .errors import (
    CommitFailed,
    RoomExists,
    SeqError,
    SnapshotError,
    StoreClosed,
    StoreError,
    UnknownRoom,
)
from .sqlite import SQLiteStore

__all__ = [
    "CommitFailed",
    "FinishedMatch",
    "LiveRoom",
    "LogEntry",
    "RoomExists",
    "RoomRecord",
    "SQLiteStore",
    "SeqError",
    "Snapshot",
    "SnapshotError",
    "Store",
    "StoreClosed",
    "StoreError",
    "StoreStats",
    "UnknownRoom",
]
