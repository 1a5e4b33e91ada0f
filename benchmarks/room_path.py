"""The room's own path, in one process, without sockets: what an action costs the event loop.

R Pitacor rooms of M seats, set up like ``load.py`` does (no clocks, a clue given), each seat a
peer that encodes what it is sent exactly as a connection does (``protocol.encode``), on a
real SQLite store in a temporary folder. Then A ``select_cell`` actions go through
``Room.submit``, either one at a time (``--concurrency 1``: the serial latency of one action)
or C at once in different rooms (group commit at work).

It prints, per action: the main thread's CPU (``time.thread_time``: the loop's own work —
validation, fold, append hand-off, views, encoding), the store's writer process CPU, and the
latency from ``submit`` until the last seat's push is queued, p50/p99.

    .venv/bin/python benchmarks/room_path.py --rooms 50 --players 10 --actions 3000
    .venv/bin/python benchmarks/room_path.py --rooms 50 --players 10 --actions 3000 \
        --concurrency 8
    .venv/bin/python benchmarks/room_path.py --profile 25   # the top of a cProfile, by own time
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path

from tertulia import protocol as p
from tertulia.games import GAMES
from tertulia.rooms.limits import TokenBucket
from tertulia.rooms.manager import RoomManager
from tertulia.store.sqlite import SQLiteStore

ROWS = "ABCDEFGHIJKLMNOP"


class Peer:
    """A connection as the room sees it: encodes what it gets, like ``Session.send``."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.chat_bucket = TokenBucket(capacity=5, rate=0.5)
        self.sent_blobs: set[str] = set()
        self.waiting: dict[int, asyncio.Future] = {}
        self.latest: dict | None = None
        self.frames = 0

    def send(self, message: p.ServerMessage) -> None:
        p.encode(message)
        self.frames += 1
        if isinstance(message, p.RoomUpdate):
            self.latest = {"view": message.view}
        elif isinstance(message, (p.Ack, p.Error)):
            future = self.waiting.pop(message.re, None)
            if future is not None and not future.done():
                future.set_result(message)


_ids = iter(range(1, 10**9))


async def request(room, peer: Peer, message_type: type, **fields) -> p.ServerMessage:
    message = message_type(id=next(_ids), **fields)
    future = asyncio.get_running_loop().create_future()
    peer.waiting[message.id] = future
    room.submit(peer, message)
    answer = await future
    if isinstance(answer, p.Error):
        raise RuntimeError(f"{answer.code}: {answer.message}")
    return answer


async def setup_room(manager: RoomManager, players: int):
    room = await manager.create("pitacor", public=False)
    peers = [Peer(f"player-{id(room)}-{i}") for i in range(players)]
    for i, peer in enumerate(peers):
        await room.attach(peer, f"P{i}", next(_ids))
    settings = {"guess_seconds": 0, "clue_seconds": 0}
    await request(room, peers[0], p.UpdateSettings, settings=settings)
    await request(room, peers[0], p.StartMatch)
    giver_id = room.model.match.round.giver
    giver = next(peer for peer in peers if peer.player == giver_id)
    await request(room, giver, p.Act, action={"type": "choose_target", "index": 0})
    await request(room, giver, p.Act, action={"type": "give_clue", "text": "ocean"})
    return room, [peer for peer in peers if peer is not giver]


def writer_cpu(store: SQLiteStore) -> float:
    """CPU seconds of the store's writer process so far (from /proc)."""
    stat = Path(f"/proc/{store._writer._process.pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.sqlite3")
        manager = RoomManager(store, GAMES)
        await manager.start()
        rooms = [await setup_room(manager, args.players) for _ in range(args.rooms)]

        latencies: list[float] = []

        async def one(room, guessers) -> None:
            peer = rng.choice(guessers)
            cell = f"{rng.choice(ROWS)}{rng.randint(1, 30)}"
            began = time.perf_counter()
            await request(room, peer, p.Act, action={"type": "select_cell", "cell": cell})
            latencies.append(time.perf_counter() - began)

        profile = cProfile.Profile() if args.profile else None
        cpu0, writer0, wall0 = time.thread_time(), writer_cpu(store), time.perf_counter()
        if profile:
            profile.enable()
        done = 0
        while done < args.actions:
            batch = rng.sample(rooms, min(args.concurrency, len(rooms)))
            await asyncio.gather(*(one(room, guessers) for room, guessers in batch))
            done += len(batch)
        if profile:
            profile.disable()
        cpu = time.thread_time() - cpu0
        writer = writer_cpu(store) - writer0
        wall = time.perf_counter() - wall0
        await manager.shutdown()
        await store.close()

    latencies.sort()
    ms = 1000.0
    print(f"{args.rooms} rooms x {args.players} seats, {done} actions, {args.concurrency} at once")
    print(f"  loop CPU per action     {cpu / done * ms:.3f} ms")
    print(f"  writer CPU per action   {writer / done * ms:.3f} ms (its own process)")
    print(
        f"  latency submit -> every push queued  p50 {statistics.median(latencies) * ms:.3f} ms"
        f"  p99 {latencies[int(len(latencies) * 0.99)] * ms:.3f} ms"
    )
    print(f"  actions/s {done / wall:.0f}")
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
