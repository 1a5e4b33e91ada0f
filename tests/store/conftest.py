"""`open_store`: each back-end-neutral store test runs on SQLite and on PostgreSQL.

``open_store()`` opens a store on the test's own database (a file in ``tmp_path``, in a
folder the store must make, or a fresh PostgreSQL schema dropped after the test); calling it
again opens the same database anew, as a restarted server would (see `StoreOpener`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from services import fresh_schema
from store_testing import StoreOpener


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreOpener]:
    if request.param == "sqlite":
        yield StoreOpener("sqlite", path=tmp_path / "data" / "nested" / "t.db")
        return
    with fresh_schema("store") as schema:
        yield StoreOpener("postgres", schema=schema)


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema for a PostgreSQL-only test, dropped afterwards."""
    with fresh_schema("store") as schema:
        yield schema
