"""Helpers for the PostgreSQL-only store tests: open stores, hold a room's row from outside."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import psycopg
from services import database_url

from tertulia.store.postgres import PostgresStore


async def open_pg(schema: str, **options: Any) -> PostgresStore:
    return await PostgresStore.open(database_url(), schema=schema, **options)


def connect(schema: str, **options: Any) -> psycopg.Connection[Any]:
    """A plain connection to the test schema (as another node, or an operator)."""
    return psycopg.connect(database_url(), options=f"-c search_path={schema}", **options)


@contextlib.contextmanager
def row_held(schema: str, code: str) -> Iterator[psycopg.Connection[Any]]:
    """Another transaction holds the room's row lock, so a store's next batch that names the
    room waits in its first statement and everything submitted meanwhile queues behind it."""
    with connect(schema) as other:
        other.execute("SELECT 1 FROM rooms WHERE code = %s FOR UPDATE", (code,))
        try:
            yield other
        finally:
            other.rollback()


async def until_blocked(store: PostgresStore) -> None:
    """Return once the store's writer waits for a lock (its batch is stuck behind one)."""
    await asyncio.to_thread(_wait_until_blocked, store._writer_conn.info.backend_pid)


def _wait_until_blocked(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    with psycopg.connect(database_url(), autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT cardinality(pg_blocking_pids(%s))", (pid,)).fetchone()
            if row is not None and row[0] > 0:
                return
            time.sleep(0.01)
    raise AssertionError("expected the store's writer to wait for a lock")


def logged(schema: str) -> dict[str, list[tuple[int, bytes]]]:
    """Every live room's (seq, payload) in the database, read directly."""
    with connect(schema) as conn:
        rows = conn.execute(
            "SELECT r.code, l.seq, l.payload FROM log l JOIN rooms r ON r.id = l.room_id "
            "WHERE r.closed_at IS NULL ORDER BY r.code, l.seq"
        ).fetchall()
    result: dict[str, list[tuple[int, bytes]]] = {}
    for code, seq, payload in rows:
        result.setdefault(code, []).append((seq, bytes(payload)))
    return result
