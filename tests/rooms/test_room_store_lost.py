"""A room whose store can no longer save (its writer process died): it refuses changes, and
its clock keeps trying without spinning. A real SQLite store, its writer really killed."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from room_testing import Peer
from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.timers import HandTimers
from tertulia.store.sqlite import SQLiteStore


def test_a_clock_that_cannot_be_saved_is_retried_with_growing_pauses(tmp_path):
    async def go():
        store = SQLiteStore(tmp_path / "lost.sqlite3")
        lost = []
        store.on_writer_lost(lambda: lost.append(True))
        timers = HandTimers()
        manager = RoomManager(store, games_with_tiny(), timers=timers)
        await manager.start()
        room = await manager.create(TINY, public=False)
        ana, bo = Peer("ana"), Peer("bo")
        await room.attach(ana, "Ana", 1)
        await room.attach(bo, "Bo", 2)
        for message in [p.UpdateSettings(id=3, settings={"turn_seconds": 1}), p.StartMatch(id=4)]:
            room.submit(ana, message)
            while not any(getattr(m, "re", None) == message.id for m in ana.got):
                await asyncio.sleep(0.01)
        tries = []
        start_append = store.start_append

        def counted(*args, **kwargs):
            tries.append(True)
            return start_append(*args, **kwargs)

        store.start_append = counted
        os.kill(store._writer._process.pid, signal.SIGKILL)
        room.submit(bo, p.Chat(id=5, text="anyone?"))  # finds the writer gone (Ana's turn)
        while not any(getattr(m, "re", None) == 5 for m in bo.got):
            await asyncio.sleep(0.01)
        assert bo.got[-1] == p.Error(5, "server.store", "Your move could not be saved; try again.")
        assert lost == [True] and not store.writable
        for _ in range(25):  # the turn's second ran out 1.5 s ago
            timers.advance(0.1)
            while room.inbox.busy:  # each try is handled before time moves on
                await asyncio.sleep(0.001)
        assert 1 <= len(tries) - 1 <= 6  # a few tries, not thousands
        await manager.shutdown()
        await store.close()

    asyncio.run(go())
