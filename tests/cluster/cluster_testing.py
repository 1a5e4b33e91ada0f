"""What the cluster tests share: the real Redis they talk to, and a namespace of their own.

Redis is found at ``TERTULIA_TEST_REDIS_URL`` or, without it, ``redis://127.0.0.1:6379/0`` —
the development machines and CI run one there (``make test`` starts one where it is
missing). A test never skips for want of it: a missing Redis is a failure to see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import redis.asyncio as aioredis

T = TypeVar("T")

REDIS_URL = os.environ.get("TERTULIA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def run(test: Callable[[], Awaitable[T]]) -> T:
    """Run one async test body on a fresh event loop."""
    return asyncio.run(test())


@asynccontextmanager
async def redis_namespace() -> AsyncIterator[tuple[Any, str]]:
    """A Redis client and a namespace no other test uses; its keys are removed after."""
    client = aioredis.from_url(REDIS_URL)
    namespace = f"test-{secrets.token_hex(4)}"
    try:
        yield client, namespace
    finally:
        keys = [key async for key in client.scan_iter(match=f"{namespace}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))


@contextmanager
def relay_nodes(tmp: Path, count: int = 2, **config: Any) -> Iterator[list[Any]]:
    """``count`` real servers (threads of this process) that share a Redis namespace and one
    identity key but keep logs of their own: enough to test relaying (no room moves)."""
    from server_harness import ThreadServer, games_with_tiny

    namespace = f"test-{secrets.token_hex(4)}"
    servers: list[Any] = []
    try:
        for i in range(count):
            db = tmp / f"node{i}.sqlite3"
            if servers:
                shutil.copy(servers[0].config.key_path, db.with_name(db.name + ".key"))
            config.setdefault("redis_url", REDIS_URL)
            server = ThreadServer(db, games_with_tiny(), redis_namespace=namespace, **config)
            server.thread.start()
            servers.append(server)
            _wait_answering(server.base)
        yield servers
    finally:
        for server in reversed(servers):
            server.__exit__(None, None, None)
        asyncio.run(_forget(namespace))


def _wait_answering(base: str, timeout: float = 15.0) -> None:
    """Until the server answers /healthz at all (a node without Redis answers 503)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


async def _forget(namespace: str) -> None:
    client = aioredis.from_url(REDIS_URL)
    keys = [key async for key in client.scan_iter(match=f"{namespace}:*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


class RedisServer:
    """A Redis server of the test's own, on a free port, that the test may stop and start."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None
