"""Rate limits: token buckets, per connection and per key (a client's address, a player), so
one chatty, broken or hostile client cannot flood."""

from __future__ import annotations

import time
from collections import OrderedDict
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

    def tokens(self) -> float:
        """How many are left now (after refilling)."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now
        return self._tokens

    def take(self, cost: float = 1.0) -> bool:
        if self.tokens() < cost:
            return False
        self._tokens -= cost
        return True

    def seconds_until(self, cost: float = 1.0) -> float:
        """How long until ``cost`` tokens are there (0: now)."""
        missing = cost - self.tokens()
        return 0.0 if missing <= 0 else (missing / self.rate if self.rate > 0 else float("inf"))


class PerKeyBuckets:
    """A ``TokenBucket`` per key. The table is bounded by ``max_keys``: past it, buckets that
    have refilled (they remember nothing) are forgotten first, then the least recently used —
    never all at once, which would let someone with many addresses wipe everyone's limits."""

    def __init__(
        self,
        capacity: float,
        rate: float,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity, self.rate, self.max_keys, self._clock = capacity, rate, max_keys, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is not None:
            self._buckets.move_to_end(key)
            return bucket
        if len(self._buckets) >= self.max_keys:
            self._forget()
        bucket = self._buckets[key] = TokenBucket(self.capacity, self.rate, self._clock)
        return bucket

    def take(self, key: str) -> bool:
        return self.bucket(key).take()

    def has(self, key: str) -> bool:
        """Whether ``key`` has a token left, without taking it."""
        bucket = self._buckets.get(key)
        return bucket is None or bucket.tokens() >= 1.0

    def __len__(self) -> int:
        return len(self._buckets)

    def _forget(self) -> None:
        full = [k for k, b in self._buckets.items() if b.tokens() >= b.capacity]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) >= self.max_keys * 3 // 4:
            self._buckets.popitem(last=False)  # the least recently used
