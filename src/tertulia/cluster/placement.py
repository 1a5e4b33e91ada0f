"""Where a room is best owned: on the node that holds most of its connections (``serve
--rooms-follow-players``).

A connection on a node that does not own its room is relayed through Redis: a hop each way
(p50 10 → 35 ms with half the seats relayed, docs/cluster.md) and ~0.08 ms of node CPU per
action. A proxy that routes by room (nginx ``hash $arg_room consistent``, Caddy ``lb_policy
query room``: the page puts its room's code in the socket's address) sends a room's players
to one node, but the room is owned where it was made, or taken over. So its owner hands it
to the node that holds more of its connections than the owner does, and the players there
stop being relayed.

When, deliberately:

- **between matches only** (lobby, podium): a move during one would give the clock a
  restart's grace (``Room.start``) and everyone a whole picture mid-turn;
- **once the same node has led for two beats in a row** (a beat is a quarter of the lease):
  players coming in one by one, or a reload, must not make the room go back and forth;
- **to a node that is live**, and never while the room is already on its way somewhere.

The owner names the node it hands the room to (``wire.Released.heir``), and every other node
whose connections were in the room, the owner too, leaves the free lease to that one for two
lease times (``held``): their connections follow the room to its new owner rather than
winning the race for it. If nobody takes it meanwhile, anyone may. Not a reservation: a
node that had no connection in the room, or that reads the free lease before the news
comes, may take it first (the room then moves once more, two beats later); reserving the
lease for the heir in Redis would close that, at the price of another lease state.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Collection


def leading_node(here: int, elsewhere: Counter[str]) -> str | None:
    """The node that holds more of a room's connections than its owner does (``here``),
    the one with the most if several do (the first by name on a tie), else None."""
    best = min(elsewhere.items(), key=lambda item: (-item[1], item[0]), default=None)
    if best is None or best[1] <= here:
        return None
    return best[0]


class Placement:
    """A node's memory of where its rooms' players are: which node led each room at the last
    beat, and the rooms handed to another node, which it must not take meanwhile."""

    def __init__(self, hold_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.hold_seconds = hold_seconds  # how long a handed-over room is left to its heir
        self.clock = clock
        self._leading: dict[str, str] = {}  # code → the node that led it at the last beat
        self._held: dict[str, float] = {}  # code → until when it is left to its heir

    def moves(
        self, rooms: dict[str, tuple[bool, int, Counter[str]]], live: Collection[str]
    ) -> dict[str, str]:
        """At a beat: the rooms to hand over now, and to which node. ``rooms``: each owned
        room's code → (between matches, its connections on this node, on each other node)."""
        moves: dict[str, str] = {}
        leading: dict[str, str] = {}
        for code, (between_matches, here, elsewhere) in rooms.items():
            node = leading_node(here, elsewhere) if between_matches else None
            if node is None or node not in live:
                continue
            if self._leading.get(code) == node:
                moves[code] = node
            else:
                leading[code] = node
        self._leading = leading  # a move is made once; a room that led nowhere starts again
        self._forget_holds_over()
        return moves

    def hold(self, code: str) -> None:
        """``code`` is handed to another node: leave it to that one for ``hold_seconds``
        from now. (Holds that are over are forgotten here too: a node that does not follow
        its players makes no moves, but holds for others' hand-overs.)"""
        self._forget_holds_over()
        self._held[code] = self.clock() + self.hold_seconds

    def release(self, code: str) -> None:
        """``code`` is no longer left to another node (it was handed to this one)."""
        self._held.pop(code, None)

    def held(self, code: str) -> bool:
        """Whether ``code`` was handed to another node a moment ago, and is left to it."""
        until = self._held.get(code)
        return until is not None and until > self.clock()

    def _forget_holds_over(self) -> None:
        now = self.clock()
        self._held = {code: until for code, until in self._held.items() if until > now}
