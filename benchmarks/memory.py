"""Memory per connection: where a seated player's bytes go, under three WebSocket set-ups of
the same server, in the same run.

For each set-up our server (``python -m tertulia serve``) gets N Pitacor rooms of M players,
set up as in ``load.py`` (seated, match started, target chosen, clue given), every player
connecting with permessage-deflate offered the way browsers offer it (``client_max_window_bits``
with no value: the server may choose). Then every player asks ``--fill`` times for its whole
picture (``sync``): each answer is a whole view of a few KiB, so every connection's compressor
has seen tens of KiB, as it would after a match of real play, and its window is as full as it
gets. The server's resident memory (RSS, with its store writer) is read before the first
connection and after the last answer; the difference over the connections is the cost of one.

The set-ups:

- ``uvicorn``: uvicorn's default WebSocket protocol (websockets' legacy one), deflate at
  zlib's defaults (window 15 bits, memory level 8).
- ``sansio``: uvicorn's sans-I/O protocol (window 12, memory level 5).
- ``ours``: what ``tertulia serve`` runs (``tertulia.server.websocket``); ``ours:W:M`` is
  the same with window bits W and memory level M, to try other settings.

Bytes on the wire: one player's received frames are compressed again here the way
permessage-deflate does it (raw deflate, context takeover, a sync flush per message, its last
four bytes dropped) with each set-up's window and memory level, so the sizes compare exactly
the same messages; for ``ours``, frames of at most ``outlet.DIRECT_BYTES`` go as they are, as
our server sends them.

    .venv/bin/python benchmarks/memory.py --rooms 500 --players 10 --fill 12
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from harness import (
    HERE,
    HOST,
    ROWS,
    free_port,
    loopback_address,
    proc_rss,
    raise_nofile,
    setup_tertulia,
    wait_healthy,
)

# name -> (uvicorn's ws protocol, or None for ours; window bits; memory level). Ours also
# writes messages up to DIRECT_BYTES uncompressed (server/outlet.py): set below.
DIRECT_BYTES = 0
SETUPS = {
    "uvicorn": ("websockets", 15, 8),
    "sansio": ("websockets-sansio", 12, 5),
    "ours": (None, None, None),  # filled from tertulia.server.websocket below
}
ROOM_BLOCK = 3  # loopback addresses 127.3.y.z: one per room (harness.loopback_address)
SETUP_TIMEOUT = 300.0

LAUNCHER = """
import sys
import tertulia.server.serving as serving
from tertulia.cli import main

protocol = sys.argv.pop(1)
if protocol.startswith("ours:"):  # ours with another window and memory level
    import tertulia.server.websocket as websocket

    websocket.WINDOW_BITS, websocket.MEM_LEVEL = map(int, protocol.split(":")[1:])
elif protocol != "ours":
    plain = serving.uvicorn_config
    serving.uvicorn_config = lambda app, config, **o: plain(app, config, **{**o, "ws": protocol})
sys.exit(main(sys.argv[1:]))
"""


# ---------------------------------------------------------------------------- generator side


async def _worker(spec: dict[str, Any], pipe: Any) -> None:
    limit = asyncio.Semaphore(8)

    async def one(index: int):
        async with limit:
            source = loopback_address(ROOM_BLOCK, index)
            return await setup_tertulia(spec["url"], spec["players"], True, source)

    rooms = await asyncio.wait_for(asyncio.gather(*(one(i) for i in spec["rooms"])), SETUP_TIMEOUT)
    seats = [seat for room in rooms for seat in room.seats]
    watched = seats[0]
    frames: list[bytes] = []
    original = watched.ws.recv

    async def recording_recv(*args: Any, **kwargs: Any) -> Any:
        frame = await original(*args, **kwargs)
        frames.append(frame if isinstance(frame, bytes) else frame.encode())
        return frame

    watched.ws.recv = recording_recv  # from here on (the reader awaits recv per frame)

    async def fill(seat: Any) -> None:
        async with limit:
            for _ in range(spec["fill"]):
                await seat.request("sync")

    limit = asyncio.Semaphore(64)
    await asyncio.wait_for(asyncio.gather(*(fill(s) for s in seats)), SETUP_TIMEOUT)
    for turn in range(3):  # a few moves in the watched room: patches, as in play
        for n, seat in enumerate(rooms[0].guessers):
            cell = f"{ROWS[(n + 5 * turn) % len(ROWS)]}{1 + (7 * n + turn) % 30}"
            await seat.request("act", action={"type": "select_cell", "cell": cell})
    pipe.send(("ready", {"connections": len(seats), "frames": frames}))
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "close"
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*(s.close() for s in seats)), 30)


def worker_main(spec: dict[str, Any], pipe: Any) -> None:
    raise_nofile()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    try:
        asyncio.run(_worker(spec, pipe))
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("failed", repr(error)))
        raise


# ---------------------------------------------------------------------------- parent side


def wire_bytes(
    frames: list[bytes], window_bits: int, mem_level: int, direct_bytes: int = 0
) -> list[int]:
    """Each frame's size on the wire under permessage-deflate with context takeover: what
    websockets' encoder does (raw deflate, Z_SYNC_FLUSH, minus the 00 00 ff ff tail), plus the
    frame header a server sends (2 bytes, 4 from 126 bytes of payload). A frame of at most
    ``direct_bytes`` goes as it is, past the compressor (ours: ``server/outlet.py``)."""
    compressor = zlib.compressobj(wbits=-window_bits, memLevel=mem_level)
    sizes = []
    for frame in frames:
        if len(frame) <= direct_bytes:
            payload = len(frame)
        else:
            body = compressor.compress(frame) + compressor.flush(zlib.Z_SYNC_FLUSH)
            payload = len(body) - 4
        sizes.append(payload + (2 if payload < 126 else 4))
    return sizes


def _kind(frame: bytes) -> str:
    return frame[9:14].decode(errors="replace").strip('"')  # b'{"type":"room"...'


def _median(values: list[int]) -> int:
    return round(statistics.median(values)) if values else 0


def run_setup(name: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    protocol = SETUPS[name][0] or "ours"
    if name.startswith("ours:"):
        protocol = name
    port = free_port()
    db = workdir / f"{name}.sqlite3"
    command = [
        sys.executable, "-c", LAUNCHER, protocol, "serve", "--host", HOST, "--port", str(port),
        "--db", str(db), "--plain-logs",
    ]  # fmt: skip
    log = open(workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    workers: list[tuple[Any, Any]] = []
    try:
        wait_healthy(f"http://{HOST}:{port}", server)
        time.sleep(1.0)
        idle = proc_rss(server.pid)
        context = mp.get_context("spawn")
        rooms = list(range(args.rooms))
        began = time.monotonic()
        for w in range(args.workers):
            mine, theirs = context.Pipe()
            spec = {
                "url": f"ws://{HOST}:{port}/ws", "players": args.players,
                "rooms": rooms[w :: args.workers], "fill": args.fill,
            }  # fmt: skip
            process = context.Process(target=worker_main, args=(spec, theirs), daemon=True)
            process.start()
            workers.append((process, mine))
        connections, frames = 0, []
        for _, pipe in workers:
            if not pipe.poll(SETUP_TIMEOUT + 60):
                raise RuntimeError(f"{name}: a generator did not finish in time")
            what, info = pipe.recv()
            if what != "ready":
                raise RuntimeError(f"{name}: a generator failed: {info}")
            connections += info["connections"]
            frames = frames or info["frames"]
        seconds = time.monotonic() - began
        time.sleep(2.0)  # let the last answers go out and the server settle
        loaded = proc_rss(server.pid)
        for _, pipe in workers:
            pipe.send("close")
        for process, _ in workers:
            process.join(timeout=60)
        return {
            "name": name,
            "connections": connections,
            "idle_mib": idle / 2**20,
            "loaded_mib": loaded / 2**20,
            "per_connection_kib": (loaded - idle) / connections / 1024,
            "setup_seconds": seconds,
            "frames": frames,
        }
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.terminate()
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=20)
        if server.poll() is None:
            server.kill()
        log.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--fill", type=int, default=12, help="whole views asked per player")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--setups", default="uvicorn,sansio,ours")
    args = parser.parse_args()
    raise_nofile()
    sys.path.insert(0, str(HERE.parent / "src"))
    from tertulia.server import outlet
    from tertulia.server.websocket import MEM_LEVEL, WINDOW_BITS

    global DIRECT_BYTES
    DIRECT_BYTES = outlet.DIRECT_BYTES

    SETUPS["ours"] = (None, WINDOW_BITS, MEM_LEVEL)
    for name in args.setups.split(","):
        if name.startswith("ours:"):  # e.g. ours:9:2, to try other settings
            SETUPS[name] = (None, *map(int, name.split(":")[1:]))
    os.environ["PYTHONPATH"] = str(HERE.parent / "src")
    results = []
    with tempfile.TemporaryDirectory(prefix="tertulia-memory-") as tmp:
        for name in args.setups.split(","):
            gc.collect()
            result = run_setup(name, args, Path(tmp))
            results.append(result)
            print(
                f"{name:8} {result['connections']} connections: RSS {result['idle_mib']:.0f} → "
                f"{result['loaded_mib']:.0f} MiB = {result['per_connection_kib']:.1f} KiB per "
                f"connection (set up and filled in {result['setup_seconds']:.0f} s)",
                flush=True,
            )
    frames = next(r["frames"] for r in results if r["frames"])
    kinds = [_kind(f) for f in frames]
    print(
        f"\none player's {len(frames)} frames: {kinds.count('room')} whole views (first "
        f"{len(frames[kinds.index('room')])} B), {kinds.count('patch')} patches (median "
        f"{_median([len(f) for f, k in zip(frames, kinds, strict=True) if k == 'patch'])} B)"
    )
    print("bytes on the wire for those frames, by each set-up's deflate:")
    for name in args.setups.split(","):
        _, bits, level = SETUPS[name]
        sizes = wire_bytes(frames, bits, level, DIRECT_BYTES if SETUPS[name][0] is None else 0)
        first = sizes[kinds.index("room")]
        patches = [n for n, k in zip(sizes, kinds, strict=True) if k == "patch"]
        # A whole view after the first, compressed against the ones before it: what every
        # push cost on the wire before pushes were patches (a lower bound: these repeat an
        # unchanged picture, a change's whole view differed a little more).
        again = [n for n, k in zip(sizes, kinds, strict=True) if k == "room"]
        print(
            f"  {name:8} window {bits:2}, memory level {level}: first whole view {first} B, "
            f"later whole views median {_median(again[1:])} B, patch median "
            f"{_median(patches)} B, all {sum(sizes):,} B of {sum(map(len, frames)):,} B"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
