"""Opening the SQLite file: connection settings and schema migrations.

Migrations are a list of SQL scripts applied in order, each in its own
transaction together with the bump of `schema_version`; never edit a released
script, append a new one. A database newer than this code is refused rather
than guessed at. The first one's tables are the ones PostgreSQL has too, written
once in `sql` and spelt here by `DIALECT`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..sql import Dialect, migrations_to_run, schema_1, schema_2

# A column kind of the shared tables (`sql.Column`) -> its type here. STRICT tables: SQLite
# refuses a value of the wrong type instead of storing it as whatever it is.
DIALECT = Dialect(
    types={
        "key": "INTEGER PRIMARY KEY",
        "int": "INTEGER",
        "bool": "INTEGER",
        "time": "REAL",
        "text": "TEXT",
        "json": "TEXT",
        "bytes": "BLOB",
        "fence": None,  # one process: no fencing
    },
    table_options=" STRICT",
    param="?",
    json_text="{}",
    public_extra="json_extract(extra, '$.public') = 1",
    not_listed="{} NOT IN (SELECT value FROM json_each(?))",
)

MIGRATIONS: list[str] = [
    # 1: rooms, their logs and snapshots, finished matches.
    schema_1(DIALECT),
    # 2: retention finds closed rooms by when they closed (Store.remove_older_than).
    """
    CREATE INDEX rooms_closed ON rooms (closed_at) WHERE closed_at IS NOT NULL;
    """,
    # 3: match pages: each finished match's page id, opening and records, and its players.
    schema_2(DIALECT),
]


def check_path(path: str | Path) -> Path:
    """Refuse in-memory databases and create the data folder."""
    text = str(path)
    if not text or text == ":memory:" or text.startswith("file::memory:"):
        raise ValueError("the store needs a file path; an in-memory database is not durable")
    resolved = Path(path)
    resolved.parent.mkdir(parents=True, exist_ok=True)
    return resolved


def connect(path: Path, *, busy_timeout: float, read_only: bool = False) -> sqlite3.Connection:
    """Open one connection with the settings every connection of the store needs."""
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
    # exactly one group commit and never an implicit one the sqlite3 module opened.
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
    )
    conn.execute("PRAGMA foreign_keys = ON")
    if read_only:
        conn.execute("PRAGMA query_only = ON")
        return conn
    # WAL: readers never block the writer, and a commit appends to one file.
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        conn.close()
        raise RuntimeError(f"expected journal_mode wal, got {mode!r} for {path}")
    # FULL, not NORMAL: in WAL mode NORMAL fsyncs only at checkpoints, so a commit
    # survives a process crash but may vanish on power loss or a kernel panic. We
    # acknowledge an action to players only after commit, so the commit must be on
    # stable storage: FULL fsyncs the WAL at every commit. Group commit is what
    # keeps that affordable.
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to date; return the version now in force."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL) STRICT")
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    if row is None:
        conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        current = 0
    else:
        current = row[0]
    for version, script in migrations_to_run(current, MIGRATIONS):
        # executescript runs the statements as written, so the migration and its
        # version bump commit together or not at all.
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\n"
                f"UPDATE schema_version SET version = {version};\nCOMMIT;"
            )
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)
