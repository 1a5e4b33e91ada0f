"""uvicorn's HTTP/1.1 protocol (httptools) with the request head bounded.

uvicorn's httptools protocol reads a request's head however large it is: a client could send
a header of megabytes, or twenty thousand headers, and each would be parsed, kept and walked
by every middleware (the gate included) before anything could say no. Here the head is
bounded where it is read, before the parser or the app sees more of it: at most
``MAX_HEAD_BYTES`` bytes (request line and headers) and ``MAX_HEADERS`` headers, as
Node.js (16 KiB) and Apache (100 fields) bound theirs; past either, the answer is ``431
Request Header Fields Too Large`` and the connection is closed. A browser's request to us is
well under 2 KiB (we set no cookies); a proxy in front adds a few headers.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 16 * 1024
MAX_HEADERS = 100


class _HeadTooLarge(Exception):
    """Raised from a parser callback to stop parsing a head past the bounds."""


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that refuses a request head past ``MAX_HEAD_BYTES`` or
    ``MAX_HEADERS`` with 431."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # the bytes coming now belong to a request's head
        self._head_bytes = 0
        self._header_count = 0
        self._refused = False

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES and not self._head_ends_within(data):
                self._refuse()
                return
        super().data_received(data)

    def _head_ends_within(self, data: bytes) -> bool:
        """Whether the head ends in this chunk within the bound (the rest is a body)."""
        end = data.find(b"\r\n\r\n")
        return end >= 0 and self._head_bytes - len(data) + end + 4 <= MAX_HEAD_BYTES

    def send_400_response(self, msg: str) -> None:
        if not self._refused:  # (our own refusal stopped the parser: 431 is said already)
            super().send_400_response(msg)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_count = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > MAX_HEADERS:
            self._refuse()
            raise _HeadTooLarge
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head_bytes = True, 0  # a next request on this connection

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The connection is the WebSocket protocol's from here on, and this one is dropped
        # without the ``connection_lost`` that would let go of its parser (which holds it):
        # let go of it here, or each player's handshake stays in memory, in a cycle, until
        # a full collection (``collector.py``).
        self.parser = None  # type: ignore[assignment]

    def _refuse(self) -> None:
        self._refused = True
        body = b"Request header fields too large."
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n"
            b"connection: close\r\n\r\n" + body
        )
        self.transport.close()
