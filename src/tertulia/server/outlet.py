"""A connection's way out: every message sent in order, at once when the socket can take it.

Why not a queue and a writer task per connection: a room's change is pushed to every seat,
and a writer task per seat means every push waits its turn at the back of the event loop's
queue, behind every other room's work — the last seat of a room was told last by a margin
that grew with the load. Here a push is written during the room's own step, and a queue
forms only for a connection whose socket is full (a slow client), in that connection alone.

The send is a coroutine (ASGI). It is started at once and, if it has to wait (the socket's
buffer is full), resumed when what it waits for is done — what asyncio's eager tasks do
(Python 3.12) and what a Task does after its first step. Messages sent meanwhile queue up
behind it; a client too far behind is closed (1013, "try again later") and will reconnect.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

BACKLOG = 512  # messages a slow client may owe before it is closed
TRY_AGAIN_LATER = 1013


class Outlet:
    """Sends one connection's messages, in order; never blocks its caller."""

    def __init__(
        self,
        send_text: Callable[[str], Coroutine[Any, Any, None]],
        close: Callable[[int], Coroutine[Any, Any, None]],
    ) -> None:
        self._send_text = send_text
        self._close = close
        self._backlog: deque[bytes] = deque()
        self._waiting = False  # a send waits for the socket; later messages queue behind it
        self._must_close = False
        self.done = False  # closing, or the socket is gone: nothing more is sent

    def put(self, data: bytes) -> None:
        if self.done:
            return
        if len(self._backlog) >= BACKLOG:
            self.done, self._must_close = True, True  # closed once the send in flight ends
            self._backlog.clear()
        else:
            self._backlog.append(data)
        if not self._waiting:
            self._pump()

    def _pump(self) -> None:
        """Run the next sends until one has to wait or there are none left."""
        while True:
            if self._must_close:
                self._must_close = False
                send = self._close(TRY_AGAIN_LATER)
            elif self._backlog and not self.done:
                send = self._send_text(self._backlog.popleft().decode())
            else:
                return
            if not self._advance(send):
                return

    def _advance(self, send: Coroutine[Any, Any, None]) -> bool:
        """Run ``send`` as far as it goes now: True if it finished (or failed)."""
        try:
            awaited = send.send(None)
        except StopIteration:
            return True
        except Exception:  # the socket is gone; the connection's reader cleans up
            self.done = True
            self._backlog.clear()
            return True
        # It waits: on a future (resume when that is done) or on a bare yield (next turn).
        self._waiting = True
        if asyncio.isfuture(awaited):
            awaited._asyncio_future_blocking = False  # what a Task does when it takes it
            awaited.add_done_callback(lambda _: self._resume(send))
        else:
            asyncio.get_running_loop().call_soon(self._resume, send)
        return False

    def _resume(self, send: Coroutine[Any, Any, None]) -> None:
        self._waiting = False
        if self._advance(send):
            self._pump()
