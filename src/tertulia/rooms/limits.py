"""Rate limits: token buckets, per connection and per key (a client's address, a player), so
one chatty, broken or hostile client cannot flood."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``capacity`` actions at once, refilled at ``rate`` per second."""

    # A server keeps one per connection and thousands per key (``PerKeyBuckets``).
    __slots__ = ("_clock", "_last", "_tokens", "capacity", "rate")

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


# Refilled buckets a new key may forget: more than one, so the table shrinks back after a
# burst of new keys as later ones come.
FORGET_PER_NEW_KEY = 2


class PerKeyBuckets:
    """A ``TokenBucket`` per key. A bucket that has refilled remembers nothing (a new one would
    be the same), so each new key forgets the least recently used ones that have: the table
    holds the keys seen within about a refill time, not every address since the start
    (~300 bytes a key; benchmarks/README.md, "Memory after a soak"). It is also bounded by
    ``max_keys``: past it, refilled buckets are forgotten first, then the least recently
    used — never all at once, which would let someone with many addresses wipe everyone's
    limits."""

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
        else:
            self._forget_refilled(FORGET_PER_NEW_KEY)
        bucket = self._buckets[key] = TokenBucket(self.capacity, self.rate, self._clock)
        return bucket

    def _forget_refilled(self, most: int) -> None:
        """Forget up to ``most`` of the least recently used buckets, as long as they have
        refilled (the first that has not stops it: the ones after it were used later)."""
        for _ in range(most):
            oldest = next(iter(self._buckets.items()), None)
            if oldest is None or oldest[1].tokens() < oldest[1].capacity:
                return
            del self._buckets[oldest[0]]

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
