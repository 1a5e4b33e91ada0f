"""The SQLite back-end (the default): one file in WAL mode, fsynced at every group commit.

`store` is `SQLiteStore`, the `Store` a room talks to; `schema` opens the file and migrates
it; `ops` is the SQL of each write and read; `writer` is the child process that owns the
write connection and group-commits, `writer_client` the event loop's side of it; `backup`
copies a live database (``tertulia backup``).
"""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
