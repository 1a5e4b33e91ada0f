"""``tertulia backup PATH``: SQLite's online backup of a live database (issue 20: "an online
backup that is safe with WAL ... tested by restoring and replaying")."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from store_testing import entries, run

from tertulia.games import GAMES
from tertulia.protocol import Chat
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.replay import snapshot_of
from tertulia.store import LogEntry
from tertulia.store.sqlite import SQLiteStore
from tertulia.store.sqlite.backup import BackupError, backup


def test_a_backup_taken_while_rooms_write_holds_a_consistent_moment_and_replays(tmp_path):
    """Taken while four rooms append as fast as they can: the copy is one file (no -wal
    beside it), passes integrity_check, and each room's log in it is an unbroken prefix of the
    real one (one moment, never a torn one)."""
    db, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"

    async def go() -> None:
        async with SQLiteStore(db) as store:
            codes = [f"R{n}" for n in range(4)]
            for code in codes:
                await store.create_room(code, "pitacor", public=False)
                await store.append(code, entries(1, 50))
            stop = asyncio.Event()

            async def keep_writing(code: str) -> None:
                seq = 50
                while not stop.is_set():
                    seq += 1
                    await store.append(code, LogEntry(seq, 2000.0 + seq, b'{"w":%d}' % seq))

            writers = [asyncio.create_task(keep_writing(code)) for code in codes]
            await asyncio.sleep(0.2)
            written = await asyncio.to_thread(backup, db, copy)
            stop.set()
            await asyncio.gather(*writers)
            assert written == [copy]
            final = {live.room.code: live.entries for live in await store.load_live_rooms()}
        assert not Path(f"{copy}-wal").exists()
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        conn.close()
        async with SQLiteStore(copy) as restored:
            lives = await restored.load_live_rooms()
        assert sorted(live.room.code for live in lives) == codes
        for live in lives:
            seqs = [e.seq for e in live.entries]
            assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 50
            assert live.entries == final[live.room.code][: len(seqs)]

    run(go)


class _Peer:
    def __init__(self, player: str) -> None:
        self.player, self.got = player, []

    def send(self, message) -> None:
        self.got.append(message)


def test_the_backup_command_restored_elsewhere_brings_the_rooms_back(tmp_path):
    """``tertulia backup PATH --db DB`` beside a live room; the copy and its key, put in
    another folder as docs/operations.md says, restore the room exactly as it was (its model
    replayed from the log), with the key readable by its owner only."""
    db = tmp_path / "live" / "tertulia.sqlite3"
    db.parent.mkdir()
    key = db.with_name(db.name + ".key")
    key.write_bytes(os.urandom(32))
    copy = tmp_path / "tertulia-2026-12-01.sqlite3"

    async def go() -> None:
        async with SQLiteStore(db) as store:
            manager = RoomManager(store, GAMES)
            await manager.start()
            room = await manager.create("pitacor", public=False)
            peer = _Peer("p0")
            await room.attach(peer, "Ana", 1)
            for n in range(3):
                room.submit(peer, Chat(10 + n, text=f"line {n}"))
            for _ in range(300):
                if room.commits.seq >= 4 and not room.inbox.busy:
                    break
                await asyncio.sleep(0.01)
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "tertulia", "backup", str(copy), "--db", str(db)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
            assert f"wrote {copy}" in done.stdout and f"wrote {copy}.key" in done.stdout
            before = snapshot_of(room.model)
            code = room.code
            await manager.shutdown()
        restored_db = tmp_path / "restored" / "tertulia.sqlite3"
        restored_db.parent.mkdir()
        copy.rename(restored_db)
        Path(f"{copy}.key").rename(restored_db.with_name(restored_db.name + ".key"))
        assert restored_db.with_name(restored_db.name + ".key").read_bytes() == key.read_bytes()
        mode = stat.S_IMODE(restored_db.with_name(restored_db.name + ".key").stat().st_mode)
        assert mode == 0o600
        async with SQLiteStore(restored_db) as store:
            (live,) = await store.load_live_rooms()
            assert live.snapshot is None  # taken before the shutdown's snapshot: all replayed
            manager = RoomManager(store, GAMES)
            await manager.start()
            again = manager.get(code)
            assert again is not None
            assert snapshot_of(again.model) == before
            assert [line["text"] for line in again.model.chat] == ["line 0", "line 1", "line 2"]
            await manager.shutdown()

    run(go)


def test_a_backup_never_overwrites_and_says_why_it_failed(tmp_path):
    """A backup refuses an existing PATH (it might be the only good copy) and a missing
    database, leaves nothing half-written, and the command exits 73 (EX_CANTCREAT)."""
    db = tmp_path / "t.sqlite3"
    with pytest.raises(BackupError, match="no database"):
        backup(db, tmp_path / "b.sqlite3")

    async def make() -> None:
        async with SQLiteStore(db) as store:
            await store.create_room("ABCD", "pitacor", public=False)

    run(make)
    (tmp_path / "b.sqlite3").write_text("an older backup")
    with pytest.raises(BackupError, match="exists already"):
        backup(db, tmp_path / "b.sqlite3")
    assert (tmp_path / "b.sqlite3").read_text() == "an older backup"
    done = subprocess.run(
        [sys.executable, "-m", "tertulia", "backup", str(tmp_path / "b.sqlite3"), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 73 and "exists already" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if "partial" in p.name) == []
