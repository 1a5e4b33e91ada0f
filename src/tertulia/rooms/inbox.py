"""A room's inbox: the one queue through which everything that may change the room passes —
a client's message, a connection coming or going, a clock or a grace running out — so that
the room's single task changes it one item at a time, in the order they came.

A client's items are refused when the room has closed or the queue is full; the room's own
(clocks, graces, detaches) are never lost. Refusals reach the client here and through
``refuse``: the one place a room turns a ``RuleError`` into an ``error`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games.base import RuleError
from ..protocol import Ack, ClientMessage, Error
from .refusals import outcome_unknown, room_closed

if TYPE_CHECKING:
    from .commit import Change
    from .records import Record
    from .seams import Peer

log = logging.getLogger("tertulia.room")

INBOX_SIZE = 256  # clients' items waiting, past which a room answers "busy"


# ---------------------------------------------------------------------------- items


@dataclass(frozen=True)
class FromPeer:
    """A client's message for the room."""

    peer: Peer
    message: ClientMessage
    received: float  # perf_counter() on arrival, for the latency metric


@dataclass(frozen=True)
class Attach:
    """A connection asks to come in (join, or back into its seat); ``done`` answers it."""

    peer: Peer
    nickname: str
    msg_id: int | None  # None: the server's own attach, answered to nobody
    done: asyncio.Future
    resume: bool = False  # only back into a seat the player still has
    screen: bool = False  # a shared screen: no seat, a spectator's picture
    played: tuple[str, ...] = ()  # the games the joiner's browser has played (Joined.played)


@dataclass(frozen=True)
class Detach:
    """A connection left the room (closed, or went to another room)."""

    peer: Peer


@dataclass(frozen=True)
class Started:
    """A client's change started at once (see ``Room.submit``), for the room task to finish."""

    item: FromPeer
    change: Change


@dataclass(frozen=True)
class ClockRanOut:
    deadline: float


@dataclass(frozen=True)
class RestartGrace:
    """A restored room's deadline is due within the restart grace: move it first."""


@dataclass(frozen=True)
class GraceOver:
    player: str  # their drop grace ran out


@dataclass(frozen=True)
class HostAway:
    host: str  # the host grace of this host ran out


@dataclass(frozen=True)
class VoteDue:
    """The clock of vote number ``vote`` (against ``player``) ran out."""

    vote: int
    player: str
    deadline: float


@dataclass(frozen=True)
class FollowUp:
    """A record the room itself decided on after a change (a spectator takes a free seat, a
    vote whose outcome is decided closes)."""

    record: Record


# ---------------------------------------------------------------------------- answers


def refuse(peer: Peer, msg_id: int | None, error: RuleError) -> None:
    """Tell ``peer`` its message ``msg_id`` was refused, and why."""
    peer.send(Error.refusing(msg_id, error))


def refuse_item(item: Any, error: RuleError) -> None:
    """Answer a client's item that will not be handled: its sender hears ``error``. A change
    whose save had started is answered as its save went: nothing if it was told; ``error``
    (nothing changed) if the save failed; an ``ack`` if it is durable but was not told (the
    room stopped first); ``room.outcome_unknown`` if the store has not said yet — the write
    was queued, and stopping does not withdraw it."""
    if isinstance(item, Started):
        if item.change.told:  # saved and answered already
            return
        saving = item.change.saving
        if asyncio.isfuture(saving) and (not saving.done() or saving.cancelled()):
            error = outcome_unknown()
        elif asyncio.isfuture(saving) and saving.exception() is None:
            message = item.item.message
            item.item.peer.send(Ack(message.id))
            return
        item = item.item
    if isinstance(item, Attach):
        if not item.done.done():
            item.done.set_exception(error)
    elif isinstance(item, FromPeer):
        refuse(item.peer, item.message.id, error)


# ---------------------------------------------------------------------------- the queue


class Inbox:
    """Items in arrival order, and the task that hands them to ``handle`` one at a time."""

    def __init__(self, name: str) -> None:
        self.name = name
        # Unbounded so the room's own items are never lost; clients' are capped in ``offer``.
        self._queue: asyncio.Queue = asyncio.Queue()
        self._refusal = room_closed()  # what a client's item hears once the room has closed
        self._task: asyncio.Task | None = None
        self.working = False  # the task is handling an item
        self.current: Any = None  # that item (a Started once a message's save began)
        self.closed = False

    @property
    def refusal(self) -> RuleError:
        """What a client's item hears once the room has stopped taking them."""
        return self._refusal

    @property
    def running(self) -> bool:
        return self._task is not None

    @property
    def busy(self) -> bool:
        """Handling an item, or items waiting."""
        return self.working or not self._queue.empty()

    def start(self, handle: Callable[[Any], Awaitable[None]]) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(handle), name=self.name)

    def put(self, item: Any) -> None:
        """One of the room's own items (or a client's, already accepted): never refused."""
        self._queue.put_nowait(item)

    def stop_taking(self, refusal: RuleError | None = None) -> None:
        """Take no more items: a client's is refused from now on, and the task ends once the
        item in hand is done (``close`` answers whatever is left)."""
        self.closed = True
        self._refusal = refusal or room_closed()

    def offer(self, item: Any) -> None:
        """A client's item: queued, or refused at once if the room has closed or is full."""
        if self.closed:
            refuse_item(item, self._refusal)
        elif self._queue.qsize() >= INBOX_SIZE:
            refuse_item(item, RuleError("room.busy", "The room is busy; try again."))
        else:
            self._queue.put_nowait(item)

    async def close(self, refusal: RuleError | None = None) -> None:
        """Stop taking items and stop the task; every client still waiting hears that the room
        has closed, or ``refusal`` (nobody may wait forever on a closed room)."""
        self.closed = True
        self._refusal = refusal or self._refusal
        current = self.current  # taken before the task's cancellation clears it
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        waiting = [current] if current is not None else []
        while not self._queue.empty():
            waiting.append(self._queue.get_nowait())
        for item in waiting:
            refuse_item(item, self._refusal)

    async def _run(self, handle: Callable[[Any], Awaitable[None]]) -> None:
        while not self.closed:
            item = await self._queue.get()
            self.working, self.current = True, item
            if self.closed:  # taken as the room stopped: ``close`` answers it, as current
                return
            try:
                await handle(item)
            except Exception:  # our bug: log it, answer plainly, keep the room alive
                log.exception("%s failed on %s", self.name, type(item).__name__)
                refuse_item(item, RuleError("server.error", "Something went wrong."))
            finally:
                self.working, self.current = False, None
