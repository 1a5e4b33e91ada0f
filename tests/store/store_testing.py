"""Helpers shared by the store tests (no pytest plugin: async tests use `run`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from tertulia.store import LogEntry, SQLiteStore

T = TypeVar("T")


def run(test: Callable[[], Awaitable[T]]) -> T:
    """Run one async test body on a fresh event loop."""
    return asyncio.run(test())


def entry(seq: int, text: str = "") -> LogEntry:
    """A log entry whose payload says which seq it is, so misplacement shows."""
    return LogEntry(seq=seq, at=1000.0 + seq, payload=f'{{"seq":{seq},"t":"{text}"}}'.encode())


def entries(first: int, last: int) -> list[LogEntry]:
    return [entry(seq) for seq in range(first, last + 1)]


async def seqs_by_room(path: Path) -> dict[str, list[int]]:
    """Open the file in a new store and list each live room's logged seqs."""
    store = SQLiteStore(path)
    try:
        rooms = await store.load_live_rooms()
    finally:
        await store.close()
    return {live.room.code: [e.seq for e in live.entries] for live in rooms}
