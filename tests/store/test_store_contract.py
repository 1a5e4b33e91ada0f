"""Each back-end has exactly the interface its protocol names, so the rooms layer can rely on
it: SQLite is a `Store`, PostgreSQL a `FencedStore` (a `Store` with fencing)."""

from __future__ import annotations

import inspect

import pytest

from tertulia.store import Store
from tertulia.store.base import FencedStore
from tertulia.store.postgres import PostgresStore
from tertulia.store.sqlite import SQLiteStore


@pytest.mark.parametrize(
    ("backend", "protocol"), [(SQLiteStore, Store), (PostgresStore, FencedStore)]
)
def test_each_store_implements_every_method_of_its_protocol_with_the_same_signature(
    backend: type, protocol: type
) -> None:
    wanted = {
        name: member
        for cls in reversed(protocol.__mro__)
        if cls in (Store, FencedStore)
        for name, member in vars(cls).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }
    assert {"append", "create_room", "load_live_rooms", "close"} <= wanted.keys()
    if protocol is FencedStore:
        assert {"claim", "release"} <= wanted.keys()
    for name, member in wanted.items():
        ours = getattr(backend, name)
        assert inspect.iscoroutinefunction(ours) == inspect.iscoroutinefunction(member), name
        assert inspect.signature(ours) == inspect.signature(member), name
