"""A room's timers: the game's deadline, each player's drop grace, the host's absence, the
vote running.

A timer that runs out only puts an item in the room's inbox; what it means (a timeout move, a
drop, hosting passing on) is decided by the room's task, one item at a time like any other.
Time comes from the room's ``timers.Timers`` (the event loop's, or moved by hand in tests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .inbox import ClockRanOut, GraceOver, HostAway, RestartGrace, VoteDue
from .timers import Timer, Timers

CLOCK_RETRY_MAX = 30.0  # seconds between tries to save a timeout while the store fails


class Clocks:
    def __init__(
        self,
        put: Callable[[Any], None],
        timers: Timers,
        drop_grace_seconds: float,
        host_grace_seconds: float,
    ) -> None:
        self._put = put
        self._timers = timers
        self._drop_grace = drop_grace_seconds
        self._host_grace = host_grace_seconds
        self._game: Timer | None = None
        self._graces: dict[str, Timer] = {}
        self._host: Timer | None = None
        self._vote: tuple[VoteDue, Timer] | None = None
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
        delay = max(0.0, deadline - self._timers.now())
        if self.grace_owed:
            item, delay = RestartGrace(), 0.0
        if self.failures:
            delay = max(delay, min(CLOCK_RETRY_MAX, 0.1 * 2**self.failures))
        self._game = self._timers.call_later(delay, self._put, item)

    # ------------------------------------------------------------------ drop graces

    def start_grace(self, player: str) -> None:
        """``player``'s last connection went: a drop once the grace runs out."""
        self.cancel_grace(player)
        self._graces[player] = self._timers.call_later(
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
            self._host = self._timers.call_later(self._host_grace, self._put, HostAway(away))

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
            delay = max(0.0, due.deadline - self._timers.now())
            handle = self._timers.call_later(delay, self._put, due)
            self._vote = (due, handle)

    # ------------------------------------------------------------------ all

    def stop(self) -> None:
        if self._vote is not None:
            self._vote[1].cancel()
        for handle in (self._game, self._host, *self._graces.values()):
            if handle is not None:
                handle.cancel()
