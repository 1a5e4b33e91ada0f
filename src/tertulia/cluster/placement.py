"""Where a room is best owned: on the node most of its connections are on (``serve
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

After the hand-over this node does not take the room back at once (``handed_over``): its own
connections to the room follow it to the new owner rather than winning the race for the
free lease. If nobody takes it within a lease time, they may.
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
    beat, and the rooms it handed over and must not take back at once."""

    def __init__(self, hold_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.hold_seconds = hold_seconds  # how long a handed-over room is left to its taker
        self.clock = clock
        self._leading: dict[str, str] = {}  # code → the node that led it at the last beat
        self._handed: dict[str, float] = {}  # code → until when it is left to others

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
        return moves

    def hand_over(self, code: str) -> None:
        """``code`` is being handed over: left to others for ``hold_seconds``."""
        self._handed[code] = self.clock() + self.hold_seconds

    def handed_over(self, code: str) -> bool:
        """Whether this node handed ``code`` over a moment ago and should leave it to others."""
        until = self._handed.get(code)
        if until is None:
            return False
        if until <= self.clock():
            del self._handed[code]
            return False
        return True
