"""What the room tests share: a stand-in connection, and a manager on a real SQLite store."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_harness import games_with_tiny

from tertulia import protocol as p
from tertulia.rooms.limits import TokenBucket
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.rooms.timers import Timers
from tertulia.store.sqlite import SQLiteStore


class Peer:
    """A connection as the room sees it, keeping everything it is sent."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.chat_bucket = TokenBucket(capacity=5, rate=1)
        self.sent_blobs: set[str] = set()
        self.got: list[p.ServerMessage] = []

    def send(self, message: p.ServerMessage) -> None:
        self.got.append(message)

    def answers(self) -> list[p.ServerMessage]:
        return [m for m in self.got if isinstance(m, (p.Ack, p.Error))]


def run_with_manager(
    db: Path,
    scenario: Callable[[RoomManager, SQLiteStore], Awaitable[None]],
    config: ManagerConfig | None = None,
    clock: Callable[[], float] | None = None,
    timers: Timers | None = None,
) -> None:
    """Run ``scenario(manager, store)`` on a started manager over a real store at ``db``
    (its rooms' clocks on ``timers``, e.g. ``HandTimers``, if given)."""

    async def go() -> None:
        store = SQLiteStore(db)
        extra: dict = {"clock": clock} if clock is not None else {}
        if timers is not None:
            extra["timers"] = timers
        manager = RoomManager(store, games_with_tiny(), config or ManagerConfig(), **extra)
        await manager.start()
        try:
            await scenario(manager, store)
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())


async def settled(room, timeout: float = 5.0) -> None:
    """Until ``room`` has handled everything given to it and every change is durable (so a
    clock it started is set, and what it folded is in the log)."""
    for _ in range(int(timeout / 0.002)):
        if not room.inbox.busy and not room.commits.ahead:
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the room never settled")


async def later(timers, room, seconds: float) -> None:
    """``seconds`` later on the room's hand-moved clock: what falls due meanwhile is handled."""
    await settled(room)
    timers.advance(seconds)
    await settled(room)
