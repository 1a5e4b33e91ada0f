"""Crash-test child: append to a few rooms forever, printing each acknowledged seq.

Usage: python store_crash_writer.py DB_PATH ROOMS

A line "CODE SEQ" is printed (and flushed) only after `append` returned, so every
printed line is a promise the parent checks after SIGKILLing this process.
"""

from __future__ import annotations

import asyncio
import sys

from tertulia.store import LogEntry
from tertulia.store.sqlite import SQLiteStore


async def room_writer(store: SQLiteStore, code: str) -> None:
    seq = 0
    while True:
        seq += 1
        # Several entries sometimes, as a room does when a timeout and a move land together.
        batch = [LogEntry(seq, float(seq), f"{code}:{seq}".encode())]
        if seq % 7 == 0:
            batch.append(LogEntry(seq + 1, float(seq + 1), f"{code}:{seq + 1}".encode()))
        await store.append(code, batch)
        seq = batch[-1].seq
        sys.stdout.write("".join(f"{code} {e.seq}\n" for e in batch))
        sys.stdout.flush()


async def main(path: str, rooms: int) -> None:
    store = SQLiteStore(path)
    codes = [f"K{i:03d}" for i in range(rooms)]
    for code in codes:
        await store.create_room(code, "crash", public=False)
    print("ready", flush=True)
    await asyncio.gather(*(room_writer(store, code) for code in codes))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
