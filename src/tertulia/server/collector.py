"""How Python's cyclic garbage collector runs in a serving process: rarely, and fully on a clock.

Why not CPython's defaults: their pauses were most of the server's worst latencies under load
(benchmarks/README.md, "Load": 6,700 players, five minutes, p99 1.4 s with the defaults and
57 ms with these). A server's heap is its connections and rooms, hundreds of thousands of
objects that live for hours, and what each move makes lives about as long as its room's next
move. With the defaults (700, 10, 10) the youngest generation is walked every few hundred
allocations, so a move's new state is usually still alive when it is walked, and again one
generation up; promoted that far, it counts towards the growth that makes CPython walk the
whole heap (0.4–0.8 s at 6,700 players), which then finds nothing to free, about once a minute.

Here the young generation is walked after 5,000 allocations (most of a move's objects have
been freed by then) and the middle one after 100 of those, so short-lived objects die before
they reach the old generation; CPython's own full collections (after ten middle ones, once a
quarter of the old generation is new) then come only when the heap has really grown: many
players arriving.

The cyclic collector has little to find in steady play: a closed connection leaves no cycle
(``websocket.py``, ``http.py``, ``app.py``), and each move's state is freed by reference
counting. What a closed room leaves in cycles (its parts refer to each other) waits for the
next full collection: ``collect_fully_every`` runs one every ``FULL_EVERY_SECONDS`` whatever
else happened, so that garbage is bounded by time, and logs how long it took (a pause every
connection waits through: ~0.5 s at 6,700 players, milliseconds at a few hundred).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger("tertulia.collector")

YOUNG = 5_000  # allocations (less frees) between collections of the youngest generation
MIDDLE = 100  # young collections between collections of the middle one
FULL_EVERY_SECONDS = 600.0


def tune() -> None:
    """Set the thresholds above for this whole process (``tertulia serve`` does, at start);
    the old generation's stays CPython's. Measured on CPython 3.11, whose generational
    collector 3.12 and 3.13 keep; from 3.14 on, where the collector may work otherwise and the
    thresholds mean other things, CPython's own are left until they are measured there."""
    if sys.version_info < (3, 14):
        gc.set_threshold(YOUNG, MIDDLE, gc.get_threshold()[2])


async def collect_fully_every(seconds: float = FULL_EVERY_SECONDS) -> None:
    """Until cancelled: a full collection every ``seconds``, logged with its pause."""
    while True:
        await asyncio.sleep(seconds)
        started = time.perf_counter()
        freed = gc.collect()
        log.info(
            "full garbage collection",
            extra={
                "fields": {"freed": freed, "ms": round((time.perf_counter() - started) * 1e3, 1)}
            },
        )
