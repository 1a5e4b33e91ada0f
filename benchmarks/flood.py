"""Flood benchmark: what unpaced clients do to the players of other rooms (issue 13, point 1).

One server (``python -m tertulia serve``, a fresh database) and R Pitacor rooms of M normal
players, set up as ``load.py`` does (clocks off; the giver picks a target and gives a clue; the
guessers send ``select_cell`` every P seconds each, from a random phase), each room from its
own loopback address. The normal traffic runs through three phases, each measured for D
seconds:

- **baseline**: normal players only (after a warm-up);
- **1 flooder**, then **20 flooders** (``--flooders 1,20``), each from an address of its own
  (``benchmarks/flooder.py``: hello, a room of its own, then frames as fast as the socket takes
  them — act, ping, list_rooms, malformed JSON — never reading; after a close it reconnects
  0.5 s later). A flood phase is measured from the moment the flooders start, so the time the
  server takes to close them counts against it; a few settling seconds without flooders come
  before each.

Per phase: the normal players' latency from an action's send to the last seat's push
(matched by the room's version, as ``load.py``), its p99 against the baseline's of the same
run, actions sent and answered, normal players disconnected; per flooding connection its time
to close and close code, frames sent, reconnections refused (HTTP status); the server's CPU
(user+sys s/s of the process and its children, ``/proc/<pid>/stat``) and what its ``/metrics``
counted (frames handled, ``rate.limited`` refusals). Then PASS/FAIL against the issue's
target: with 20 flooders the normal p99 stays within 2× the baseline, no normal player is
disconnected, every flooder is closed within 2 s.

    .venv/bin/python benchmarks/flood.py --rev HEAD
    .venv/bin/python benchmarks/flood.py --rev BEFORE --rev AFTER   # both, one after the other
    .venv/bin/python benchmarks/flood.py --rev HEAD --src ../other-tree/src   # + uncommitted

Without ``--rev`` or ``--src`` it serves this checkout's ``src/`` as it is (not the package the
virtual environment has installed, which may be another work tree's). Each server run takes
about 80 s at the default sizes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from flood_report import compare, figures, print_targets, report, targets
from flooder import flooder
from harness import (
    HERE,
    HOST,
    ROWS,
    RoomRun,
    cpu_self,
    free_port,
    join_or_stop,
    loopback_address,
    machine_cpu,
    proc_cpu,
    proc_rss,
    raise_nofile,
    setup_tertulia,
    sleep_until,
    snapshot,
    stop_servers,
    wait_healthy,
    wait_quiet,
)

ROOM_BLOCK = 1  # normal rooms' players connect from 127.1.0.z, one address per room
FLOOD_BLOCK = 2  # flooders from 127.2.0.z, one address per flooder, fresh in every phase
SETUP_TIMEOUT = 60.0


# ---------------------------------------------------------------------------- normal players


async def _play(seat: Any, start: float, end: float, period: float, rng: random.Random,
                sent: list[float], lags: list[float]) -> None:  # fmt: skip
    """Open loop, as ``harness.guess``, noting when each action was sent."""
    due = start + rng.random() * period
    for _ in range(int((end - start) / period) + 2):  # bounded in count as well as in time
        if due >= end:
            return
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        lags.append(time.monotonic() - due)
        sent.append(time.monotonic())
        await seat.act_timed(
            {"type": "select_cell", "cell": f"{rng.choice(ROWS)}{rng.randint(1, 30)}"}
        )
        due += period


async def _players(spec: dict[str, Any], pipe: Any) -> None:
    """The normal players' process: set up, play through every phase, report each phase."""
    loop = asyncio.get_running_loop()
    rooms: list[RoomRun] = []
    try:
        limit = asyncio.Semaphore(20)  # rooms set up at once

        async def one(index: int) -> RoomRun:
            async with limit:  # each room from its own address, as load.py
                source = loopback_address(ROOM_BLOCK, index)
                return await setup_tertulia(spec["url"], spec["players"], True, source)

        rooms = list(
            await asyncio.wait_for(
                asyncio.gather(*(one(i) for i in range(spec["rooms"]))), SETUP_TIMEOUT
            )
        )
        seats = [s for room in rooms for s in room.seats]
        lost: list[tuple[float, int | None]] = []  # (when, close code) of a seat's connection
        for seat in seats:
            seat.reader.add_done_callback(
                lambda _, seat=seat: lost.append((time.monotonic(), seat.ws.close_code))
            )
        pipe.send(("ready", len(seats)))
        _, t0, t_end, phases = await loop.run_in_executor(None, pipe.recv)
        rng = random.Random(spec["seed"])
        sent: list[float] = []
        lags: list[float] = []
        tasks = [
            loop.create_task(_play(seat, t0, t_end, spec["period"], rng, sent, lags))
            for room in rooms
            for seat in room.guessers
        ]
        cpu: dict[float, float] = {}  # this process's CPU at each phase's start and end
        for at in sorted({t for _, a, b in phases for t in (a, b)}):
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            cpu[at] = cpu_self()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        drain_end = time.monotonic() + spec["drain"]
        while time.monotonic() < drain_end and any(s.timed for s in seats if not s.reader.done()):
            await asyncio.sleep(0.25)
        await asyncio.sleep(0.5)  # the last pushes of the last acks
        lost = list(lost)  # before we close anything ourselves
        errors: dict[str, int] = {}
        for room in rooms:
            for code, n in room.errors.items():
                errors[code] = errors.get(code, 0) + n
        pipe.send(("result", {
            "phases": [_phase(rooms, sent, lost, name, a, b, cpu) for name, a, b in phases],
            "disconnected": [code for _, code in lost], "errors": errors,
            "lag_max_ms": max(lags, default=0.0) * 1e3,
        }))  # fmt: skip
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("failed", repr(error)))
        raise
    finally:
        with contextlib.suppress(Exception):
            seats = [s for room in rooms for s in room.seats]
            await asyncio.wait_for(asyncio.gather(*(s.close() for s in seats)), 15)


def _phase(
    rooms: list[RoomRun],
    sent: list[float],
    lost: list[tuple[float, int | None]],
    name: str,
    a: float,
    b: float,
    cpu: dict[float, float],
) -> dict[str, Any]:
    """The normal actions sent in [a, b): their latencies (send -> last seat's push) and fate."""
    latencies, incomplete = [], 0
    for room in rooms:
        for at, version in room.actions:
            if a <= at < b:
                seen = room.received.get(version)
                if seen is not None and seen[0] >= room.size:
                    latencies.append(seen[1] - at)
                else:
                    incomplete += 1  # acknowledged, but a seat never got the push
    unanswered = sum(
        1 for room in rooms for s in room.seats for at in s.timed.values() if a <= at < b
    )
    count = sum(1 for at in sent if a <= at < b)
    return {
        "phase": name,
        "latencies": latencies,
        "sent": count,
        "acked": len(latencies) + incomplete,
        "refused": count - len(latencies) - incomplete - unanswered,  # answered with an error
        "unanswered": unanswered,
        "incomplete": incomplete,
        "disconnected": [code for at, code in lost if a <= at < b],
        "generator_cpu": (cpu[b] - cpu[a]) / (b - a),
    }


# ---------------------------------------------------------------------------- flooders


async def _flooders(spec: dict[str, Any], pipe: Any) -> None:
    loop = asyncio.get_running_loop()
    try:
        pipe.send(("ready", 0))
        _, phases = await loop.run_in_executor(None, pipe.recv)
        results = []
        for name, a, b, count, first in phases:
            await asyncio.sleep(max(0.0, a - time.monotonic()))
            cpu0 = cpu_self()
            tallies = await asyncio.gather(*(
                flooder(HOST, spec["port"], loopback_address(FLOOD_BLOCK, first + k), b,
                        spec["deflate"], spec["pause"], spec["ignore_close"])
                for k in range(count)
            ))  # fmt: skip
            results.append({
                "phase": name,
                "lives": [life.to_dict() for t in tallies for life in t.lives],
                "reconnects": sum(t.reconnects for t in tallies),
                "refused": _merge([t.refused for t in tallies]),
                "setup_failed": _merge([t.setup_failed for t in tallies]),
                "generator_cpu": (cpu_self() - cpu0) / (b - a),
            })  # fmt: skip
        pipe.send(("result", {"phases": results}))
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("failed", repr(error)))
        raise


def _process_main(which: str, spec: dict[str, Any], pipe: Any) -> None:
    raise_nofile()
    with contextlib.suppress(ImportError):
        import uvloop  # as load.py's generator: a lighter loop

        uvloop.install()
    asyncio.run((_players if which == "players" else _flooders)(spec, pipe))


# ---------------------------------------------------------------------------- one server run


def _metrics(base: str) -> dict[str, float]:
    """The server's counters of messages handled (by type) and refused (by code)."""
    found: dict[str, float] = {}
    try:
        with urllib.request.urlopen(f"{base}/metrics", timeout=10) as response:
            text = response.read().decode()
    except OSError:
        return found
    for line in text.splitlines():
        for name in ("tertulia_messages_total", "tertulia_errors_total"):
            if line.startswith(name + "{"):
                label = line.split('"')[1]
                key = f"{'message' if name == 'tertulia_messages_total' else 'error'}:{label}"
                found[key] = float(line.rsplit(" ", 1)[1])
    return found


def _receive(pipe: Any, timeout: float, what: str) -> Any:
    if not pipe.poll(timeout):
        raise RuntimeError(f"the {what} did not answer in {timeout:.0f} s")
    kind, info = pipe.recv()
    if kind == "failed":
        raise RuntimeError(f"the {what} failed: {info}")
    return info


def run_server(args: argparse.Namespace, source: Path | None, workdir: Path) -> dict[str, Any]:
    """Start a server, play the phases against it, stop it; the figures of each phase."""
    waited = wait_quiet(args.quiet_wait) if args.quiet_wait > 0 else 0.0
    port = free_port()
    base, url = f"http://{HOST}:{port}", f"ws://{HOST}:{port}/ws"
    db = workdir / "flood.sqlite3"
    for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        leftover.unlink(missing_ok=True)
    command = [sys.executable, "-m", "tertulia", "serve", "--host", HOST, "--port", str(port),
               "--db", str(db), "--plain-logs"]  # fmt: skip
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    log_path = workdir / "server.log"
    log_file = open(log_path, "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT, env=env)
    context = mp.get_context("spawn")
    procs: list[tuple[mp.Process, Any]] = []
    try:
        wait_healthy(base, server)
        specs = {
            "players": {"url": url, "rooms": args.rooms, "players": args.players,
                        "period": args.period, "seed": args.seed, "drain": args.drain},
            "flooders": {"port": port, "deflate": not args.no_deflate, "pause": args.pause,
                         "ignore_close": args.ignore_close},
        }  # fmt: skip
        for which in ("players", "flooders"):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_process_main, args=(which, specs[which], theirs), daemon=True
            )
            process.start()
            procs.append((process, mine))
        (_, players), (_, flooders) = procs
        _receive(players, SETUP_TIMEOUT + 30, "players' process (setting up)")
        _receive(flooders, SETUP_TIMEOUT + 30, "flooders' process (setting up)")
        # The schedule: a warm-up, the baseline, then each flood phase after a settling pause.
        t0 = time.monotonic() + 0.5
        phases: list[tuple[str, float, float, int]] = []
        at = t0 + args.warmup
        phases.append(("baseline", at, at + args.duration, 0))
        for count in args.flooders:
            at = phases[-1][2] + args.settle
            name = f"{count} flooder{'s' if count != 1 else ''}"
            phases.append((name, at, at + args.duration, count))
        t_end = phases[-1][2]
        players.send(("go", t0, t_end, [(n, a, b) for n, a, b, _ in phases]))
        flood_phases, first = [], 0
        for name, a, b, count in phases[1:]:
            flood_phases.append((name, a, b, count, first))
            first += count  # every flooder of every phase has an address of its own
        flooders.send(("go", flood_phases))
        watched = [server.pid] + [p.pid for p, _ in procs if p.pid is not None]
        readings = []
        for _name, a, b, _count in phases:
            sleep_until(a - 0.4)
            counters = _metrics(base)  # before the phase: its flooders are not there yet
            sleep_until(a)
            start = (proc_cpu(server.pid), machine_cpu(), sum(proc_cpu(p) for p in watched))
            sleep_until(b)
            end = (proc_cpu(server.pid), machine_cpu(), sum(proc_cpu(p) for p in watched))
            readings.append({"start": start, "end": end, "rss": proc_rss(server.pid),
                             "counters": counters, "counters_end": _metrics(base)})  # fmt: skip
        flooded = _receive(flooders, args.duration + 60, "flooders' process")
        played = _receive(players, args.drain + 90, "players' process")
        health_ok = server.poll() is None
    except BaseException:
        log_file.flush()
        tail = log_path.read_bytes()[-3000:].decode(errors="replace")
        print(f"--- the last lines of the server's log:\n{tail}", file=sys.stderr)
        raise
    finally:
        join_or_stop([process for process, _ in procs])
        stop_servers([server])
        log_file.close()
    return figures(phases, readings, played, flooded, waited, health_ok)


def _merge(dicts: list[dict[str, int]]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            merged[k] = merged.get(k, 0) + v
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=3, help="rooms of normal players")
    parser.add_argument("--players", type=int, default=5, help="per room, 3–10 (Pitacor)")
    parser.add_argument(
        "--period", type=float, default=2.0, help="seconds between a guesser's actions"
    )
    parser.add_argument("--flooders", default="1,20", help="flooders in each flood phase")
    parser.add_argument("--duration", type=float, default=20.0, help="measured s per phase")
    parser.add_argument("--warmup", type=float, default=5.0, help="s before the baseline")
    parser.add_argument(
        "--settle", type=float, default=5.0, help="s without flooders before each flood phase"
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.5,
        help="s a flooder waits after a close before it reconnects",
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=60.0,
        help="at most this many s after the last phase for the last answers",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="flooders refuse permessage-deflate (the server then does not compress their answers)",
    )
    parser.add_argument(
        "--ignore-close",
        action="store_true",
        help="flooders go on sending after a close frame, until the server drops the socket",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=60.0,
        help="wait up to this long for an idle machine before each server",
    )
    parser.add_argument(
        "--rev",
        action="append",
        help="serve src/ as of this git revision "
        "(git archive); twice or more: each in turn, then side by side",
    )
    parser.add_argument(
        "--src",
        type=Path,
        action="append",
        help="serve this src/ directory as it is (another work tree's, uncommitted changes "
        "and all); may be given with --rev, each is run in turn",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()  # fmt: skip
    try:
        args.flooders = [int(n) for n in args.flooders.split(",") if n.strip()]
    except ValueError:
        parser.error("--flooders takes counts separated by commas, e.g. 1,20")
    if not 3 <= args.players <= 10:
        parser.error("Pitacor seats 3–10 players")
    if args.rooms < 1 or args.period <= 0 or args.duration <= 0 or not args.flooders:
        parser.error("rooms ≥ 1, period > 0, duration > 0, at least one flood phase")
    if any(n < 1 for n in args.flooders) or sum(args.flooders) > 250:
        parser.error("each flood phase has 1–250 flooders (one loopback address each)")
    raise_nofile()
    print(
        f"{args.rooms} rooms × {args.players} normal players (one action per guesser every "
        f"{args.period:g} s); phases of {args.duration:g} s: baseline, then "
        f"{', '.join(str(n) for n in args.flooders)} flooder(s); warm-up {args.warmup:g} s, "
        f"{args.settle:g} s settling before each flood; {os.cpu_count()} cores"
    )
    runs = []
    with tempfile.TemporaryDirectory(prefix="tertulia-flood-") as tmp:
        servers = [("rev", rev) for rev in args.rev or []]
        servers += [("src", src.resolve()) for src in args.src or []]
        for n, (kind, what) in enumerate(servers or [("src", HERE.parent / "src")]):
            workdir = Path(tmp) / f"run{n}"
            workdir.mkdir()
            if kind == "rev":
                commit = _commit(what)
                source, label = snapshot(what, workdir), f"{what} ({commit[:9]})"
            else:  # a directory as it is, not whatever the virtual environment has installed
                commit, source, label = None, Path(what), f"{what} (as it is)"
                print(f"serving {label}")
            run = run_server(args, source, workdir)
            run["rev"], run["commit"] = (what if kind == "rev" else str(what)), commit
            run["label"] = f"{what} {commit[:9]}" if commit else f"{Path(what).parent.name}/src"
            print(f"\n######## {label}")
            report(run)
            run["targets"] = targets(run)
            print_targets(label, run["targets"], run)
            runs.append(run)
    if len(runs) > 1:
        compare(runs)
    if args.json:
        record = {"args": {k: v for k, v in vars(args).items() if k != "json"}, "runs": runs}
        args.json.write_text(json.dumps(record, indent=2, default=str))
    return 0


def _commit(rev: str) -> str:
    return subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=HERE.parent, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
