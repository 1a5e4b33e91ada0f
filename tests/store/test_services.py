"""The real services the cluster tests use answer, and the single process needs neither."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import psycopg
import redis.asyncio
from services import database_url, redis_url
from store_testing import run


def test_postgresql_answers_at_the_test_url() -> None:
    with psycopg.connect(database_url(), connect_timeout=5) as conn:
        (version,) = conn.execute("SHOW server_version_num").fetchone() or (0,)
    assert int(version) >= 140000  # pipeline mode and the SQL we use need 14 or later


def test_redis_answers_at_the_test_url_through_the_asyncio_client_with_hiredis() -> None:
    async def body() -> None:
        client = redis.asyncio.Redis.from_url(redis_url())
        try:
            assert await asyncio.wait_for(client.ping(), 5)
        finally:
            await client.aclose()

    run(body)
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE  # the C parser the `cluster` extra installs


def test_the_single_process_server_imports_neither_psycopg_nor_redis() -> None:
    """ "The single process with SQLite stays the default, with no new set-up": its modules
    must not need the `cluster` extra."""
    code = (
        "import sys\n"
        "import tertulia.cli, tertulia.server.app, tertulia.store, tertulia.rooms\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'redis')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
