"""The SQLite back-end has exactly the `Store` interface, so the rooms layer can rely on it."""

from __future__ import annotations

import inspect

from tertulia.store import SQLiteStore, Store


def test_sqlite_store_implements_every_store_method_with_the_same_signature() -> None:
    wanted = {
        name: member
        for name, member in vars(Store).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }
    assert {"append", "create_room", "load_live_rooms", "close"} <= wanted.keys()
    for name, member in wanted.items():
        ours = getattr(SQLiteStore, name)
        assert inspect.iscoroutinefunction(ours) == inspect.iscoroutinefunction(member), name
        assert inspect.signature(ours) == inspect.signature(member), name
