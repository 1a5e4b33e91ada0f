"""A connection's way out: every message sent in order, at once when the socket can take it.

Why not a queue and a writer task per connection: a room's change is pushed to every seat,
and a writer task per seat means every push waits its turn at the back of the event loop's
queue, behind every other room's work — the last seat of a room was told last by a margin
that grew with the load. Here a push is written during the room's own step, and a queue
forms only for a connection whose socket is full (a slow client), in that connection alone.

A small message (``DIRECT_BYTES``) is written straight to the socket when the server's
protocol can (``write_now``: ``TertuliaWebSocket.write_uncompressed``) and nothing is queued
before it; otherwise it takes the ASGI send like any other.

The send is a coroutine (ASGI). It is started at once and, if it has to wait (the socket's
buffer is full), resumed when what it waits for is done — what asyncio's eager tasks do
(Python 3.12) and what a Task does after its first step. Messages sent meanwhile queue up
behind it.

A client that stops reading is cut off, not waited for: once it owes ``BACKLOG`` messages, or
one send has waited ``STALL_SECONDS``, its transport is aborted. A WebSocket close would not
do: its closing frame queues behind everything the client is not reading, so the connection
(and everything queued for it) would stay until the operating system gave up, if ever.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

BACKLOG = 512  # messages a slow client may owe before it is cut off
STALL_SECONDS = 20.0  # a send that waits this long: the client stopped reading
CLOSE_HANDSHAKE_SECONDS = 1.0  # after a close for flooding, the client has this long to go
TRY_AGAIN_LATER = 1013
# Messages up to this size go straight to the socket, uncompressed (``write_now``): a push's
# patch, an ack, a chat line. Larger ones (a whole picture) are compressed the ASGI way.
DIRECT_BYTES = 512


class Outlet:
    """Sends one connection's messages, in order; never blocks its caller."""

    # One per connection, thousands at once: no per-instance dict (issue 33, memory).
    __slots__ = (
        "_abort",
        "_backlog",
        "_close",
        "_close_with",
        "_send_text",
        "_stall",
        "_waiting",
        "_write_now",
        "cut_off",
        "done",
    )

    def __init__(
        self,
        send_text: Callable[[str], Coroutine[Any, Any, None]],
        close: Callable[[int], Coroutine[Any, Any, None]],
        abort: Callable[[], bool] | None = None,
        write_now: Callable[[bytes], bool] | None = None,
    ) -> None:
        self._send_text = send_text
        # Writes a small message straight to the socket, if it can take it now (the server's
        # protocol: ``TertuliaWebSocket.write_uncompressed``); None where the server has no
        # such way.
        self._write_now = write_now
        self._close = close
        # Drops the connection at once (the transport's abort); True if it could. Servers that
        # do not expose their transport leave it None: then a stuck client is closed politely.
        self._abort = abort
        # Made when a send first has to wait: most connections never queue anything, and an
        # empty deque is 600 bytes.
        self._backlog: deque[bytes] | None = None
        self._waiting = False  # a send waits for the socket; later messages queue behind it
        self._close_with: int | None = None  # a close to send once the send in flight ends
        self._stall: asyncio.TimerHandle | None = None
        self.done = False  # closing, or the socket is gone: nothing more is sent
        self.cut_off = False  # aborted: the client stopped reading

    def put(self, data: bytes) -> None:
        """Send ``data``, a text message (valid UTF-8: ours are encoded by msgspec)."""
        if self.done:
            return
        if not self._waiting:  # nothing in flight, so nothing queued (the pump ran dry)
            write_now = self._write_now
            if write_now is not None and len(data) <= DIRECT_BYTES and write_now(data):
                return
            if self._advance(self._send_text(data.decode())):
                self._pump()
            return
        backlog = self._backlog
        if backlog is None:
            backlog = self._backlog = deque()
        if len(backlog) >= BACKLOG:
            self._give_up()
            return
        backlog.append(data)

    def close(self, code: int) -> None:
        """Close with ``code`` now, dropping whatever is queued (a flooder is not owed its
        answers). If the socket is full the close frame could not get through: cut off. A
        client that does not finish the closing handshake soon is cut off too."""
        if self.done:
            return
        self.done, self._close_with = True, code
        self._backlog = None
        if self._waiting:
            self._cut_off()
            return
        self._pump()
        if self._abort is not None:
            asyncio.get_running_loop().call_later(CLOSE_HANDSHAKE_SECONDS, self._abort)

    def _give_up(self) -> None:
        """The client owes too much: cut it off, or, where that can't be done, close it once
        the send in flight ends (1013: it reconnects and gets a fresh view)."""
        if not self._cut_off():
            self._close_with = TRY_AGAIN_LATER
            if not self._waiting:
                self._pump()

    def _cut_off(self) -> bool:
        self.done = True
        self._backlog = None
        if self._abort is None or not self._abort():
            return False
        self.cut_off = True
        return True

    def _pump(self) -> None:
        """Run the next sends until one has to wait or there are none left."""
        while True:
            if self._close_with is not None:
                send, self._close_with = self._close(self._close_with), None
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
            self._backlog = None
            return True
        # It waits: on a future (resume when that is done) or on a bare yield (next turn).
        self._waiting = True
        loop = asyncio.get_running_loop()
        if self._stall is None and self._abort is not None:
            self._stall = loop.call_later(STALL_SECONDS, self._cut_off)
        if asyncio.isfuture(awaited):
            awaited._asyncio_future_blocking = False  # what a Task does when it takes it
            awaited.add_done_callback(lambda _: self._resume(send))
        else:
            loop.call_soon(self._resume, send)
        return False

    def _resume(self, send: Coroutine[Any, Any, None]) -> None:
        self._waiting = False
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self._advance(send):
            self._pump()
