"""A room's timers: the game's deadline, each player's drop grace, the host's absence, the
vote running.

A timer that runs out only puts an item in the room's inbox; what it means (a timeout move, a
drop, hosting passing on) is decided by the room's task, one item at a time like any other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .inbox import ClockRanOut, GraceOver, HostAway, RestartGrace, VoteDue

CLOCK_RETRY_MAX = 30.0  # seconds between tries to save a timeout while the store fails


class Clocks:
    def __init__(
        self,
        put: Callable[[Any], None],
        clock: Callable[[], float],
        drop_grace_seconds: float,
        host_grace_seconds: float,
    ) -> None:
        self._put = put
        self._clock = clock
        self._drop_grace = drop_grace_seconds
        self._host_grace = host_grace_seconds
        self._game: asyncio.TimerHandle | None = None
        self._graces: dict[str, asyncio.TimerHandle] = {}
        self._host: asyncio.TimerHandle | None = None
        self._vote: tuple[VoteDue, asyncio.TimerHandle] | None = None
        self.failures = 0  # clock moves in a row the store could not save
        self.grace_owed = False  # restored with a deadline to move before its clock may fire

    # ------------------------------------------------------------------ the game's deadline

    def schedule(self, deadline: float | None) -> None:
        """Time out at ``deadline`` (None: nothing is timed). While a restart grace is owed,
        only the grace is tried, never the stale deadline; while the store fails, tries are
        spaced out rather than repeated in a busy loop."""
        if self._game is not None:
            self._game.cancel()
            self._game = None
        if deadline is None:
            return
        item: Any = ClockRanOut(deadline)
        delay = max(0.0, deadline - self._clock())
        if self.grace_owed:
            item, delay = RestartGrace(), 0.0
        if self.failures:
            delay = max(delay, min(CLOCK_RETRY_MAX, 0.1 * 2**self.failures))
        self._game = asyncio.get_running_loop().call_later(delay, self._put, item)

    # ------------------------------------------------------------------ drop graces

    def start_grace(self, player: str) -> None:
        """``player``'s last connection went: a drop once the grace runs out."""
        self.cancel_grace(player)
        self._graces[player] = asyncio.get_running_loop().call_later(
            self._drop_grace, self._put, GraceOver(player)
        )

    def cancel_grace(self, player: str) -> None:
        handle = self._graces.pop(player, None)
        if handle is not None:
            handle.cancel()

    def grace_ran_out(self, player: str) -> None:
        self._graces.pop(player, None)

    # ------------------------------------------------------------------ the host's absence

    def watch_host(self, away: str | None) -> None:
        """Start the host grace for ``away`` (the host, counted away), or stop it (None)."""
        if away is None:
            if self._host is not None:
                self._host.cancel()
                self._host = None
            return
        if self._host is None:
            self._host = asyncio.get_running_loop().call_later(
                self._host_grace, self._put, HostAway(away)
            )

    def host_grace_ran_out(self) -> None:
        self._host = None

    # ------------------------------------------------------------------ the vote running

    def schedule_vote(self, due: VoteDue | None) -> None:
        """Close the vote at its deadline (None: no vote runs). A vote's deadline never
        moves, so one already scheduled is left as it is."""
        if self._vote is not None and self._vote[0] == due:
            return
        if self._vote is not None:
            self._vote[1].cancel()
            self._vote = None
        if due is not None:
            delay = max(0.0, due.deadline - self._clock())
            handle = asyncio.get_running_loop().call_later(delay, self._put, due)
            self._vote = (due, handle)

    # ------------------------------------------------------------------ all

    def stop(self) -> None:
        if self._vote is not None:
            self._vote[1].cancel()
        for handle in (self._game, self._host, *self._graces.values()):
            if handle is not None:
                handle.cancel()
