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
) -> None:
    """Run ``scenario(manager, store)`` on a started manager over a real store at ``db``."""

    async def go() -> None:
        store = SQLiteStore(db)
        extra = {"clock": clock} if clock is not None else {}
        manager = RoomManager(store, games_with_tiny(), config or ManagerConfig(), **extra)
        await manager.start()
        try:
            await scenario(manager, store)
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())
