"""Opening the file: settings, schema version, and what the store refuses to open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_testing import run

from tertulia.store.sqlite import SQLiteStore
from tertulia.store.sqlite.schema import MIGRATIONS


def test_a_new_file_is_wal_at_the_latest_schema_version(tmp_path: Path) -> None:
    db = tmp_path / "t.db"

    async def body() -> None:
        async with SQLiteStore(db) as store:
            assert store.schema_version == len(MIGRATIONS)

    run(body)
    run(body)  # reopening an up-to-date file migrates nothing and works
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]
    finally:
        conn.close()


def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    run(lambda: SQLiteStore(db).close())
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS) + 1,))
    conn.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        SQLiteStore(db)


@pytest.mark.parametrize("path", [":memory:", ""])
def test_an_in_memory_database_is_refused(path: str) -> None:
    with pytest.raises(ValueError, match="file path"):
        SQLiteStore(path)


def test_a_database_from_before_match_pages_migrates_and_keeps_its_matches(tmp_path: Path) -> None:
    """Migration 3 (match pages) adds to what is there: an older finished match is still
    listed, with no page, and new ones keep theirs."""
    db = tmp_path / "t.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT")
    conn.execute("INSERT INTO schema_version (version) VALUES (2)")
    conn.executescript(MIGRATIONS[0] + MIGRATIONS[1])
    with conn:
        conn.execute(
            "INSERT INTO finished_matches (room_code, game, ended_at, players, extra) "
            "VALUES ('OLD', 'pitacor', 5.0, '[{\"id\": \"ana\"}]', '{}')"
        )
    conn.close()

    async def body() -> None:
        async with SQLiteStore(db) as store:
            assert store.schema_version == len(MIGRATIONS)
            (old,) = await store.recent_matches()
            assert old.room == "OLD" and old.public_id is None
            assert await store.matches_of("ana") == []  # its players were never listed

    run(body)
