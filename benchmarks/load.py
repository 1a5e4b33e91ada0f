"""Load benchmark: N rooms × M players over real WebSockets on loopback, ours against a bare
Starlette fan-out server, in the same run.

Our server (``python -m tertulia serve``) gets N Pitacor rooms of M players. In each, the host
sets ``guess_seconds`` and ``clue_seconds`` to 0 (no clocks) and starts; the clue giver
chooses a target and gives the clue "ocean"; from then on every guesser sends
``select_cell`` on a random cell every P seconds, from a random phase. Nobody confirms, so no
cell is ever taken and every selection is accepted: the real path (validate, the room's
writer, fold, durable append with group commit, one view per seat, fan-out). The giver sends
nothing. Then the bare server (``benchmarks/bare_server.py``) gets the same rooms, the same
senders, the same message rate and the same fan-out, and replays the pushes ours sent in the
same round (those a few seats received while measured: patches of different moves and
views), in turn, so both servers send pushes of the same sizes and content.

The latency of one action runs from the moment its sender sends it to the moment the *last*
seat of its room has received the push it caused. Pushes are matched by the room's version:
the push a sender receives just before its ``ack`` is the one its action produced, and every
seat notes when it received each version. Only actions sent in the measured window (after the
warm-up) count. Also reported: server CPU (user+sys seconds per second, /proc/<pid>/stat) and
RSS (/proc/<pid>/status) per connection, the generator's own CPU (to tell who limited the
run), the machine's CPU use, and the p99 ratio ours/bare.

    .venv/bin/python benchmarks/load.py --rooms 200 --players 10 --period 5 \
        --duration 30 --warmup 10 --rev HEAD

Each room's players connect from a loopback address of their own (127.1.y.z, from the room's
index): all of 127.0.0.0/8 is loopback on Linux, and a server that caps connections per client
address must not see thousands of players share 127.0.0.1.

The generator runs in ``--workers`` processes (each owns whole rooms, so the last seat of a
room is timed in the same process as its sender; all use the system-wide monotonic clock).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from harness import (
    HERE,
    HOST,
    RoomRun,
    cpu_parts,
    cpu_self,
    free_port,
    get_json,
    guess,
    join_or_stop,
    loopback_address,
    machine_cpu,
    proc_cpu,
    proc_rss,
    quantile,
    raise_nofile,
    setup_bare,
    setup_tertulia,
    sleep_until,
    snapshot,
    stop_servers,
    wait_healthy,
    wait_quiet,
)
from nodes import Nodes, cpu_between, pinned, service_pids, services_cpu
from nodes import start as start_nodes
from nodes import stop as stop_nodes

SETUP_TIMEOUT = 180.0  # seconds for every room of a run to be seated and playing
ROOM_BLOCK = 1  # each room's players connect from 127.1.y.z (harness.loopback_address)


# ---------------------------------------------------------------------------- generator side


async def _worker(spec: dict[str, Any], pipe: Any) -> None:
    url, players, deflate = spec["url"], spec["players"], spec["deflate"]
    urls = spec.get("urls") or [url]  # --nodes: a room's seats spread over the nodes
    limit = asyncio.Semaphore(spec["setup_concurrency"])
    loop = asyncio.get_running_loop()

    async def one(index: int) -> RoomRun:
        async with limit:
            # Each room from its own address: a server may cap connections per address.
            source = loopback_address(ROOM_BLOCK, index)
            if spec["kind"] == "tertulia":
                # Seat s of room r on node (r + s) mod N: its host, whose node owns it, and
                # its other seats round robin (with 2 nodes, every other seat is relayed);
                # with --seating owner, every seat on the host's node (nothing relayed).
                step = 0 if spec["seating"] == "owner" else 1
                spread = [urls[(index + s * step) % len(urls)] for s in range(players)]
                return await setup_tertulia(spread, players, deflate, source)
            return await setup_bare(url, players, index, deflate, source)

    rooms: list[RoomRun] = []
    try:
        rooms = list(
            await asyncio.wait_for(asyncio.gather(*(one(i) for i in spec["rooms"])), SETUP_TIMEOUT)
        )
        pipe.send(("ready", {"connections": len(rooms) * players}))
        if not await loop.run_in_executor(None, pipe.poll, SETUP_TIMEOUT + 60):
            raise RuntimeError("no go from the parent")
        _, t0, t_measure, t_end = await loop.run_in_executor(None, pipe.recv)
        rng = random.Random(spec["seed"])
        lags: list[float] = []
        tasks = [
            loop.create_task(guess(seat, t0, t_end, spec["period"], rng, lags))
            for room in rooms
            for seat in room.guessers
        ]
        every = [s for room in rooms for s in room.guessers]
        await asyncio.sleep(max(0.0, t_measure - time.monotonic()))
        # What the bare server will replay: the pushes some seats receive while measured
        # (one seat in each of a few rooms: patches of different moves and views).
        watched = [room.guessers[0] for room in rooms[:8] if room.guessers]
        for seat in watched:
            seat.kept = []
        cpu0 = cpu_self()
        bytes0, pushes0 = sum(s.push_bytes for s in every), sum(s.pushes for s in every)
        await asyncio.sleep(max(0.0, t_end - time.monotonic()))
        cpu1 = cpu_self()
        bytes1, pushes1 = sum(s.push_bytes for s in every), sum(s.pushes for s in every)
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        await asyncio.sleep(spec["drain"])  # let the last pushes arrive

        samples: list[tuple[float, float]] = []  # (sent at, latency)
        sent = incomplete = 0
        errors: dict[str, int] = {}
        for room in rooms:
            for at, version in room.actions:
                if t_measure <= at < t_end:
                    sent += 1
                    seen = room.received.get(version)
                    if seen is not None and seen[0] >= room.size:
                        samples.append((at, seen[1] - at))
                    else:
                        incomplete += 1
            for code, n in room.errors.items():
                errors[code] = errors.get(code, 0) + n
        unanswered = sum(
            1
            for room in rooms
            for s in room.guessers
            for at in s.timed.values()
            if t_measure <= at < t_end
        )
        sample = [frame.decode() for seat in watched for frame in seat.kept or []]
        pipe.send(
            (
                "result",
                {
                    "samples": samples,
                    "acked": sent,
                    "incomplete": incomplete,
                    "unanswered": unanswered,
                    "errors": errors,
                    "cpu": cpu1 - cpu0,
                    "lag_p99": quantile(lags, 0.99) if lags else 0.0,
                    "lag_max": max(lags) if lags else 0.0,
                    "push_bytes": (bytes1 - bytes0) / max(1, pushes1 - pushes0),
                    "sample": sample,
                },
            )
        )
    except BaseException as error:  # tell the parent rather than leave it waiting
        with contextlib.suppress(Exception):
            pipe.send(("failed", repr(error)))
        raise
    finally:
        seats = [s for room in rooms for s in room.guessers]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*(s.close() for s in seats)), 15)


def worker_main(spec: dict[str, Any], pipe: Any) -> None:
    raise_nofile()
    try:
        import uvloop  # comes with uvicorn[standard]; a lighter loop keeps the generator lean

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_worker(spec, pipe))


# ---------------------------------------------------------------------------- parent side


def _in_room_all(bases: list[str]) -> tuple[float, float] | None:
    """``_in_room`` summed over every node."""
    found = [_in_room(base) for base in bases]
    if any(f is None for f in found):
        return None
    return sum(f[0] for f in found), sum(f[1] for f in found)


def _in_room(base: str) -> tuple[float, float] | None:
    """(sum, count) of our server's own histogram of `act` handling: from the room's inbox
    to every seat's update queued (fold, durable append, views). Its mean is exact."""
    try:
        with urllib.request.urlopen(f"{base}/metrics", timeout=5) as response:
            text = response.read().decode()
    except OSError:
        return None
    found: dict[str, float] = {}
    for line in text.splitlines():
        for part in ("_sum", "_count"):
            if line.startswith(f'tertulia_action_seconds{part}{{type="act"}}'):
                found[part] = float(line.rsplit(" ", 1)[1])
    return (found["_sum"], found["_count"]) if len(found) == 2 else None


def _watch_others(
    servers: list[int], workers: list[int | None], until: float, services: list[int] = ()
) -> list[tuple[float, float, float]]:
    """Until ``until``, each second: cores used by everything but the servers, the generators
    and (with --nodes) the Redis and PostgreSQL processes ``services``."""
    ours = [*servers, *(w for w in workers if w is not None)]
    seen: list[tuple[float, float, float]] = []  # (from, to, cores)
    for _ in range(100_000):  # bounded; ends at ``until``
        if time.monotonic() >= until - 0.05:
            break
        began, machine0 = time.monotonic(), machine_cpu()
        mine0, services0 = sum(proc_cpu(pid) for pid in ours), services_cpu(services)
        time.sleep(max(0.05, min(1.0, until - time.monotonic())))
        elapsed, machine1 = time.monotonic() - began, machine_cpu()
        mine1 = sum(proc_cpu(pid) for pid in ours)
        mine1 += cpu_between(services0, services_cpu(services))
        busy = (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1])
        seen.append(
            (began, began + elapsed, busy * (os.cpu_count() or 1) - (mine1 - mine0) / elapsed)
        )
    return seen


def run_one(kind: str, args: argparse.Namespace, workdir: Path, template: Path | None) -> dict:
    waited = wait_quiet(args.quiet_wait) if args.quiet_wait > 0 else 0.0
    port = free_port()
    base, url = f"http://{HOST}:{port}", f"ws://{HOST}:{port}/ws"
    if kind == "tertulia":
        db = workdir / "load.sqlite3"
        # Every run starts from an empty database. Until this was so, each round's server
        # restarted on the rooms of the rounds before and rebuilt them all (200 more live rooms
        # a round): the rounds were not alike, and the last was always ours' slowest.
        for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            leftover.unlink(missing_ok=True)
        command = [
            sys.executable, "-m", "tertulia", "serve", "--host", HOST, "--port", str(port),
            "--db", str(db), "--plain-logs",
        ]  # fmt: skip
    else:
        command = [
            sys.executable,
            str(HERE / "bare_server.py"),
            "--host",
            HOST,
            "--port",
            str(port),
        ]
        if template is not None:
            command += ["--template", str(template)]
        if args.bare_as_ours:
            command.append("--as-ours")
        if args.bare_durable:
            command += ["--durable", str(workdir / "bare-log")]
    env = dict(os.environ)
    if args.source is not None:  # the bare server imports our Outlet, of the same revision
        # A snapshot of src/ (see --rev), before whatever else was asked (benchmarks/gclog).
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(args.source), env.get("PYTHONPATH")]))
    clustered = kind == "tertulia" and args.nodes > 0
    log_file = open(workdir / f"{kind}.log", "wb")  # noqa: SIM115 - closed below
    workers: list[tuple[mp.Process, Any]] = []
    profiler: subprocess.Popen | None = None
    server: subprocess.Popen | None = None
    nodes = Nodes()
    services: list[int] = []
    try:
        if clustered:  # N nodes on Redis + PostgreSQL, the seats of each room spread on them
            nodes = start_nodes(args.nodes, workdir, env, pin=args.pin)
            pids, bases, urls = nodes.pids, nodes.bases, nodes.urls
            base, url = bases[0], urls[0]
        else:
            core = 0 if args.pin else None  # (the bare server too: the same core as ours)
            server = subprocess.Popen(
                pinned(command, core), stdout=log_file, stderr=subprocess.STDOUT, env=env
            )
            wait_healthy(base, server)
            pids, bases, urls = [server.pid], [base], [url]
        rss_idle = sum(proc_rss(pid) for pid in pids)
        context = mp.get_context("spawn")
        rooms = list(range(args.rooms))
        for w in range(args.workers):
            mine, theirs = context.Pipe()
            spec = {
                "kind": kind, "url": url, "urls": urls, "players": args.players,
                "seating": args.seating,
                "period": args.period,
                "rooms": rooms[w :: args.workers], "deflate": not args.no_deflate,
                "seed": args.seed * 1000 + w, "drain": args.drain,
                "setup_concurrency": args.setup_concurrency,
            }  # fmt: skip
            process = context.Process(target=worker_main, args=(spec, theirs), daemon=True)
            process.start()
            workers.append((process, mine))
        began = time.monotonic()
        for _, pipe in workers:
            left = SETUP_TIMEOUT + 30 - (time.monotonic() - began)
            if not pipe.poll(max(0.0, left)):
                raise RuntimeError(f"{kind}: a generator did not finish setting up in time")
            what, info = pipe.recv()
            if what != "ready":
                raise RuntimeError(f"{kind}: a generator failed during setup: {info}")
        setup_seconds = time.monotonic() - began
        healths = [get_json(f"{b}/healthz") for b in bases]
        health = {key: sum(h.get(key) or 0 for h in healths) for key in ("connections", "rooms")}
        t0 = time.monotonic() + 0.5
        t_measure, t_end = t0 + args.warmup, t0 + args.warmup + args.duration
        for _, pipe in workers:
            pipe.send(("go", t0, t_measure, t_end))
        sleep_until(t_measure)
        services = service_pids() if clustered else []
        cpu0, machine0 = sum(proc_cpu(pid) for pid in pids), machine_cpu()
        services0 = services_cpu(services)
        node_cpu0 = [proc_cpu(pid) for pid in pids]
        parts0 = [cpu_parts(pid) for pid in pids]
        inroom0 = _in_room_all(bases) if kind == "tertulia" else None
        if args.py_spy:
            profiler = _start_py_spy(pids[0], args, workdir, kind)
        others = _watch_others(pids, [p.pid for p, _ in workers], t_end, services)
        cpu1, machine1 = sum(proc_cpu(pid) for pid in pids), machine_cpu()
        services_seconds = cpu_between(services0, services_cpu(services))
        per_node = [proc_cpu(pid) for pid in pids]
        parts1 = [cpu_parts(pid) for pid in pids]
        inroom1 = _in_room_all(bases) if kind == "tertulia" else None
        rss_loaded = sum(proc_rss(pid) for pid in pids)
        # The floor's count of actions it told once synced (bare_server.py --durable): 0 or
        # absent would mean it told them without.
        synced = get_json(f"{bases[0]}/healthz").get("synced") if kind == "bare" else None
        results = []
        for _, pipe in workers:
            if not pipe.poll(args.drain + 60):
                raise RuntimeError(f"{kind}: a generator did not report in time")
            what, info = pipe.recv()
            if what != "result":
                raise RuntimeError(f"{kind}: a generator failed: {info}")
            results.append(info)
        if profiler is not None:
            profiler.wait(timeout=args.duration + 60)
    except BaseException:
        log_file.flush()
        for name in [f"{kind}.log"] + [f"node{i}.log" for i in range(len(nodes.ports))]:
            tail = (workdir / name).read_bytes()[-3000:].decode(errors="replace")
            print(f"--- the last lines of {name}:\n{tail}", file=sys.stderr)
        raise
    finally:
        join_or_stop([process for process, _ in workers])
        if profiler is not None and profiler.poll() is None:
            profiler.terminate()
        if server is not None:
            stop_servers([server])
        stop_nodes(nodes)
        log_file.close()

    timed = [s for r in results for s in r["samples"]]
    samples = [latency for _, latency in timed]
    # Seconds in which other processes took more than --max-other cores, and the second
    # after each (queues take a moment to drain): actions sent then are set aside in "clean".
    disturbed: list[tuple[float, float]] = []
    for a, b, cores in others:
        if cores > args.max_other:
            if disturbed and a <= disturbed[-1][1]:
                disturbed[-1] = (disturbed[-1][0], b + 1.0)
            else:
                disturbed.append((a, b + 1.0))
    clean = [lat for at, lat in timed if not any(a <= at < b for a, b in disturbed)]
    connections = args.rooms * args.players
    busy = (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1])
    cuts = {q: quantile(samples, q / 100) if samples else float("nan") for q in (50, 95, 99)}
    clean_cuts = {q: quantile(clean, q / 100) if clean else float("nan") for q in (50, 95, 99)}
    in_room_ms = (
        (inroom1[0] - inroom0[0]) / max(1, inroom1[1] - inroom0[1]) * 1e3
        if inroom0 and inroom1
        else None
    )
    acked = sum(r["acked"] for r in results)
    return {
        "nodes": args.nodes if clustered else 0,
        "seating": args.seating if clustered else None,
        "pinned": args.pin,
        "bare_as_ours": args.bare_as_ours if kind == "bare" else None,
        "bare_durable": args.bare_durable if kind == "bare" else None,
        "bare_synced": synced,
        "node_cpu": [(b - a) / args.duration for a, b in zip(node_cpu0, per_node, strict=True)],
        "services_cpu": services_seconds / args.duration if clustered else None,
        # CPU per acknowledged action: the servers', and with --nodes Redis's and PostgreSQL's
        "cpu_ms_per_action": (cpu1 - cpu0) / max(1, acked) * 1e3,
        # the same, split: the servers' own processes and their children (the SQLite writer),
        # each as user and system time
        "cpu_parts_ms_per_action": [
            sum(b[i] - a[i] for a, b in zip(parts0, parts1, strict=True)) / max(1, acked) * 1e3
            for i in range(4)
        ],
        "services_ms_per_action": services_seconds / max(1, acked) * 1e3 if clustered else None,
        "in_room_mean_ms": in_room_ms,
        "clean_actions": len(clean),
        "clean_seconds": args.duration
        - sum(min(b, t_end) - max(a, t_measure) for a, b in disturbed),
        "clean_p50_ms": clean_cuts[50] * 1e3,
        "clean_p95_ms": clean_cuts[95] * 1e3,
        "clean_p99_ms": clean_cuts[99] * 1e3,
        "server": kind,
        "connections": connections,
        "connections_seen": health.get("connections"),
        "rooms_seen": health.get("rooms"),  # ours: live rooms once set up (this run's only)
        "setup_seconds": setup_seconds,
        "waited_for_quiet_s": waited,
        "actions": len(samples),
        "actions_per_s": sum(r["acked"] for r in results) / args.duration,
        "incomplete": sum(r["incomplete"] for r in results),
        "unanswered": sum(r["unanswered"] for r in results),
        "errors": _merge([r["errors"] for r in results]),
        "p50_ms": cuts[50] * 1e3,
        "p95_ms": cuts[95] * 1e3,
        "p99_ms": cuts[99] * 1e3,
        "max_ms": max(samples) * 1e3 if samples else float("nan"),
        "mean_ms": statistics.fmean(samples) * 1e3 if samples else float("nan"),
        "server_cpu": (cpu1 - cpu0) / args.duration,
        "server_cpu_per_conn_ms": (cpu1 - cpu0) / args.duration / connections * 1e3,
        "rss_mib": rss_loaded / 2**20,
        "rss_idle_mib": rss_idle / 2**20,
        "rss_per_conn_kib": rss_loaded / connections / 1024,
        "rss_added_per_conn_kib": (rss_loaded - rss_idle) / connections / 1024,
        "generator_cpu": [r["cpu"] / args.duration for r in results],
        "generator_lag_p99_ms": max(r["lag_p99"] for r in results) * 1e3,
        "generator_lag_max_ms": max(r["lag_max"] for r in results) * 1e3,
        "machine_busy": busy,
        "other_cpu_max_1s": max((c for _, _, c in others), default=0.0),
        "other_cpu": busy * (os.cpu_count() or 1)
        - (cpu1 - cpu0) / args.duration
        - (services_seconds / args.duration if clustered else 0.0)
        - sum(r["cpu"] for r in results) / args.duration,
        "push_bytes": statistics.fmean(r["push_bytes"] for r in results),
        "sample": [frame for r in results for frame in r["sample"]],
        "clean_samples": clean,  # seconds; pooled over rounds by main, not written to --json
    }


def _py_spy() -> str:
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else "py-spy"


def _start_py_spy(pid: int, args: argparse.Namespace, workdir: Path, kind: str):
    """Optional, for investigation only: py-spy is not a dependency of the benchmark."""
    out = Path(args.py_spy) / f"{kind}-{args.rooms}x{args.players}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [_py_spy(), "record", "-p", str(pid), "-d", str(int(args.duration)), "-r", "100",
         "--nonblocking", "--threads", "--format", "raw", "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=open(workdir / f"py-spy-{kind}.log", "wb"),
    )  # fmt: skip


def _merge(dicts: list[dict[str, int]]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            merged[k] = merged.get(k, 0) + v
    return merged


def _report(result: dict[str, Any]) -> None:
    r = result
    gen = ", ".join(f"{c:.0%}" for c in r["generator_cpu"])
    variant = (
        " (as ours: messages by a call, small ones written straight, GC tuned)"
        if r.get("bare_as_ours")
        else ""
    ) + (
        " (durable: each action synced to a file before it is told)"
        if r.get("bare_durable")
        else ""
    )
    print(
        f"\n== {r['server']}{variant}: "
        f"{r['connections']} connections "
        f"(server saw {r['connections_seen']}), set up in {r['setup_seconds']:.1f} s "
        f"(after {r['waited_for_quiet_s']:.0f} s waiting for a quiet machine)"
    )
    print(
        f"  latency (send -> last seat)  p50 {r['p50_ms']:.2f} ms  p95 {r['p95_ms']:.2f} ms  "
        f"p99 {r['p99_ms']:.2f} ms  max {r['max_ms']:.1f} ms  (n={r['actions']})"
    )
    print(
        f"  undisturbed seconds only     p50 {r['clean_p50_ms']:.2f} ms  "
        f"p95 {r['clean_p95_ms']:.2f} ms  p99 {r['clean_p99_ms']:.2f} ms  "
        f"(n={r['clean_actions']}, ~{r['clean_seconds']:.0f} of the window's seconds)"
    )
    if r.get("in_room_mean_ms") is not None:
        print(
            f"  mean {r['mean_ms']:.2f} ms, of which in the room (inbox -> every view queued, "
            f"server's own histogram) {r['in_room_mean_ms']:.2f} ms"
        )
    print(
        f"  actions/s {r['actions_per_s']:.0f}   push ~{r['push_bytes']:.0f} B   "
        f"incomplete {r['incomplete']}  unanswered {r['unanswered']}  errors {r['errors']}"
    )
    print(
        f"  server CPU {r['server_cpu']:.2f} s/s ({r['server_cpu_per_conn_ms']:.3f} ms/s per "
        f"connection)   RSS {r['rss_mib']:.0f} MiB = {r['rss_per_conn_kib']:.1f} KiB/connection "
        f"({r['rss_added_per_conn_kib']:.1f} KiB above idle {r['rss_idle_mib']:.0f} MiB)"
    )
    print(
        f"  generator CPU per process [{gen}]  send lag p99 {r['generator_lag_p99_ms']:.1f} ms "
        f"(max {r['generator_lag_max_ms']:.0f} ms)   machine busy {r['machine_busy']:.0%} "
        f"of {os.cpu_count()} cores (other processes {r['other_cpu']:.2f} cores, "
        f"{r['other_cpu_max_1s']:.2f} in the worst second)"
    )
    if r.get("nodes"):
        each = ", ".join(f"{c:.2f}" for c in r["node_cpu"])
        print(
            f"  cluster: {r['nodes']} node(s){', pinned' if r['pinned'] else ''}, seats "
            f"{r['seating']}, CPU per node [{each}] s/s; Redis + PostgreSQL processes "
            f"{r['services_cpu']:.2f} s/s (shared with any other user of them)"
        )
        print(
            f"  CPU per acknowledged action: nodes {r['cpu_ms_per_action']:.3f} ms + Redis and "
            f"PostgreSQL {r['services_ms_per_action']:.3f} ms"
        )
    else:
        print(f"  CPU per acknowledged action: {r['cpu_ms_per_action']:.3f} ms")
    own_user, own_system, child_user, child_system = r["cpu_parts_ms_per_action"]
    children = "its log writer" if r.get("bare_durable") else "the store writer"
    print(
        f"    of which the server process {own_user:.3f} user + {own_system:.3f} system ms, "
        f"its children ({children}) {child_user:.3f} + {child_system:.3f} ms"
    )
    print(f"  limited by: {_verdict(r)}")


def _verdict(r: dict[str, Any]) -> str:
    """A rough call on what bounded the run (read the numbers too)."""
    reasons = []
    if max(r["generator_cpu"]) > 0.85:
        reasons.append("a generator process is near one full core")
    if r["server_cpu"] > 0.85:
        reasons.append("the server's event loop is near one full core")
    if r["machine_busy"] > 0.9:
        reasons.append("the machine's cores are nearly all busy")
    if r["other_cpu"] > 0.25:
        reasons.append(f"other processes took {r['other_cpu']:.2f} cores")
    return "; ".join(reasons) or "nothing saturated (latency is per-action work, not queueing)"


def _times(ours: float, bare: float) -> str:
    """``ours / bare`` as "1.23×"; "—" when the bare figure is zero (a tiny run's CPU is
    below what /proc counts)."""
    return f"{ours / bare:.2f}×" if bare else "—"


def _compare(ours: dict[str, Any], bare: dict[str, Any]) -> None:
    def ratio(key: str) -> str:
        return f"{key.split('_')[-2]} {_times(ours[key], bare[key])}"

    clean = [ratio(f"clean_p{q}_ms") for q in (50, 95, 99)]
    print(f"\n== ratio ours/bare, undisturbed seconds: {'  '.join(clean)}")
    print(
        f"== ratio ours/bare, whole window:       "
        f"{'  '.join(ratio(f'p{q}_ms') for q in (50, 95, 99))}"
        f"   CPU {_times(ours['server_cpu'], bare['server_cpu'])}   "
        f"RSS/conn {_times(ours['rss_per_conn_kib'], bare['rss_per_conn_kib'])}"
    )
    print(f"   target (p99 within 1.5×, undisturbed seconds): {_verdict_of(ours, bare)}")


def _verdict_of(ours: dict[str, Any], bare: dict[str, Any]) -> str:
    ratio99 = ours["clean_p99_ms"] / bare["clean_p99_ms"]
    return "unknown" if math.isnan(ratio99) else "met" if ratio99 <= 1.5 else "MISSED"


def _pooled(rounds: list[dict[str, dict[str, Any]]]) -> None:
    """Every round's undisturbed actions together, per server: a p99 over N times the actions,
    and the rounds' own ratios beside it (how much one 30-second run can say)."""
    pooled = {}
    for kind in ("tertulia", "bare"):
        samples = [s for results in rounds for s in results[kind]["clean_samples"]]
        pooled[kind] = {
            f"clean_p{q}_ms": quantile(samples, q / 100) * 1e3 if samples else float("nan")
            for q in (50, 95, 99)
        } | {"n": len(samples)}
    ours, bare = pooled["tertulia"], pooled["bare"]
    each = [r["tertulia"]["clean_p99_ms"] / r["bare"]["clean_p99_ms"] for r in rounds]
    print(f"\n######## {len(rounds)} rounds pooled (undisturbed seconds)")
    for kind, label in (("tertulia", "ours"), ("bare", "bare")):
        r = pooled[kind]
        print(
            f"  {label:4s} p50 {r['clean_p50_ms']:.2f} ms  p95 {r['clean_p95_ms']:.2f} ms  "
            f"p99 {r['clean_p99_ms']:.2f} ms  (n={r['n']})"
        )
    print(
        "== pooled ratio ours/bare: "
        + "  ".join(
            f"p{q} {ours[f'clean_p{q}_ms'] / bare[f'clean_p{q}_ms']:.2f}×" for q in (50, 95, 99)
        )
    )
    print(
        f"== p99 ratio of each round: {', '.join(f'{x:.2f}×' for x in each)} "
        f"(median {statistics.median(each):.2f}×)"
    )
    print(f"   target (p99 within 1.5×, pooled): {_verdict_of(ours, bare)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--players", type=int, default=10, help="per room, 3–10 (Pitacor)")
    parser.add_argument(
        "--period", type=float, default=5.0, help="seconds between one player's actions"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of traffic before measuring"
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="generator processes (0: 1 per 1,500 connections)"
    )
    parser.add_argument("--servers", default="tertulia,bare", help="which servers, in order")
    parser.add_argument(
        "--bare-as-ours",
        action="store_true",
        help="the bare server with what ours does that any server could: messages taken by a "
        "call from the protocol, not through the ASGI receive, small ones written straight to "
        "the socket uncompressed, and the garbage collector's thresholds (bare_server.py "
        "--as-ours)",
    )
    parser.add_argument(
        "--bare-durable",
        action="store_true",
        help="the bare server with the durable append at its cheapest: each action appended "
        "to a file and synced by a process of its own before it is pushed and answered "
        "(bare_server.py --durable); ours against it is our code's cost beyond the disk",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="ours as N cluster nodes on Redis + PostgreSQL (0: one process with SQLite); "
        "each room's seats round robin over the nodes",
    )
    parser.add_argument(
        "--seating",
        choices=("spread", "owner"),
        default="spread",
        help="with --nodes: each room's seats round robin over the nodes (spread: half of "
        "them relayed with two nodes) or all on the room's owner (owner: none relayed, what "
        "a balancer that knows where rooms live would give)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="each server on a core of its own (taskset): node i on core i, the single "
        "process and the bare server on core 0; the generators anywhere",
    )
    parser.add_argument("--drain", type=float, default=3.0, help="seconds to wait for last pushes")
    parser.add_argument(
        "--setup-concurrency", type=int, default=20, help="rooms set up at once per generator"
    )
    parser.add_argument("--no-deflate", action="store_true", help="refuse permessage-deflate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rev", help="serve src/ as of this git revision (git archive), not the work tree"
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=1,
        help="re-run a server whose window other processes disturbed",
    )
    parser.add_argument(
        "--max-other",
        type=float,
        default=0.5,
        help="cores other processes may take in a second before it counts as disturbed",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=120.0,
        help="wait up to this long for an idle machine before each server",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the servers in turn this many times (ours, bare, ours, bare, ...) and pool "
        "each server's actions: slow drifts of a shared machine then touch both alike",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--py-spy",
        metavar="DIR",
        help="profile each server with py-spy (if installed) during the window",
    )
    args = parser.parse_args()  # fmt: skip
    if not 3 <= args.players <= 10:
        parser.error("Pitacor seats 3–10 players")
    if args.rooms < 1 or args.period <= 0 or args.duration <= 0 or args.warmup < 0:
        parser.error("rooms ≥ 1, period > 0, duration > 0, warmup ≥ 0")
    if args.rounds < 1:
        parser.error("--rounds ≥ 1")
    if args.workers <= 0:
        args.workers = max(1, math.ceil(args.rooms * args.players / 1500))
    args.workers = min(args.workers, args.rooms)
    raise_nofile()
    servers = [s.strip() for s in args.servers.split(",") if s.strip()]
    if not set(servers) <= {"tertulia", "bare"}:
        parser.error("--servers takes tertulia and/or bare")

    senders = args.rooms * (args.players - 1)
    ours = f"{args.nodes} node(s) on Redis + PostgreSQL" if args.nodes else "one process, SQLite"
    print(
        f"{args.rooms} rooms × {args.players} players = {args.rooms * args.players} connections; "
        f"{senders} senders, one action each every {args.period:g} s "
        f"(≈{senders / args.period:.0f} actions/s, ≈{senders / args.period * args.players:.0f} "
        f"pushes/s); warm-up {args.warmup:g} s, measured {args.duration:g} s; "
        f"{args.workers} generator process(es); {os.cpu_count()} cores; "
        f"ours: {ours}; "
        f"permessage-deflate {'off' if args.no_deflate else 'on'}"
    )
    rounds: list[dict[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="tertulia-load-") as tmp:
        workdir = Path(tmp)
        args.source = snapshot(args.rev, workdir) if args.rev else None
        template: Path | None = None
        for number in range(1, args.rounds + 1):
            if args.rounds > 1:
                print(f"\n######## round {number} of {args.rounds}")
            results: dict[str, dict[str, Any]] = {}
            for kind in servers:
                for attempt in range(1 + args.retries):
                    result = run_one(kind, args, workdir, template)
                    expected = args.rooms * (args.players - 1) * args.duration / args.period
                    if result["clean_actions"] >= 0.8 * expected or attempt == args.retries:
                        break
                    print(
                        f"  ({kind}: only {result['clean_actions']} of ~{expected:.0f} actions "
                        f"were timed in undisturbed seconds (p99 {result['p99_ms']:.1f} ms); again)"
                    )
                result["attempts"] = attempt + 1
                if kind == "tertulia" and result["sample"]:
                    # The bare server of this round replays what ours sent in it.
                    template = workdir / "pushes.json"
                    template.write_text("[" + ",".join(result["sample"]) + "]")
                results[kind] = result
                _report(result)
            if "tertulia" in results and "bare" in results:
                _compare(results["tertulia"], results["bare"])
            rounds.append(results)
    if args.rounds > 1 and {"tertulia", "bare"} <= set(servers):
        _pooled(rounds)
    if args.json:
        for results in rounds:
            for r in results.values():
                r.pop("sample", None)
                r.pop("clean_samples", None)
        record = {"args": vars(args), "rounds": rounds}
        args.json.write_text(json.dumps(record, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
