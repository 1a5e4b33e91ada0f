"""The PostgreSQL store's reads, on its read connection (autocommit between reads).

`live_rooms` reads rooms, snapshots and entries in one REPEATABLE READ transaction, so a
replay sees one moment of the database even while other nodes commit; JSON columns come
back as text and are decoded with msgspec, as the SQLite store does.
"""

from __future__ import annotations

from typing import Any

import msgspec
import psycopg

from ..base import FinishedMatch, LiveRoom, LogEntry, RoomRecord, Snapshot

_decode_dict = msgspec.json.Decoder(dict[str, Any]).decode
_decode_players = msgspec.json.Decoder(list[dict[str, Any]]).decode


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
    return [
        LiveRoom(
            room=RoomRecord(code, game, public, created_at, _decode_dict(meta)),
            snapshot=snapshots.get(rid),
            entries=entries[rid],
        )
        for rid, code, game, public, created_at, meta in rooms
    ]


async def recent_matches(
    conn: psycopg.AsyncConnection[Any], limit: int, game: str | None, public_only: bool
) -> list[FinishedMatch]:
    """Finished matches, newest first; ``public_only``: those whose extra says public."""
    conditions, params = [], []
    if game is not None:
        conditions.append("game = %s")
        params.append(game)
    if public_only:
        # As SQLite's json_extract(...) = 1: true, or the number 1.
        conditions.append("extra -> 'public' IN ('true'::jsonb, '1'::jsonb)")
    where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
    cursor = await conn.execute(
        "SELECT room_code, game, started_at, ended_at, players::text, extra::text "
        f"FROM finished_matches {where}ORDER BY ended_at DESC, id DESC LIMIT %s",
        (*params, limit),
    )
    return [
        FinishedMatch(
            room=room,
            game=game_,
            ended_at=ended_at,
            players=_decode_players(players),
            started_at=started_at,
            extra=_decode_dict(extra),
        )
        for room, game_, started_at, ended_at, players, extra in await cursor.fetchall()
    ]


async def remove_older_than(conn: psycopg.AsyncConnection[Any], before: float, limit: int) -> int:
    """Retention: at most ``limit`` finished matches ended, then closed rooms (their kept log
    and snapshot with them) closed, before ``before``; returns how many rows went."""
    removed = 0
    async with conn.transaction():
        cursor = await conn.execute(
            "DELETE FROM finished_matches WHERE id IN (SELECT id FROM finished_matches "
            "WHERE ended_at < %s ORDER BY id LIMIT %s)",
            (before, limit),
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
