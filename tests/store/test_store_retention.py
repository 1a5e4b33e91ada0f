"""Retention (issue 20): "finished matches and closed rooms' logs are kept for a configurable
time (--keep-days), then removed by housekeeping, without blocking rooms"."""

from __future__ import annotations

import asyncio
import sqlite3

from store_testing import entries, run

from tertulia.games import GAMES
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.server.app import create_app
from tertulia.server.config import Config
from tertulia.store import FinishedMatch, LogEntry
from tertulia.store.sqlite import SQLiteStore

DAY = 86400.0
NOW = 1_800_000_000.0


def _match(room: str, ended_at: float) -> FinishedMatch:
    return FinishedMatch(room, "pitacor", ended_at, players=[{"id": "a", "score": 1}])


def _counts(path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("rooms", "log", "snapshots", "finished_matches")
        }
    finally:
        conn.close()


def test_what_ended_before_the_retention_time_goes_and_live_rooms_stay(tmp_path):
    """Finished matches that ended, and closed rooms that closed, before the cut are removed
    (a room closed with keep_log loses its log and snapshot too); newer ones stay, and a
    live room stays whatever its age. Each call removes at most ``limit`` rows."""
    path = tmp_path / "r.sqlite3"

    async def go() -> None:
        async with SQLiteStore(path) as store:
            await store.create_room("LIVE", "pitacor", public=False, created_at=NOW - 400 * DAY)
            await store.append("LIVE", entries(1, 5))
            await store.create_room("OLDK", "pitacor", public=False, created_at=NOW - 90 * DAY)
            await store.append("OLDK", entries(1, 30))
            await store.save_snapshot("OLDK", 10, b"state")
            await store.close_room("OLDK", "idle", at=NOW - 60 * DAY, keep_log=True)
            await store.create_room("OLD", "pitacor", public=False, created_at=NOW - 90 * DAY)
            await store.close_room("OLD", "idle", at=NOW - 60 * DAY)
            await store.create_room("NEW", "pitacor", public=False, created_at=NOW - 2 * DAY)
            await store.append("NEW", entries(1, 3))
            await store.close_room("NEW", "idle", at=NOW - DAY, keep_log=True)
            for n in range(12):
                await store.record_finished_match(_match(f"M{n}", NOW - 60 * DAY))
            await store.record_finished_match(_match("RECENT", NOW - DAY))
            before = NOW - 30 * DAY
            calls = []
            while removed := await store.remove_older_than(before, limit=7):
                calls.append(removed)
            assert all(n <= 7 for n in calls) and len(calls) >= 6
            # 12 matches, OLDK's 30 entries, its snapshot row is not counted, 2 rooms
            assert sum(calls) == 12 + 30 + 2
            assert [m.room for m in await store.recent_matches(50)] == ["RECENT"]
            codes = [live.room.code for live in await store.load_live_rooms()]
            assert codes == ["LIVE"]
        assert _counts(path) == {"rooms": 2, "log": 5 + 3, "snapshots": 0, "finished_matches": 1}

    run(go)


def test_housekeeping_removes_in_short_writes_that_let_rooms_save_between_them(tmp_path):
    """ "Without blocking rooms": the clean-up of a big expired log is many short writes, and
    a room's save sent while it runs is durable before the clean-up has finished."""
    path = tmp_path / "h.sqlite3"

    async def go() -> None:
        async with SQLiteStore(path) as store:
            await store.create_room("BIG", "pitacor", public=False, created_at=NOW - 90 * DAY)
            for first in range(1, 3001, 500):
                await store.append("BIG", entries(first, first + 499))
            await store.close_room("BIG", "idle", at=NOW - 60 * DAY, keep_log=True)
            await store.create_room("PLAY", "pitacor", public=False)
            config = ManagerConfig(keep_seconds=30 * DAY)
            manager = RoomManager(store, GAMES, config, clock=lambda: NOW)
            real = store.remove_older_than
            calls: list[int] = []
            saved_during: list[int] = []

            async def counting(before, *, limit):
                removed = await real(before, limit=limit)
                calls.append(removed)
                if len(calls) == 1:  # a room saves while the clean-up is under way
                    saving = store.start_append("PLAY", LogEntry(1, NOW, b"{}"))
                    saving.add_done_callback(lambda _: saved_during.append(len(calls)))
                return removed

            store.remove_older_than = counting
            assert await manager.remove_expired(batch=250) == 3000 + 1
            assert len(calls) >= 12 and max(calls) <= 250
            assert saved_during and saved_during[0] < len(calls)  # before the last write
        assert _counts(path)["log"] == 1

    run(go)


def test_keep_days_reaches_housekeeping_and_zero_keeps_everything(tmp_path):
    """--keep-days 2 makes housekeeping remove what ended over 2 days ago; 0 keeps it all."""

    async def go() -> None:
        for days, expected in ((2.0, 2 * DAY), (0.0, None)):
            app = create_app(Config(db_path=tmp_path / f"k{days}.sqlite3", keep_days=days))
            state = app.state.tertulia
            try:
                assert state.manager.config.keep_seconds == expected
            finally:
                await state.store.close()
        kept = RoomManager(None, GAMES, ManagerConfig(keep_seconds=None))  # type: ignore[arg-type]
        assert await kept.remove_expired() == 0  # never asks the store

    asyncio.run(go())
