"""The benchmarks stay runnable: each one, at a tiny size, runs to the end over real parts and
reports real traffic (the numbers in benchmarks/README.md come from these same scripts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, timeout: float = 240) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_load_benchmark_pools_rounds_of_both_servers_with_every_action_answered(tmp_path):
    out = tmp_path / "load.json"
    printed = _run(
        "benchmarks/load.py", "--rooms", "2", "--players", "3", "--period", "0.5",
        "--duration", "1.5", "--warmup", "0.5", "--drain", "1", "--quiet-wait", "0",
        "--retries", "0", "--rounds", "2", "--json", str(out),
    )  # fmt: skip
    record = json.loads(out.read_text())
    assert len(record["rounds"]) == 2
    for results in record["rounds"]:
        for kind in ("tertulia", "bare"):
            r = results[kind]
            assert r["actions"] > 0 and r["errors"] == {}, (kind, r)
            assert r["incomplete"] == 0 and r["unanswered"] == 0, (kind, r)
            assert r["connections_seen"] == 6
        # Each round's server starts from an empty database, not on the rooms of the last.
        assert results["tertulia"]["rooms_seen"] == 2
    assert "2 rounds pooled" in printed and "pooled ratio ours/bare" in printed


def _run_bare_alone(tmp_path: Path, variant: str) -> tuple[dict, str]:
    """A tiny run of the bare server alone, as ``variant`` makes it: its result, and what
    load.py printed."""
    out = tmp_path / "load.json"
    printed = _run(
        "benchmarks/load.py", "--rooms", "2", "--players", "3", "--period", "0.5",
        "--duration", "1.5", "--warmup", "0.5", "--drain", "1", "--quiet-wait", "0",
        "--retries", "0", "--servers", "bare", variant, "--json", str(out),
    )  # fmt: skip
    (results,) = json.loads(out.read_text())["rounds"]
    return results["bare"], printed


def test_the_bare_server_can_do_what_ours_does_for_any_server(tmp_path):
    """``--bare-as-ours``: the baseline with ours' message path (server/frames.py) and
    garbage collector thresholds, to show what they are worth apart from everything else."""
    r, printed = _run_bare_alone(tmp_path, "--bare-as-ours")
    assert r["actions"] > 0 and r["errors"] == {} and r["unanswered"] == 0, r
    assert r["incomplete"] == 0 and r["bare_as_ours"] is True
    assert "== bare (as ours: messages by a call, small ones written straight, GC tuned)" in printed


def test_the_bare_server_can_sync_each_action_before_it_tells_it(tmp_path):
    """``--bare-durable``: the durable floor, each action synced to a file by a process of
    its own before it is pushed and answered; every action still answered, and that process's
    CPU reported as the server's child."""
    r, printed = _run_bare_alone(tmp_path, "--bare-durable")
    assert r["actions"] > 0 and r["errors"] == {} and r["unanswered"] == 0, r
    assert r["incomplete"] == 0 and r["bare_durable"] is True
    assert r["bare_synced"] >= r["actions"]  # the server's own count of actions told once synced
    assert "== bare (durable: each action synced to a file before it is told)" in printed
    assert "its children (its log writer)" in printed


def test_the_load_benchmark_runs_two_pinned_nodes_with_each_rooms_seats_on_its_owner(tmp_path):
    """``--nodes 2 --pin --seating owner`` (issue 33.3): two cluster nodes, each on a core of
    its own, every seat on its room's owner (nothing relayed); every action answered, and
    both nodes and Redis with PostgreSQL reported apart."""
    out = tmp_path / "load.json"
    printed = _run(
        "benchmarks/load.py", "--rooms", "2", "--players", "3", "--period", "0.5",
        "--duration", "1.5", "--warmup", "0.5", "--drain", "1", "--quiet-wait", "0",
        "--retries", "0", "--servers", "tertulia", "--nodes", "2", "--pin",
        "--seating", "owner", "--json", str(out),
    )  # fmt: skip
    (results,) = json.loads(out.read_text())["rounds"]
    r = results["tertulia"]
    assert r["actions"] > 0 and r["errors"] == {} and r["unanswered"] == 0, r
    assert r["nodes"] == 2 and r["seating"] == "owner" and r["pinned"] is True
    assert len(r["node_cpu"]) == 2 and r["services_ms_per_action"] is not None
    assert "2 node(s), pinned, seats owner" in printed


def test_the_room_path_benchmark_reports_the_loop_and_the_writer():
    printed = _run("benchmarks/room_path.py", "--rooms", "2", "--players", "3", "--actions", "30")
    assert "loop CPU per action" in printed and "writer CPU per action" in printed


def test_the_store_benchmark_reports_group_commit_on_both_back_ends():
    printed = _run(
        "benchmarks/store_append.py", "--rooms", "2", "--appends", "5", "--rate", "0",
        "--backend", "both",
    )  # fmt: skip
    assert printed.count(" appends per commit\n") == 2 and "-- postgres / sqlite" in printed


def test_the_flood_benchmark_reports_every_phase_and_the_targets(tmp_path):
    out = tmp_path / "flood.json"
    printed = _run(
        "benchmarks/flood.py", "--rooms", "1", "--players", "3", "--period", "0.5",
        "--warmup", "0.5", "--duration", "2.5", "--settle", "0.5", "--flooders", "1,2",
        "--drain", "10", "--quiet-wait", "0", "--json", str(out),
    )  # fmt: skip
    (run,) = json.loads(out.read_text())["runs"]
    baseline, one, two = run["phases"]
    assert [p["phase"] for p in run["phases"]] == ["baseline", "1 flooder", "2 flooders"]
    for phase in run["phases"]:
        assert phase["sent"] > 0 and phase["actions_timed"] > 0, phase
        assert phase["p99_ms"] > 0 and phase["server_cpu"] >= 0, phase
        assert isinstance(phase["disconnected"], int)
    for phase, flooders in ((one, 1), (two, 2)):
        # Every flooder connected from its own address and flooded; how each connection ended
        # (a close code, or "open") is reported, whatever it was.
        addresses = {c["address"] for c in phase["connections"]}
        assert len(addresses) == flooders, phase["connections"]
        assert phase["flood_frames"] > 0 and phase["server_frames"] > 0, phase
        assert all(c["code"] for c in phase["connections"])
    assert one["p99_vs_baseline"] == one["p99_ms"] / baseline["p99_ms"]
    verdicts = [line for line in printed.splitlines() if line.startswith(("  PASS", "  FAIL"))]
    assert len(verdicts) == len(run["targets"]) + 1 == 7, printed[-2000:]


def test_the_soak_plays_whole_matches_and_reads_the_server_after_each_drain(tmp_path):
    out = tmp_path / "soak.json"
    printed = _run(
        "benchmarks/soak.py", "--minutes", "0.3", "--rounds", "1", "--warmup-minutes", "0.2",
        "--workers", "1", "--tables", "2", "--idle-minutes", "0.01", "--settle", "1",
        "--sample", "2", "--max-growth", "10", "--json", str(out),
        timeout=420,
    )  # fmt: skip
    record = json.loads(out.read_text())
    warm, soak = record["phases"]
    for phase in (warm, soak):
        assert phase["drained"]["rooms"] == 0 and phase["drained"]["connections"] == 0
        assert phase["report"]["rooms"] == 0 and phase["report"]["tertulia_objects"]
    counts = soak["counts"]
    assert counts.get("matches: tiny", 0) + counts.get("matches: pitacor", 0) > 0, counts
    assert not any(key.startswith("rooms failed") for key in counts), counts
    assert soak["report"]["tracemalloc"]["top"]  # traced since the warm-up's drain
    assert "PASS: no object of a room or a connection is left after the drain" in printed
