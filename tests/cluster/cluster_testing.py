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


async def welcomed_to(url: str, token: str, expected: str | None) -> str | None:
    """What a fresh connection's ``welcome.room`` says, once it says ``expected`` (a room's
    owner writes its seats at its next beat) or after about ten seconds."""
    from tertulia.client import Client

    seen = None
    for _ in range(60):
        async with await Client.connect(url, token=token) as fresh:
            seen = fresh.seated_room
        if seen == expected:
            return seen
        await asyncio.sleep(0.1)
    return seen


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
        _forget(namespace)


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


def _forget(namespace: str) -> None:
    """Remove the namespace's keys (plain redis-py: this may run inside an event loop)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{namespace}:*"))
    if keys:
        client.delete(*keys)
    client.close()


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


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))

from server_harness import ProcessServer  # noqa: E402 - on the path just above


class Node(ProcessServer):
    """``tertulia serve`` in cluster mode as a child process (``server_harness``'s
    ``ProcessServer``): the real thing, which a test may kill (SIGKILL), pause (SIGSTOP) and
    resume, or stop (SIGTERM, draining)."""

    def __init__(
        self,
        tmp: Path,
        schema: str,
        namespace: str,
        package: Path,
        *,
        lease: float = 1.0,
        env: dict[str, str] | None = None,
    ) -> None:
        from server_harness import free_port
        from services import database_url

        port = free_port()
        super().__init__(
            tmp / f"node-{port}.sqlite3",  # unused in cluster mode: proves it
            port,
            "--plain-logs",
            python_path=package,  # this package, with the example game (tiny) in it
            env={
                "TERTULIA_REDIS_URL": REDIS_URL,
                "TERTULIA_DATABASE_URL": database_url(),
                "TERTULIA_DATABASE_SCHEMA": schema,
                "TERTULIA_REDIS_NAMESPACE": namespace,
                "TERTULIA_LEASE_SECONDS": str(lease),
                **(env or {}),
            },
            log=tmp / f"node-{port}.log",
        )

    def start(self, timeout: float = 30.0) -> Node:
        return super().start(timeout)

    def wait(self) -> Node:
        """Until it answers ``/healthz`` with 200."""
        from server_harness import wait_healthy

        wait_healthy(self.base, timeout=30)
        return self

    def stop(self, timeout: float = 20.0) -> int | None:
        return super().stop(timeout)


@contextmanager
def cluster(tmp: Path, count: int = 2, **options: Any) -> Iterator[list[Node]]:
    """``count`` nodes on one fresh PostgreSQL schema and one Redis namespace, serving a copy
    of the package with the example game installed (the tests play ``tiny``)."""
    from package_copy import copy_package, install_example
    from services import fresh_schema

    package = copy_package(tmp / "package")
    install_example(package / "tertulia")
    namespace = f"test-{secrets.token_hex(4)}"
    with fresh_schema("cluster") as schema:
        nodes = [Node(tmp, schema, namespace, package, **options) for _ in range(count)]
        try:
            for node in nodes:
                node.launch()
            for node in nodes:
                node.wait()
            yield nodes
        finally:
            for node in nodes:
                node.stop()
            _forget(namespace)


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream tertulia {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://tertulia;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 75s;
            proxy_connect_timeout 1s;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


@contextmanager
def nginx_in_front(tmp: Path, nodes: list[Node], port: int | None = None) -> Iterator[str]:
    """nginx (Debian's; ``make test`` installs it) in front of ``nodes``, round robin and no
    sticky sessions, as docs/cluster.md shows it, on ``port`` (a free one if not given);
    yields its WebSocket URL."""
    from server_harness import free_port

    prefix = tmp / "nginx"
    prefix.mkdir()
    port = port or free_port()
    servers = "\n".join(
        f"        server 127.0.0.1:{node.port} max_fails=1 fail_timeout=2s;" for node in nodes
    )
    conf = prefix / "nginx.conf"
    conf.write_text(NGINX_CONF.format(prefix=prefix, port=port, servers=servers))
    process = subprocess.Popen(
        [shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(prefix), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"nginx did not start: {(prefix / 'error.log').read_text()}")
            time.sleep(0.05)
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        process.terminate()
        process.wait(timeout=10)
