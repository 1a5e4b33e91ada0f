"""What the benchmarks over real WebSockets share (``load.py``, ``flood.py``): lean players that
timestamp every push, Pitacor rooms set up for timing, the server's process and the machine's CPU.

Each room's players connect from their own loopback address (``loopback_address``): on Linux
all of 127.0.0.0/8 is loopback, and a server that caps connections per client address would
refuse thousands of players from 127.0.0.1 that real players never share.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import resource
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import msgspec
import websockets

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"  # the server listens on loopback only
CLK_TCK = os.sysconf("SC_CLK_TCK")
ROWS = "ABCDEFGHIJKLMNOP"  # Pitacor's board: rows A–P, columns 1–30
CLUES = ("ocean", "lemon", "forest", "sunset", "ember")
REQUEST_TIMEOUT = 30.0
KEEP_PUSHES = 400  # pushes a watched seat keeps, for the bare server to replay


def loopback_address(block: int, index: int) -> str:
    """A client source address of its own: ``127.<block>.y.z`` for the ``index``-th room (or
    flooder) of a block (1–254, a block per kind of client); z runs 1–250, so no address ends
    in .0 or .255."""
    if not 1 <= block <= 254 or not 0 <= index < 250 * 256:
        raise ValueError(f"no loopback address for block {block}, index {index}")
    return f"127.{block}.{index // 250}.{1 + index % 250}"


# ---------------------------------------------------------------------------- players


class Head(msgspec.Struct):
    """The few fields the generator reads from a server frame; msgspec skips the rest fast."""

    type: str = ""
    version: int | None = None
    re: int | None = None
    code: str | None = None
    player: str | None = None


decode_head = msgspec.json.Decoder(Head).decode
encode = msgspec.json.encode


class RoomRun:
    """One room as the generator sees it: who received which version when, and what was sent."""

    __slots__ = ("actions", "errors", "guessers", "received", "seats", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.received: dict[int, list] = {}  # version -> [seats that received it, last time]
        self.actions: list[tuple[float, int]] = []  # (sent at, version it produced)
        self.errors: dict[str, int] = {}
        self.guessers: list[Seat] = []
        self.seats: list[Seat] = []  # every seat, the silent one too


class Seat:
    """One player's WebSocket: a lean client that timestamps every push it receives."""

    def __init__(self, ws: Any, room: RoomRun) -> None:
        self.ws = ws
        self.room = room
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future] = {}  # setup requests awaiting their answer
        self.timed: dict[int, float] = {}  # benchmark actions: id -> sent at
        self.last_version = -1
        self.latest: bytes | None = None  # the newest push, undecoded
        self.player = ""
        self.push_bytes = 0
        self.pushes = 0
        self.kept: list[bytes] | None = None  # set to a list to keep the pushes received
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, room: RoomRun, deflate: bool, source: str | None = None) -> Seat:
        """Connect (from ``source``, a loopback address, when given) and say hello."""
        ws = await websockets.connect(
            url,
            max_size=None,
            ping_interval=None,
            open_timeout=REQUEST_TIMEOUT,
            close_timeout=2,
            compression="deflate" if deflate else None,
            **({"local_addr": (source, 0)} if source else {}),  # to loop.create_connection
        )
        seat = cls(ws, room)
        await seat.request("hello", token=None)
        return seat

    async def request(self, kind: str, **fields: Any) -> Any:
        """A setup request: send it, wait for its ack, return its data (or raise its error)."""
        msg_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.pending[msg_id] = future
        await self.ws.send(encode({"type": kind, "id": msg_id, **fields}).decode())
        try:
            return await asyncio.wait_for(future, REQUEST_TIMEOUT)
        finally:
            self.pending.pop(msg_id, None)

    async def act_timed(self, action: dict[str, Any]) -> None:
        msg_id = next(self.ids)
        frame = encode({"type": "act", "id": msg_id, "action": action}).decode()
        self.timed[msg_id] = time.monotonic()
        await self.ws.send(frame)

    async def _read(self) -> None:
        room = self.room
        received = room.received
        try:
            while True:  # ends when the socket closes or the task is cancelled
                frame = await self.ws.recv(decode=False)
                now = time.monotonic()
                head = decode_head(frame)
                kind = head.type
                if kind in ("room", "patch"):  # a whole picture, or what changed in it
                    version = head.version
                    self.last_version = version
                    self.latest = frame
                    self.push_bytes += len(frame)
                    self.pushes += 1
                    if self.kept is not None and len(self.kept) < KEEP_PUSHES:
                        self.kept.append(frame)
                    seen = received.get(version)
                    if seen is None:
                        received[version] = [1, now]
                    else:
                        seen[0] += 1
                        seen[1] = now
                elif kind == "ack":
                    sent = self.timed.pop(head.re, None)
                    if sent is not None:
                        room.actions.append((sent, self.last_version))
                    else:
                        future = self.pending.get(head.re)
                        if future is not None and not future.done():
                            future.set_result(msgspec.json.decode(frame).get("data"))
                elif kind == "error":
                    if self.timed.pop(head.re, None) is not None:
                        room.errors[head.code or "?"] = room.errors.get(head.code or "?", 0) + 1
                    else:
                        future = self.pending.get(head.re)
                        if future is not None and not future.done():
                            future.set_exception(RuntimeError(f"{head.code}: {frame[:200]!r}"))
                elif kind == "welcome":
                    self.player = head.player or ""
        except (websockets.ConnectionClosed, asyncio.CancelledError):
            pass

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.cancel()


async def setup_tertulia(
    url: str | list[str], players: int, deflate: bool, source: str | None = None
) -> RoomRun:
    """A Pitacor room playing its first guesses. ``url``: the server's, or one per seat (a
    cluster's nodes: the first seat's creates the room, the others join wherever they are)."""
    room = RoomRun(players)
    urls = [url] * players if isinstance(url, str) else url
    seats = [await Seat.open(urls[i], room, deflate, source) for i in range(players)]
    host = seats[0]
    code = (await host.request("create_room", game="pitacor", nickname="P0", public=False))["room"]
    for i, seat in enumerate(seats[1:], 1):
        await seat.request("join_room", code=code, nickname=f"P{i}")
    await host.request("update_settings", settings={"guess_seconds": 0, "clue_seconds": 0})
    await host.request("start_match")
    with contextlib.suppress(RuntimeError):  # servers from before patches have no sync
        await host.request("sync")  # the whole picture: the giver is in the view
    assert host.latest is not None
    view = msgspec.json.decode(host.latest)["view"]
    giver = next(s for s in seats if s.player == view["giver"])
    await giver.request("act", action={"type": "choose_target", "index": 0})
    for clue in CLUES:  # "ocean" is fine; the others are only a fallback
        try:
            await giver.request("act", action={"type": "give_clue", "text": clue})
            break
        except RuntimeError:
            continue
    else:
        raise RuntimeError("no clue was accepted")
    room.guessers = [s for s in seats if s is not giver]
    room.seats = seats
    return room


async def setup_bare(
    url: str, players: int, index: int, deflate: bool, source: str | None = None
) -> RoomRun:
    room = RoomRun(players)
    seats = [await Seat.open(url, room, deflate, source) for _ in range(players)]
    for seat in seats:
        await seat.request("join_room", code=f"R{index}")
    room.guessers = seats[1:]  # seat 0 plays the silent clue giver
    room.seats = seats
    return room


async def guess(
    seat: Seat, start: float, end: float, period: float, rng: random.Random, lags: list[float]
) -> None:
    """Open loop: one select_cell every ``period`` seconds from a random phase, until ``end``."""
    due = start + rng.random() * period
    for _ in range(int((end - start) / period) + 2):  # bounded in count as well as in time
        if due >= end:
            return
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        lags.append(time.monotonic() - due)
        cell = f"{rng.choice(ROWS)}{rng.randint(1, 30)}"
        await seat.act_timed({"type": "select_cell", "cell": cell})
        due += period


def cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------- server and machine


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def wait_healthy(base: str, process: subprocess.Popen, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            get_json(f"{base}/healthz")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not become healthy in {timeout} s")


def tree(pid: int) -> list[int]:
    """The process and all its descendants (our server's store writer is a child process)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as f:
                    todo += [int(child) for child in f.read().split()]
    return found


def proc_cpu(pid: int) -> float:
    """user+sys seconds of the process (all its threads) and of its child processes."""
    return sum(cpu_parts(pid))


def cpu_parts(pid: int) -> tuple[float, float, float, float]:
    """Seconds of CPU of the process itself (user, system) and of its descendants (user,
    system): where a server's time goes, its loop or its store writer, its code or the
    kernel's (socket writes, fsync)."""
    parts = [0.0, 0.0, 0.0, 0.0]
    for member in tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            offset = 0 if member == pid else 2
            parts[offset] += int(fields[11]) / CLK_TCK
            parts[offset + 1] += int(fields[12]) / CLK_TCK
    return parts[0], parts[1], parts[2], parts[3]


def proc_rss(pid: int) -> int:
    """Resident memory of the process and of its child processes."""
    total = 0
    for member in tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def sleep_until(at: float) -> None:
    time.sleep(max(0.0, at - time.monotonic()))


def wait_quiet(limit: float, busy_below: float = 0.15) -> float:
    """Wait (at most ``limit`` seconds) until the machine is idle for two seconds in a row:
    on a shared machine, other people's test runs would otherwise land in our window."""
    began = time.monotonic()
    while time.monotonic() - began < limit:
        before = machine_cpu()
        time.sleep(2.0)
        after = machine_cpu()
        if (after[0] - before[0]) / max(1, after[1] - before[1]) < busy_below:
            break
    return time.monotonic() - began


def snapshot(rev: str, workdir: Path) -> Path:
    """src/ as of ``rev``, unpacked into ``workdir``: other people may be editing the tree."""
    root = HERE.parent
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=root, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    archive = subprocess.run(
        ["git", "archive", commit, "src"], cwd=root, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(workdir)], input=archive, check=True)
    print(f"serving src/ as of {commit[:12]} ({rev})")
    return workdir / "src"


def stop_servers(processes: list[subprocess.Popen]) -> None:
    """SIGTERM every server at once (each saves and drains as it stops), then wait for each;
    one that has not ended after 30 s is killed."""
    for process in processes:
        with contextlib.suppress(OSError):
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def join_or_stop(processes: list[Any], timeout: float = 30.0) -> None:
    """Wait for each generator process to end; one still running after ``timeout`` is
    terminated (a run that failed must not leave generators behind)."""
    for process in processes:
        process.join(timeout=timeout)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
