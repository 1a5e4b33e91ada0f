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


class PerKeyBuckets:
    """A ``TokenBucket`` per key (a client's address, for plain HTTP lookups), forgetting them
    all once there are more than ``max_keys`` so the table cannot grow without end."""

    def __init__(
        self,
        capacity: float,
        rate: float,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity, self.rate, self.max_keys, self._clock = capacity, rate, max_keys, clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._buckets.clear()
            bucket = self._buckets[key] = TokenBucket(self.capacity, self.rate, self._clock)
        return bucket.take()
