"""The PostgreSQL store's reads, on its read connection (autocommit between reads).

`live_rooms` reads rooms, snapshots and entries in one REPEATABLE READ transaction, so a
replay sees one moment of the database even while other nodes commit; JSON columns come
back as text and are decoded with msgspec, as the SQLite store does.
"""

from __future__ import annotations

from typing import Any

import psycopg

from .. import sql
from ..base import FinishedMatch, KeptMatch, LiveRoom, LogEntry, Snapshot
from .schema import DIALECT


async def live_rooms(
    conn: psycopg.AsyncConnection[Any],
    *,
    room_id: int | None = None,
    code: str | None = None,
    snapshot: bool = True,
) -> list[LiveRoom]:
    """Every live room, oldest first (or only the live room ``room_id``, or ``code``), for
    replay; with ``snapshot=False``, no snapshot and the whole log from seq 1."""
    only = "" if room_id is None else "AND r.id = %(room_id)s "
    if code is not None:
        only += "AND r.code = %(code)s "
    params = {"room_id": room_id, "code": code}
    async with conn.transaction():
        await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor = await conn.execute(
            "SELECT r.id, r.code, r.game, r.public, r.created_at, r.meta::text FROM rooms r "
            f"WHERE r.closed_at IS NULL {only}ORDER BY r.id",
            params,
        )
        rooms = await cursor.fetchall()
        cursor = await conn.execute(
            "SELECT s.room_id, s.seq, s.at, s.payload FROM snapshots s "
            f"JOIN rooms r ON r.id = s.room_id WHERE r.closed_at IS NULL {only}",
            params,
        )
        snapshots = {
            rid: Snapshot(seq, at, payload) for rid, seq, at, payload in await cursor.fetchall()
        }
        if not snapshot:
            snapshots = {}
        entries: dict[int, list[LogEntry]] = {room[0]: [] for room in rooms}
        cursor = await conn.execute(
            "SELECT l.room_id, l.seq, l.at, l.payload FROM log l "
            "JOIN rooms r ON r.id = l.room_id "
            "LEFT JOIN snapshots s ON s.room_id = l.room_id "
            f"WHERE r.closed_at IS NULL AND l.seq > {'coalesce(s.seq, 0)' if snapshot else '0'} "
            f"{only}"
            "ORDER BY l.room_id, l.seq",
            params,
        )
        async for rid, seq, at, payload in cursor:
            entries[rid].append(LogEntry(seq, at, payload))
    return sql.live_rooms(rooms, snapshots, entries)


async def recent_matches(
    conn: psycopg.AsyncConnection[Any], limit: int, game: str | None, public_only: bool
) -> list[FinishedMatch]:
    """Finished matches, newest first; ``public_only``: those whose extra says public."""
    query, params = sql.recent_matches_query(DIALECT, limit, game, public_only)
    cursor = await conn.execute(query, params)
    return [sql.finished_match(row) for row in await cursor.fetchall()]


async def matches_of(
    conn: psycopg.AsyncConnection[Any], player: str, limit: int, before: float | None
) -> list[FinishedMatch]:
    """The finished matches ``player`` played, newest first."""
    query, params = sql.matches_of_query(DIALECT, player, limit, before)
    cursor = await conn.execute(query, params)
    return [sql.finished_match(row) for row in await cursor.fetchall()]


async def load_match(conn: psycopg.AsyncConnection[Any], public_id: str) -> KeptMatch | None:
    """One kept match and its records, from one moment of the database."""
    async with conn.transaction():
        await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor = await conn.execute(sql.match_query(DIALECT), (public_id,))
        row = await cursor.fetchone()
        if row is None:
            return None
        match_id, opening = row[7], row[8]
        cursor = await conn.execute(sql.match_log_query(DIALECT), (match_id,))
        entries = [LogEntry(seq, at, payload) for seq, at, payload in await cursor.fetchall()]
    return KeptMatch(sql.finished_match(row), opening, entries)


async def remove_older_than(conn: psycopg.AsyncConnection[Any], before: float, limit: int) -> int:
    """Retention: at most ``limit`` finished matches ended (their kept records and players
    with them), then closed rooms (their kept log and snapshot with them) closed, before
    ``before``; returns how many rows of matches, kept records and rooms went."""
    removed = 0
    async with conn.transaction():
        cursor = await conn.execute(
            "SELECT id FROM finished_matches WHERE ended_at < %s ORDER BY id LIMIT %s",
            (before, limit),
        )
        matches = [row[0] for row in await cursor.fetchall()]
        if matches:
            cursor = await conn.execute(
                "DELETE FROM match_log WHERE match_id = ANY(%s)", (matches,)
            )
            removed += cursor.rowcount
            await conn.execute("DELETE FROM match_players WHERE match_id = ANY(%s)", (matches,))
            cursor = await conn.execute(
                "DELETE FROM finished_matches WHERE id = ANY(%s)", (matches,)
            )
            removed += cursor.rowcount
        if removed < limit:
            cursor = await conn.execute(
                "SELECT id FROM rooms WHERE closed_at IS NOT NULL AND closed_at < %s "
                "ORDER BY id LIMIT %s",
                (before, limit - removed),
            )
            ids = [row[0] for row in await cursor.fetchall()]
            if ids:
                await conn.execute("DELETE FROM log WHERE room_id = ANY(%s)", (ids,))
                await conn.execute("DELETE FROM snapshots WHERE room_id = ANY(%s)", (ids,))
                cursor = await conn.execute("DELETE FROM rooms WHERE id = ANY(%s)", (ids,))
                removed += cursor.rowcount
    return removed
