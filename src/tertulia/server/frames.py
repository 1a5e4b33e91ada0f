"""A connection's messages in order, each answered to its end before the next, most of them
right where they are read.

The WebSocket protocol calls ``take`` with each message as soon as it is parsed
(``websocket.py``, ``take_frames``). A message the session answers at once — a move, a chat
line, a ping: ``Session.take_frame`` returns nothing — is answered right there, with no task,
queue or future made for it. One that has to wait for the store or another node (a hello, a
join, a room list: ``take_frame`` returns the work) is finished in a task, and whatever the
client sends meanwhile waits behind it, in order, with reading paused: exactly as messages
waited in uvicorn's queue while the app awaited one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger("tertulia.frames")

Frame = str | bytes
Answer = Callable[[Frame], Coroutine[Any, Any, None] | None]
FrameHandler = Callable[[Frame], None]  # what the protocol calls with each message


class Reading(Protocol):
    """The connection's reading, paused while a message waits (``TertuliaWebSocket``)."""

    def hold_reading(self) -> None: ...

    def go_on_reading(self) -> None: ...


class Direct(Reading, Protocol):
    """A WebSocket protocol that can call the app with each message (``TertuliaWebSocket``)."""

    def take_frames(self, handler: FrameHandler) -> bool: ...


class Frames:
    """Feeds one connection's messages to ``answer`` in order. ``stop_after`` runs after each
    answer; once it says True (a flooder being closed), the rest are not read."""

    __slots__ = (
        "_answer",
        "_behind",
        "_not_started",
        "_reading",
        "_stop_after",
        "_stopped",
        "_task",
    )

    def __init__(self, answer: Answer, stop_after: Callable[[], bool], reading: Reading) -> None:
        self._answer = answer
        self._stop_after = stop_after
        self._reading = reading
        self._behind: deque[Frame] | None = None  # while one waits: the messages behind it
        self._task: asyncio.Task[None] | None = None
        self._not_started: Coroutine[Any, Any, None] | None = None  # the task's, until it runs
        self._stopped = False

    @classmethod
    def by_call(
        cls, direct: Direct | None, answer: Answer, stop_after: Callable[[], bool]
    ) -> Frames | None:
        """Messages fed by ``direct``'s calls from now on, where it can (None: read them
        through ASGI, one ``receive`` at a time)."""
        if direct is None:
            return None
        frames = cls(answer, stop_after, direct)
        return frames if direct.take_frames(frames.take) else None

    def take(self, frame: Frame) -> None:
        if self._stopped:
            return
        if self._behind is not None:
            self._behind.append(frame)
            return
        waiting = self._answer(frame)
        if waiting is None:
            self._answered()
            return
        self._behind = deque()
        self._reading.hold_reading()
        self._not_started = waiting
        self._task = asyncio.get_running_loop().create_task(self._finish(waiting))

    async def finish(self) -> None:
        """The connection ended: wait for the message still being answered, and the ones it
        read before it ended, then take no more."""
        if self._task is not None:
            await self._task
        self._stopped = True

    def stop(self) -> None:
        """Take no more, and drop the work under way (the connection's end was not waited
        for: its app was cancelled, a server shutting down): nothing of it may act for a
        session that has closed, as a join finishing later would."""
        self._stopped = True
        if self._not_started is not None:  # (closed, or it would be reported never awaited)
            self._not_started.close()
        if self._task is not None:
            self._task.cancel()

    async def _finish(self, waiting: Coroutine[Any, Any, None]) -> None:
        behind = self._behind
        assert behind is not None
        self._not_started = None
        try:
            await waiting
            self._answered()
            while behind and not self._stopped:
                waiting_too = self._answer(behind.popleft())
                if waiting_too is not None:
                    await waiting_too
                self._answered()
        except Exception:
            # A bug (the session answers every refusal and failure itself): the connection
            # reads nothing more, rather than go on with its messages half answered.
            log.exception("a connection's messages failed; reading no more from it")
            self._stopped = True
        finally:
            self._behind = self._task = None
            if not self._stopped:
                self._reading.go_on_reading()

    def _answered(self) -> None:
        if not self._stopped and self._stop_after():
            self._stopped = True
