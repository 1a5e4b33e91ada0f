"""A room's sense of time: the time now, and a call after a delay (``Timers``).

Every clock of a room (the game's deadline, the drop graces, the host's absence, the vote
running; ``clocks.py``) and every time it writes into a record comes from here. Two
implementations: ``LoopTimers`` (the wall clock and the event loop's ``call_later``, what a
server runs) and ``HandTimers`` (time that moves only when a test moves it, so a test of a
grace or a deadline says "five seconds later" instead of sleeping five seconds and hoping the
machine kept up).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """A call waiting for its time; ``cancel`` forgets it (harmless once it has run)."""

    def cancel(self) -> None: ...


class Timers(Protocol):
    def now(self) -> float:
        """The time now, in seconds (the wall clock's, in a server)."""
        ...

    def call_later(self, delay: float, callback: Callable[..., None], *args: Any) -> Timer:
        """Call ``callback(*args)`` on the event loop ``delay`` seconds from now."""
        ...


class LoopTimers:
    """The real ones: ``clock`` (the wall clock unless told otherwise) and the running event
    loop's ``call_later``."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def call_later(self, delay: float, callback: Callable[..., None], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback, *args)


class _HandTimer:
    __slots__ = ("args", "at", "callback", "cancelled")

    def __init__(self, at: float, callback: Callable[..., None], args: tuple[Any, ...]) -> None:
        self.at = at
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class HandTimers:
    """Time that moves only when ``advance`` moves it (for tests): the calls that fall due
    meanwhile run in the order of their times, each with ``now`` at its own time, as the
    event loop would have run them."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self._waiting: list[tuple[float, int, _HandTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    def call_later(self, delay: float, callback: Callable[..., None], *args: Any) -> Timer:
        timer = _HandTimer(self.time + max(0.0, delay), callback, args)
        heapq.heappush(self._waiting, (timer.at, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every call that falls due by then (calls
        they make that fall due by then too)."""
        until = self.time + seconds
        while self._waiting and self._waiting[0][0] <= until:
            at, _, timer = heapq.heappop(self._waiting)
            if timer.cancelled:
                continue
            self.time = max(self.time, at)
            timer.callback(*timer.args)
        self.time = until

    @property
    def pending(self) -> list[float]:
        """When each call still waiting falls due, soonest first."""
        return sorted(at for at, _, timer in self._waiting if not timer.cancelled)
