"""Who owns each room: a lease in Redis with an expiry and a fencing number.

A room's lease is one key, ``tertulia:lease:<code>`` = ``"<node> <fence>"``, set with an expiry
(``ttl``) and renewed by its owner well before that (every ``ttl / 4``). Taking a lease that
nobody holds gives a new fencing number, one more than any before for that room. The owner
writes the room's log with that number, and the log (PostgreSQL) refuses a write whose
number is lower than the room's latest claim, in the same transaction as the write: a node
that was paused past its lease (SIGSTOP, a long GC, a frozen VM) and wakes up still believing
it owns the room cannot append after another node took over. The lease gives one owner at a
time while nodes are healthy; the fence makes a stale owner harmless when they are not.

Why the fence is not only Redis's: Redis here keeps nothing on disk, so after a Redis
restart its counter would start again at 1 and the log would refuse every new owner. A
caller that learns from the log that the room's fence is already ``n`` passes ``floor=n``,
and the counter jumps past it. Counters expire a week after their room's last take-over;
the floor brings them back.

Every change is one Lua script, so a check and its write are one step for Redis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .keys import Keys

FENCE_KEEP_MS = 7 * 24 * 3600 * 1000

# KEYS: lease, fence counter. ARGV: node, ttl ms, floor, counter keep ms.
# Returns {1, fence} when this node holds the lease now, {0, "<node> <fence>"} when another does.
_ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held then
  local node, fence = string.match(held, '^(%S+) (%d+)$')
  if node == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, fence}
  end
  return {0, held}
end
local count = tonumber(redis.call('GET', KEYS[2]) or '0')
local floor = tonumber(ARGV[3])
if count < floor then redis.call('SET', KEYS[2], floor) end
local fence = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
return {1, tostring(fence)}
"""

# KEYS: leases. ARGV: ttl ms, then the value each lease must still have.
# Returns one 1 (renewed) or 0 (lost: expired, or someone else's now) per key.
_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""

# KEYS: lease. ARGV: the value it must still have.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class Owner:
    """A room's current lease holder."""

    node: str
    fence: int

    @classmethod
    def parse(cls, value: str | bytes) -> Owner:
        text = value.decode() if isinstance(value, bytes) else value
        node, fence = text.rsplit(" ", 1)
        return cls(node, int(fence))

    def value(self) -> str:
        return f"{self.node} {self.fence}"


class Leases:
    """This node's side of the room leases. ``redis`` is a ``redis.asyncio.Redis``; node
    names must not contain spaces (they are unique per process start: see ``node_name``).
    ``namespace`` prefixes every key, so several sites (or tests) can share one Redis."""

    def __init__(
        self, redis: Any, node: str, ttl: float = 4.0, namespace: str = "tertulia"
    ) -> None:
        if " " in node or not node:
            raise ValueError(f"a node name has no spaces, got {node!r}")
        self.redis = redis
        self.keys = Keys(namespace)
        self.node = node
        self.ttl_ms = int(ttl * 1000)
        self.held: dict[str, int] = {}  # code → fence, the leases this node believes it holds
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @property
    def renew_every(self) -> float:
        """How often ``renew`` should run: four chances before a lease would lapse."""
        return self.ttl_ms / 4000

    async def acquire(self, code: str, floor: int = 0) -> Owner:
        """Take the room's lease if nobody holds it (or this node already does). Returns the
        owner now: this node with its fence, or the other node that holds it."""
        won, value = await self._acquire(
            keys=[self.keys.lease(code), self.keys.fence(code)],
            args=[self.node, self.ttl_ms, floor, FENCE_KEEP_MS],
        )
        if int(won):
            fence = int(value)
            self.held[code] = fence
            return Owner(self.node, fence)
        self.held.pop(code, None)
        return Owner.parse(value)

    async def owner(self, code: str) -> Owner | None:
        """Who holds the room's lease now, if anyone."""
        value = await self.redis.get(self.keys.lease(code))
        return Owner.parse(value) if value is not None else None

    async def time_left(self, code: str) -> float | None:
        """Seconds until the room's lease lapses if nobody renews it; None if nobody holds it."""
        left = await self.redis.pttl(self.keys.lease(code))
        return left / 1000 if left >= 0 else None

    async def renew(self) -> list[str]:
        """Extend every lease this node holds; returns the codes it has lost (they lapsed, or
        another node took them after they lapsed) and forgets them."""
        if not self.held:
            return []
        codes = list(self.held)
        kept = await self._renew(
            keys=[self.keys.lease(code) for code in codes],
            args=[self.ttl_ms, *(Owner(self.node, self.held[code]).value() for code in codes)],
        )
        lost = [code for code, ok in zip(codes, kept, strict=True) if not int(ok)]
        for code in lost:
            self.held.pop(code, None)
        return lost

    async def release(self, code: str) -> None:
        """Give the room's lease back (draining, closing), if this node still holds it."""
        fence = self.held.pop(code, None)
        if fence is not None:
            owner = Owner(self.node, fence).value()
            await self._release(keys=[self.keys.lease(code)], args=[owner])

    def forget(self, code: str) -> None:
        """Stop renewing the room's lease without touching Redis (it was taken from us)."""
        self.held.pop(code, None)
