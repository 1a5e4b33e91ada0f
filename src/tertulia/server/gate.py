"""The first thing every request meets: who the client is, and whether a new WebSocket from
that address may open at all.

It runs before routing, so a connection refused here (too many from one address, too many
too fast, or an address that just flooded) costs no room, game or session any work: the
handshake is answered with HTTP 429 and a ``Retry-After``. Every request gets the resolved
client address in its scope (``CLIENT``, and ``LIMIT_KEY`` for the per-address limits), and a
WebSocket a ``Line``: the way to stop reading from it and to cut it off.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, cast

from .addresses import Network, client_address, limit_key
from .frames import Direct
from .guard import Guard

log = logging.getLogger("tertulia.gate")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

CLIENT = "tertulia.client"
LIMIT_KEY = "tertulia.limit_key"
LINE = "tertulia.line"


class Line:
    """The transport under one WebSocket, where the ASGI server lets us reach it (uvicorn's
    ``send`` is a method of its protocol object, which holds the transport). Without it, both
    calls do nothing and say so, and the caller falls back on the WebSocket close handshake."""

    def __init__(self, send: Any) -> None:
        protocol = getattr(send, "__self__", None)
        self._protocol = protocol
        transport = getattr(protocol, "transport", None)
        # Duck-typed: uvloop's transports are not subclasses of asyncio's.
        usable = all(hasattr(transport, name) for name in ("abort", "pause_reading"))
        self._transport: asyncio.Transport | None = transport if usable else None

    def direct(self) -> Direct | None:
        """The protocol, where it can hand each message over by a call (ours,
        ``TertuliaWebSocket.take_frames``)."""
        names = ("take_frames", "hold_reading", "go_on_reading")
        has_all = all(hasattr(self._protocol, name) for name in names)
        return cast(Direct, self._protocol) if has_all else None

    def write_now(self) -> Callable[[bytes], bool] | None:
        """The protocol's way to write a small message straight to the socket, where it has
        one (ours, ``TertuliaWebSocket.write_uncompressed``)."""
        return getattr(self._protocol, "write_uncompressed", None)

    def abort(self) -> bool:
        """Drop the connection now, whatever is still queued for it."""
        if self._transport is None:
            return False
        self._transport.abort()  # nothing happens to one already gone
        return True

    def stop_reading(self) -> bool:
        """Read nothing more from this client (a flooder being closed)."""
        if self._transport is None or self._transport.is_closing():
            return False
        self._transport.pause_reading()
        return True


class Gate:
    """ASGI middleware: resolves the client's address and admits WebSockets."""

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        guard: Guard,
        trusted_proxies: tuple[Network, ...],
        on_refused: Callable[[str], None] | None = None,
        websockets: tuple[str, Callable[[Scope, Receive, Send], Awaitable[None]]] | None = None,
    ) -> None:
        self.app = app
        self.guard = guard
        self.trusted_proxies = trusted_proxies
        self.on_refused = on_refused
        # (path, app): WebSockets admitted at that path go straight to that app. Through the
        # router they would keep its frames and scope copies (and the exception middleware's)
        # for as long as the connection lasts: a few KiB per player, for hours.
        self.websockets = websockets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        forwarded = [
            value.decode("latin-1")
            for name, value in scope.get("headers", ())
            if name == b"x-forwarded-for"
        ]
        address = client_address(peer[0] if peer else None, forwarded, self.trusted_proxies)
        key = limit_key(address)
        scope[CLIENT], scope[LIMIT_KEY] = address, key
        if scope["type"] == "http":
            await self.app(scope, receive, send)
            return
        refused = self.guard.admit(key)
        if refused is not None:
            reason, retry_after = refused
            if self.on_refused is not None:
                self.on_refused(reason)
            await _refuse_handshake(scope, send, reason, retry_after)
            return
        scope[LINE] = Line(send)
        app = self.app
        if self.websockets is not None and scope.get("path") == self.websockets[0]:
            app = self.websockets[1]
        try:
            await app(scope, receive, send)
        finally:
            self.guard.release(key)
            # The line reaches the protocol, whose scope holds the line: a cycle that would
            # keep the whole connection until a full collection (why that matters:
            # collector.py).
            scope.pop(LINE, None)


async def _refuse_handshake(scope: Scope, send: Send, reason: str, retry_after: float) -> None:
    """429 with a reason and when to come back, where the server can answer a WebSocket
    handshake with an HTTP response (the ASGI extension); otherwise a plain refusal (403)."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008})
        return
    body = f'{{"error": "connection.{reason}"}}'.encode()
    await send(
        {
            "type": "websocket.http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", str(max(1, math.ceil(retry_after))).encode()),
            ],
        }
    )
    await send({"type": "websocket.http.response.body", "body": body})
