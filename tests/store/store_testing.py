"""Helpers shared by the store tests (no pytest plugin: async tests use `run`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any, TypeVar

from services import database_url

from tertulia.store import LogEntry
from tertulia.store.sqlite import SQLiteStore
from tertulia.store.writes import Write

T = TypeVar("T")


def run(test: Callable[[], Awaitable[T]]) -> T:
    """Run one async test body on a fresh event loop."""
    return asyncio.run(test())


def entry(seq: int, text: str = "") -> LogEntry:
    """A log entry whose payload says which seq it is, so misplacement shows."""
    return LogEntry(seq=seq, at=1000.0 + seq, payload=f'{{"seq":{seq},"t":"{text}"}}'.encode())


def entries(first: int, last: int) -> list[LogEntry]:
    return [entry(seq) for seq in range(first, last + 1)]


class NoSuchOperation(Write, frozen=True):
    """A write no writer runs, as a bug in the server would send."""


async def seqs_by_room(where: Path | StoreOpener) -> dict[str, list[int]]:
    """Open the database (an SQLite file, or an `open_store`'s) in a new store and list each
    live room's logged seqs."""
    store = SQLiteStore(where) if isinstance(where, Path) else await where()
    try:
        rooms = await store.load_live_rooms()
    finally:
        await store.close()
    return {live.room.code: [e.seq for e in live.entries] for live in rooms}


class StoreOpener:
    """Opens stores of one back-end on one database: ``async with open_store() as store``,
    or ``store = await open_store()`` (then close it yourself)."""

    def __init__(self, backend: str, *, path: Path | None = None, schema: str | None = None):
        self.backend = backend
        self.path = path
        self.schema = schema

    def __call__(self, **options: Any) -> _Opening:
        return _Opening(self, options)

    async def open(self, **options: Any) -> Any:
        if self.backend == "sqlite":
            assert self.path is not None
            return SQLiteStore(self.path, **options)
        from tertulia.store.postgres import PostgresStore

        # The contract tests write without claims, as one node does.
        options.setdefault("require_claim", False)
        return await PostgresStore.open(database_url(), schema=self.schema, **options)


class _Opening:
    def __init__(self, opener: StoreOpener, options: dict[str, Any]) -> None:
        self._opener, self._options = opener, options
        self._store: Any = None

    def __await__(self) -> Generator[Any, None, Any]:
        return self._opener.open(**self._options).__await__()

    async def __aenter__(self) -> Any:
        self._store = await self._opener.open(**self._options)
        return self._store

    async def __aexit__(self, *exc_info: object) -> None:
        await self._store.close()
