"""Where each player has a seat, and which game each room plays, for every node to read.

A player's seats are one sorted set, ``<namespace>:seated:<player>`` (every key is named in
``keys.py``): room code → the room's last activity. The owner of a room writes its seats
there: at each beat, only what changed since the last one (a new seat, a seat left, a room
closed, a last activity that moved by ``ACTIVITY_STEP`` or more, enough to tell which of a
player's rooms is the latest). Any node answers ``welcome.room`` and ``list_rooms``'
``seated`` from it, the rooms it owns itself being read from memory (exact, not a beat
late).

A room that moves keeps its entries: the node giving it up writes its last changes before it
lets go, and the new owner writes from its first beat on. A node that dies may take up to
one beat of changes with it (a seat left just before the kill): such an entry names a room
where the player has no seat any more, which the client handles as it does any refused
return (it forgets the room); each entry also expires ``KEEP_SECONDS`` after it was last
written.

A room's game is one key, ``<namespace>:game:<code>``, set when a node opens or takes over
the room: a node relaying to a room it does not own can say which game it plays
(``/api/rooms/CODE``) before anyone is seated through it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from .keys import Keys

ACTIVITY_STEP = 60.0  # seconds a room's last activity must move before it is written again
KEEP_SECONDS = 2 * 24 * 3600  # an entry (or a game) nobody wrote again for this long lapses


def seats_of(room: Any) -> dict[str, float]:
    """{player with a seat in ``room`` → the room's last activity}, as the index keeps it."""
    return {seat.player: room.model.last_activity for seat in room.model.seats}


class SeatIndex:
    """This node's side of the index: what it wrote for the rooms it owns, and the reads.

    Writes are one at a time (a lock): a room being handed over (``moving``) is neither
    written nor taken for closed by a beat that runs meanwhile, and what a beat remembers as
    written is never about a room given up while its write was on the way."""

    def __init__(self, redis: Any, namespace: str) -> None:
        self.redis = redis
        self.keys = Keys(namespace)
        self.written: dict[str, dict[str, float]] = {}  # code → player → score, as in Redis
        self.moving: set[str] = set()  # rooms being given up: their entries stay as they are
        self._forgotten: set[str] = set()  # taken from us while a write was on its way
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ writing (owner)

    async def publish(self, rooms: Iterable[Any]) -> None:
        """Bring Redis in line with ``rooms``, the rooms this node owns: a room written before
        and missing now (or closed) was closed, and its seats go. Runs at every beat over
        every room, so a room whose seats and activity are as written costs a look and no
        new object (building every room's seats anew each second was 5 % of a busy node's
        loop, most of it the garbage collections that churn set off)."""
        async with self._lock:
            self._forgotten.clear()
            changes = []
            open_rooms: set[str] = set()
            for room in rooms:
                if room.closed or room.code in self.moving:
                    continue
                open_rooms.add(room.code)
                if not self._as_written(room):
                    changes.append(self._changes(room.code, seats_of(room)))
            closed = self.written.keys() - open_rooms - self.moving
            changes += [self._changes(code, {}) for code in closed]
            await self._write([change for change in changes if change[1] or change[2]])

    def _as_written(self, room: Any) -> bool:
        """Whether Redis already has ``room``'s seats, each with a last activity less than
        ``ACTIVITY_STEP`` from the room's (then ``_changes`` would find nothing)."""
        written = self.written.get(room.code)
        seats = room.model.seats
        if written is None or len(written) != len(seats):
            return False
        at = room.model.last_activity
        for seat in seats:
            before = written.get(seat.player)
            if before is None or abs(at - before) >= ACTIVITY_STEP:
                return False
        return True

    def leaving(self, code: str) -> None:
        """The room is being given up (say it before the first wait): beats leave it alone."""
        self.moving.add(code)

    async def hand_over(self, code: str, seats: dict[str, float]) -> None:
        """The room goes to another node: write its last changes, then stop minding it (its
        entries stay: the room lives on)."""
        async with self._lock:
            try:
                await self._write([self._changes(code, seats)])
            finally:
                self.written.pop(code, None)
                self.moving.discard(code)

    def forget(self, code: str) -> None:
        """The room was taken from this node: whoever owns it now writes it (no wait: this
        runs when Redis may be the trouble)."""
        self.written.pop(code, None)
        self.moving.discard(code)
        self._forgotten.add(code)

    def _changes(
        self, code: str, seats: dict[str, float]
    ) -> tuple[str, dict[str, float], list[str], dict[str, float]]:
        before = self.written.get(code, {})
        added = {
            player: at
            for player, at in seats.items()
            if player not in before or abs(at - before[player]) >= ACTIVITY_STEP
        }
        gone = [player for player in before if player not in seats]
        return code, added, gone, seats

    async def _write(
        self, changes: list[tuple[str, dict[str, float], list[str], dict[str, float]]]
    ) -> None:
        if not any(added or gone for _, added, gone, _ in changes):
            return
        pipe = self.redis.pipeline(transaction=False)
        for code, added, gone, _ in changes:
            for player, at in added.items():
                pipe.zadd(self.keys.seated(player), {code: at})
                pipe.expire(self.keys.seated(player), KEEP_SECONDS)
            for player in gone:
                pipe.zrem(self.keys.seated(player), code)
        await pipe.execute()
        for code, added, gone, seats in changes:  # written: remember it
            if code in self._forgotten:
                continue
            if not seats:
                self.written.pop(code, None)
                continue
            kept = self.written.setdefault(code, {})
            kept.update(added)
            for player in gone:
                kept.pop(player, None)

    async def set_game(self, code: str, game: str) -> None:
        await self.redis.set(self.keys.game(code), game, ex=KEEP_SECONDS)

    # ------------------------------------------------------------------ reading (any node)

    async def seated_room(
        self, player: str, owned: set[str], seated_here: dict[str, float]
    ) -> str | None:
        """The room where ``player`` has a seat and which was active last, anywhere. For the
        rooms this node owns (``owned``) memory is the truth, not Redis: ``seated_here`` are
        those where the player has a seat, with their last activity."""
        found = await self.redis.zrange(self.keys.seated(player), 0, -1, withscores=True)
        latest = dict(seated_here)
        for member, at in found:
            code = member.decode() if isinstance(member, bytes) else member
            if code not in owned:
                latest[code] = at
        return max(latest, key=lambda code: (latest[code], code), default=None)

    async def game_of(self, code: str) -> str | None:
        value = await self.redis.get(self.keys.game(code))
        return value.decode() if isinstance(value, bytes) else value
