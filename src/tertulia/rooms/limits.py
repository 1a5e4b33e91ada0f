"""Rate limits: a token bucket per connection, so one chatty or broken client cannot flood."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``capacity`` actions at once, refilled at ``rate`` per second."""

    def __init__(
        self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._tokens = capacity
        self._last = clock()

    def take(self, cost: float = 1.0) -> bool:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < cost:
            return False
        self._tokens -= cost
        return True
