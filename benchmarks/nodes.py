"""Cluster nodes for ``load.py --nodes N``: N ``tertulia serve`` processes on one Redis and one
PostgreSQL, each in a fresh namespace and schema (removed afterwards), and the CPU of the
Redis and PostgreSQL server processes while they run.

Redis and PostgreSQL are the machine's own services (``TERTULIA_TEST_REDIS_URL`` and
``TERTULIA_TEST_DATABASE_URL``, or 127.0.0.1's), shared with whatever else uses them: their
CPU is counted by process name (``redis-server``, ``postgres``), so another user of the same
servers lands in the cluster's figure. ``load.py`` prints it beside its own.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from harness import HOST, free_port, proc_cpu, proc_rss, stop_servers, wait_healthy

REDIS_URL = os.environ.get("TERTULIA_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
DATABASE_URL = (
    os.environ.get("TERTULIA_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
)
SERVICES = ("redis-server", "postgres")  # /proc/<pid>/comm of the services' processes


@dataclass
class Nodes:
    """The running nodes of one run."""

    processes: list[subprocess.Popen] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    logs: list[IO[bytes]] = field(default_factory=list)
    schema: str = ""
    namespace: str = ""

    @property
    def bases(self) -> list[str]:
        return [f"http://{HOST}:{port}" for port in self.ports]

    @property
    def urls(self) -> list[str]:
        return [f"ws://{HOST}:{port}/ws" for port in self.ports]

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def cpu(self) -> float:
        return sum(proc_cpu(pid) for pid in self.pids)

    def rss(self) -> int:
        return sum(proc_rss(pid) for pid in self.pids)


def pinned(command: list[str], core: int | None) -> list[str]:
    """``command`` run on one core only (``taskset``), or as it is for None."""
    return command if core is None else ["taskset", "--cpu-list", str(core), *command]


def start(count: int, workdir: Path, env: dict[str, str], pin: bool = False) -> Nodes:
    """``count`` nodes side by side, each healthy (``env``: the environment to start from).
    ``pin``: node i runs on core i only (modulo the cores there are), so two nodes on a
    two-core machine cannot both land on one core while the other does the generator's
    work; the generator, Redis and PostgreSQL run wherever the scheduler puts them."""
    import psycopg

    nodes = Nodes(schema=f"load_{secrets.token_hex(6)}", namespace=f"load-{secrets.token_hex(4)}")
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {nodes.schema}")
    cluster_env = {
        **env,
        "TERTULIA_REDIS_URL": REDIS_URL,
        "TERTULIA_DATABASE_URL": DATABASE_URL,
        "TERTULIA_DATABASE_SCHEMA": nodes.schema,
        "TERTULIA_REDIS_NAMESPACE": nodes.namespace,
    }
    try:
        for i in range(count):
            port = free_port()
            log = open(workdir / f"node{i}.log", "wb")  # noqa: SIM115 - closed in stop()
            command = [
                sys.executable, "-m", "tertulia", "serve", "--host", HOST, "--port", str(port),
                "--db", str(workdir / f"unused{i}.sqlite3"), "--plain-logs",
            ]  # fmt: skip
            core = i % (os.cpu_count() or 1) if pin else None
            nodes.processes.append(
                subprocess.Popen(
                    pinned(command, core), stdout=log, stderr=subprocess.STDOUT, env=cluster_env
                )
            )
            nodes.ports.append(port)
            nodes.logs.append(log)
        for base, process in zip(nodes.bases, nodes.processes, strict=True):
            wait_healthy(base, process, timeout=60)
    except BaseException:
        stop(nodes)
        raise
    return nodes


def stop(nodes: Nodes) -> None:
    """SIGTERM every node (each hands its rooms over as it drains: the last one keeps them),
    then remove the run's schema and Redis keys."""
    stop_servers(nodes.processes)
    for log in nodes.logs:
        log.close()
    if nodes.schema:
        import psycopg

        with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {nodes.schema} CASCADE")
    if nodes.namespace:
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{nodes.namespace}:*", count=1000))
        for at in range(0, len(keys), 1000):
            client.delete(*keys[at : at + 1000])
        client.close()


def service_pids() -> list[int]:
    """Every process of the Redis and PostgreSQL servers on this machine."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as f:
            if f.read().strip() in SERVICES:
                found.append(int(entry))
    return found


def services_cpu(pids: list[int]) -> dict[int, float]:
    """user+sys seconds of each of those processes still there (not their children: each
    is listed itself); compare two readings over the pids in both (``cpu_between``)."""
    seen = {}
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            seen[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seen


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(after[pid] - before[pid] for pid in before.keys() & after.keys())
