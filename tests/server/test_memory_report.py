"""The operator's look at memory (docs/operations.md, "Memory"): ``tertulia serve`` answers
SIGUSR1 with a report in its log and SIGUSR2 by tracing allocations from then on; the report
counts live objects of tertulia's classes, those the garbage collector does not track too, and
names the source lines holding what was traced."""

from __future__ import annotations

import json
import os
import signal
import time
import tracemalloc

import pytest
from server_harness import run, subprocess_server

from tertulia.client import Client
from tertulia.rooms.limits import TokenBucket
from tertulia.rooms.records import Presence
from tertulia.server import memory_report


@pytest.fixture
def no_tracing():
    """Tracing is the process's: whatever a test starts, it stops."""
    was = tracemalloc.is_tracing()
    yield
    if not was:
        tracemalloc.stop()


def test_a_report_counts_our_objects_tracked_or_not_and_the_lines_holding_traced_memory(
    no_tracing,
):
    before = memory_report.report(rooms=2, connections=3)
    assert (before["rooms"], before["connections"]) == (2, 3)
    assert before["rss"] > 0 and before["rss_after_gc"] > 0
    assert before["types"]  # the most numerous types, by name
    pymalloc, malloc = before["pymalloc"], before["malloc"]
    assert pymalloc["arenas"] >= 1 and pymalloc["in_use"] > 0 and pymalloc["free"] >= 0
    assert malloc is None or (malloc["in_use"] > 0 and malloc["free"] >= 0)  # glibc only

    memory_report.trace_from_now()
    buckets = [TokenBucket(1, 1) for _ in range(300)]  # tracked by the garbage collector
    # Scalars only: msgspec leaves these untracked, found through the list that holds them.
    records = [Presence(at=1.0, player=f"p{i}", online=True) for i in range(200)]
    line = f"{__file__.rsplit('/', 1)[-1]}"
    after = memory_report.report(rooms=0, connections=0)

    counted = after["tertulia_objects"]
    was = before["tertulia_objects"]
    assert counted["tertulia.rooms.limits.TokenBucket"] >= was.get(
        "tertulia.rooms.limits.TokenBucket", 0
    ) + len(buckets)
    assert counted["tertulia.rooms.records.Presence"] >= len(records)
    assert not any(name.endswith("Status") for name in counted)  # enum members are constants
    traced = after["tracemalloc"]
    assert traced is not None and traced["traced"] > 0
    assert any(line in entry["where"] for entry in traced["top"]), traced["top"]
    assert not any(e["where"].startswith("tertulia/server/memory_report") for e in traced["top"])

    del buckets, records
    again = memory_report.report(rooms=0, connections=0)["tertulia_objects"]
    assert again.get("tertulia.rooms.records.Presence", 0) == was.get(
        "tertulia.rooms.records.Presence", 0
    )


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(child) for child in f.read().split()]
    return found


def _alive(pid: int) -> bool:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


async def _still_saves(server) -> bool:
    async with await Client.connect(server.ws) as bo:
        return bool(await bo.create_room("pitacor", "Bo"))  # a room is saved: the writer lives


def _reports(output: str, message: str) -> list[dict]:
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    return [line for line in lines if line["msg"].startswith(message)]


def _wait_for(server, message: str, count: int, timeout: float = 30.0) -> list[dict]:
    end = time.monotonic() + timeout
    while len(found := _reports(server.output(), message)) < count:
        assert time.monotonic() < end, server.output()[-3000:]
        time.sleep(0.1)
    return found


def test_tertulia_serve_reports_its_memory_on_sigusr1_and_traces_from_sigusr2(tmp_path):
    with subprocess_server(tmp_path / "t.sqlite3") as server:
        server.signal(signal.SIGUSR1)
        first = _wait_for(server, "memory report", 1)[0]["memory"]
        assert (first["rooms"], first["connections"], first["tracemalloc"]) == (0, 0, None)
        server.signal(signal.SIGUSR2)
        _wait_for(server, "memory: tracing allocations from now on", 1)

        async def in_a_room():
            async with await Client.connect(server.ws) as ana:
                await ana.create_room("pitacor", "Ana")
                server.signal(signal.SIGUSR1)
                return _wait_for(server, "memory report", 2)[1]

        line = run(in_a_room())
        assert line["msg"].startswith("memory report: RSS ")
        report = line["memory"]
        assert (report["rooms"], report["connections"]) == (1, 1)
        ours = report["tertulia_objects"]
        assert ours["tertulia.rooms.room.Room"] == 1
        assert ours["tertulia.server.session.Session"] == 1
        assert report["tracemalloc"]["top"]  # what was allocated since SIGUSR2, by line
        # Sent to the whole service (systemctl kill's default), the store's writer lives on.
        writer = _children(server.process.pid)
        assert writer
        for pid in writer:
            os.kill(pid, signal.SIGUSR1)
            os.kill(pid, signal.SIGUSR2)
        time.sleep(0.5)
        assert [pid for pid in writer if _alive(pid)] == writer
        assert server.process.poll() is None  # still serving
        assert run(_still_saves(server))
    assert server.process.returncode == 0
