"""What one client address, and one player, may do: connections, room-code lookups, rooms.

Every per-address limit keys on the one address ``addresses.client_address`` resolved for the
request (its /64 for IPv6), so a WebSocket and a plain HTTP lookup from the same client share
them. The numbers are ``Limits``; docs/protocol.md says what a client sees of each.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..games.base import RuleError
from ..rooms.limits import PerKeyBuckets


@dataclass(frozen=True)
class Limits:
    # WebSocket connections one address may hold at once (0: no cap). A school or a family
    # behind one NAT address shares it: a class of thirty, each with a tab, fits.
    connections_per_address: int = 64
    # New WebSocket connections per address: a burst (everyone reconnecting after a restart),
    # then this many a second.
    connect_burst: float = 40.0
    connect_rate: float = 2.0
    # An address whose connection was closed for flooding opens no new one for this long,
    # doubled for each flood in a row (up to the max): a flooder that reconnects at once would
    # otherwise get a fresh message budget every time.
    flood_penalty_seconds: float = 10.0
    flood_penalty_max_seconds: float = 300.0
    # Room codes that turned out not to be live (join_room, a resume into a room without your
    # seat, GET /api/rooms/CODE): a few typos, then one every 10 s. Past it, every lookup by
    # code is refused, so a hit and a miss look alike.
    code_misses_burst: float = 10.0
    code_misses_rate: float = 0.1
    # Rooms opened: live at once, and how fast (a burst, then one per 1/rate seconds).
    rooms_per_address: int = 30
    rooms_per_player: int = 5
    room_burst_per_address: float = 20.0
    room_rate_per_address: float = 1 / 30
    room_burst_per_player: float = 5.0
    room_rate_per_player: float = 1 / 60


@dataclass
class _Penalty:
    until: float
    seconds: float


class Guard:
    """The per-address and per-player tables of one server."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._connections: Counter[str] = Counter()
        self._connects = PerKeyBuckets(limits.connect_burst, limits.connect_rate, clock=clock)
        self._penalties: dict[str, _Penalty] = {}
        self._code_misses = PerKeyBuckets(
            limits.code_misses_burst, limits.code_misses_rate, clock=clock
        )
        self._rooms_by_address = PerKeyBuckets(
            limits.room_burst_per_address, limits.room_rate_per_address, clock=clock
        )
        self._rooms_by_player = PerKeyBuckets(
            limits.room_burst_per_player, limits.room_rate_per_player, clock=clock
        )

    # ------------------------------------------------------------------ connections

    def admit(self, key: str) -> tuple[str, float] | None:
        """Count a new connection from ``key``, or say why not: ``(reason, retry after s)``."""
        penalty = self._penalties.get(key)
        now = self._clock()
        if penalty is not None and now < penalty.until:
            return "flooding", penalty.until - now
        cap = self.limits.connections_per_address
        if cap and self._connections[key] >= cap:
            return "too_many_connections", 5.0
        bucket = self._connects.bucket(key)
        if not bucket.take():
            return "connecting_too_fast", bucket.seconds_until()
        self._connections[key] += 1
        return None

    def release(self, key: str) -> None:
        self._connections[key] -= 1
        if self._connections[key] <= 0:
            del self._connections[key]

    def connections(self, key: str) -> int:
        return self._connections[key]

    def flooded(self, key: str) -> float:
        """A connection from ``key`` was closed for flooding: no new one for a while (longer
        each time it happens again before the last penalty is long past). Returns how long."""
        if self.limits.flood_penalty_seconds <= 0:
            return 0.0
        now = self._clock()
        last = self._penalties.get(key)
        seconds = self.limits.flood_penalty_seconds
        if last is not None and now < last.until + last.seconds * 2:
            seconds = min(last.seconds * 2, self.limits.flood_penalty_max_seconds)
        self._penalties[key] = _Penalty(now + seconds, seconds)
        if len(self._penalties) > 10_000:  # forget the ones long over
            self._penalties = {
                k: p for k, p in self._penalties.items() if now < p.until + p.seconds * 2
            }
        return seconds

    # ------------------------------------------------------------------ room codes

    def may_look_up_codes(self, key: str) -> bool:
        """Whether ``key`` may look up a room by its code now (it has misses left)."""
        return self._code_misses.has(key)

    def code_missed(self, key: str) -> None:
        """A code ``key`` looked up was not a live room (or not one with their seat)."""
        self._code_misses.take(key)

    # ------------------------------------------------------------------ rooms

    def check_new_room(
        self, key: str, player: str, rooms_of_address: int, rooms_of_player: int
    ) -> None:
        """Raise ``RuleError`` if ``key`` (and ``player``) may not open a room now, given how
        many live rooms each opened; otherwise count this one against the rate."""
        limits = self.limits
        if limits.rooms_per_player and rooms_of_player >= limits.rooms_per_player:
            raise RuleError(
                "room.too_many_rooms",
                "You already have as many open rooms as you can; go back to one of them.",
                max=limits.rooms_per_player,
            )
        if limits.rooms_per_address and rooms_of_address >= limits.rooms_per_address:
            raise RuleError(
                "room.too_many_on_network",
                "Your network already has as many open rooms as it can; join one of them.",
                max=limits.rooms_per_address,
            )
        by_address = self._rooms_by_address.bucket(key)
        by_player = self._rooms_by_player.bucket(player)
        if by_address.tokens() < 1 or by_player.tokens() < 1:
            wait = max(by_address.seconds_until(), by_player.seconds_until())
            raise RuleError(
                "rate.rooms",
                "You are opening rooms too quickly; wait a little.",
                seconds=max(1, round(wait)),
            )
        by_address.take()
        by_player.take()


def codes_run_out() -> RuleError:
    """An address has tried too many room codes (or match ids) that were not live: every
    lookup is refused for a while, found or not (the WebSocket's error, HTTP's 429)."""
    return RuleError("rate.room_codes", "Too many room codes tried; wait a minute and try again.")
