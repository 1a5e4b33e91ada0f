"""Where the tests find the real PostgreSQL and Redis servers (never a stand-in).

``TERTULIA_TEST_DATABASE_URL`` / ``TERTULIA_TEST_REDIS_URL``, or the local services the
development machines and CI run (``make services`` starts them where they are missing). A
test that needs one fails when it is unreachable; it never skips.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def database_url() -> str:
    return os.environ.get("TERTULIA_TEST_DATABASE_URL") or DEFAULT_DATABASE_URL


def redis_url() -> str:
    return os.environ.get("TERTULIA_TEST_REDIS_URL") or DEFAULT_REDIS_URL


@contextlib.contextmanager
def fresh_schema(prefix: str = "test") -> Iterator[str]:
    """A new, empty schema in the test database, dropped (with all in it) afterwards, so
    tests running at once or one after another never see each other's rooms."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield name
    finally:
        with psycopg.connect(database_url(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def reachable(service: str) -> bool:
    """Whether ``service`` ("postgres" or "redis") answers at its test URL, within a second
    or two (for ``make services``)."""
    if service == "postgres":
        import psycopg

        try:
            with psycopg.connect(database_url(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True
    import redis

    try:
        return bool(redis.Redis.from_url(redis_url(), socket_timeout=2).ping())
    except redis.RedisError:
        return False


if __name__ == "__main__":
    # `python tests/store/services.py postgres`: exit 0 if it answers, 1 if not.
    import sys

    sys.exit(0 if reachable(sys.argv[1]) else 1)
