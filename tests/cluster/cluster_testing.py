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
import signal
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
    """A Redis server of the test's own, on a free port, that the test may stop and start;
    ``args`` are more of redis-server's options (later ones win: ``--port 0 --tls-port N``
    makes it TLS only)."""

    def __init__(self, port: int, *args: str) -> None:
        self.port = port
        self.args = args
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
                *self.args,
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


class PostgresServer:
    """A PostgreSQL server of the test's own, made with Debian's ``initdb`` in a temporary
    folder and removed after, so that nothing of the machine's PostgreSQL changes: password
    (SCRAM) authentication over TCP on 127.0.0.1, and TLS with ``cert`` and ``key`` if given;
    the test sets it up as its superuser over its Unix socket (``execute``, no password).

    PostgreSQL refuses to run as root: when the test is root, the server runs as the
    ``postgres`` user Debian's package made (or ``nobody``), in a folder given to it."""

    def __init__(self, port: int, *, cert: Path | None = None, key: Path | None = None) -> None:
        self.port = port
        self.cert, self.key = cert, key
        self.folder: Path | None = None
        self.process: subprocess.Popen | None = None

    @staticmethod
    def bin(program: str) -> str:
        found = shutil.which(program)
        if found:
            return found
        versions = sorted(
            Path("/usr/lib/postgresql").glob(f"*/bin/{program}"),
            key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
        )
        if not versions:
            raise RuntimeError(f"{program} not found: `make services` installs PostgreSQL")
        return str(versions[-1])

    def _user(self) -> dict[str, Any]:
        if os.geteuid() != 0:
            return {}
        import pwd

        for name in ("postgres", "nobody"):
            with contextlib.suppress(KeyError):
                entry = pwd.getpwnam(name)
                return {"user": entry.pw_uid, "group": entry.pw_gid}
        raise RuntimeError("no unprivileged user to run PostgreSQL as")

    def start(self) -> PostgresServer:
        import tempfile

        user = self._user()
        self.folder = Path(tempfile.mkdtemp(prefix="tertulia-pg-"))
        data = self.folder / "data"
        options = [
            f"port={self.port}",
            "listen_addresses=127.0.0.1",
            f"unix_socket_directories={self.folder}",
            "fsync=off",
            "full_page_writes=off",
            "shared_buffers=16MB",
            "max_connections=40",
        ]
        if self.cert is not None and self.key is not None:
            shutil.copy(self.cert, self.folder / "server.pem")
            shutil.copy(self.key, self.folder / "server.key")
            os.chmod(self.folder / "server.key", 0o600)
            options += [
                "ssl=on",
                f"ssl_cert_file={self.folder / 'server.pem'}",
                f"ssl_key_file={self.folder / 'server.key'}",
            ]
        if user:
            for path in (self.folder, *self.folder.iterdir()):
                os.chown(path, user["user"], user["group"])
        subprocess.run(
            [
                self.bin("initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ],
            check=True,
            capture_output=True,
            timeout=120,
            **user,
        )
        log = (self.folder / "server.log").open("ab")
        self.process = subprocess.Popen(
            [self.bin("postgres"), "-D", str(data), *(f"-c{o}" for o in options)],
            stdout=log,
            stderr=subprocess.STDOUT,
            **user,
        )
        log.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                self.execute("SELECT 1")
                return self
            except Exception:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"postgres did not start: {self.log()}") from None
                time.sleep(0.1)

    def execute(self, sql: str, params: tuple[Any, ...] = (), database: str = "postgres") -> Any:
        """Run ``sql`` as the superuser over the Unix socket; the rows, if it returns any."""
        import psycopg

        assert self.folder is not None
        with psycopg.connect(
            host=str(self.folder),
            port=self.port,
            user="postgres",
            dbname=database,
            autocommit=True,
            connect_timeout=5,
        ) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else None

    def log(self) -> str:
        if self.folder is None or not (self.folder / "server.log").exists():
            return ""
        return (self.folder / "server.log").read_text(errors="replace")

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)  # a fast shutdown
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


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
        self.namespace = namespace  # its Redis keys' prefix (``cluster/keys.py``)
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
{balancing}{servers}
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
def nginx_in_front(
    tmp: Path, nodes: list[Node], port: int | None = None, by_room: bool = False
) -> Iterator[str]:
    """nginx (Debian's; ``make test`` installs it) in front of ``nodes``, round robin and no
    sticky sessions, as docs/cluster.md shows it, on ``port`` (a free one if not given);
    yields its WebSocket URL. With ``by_room``, a socket whose address names a room
    (``?room=CODE``, as the page sends it) goes to the node its code hashes to, as
    docs/cluster.md's configuration for ``--rooms-follow-players`` does."""
    from server_harness import free_port

    prefix = tmp / "nginx"
    prefix.mkdir()
    port = port or free_port()
    servers = "\n".join(
        f"        server 127.0.0.1:{node.port} max_fails=1 fail_timeout=2s;" for node in nodes
    )
    conf = prefix / "nginx.conf"
    balancing = "        hash $arg_room consistent;\n" if by_room else ""
    conf.write_text(
        NGINX_CONF.format(prefix=prefix, port=port, servers=servers, balancing=balancing)
    )
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
