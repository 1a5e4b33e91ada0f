"""The WebSocket protocol uvicorn runs for us: its sans-I/O one, with a small deflate state.

Why not uvicorn's default (the "legacy" websockets protocol): each connection there carries
three asyncio tasks, a stream reader and a frame queue, and every send goes through them; the
sans-I/O protocol writes a frame straight to the transport and keeps a connection in a few
plain objects.

Why a smaller deflate state: permessage-deflate keeps a compressor per connection for the whole
connection (context takeover: a message is compressed against the ones before it). zlib's
compressor costs about ``2^(window_bits+2) + 2^(mem_level+9)`` bytes: 256 KiB at the defaults
(15, 8), and what a connection has touched of it stays in the process. Only whole pictures
(a KiB or a few, on join, resume or ``sync``) go through it — small messages are sent
uncompressed (below) — and they compress mostly within themselves, so a 1 KiB window and the
hash table of a small memory level are plenty (``benchmarks/memory.py`` measures both:
memory per connection and bytes on the wire). What clients send is decompressed message by
message, with no state kept between them (``client_no_context_takeover``).

Why messages can be handed over directly (``take_frames``): through ASGI, every message a
client sends is put on a queue, the reading paused, the app's task woken, three coroutines and
a future made to fetch it, and the reading resumed. Most of our messages are answered without
waiting for anything (a move: ``Session.take_frame``), so the app may instead take each one by
a call, right where it is parsed; only the end of the connection still comes through the ASGI
``receive``. What a connection keeps between two of its messages then is the parser's state,
not a chain of waiting objects that each message replaces: those replacements were most of
what Python's cyclic garbage collector walked in its pauses (benchmarks/README.md, "Load").

Why small messages are written straight (``write_uncompressed``): a message sent through ASGI
goes through Starlette's and uvicorn's sends (coroutines and a dict), websockets' frame and
its extensions, and the connection's compressor — per connection, and a move is pushed to
every seat. A message of up to ``outlet.DIRECT_BYTES`` (a patch, typically ~100 bytes; an
ack) is instead framed uncompressed and written to the transport: a few header bytes, once.
A typical patch costs ~90 bytes more on the wire than compressed against the connection's
history (13 B), which a phone does not notice; it saved a fifth of the server's CPU per
action (benchmarks/README.md, "Issue 33.1 on 6 December").
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import Frame
from websockets.protocol import OPEN
from websockets.server import ServerProtocol
from websockets.typing import BytesLike

from .frames import FrameHandler

WINDOW_BITS = 10  # 1 KiB of history each way (9 is the smallest zlib's raw deflate takes)
# A 512-entry hash table and a 256-symbol buffer: ample for 1 KiB. Level 3 sent 4 % fewer
# bytes for 2 KiB more per connection (benchmarks/README.md, "Memory").
MEM_LEVEL = 2


def deflate_factory() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=WINDOW_BITS,
        client_max_window_bits=WINDOW_BITS,
        # A client's messages are a few dozen bytes, a few a minute: compressed each on its
        # own they cost the client a handful of bytes more, and the server keeps no
        # decompressor between them (websockets frees it after each message): ~8 KiB less
        # per connection. Clients must honour it (RFC 7692, 7.1.1.2); browsers do.
        client_no_context_takeover=True,
        compress_settings={"memLevel": MEM_LEVEL},
    )


class TertuliaWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with our deflate settings, which can hand each
    message to the app by a call (``take_frames``) and write a small one straight to the
    socket (``write_uncompressed``)."""

    frame_handler: FrameHandler | None = None

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        extensions = [deflate_factory()] if config.ws_per_message_deflate else []
        # Replaces the protocol state the parent made with its own (12, 5) settings; nothing
        # has been received yet, so nothing refers to the old one.
        self.conn = ServerProtocol(
            extensions=extensions,
            max_size=config.ws_max_size,
            logger=logging.getLogger("uvicorn.error"),
        )

    def start_keepalive(self) -> None:
        # Called once, right after the handshake's response is written: from here on the
        # request and response (all their headers) are of no use, and a connection lasts
        # hours. The ASGI scope keeps its own copy of the request's headers. The request is
        # emptied, not only dropped: websockets' parser keeps it for the connection's life.
        self.request.headers.clear()
        # websockets types both as always set once the handshake is done: emptied on purpose.
        self.request = self.response = None  # type: ignore[assignment]
        super().start_keepalive()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # A closed connection is freed at once, by reference counting, only if nothing of it
        # is left in a cycle; one left in a cycle waits for a full collection, which the
        # server runs rarely (``collector.py``). Two cycles are ours to break: the handler
        # (the app's ``Frames``, whose session reaches back to this protocol through its
        # sends) and websockets' parser, a generator whose frame holds its protocol. Nothing
        # reads from the connection after this (the transport's last call to us).
        self.frame_handler = None
        self.conn.parser.close()

    # ------------------------------------------------------------------ direct messages

    def write_uncompressed(self, data: bytes) -> bool:
        """Write the text message ``data`` (valid UTF-8: nothing checks it here) now, as one
        uncompressed frame, straight to the transport: True if written; False, and nothing
        written, if it cannot be now (not open, closing, or the socket's buffer full), when
        the caller sends it the ASGI way, which waits. See ``text_frame`` for why
        uncompressed."""
        if (
            self.close_sent
            or not self.handshake_complete
            or self.disconnected
            or not self.writable.is_set()  # paused: the ASGI send waits for the drain
            or self.conn.state is not OPEN  # the client has started closing
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame(data))
        return True

    def take_frames(self, handler: FrameHandler) -> bool:
        """From now on, call ``handler`` with each message as it arrives instead of queueing it
        for the ASGI ``receive`` (which from then on only says the connection ended). False,
        and nothing changed, if a message is already queued: it must not be overtaken."""
        if not self.queue.empty() or self.close_sent:
            return False
        self.frame_handler = handler
        return True

    def hold_reading(self) -> None:
        """Read nothing more for now (the app is still busy with a message)."""
        if not self.read_paused and not self.transport.is_closing():
            self.read_paused = True
            self.transport.pause_reading()

    def go_on_reading(self) -> None:
        if self.read_paused and not self.transport.is_closing():
            self.read_paused = False
            self.transport.resume_reading()

    def handle_text(self, event: Frame) -> None:
        if self.frame_handler is None or not event.fin:
            super().handle_text(event)
            return
        self.curr_msg_data_type = "text"
        self._hand_over(event.data)  # (the parent would make a list of one for it)

    def handle_bytes(self, event: Frame) -> None:
        if self.frame_handler is None or not event.fin:
            super().handle_bytes(event)
            return
        self.curr_msg_data_type = "bytes"
        self._hand_over(event.data)

    def send_receive_event_to_app(self) -> None:
        """A message in several frames, all read (or any message before ``take_frames``)."""
        if self.frame_handler is None:
            super().send_receive_event_to_app()
            return
        data = b"".join(self.frames)
        self.frames = []
        self._hand_over(data)

    def _hand_over(self, data: BytesLike) -> None:
        handler = self.frame_handler
        assert handler is not None
        if self.close_sent:
            return  # past our close, reading on only for the client's answer (as the parent)
        if self.curr_msg_data_type != "text":
            handler(bytes(data))
            return
        try:
            text = str(data, "utf-8")
        except UnicodeDecodeError:
            self.logger.info("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        handler(text)


def text_frame(data: bytes) -> bytes:
    """A whole text message as a server's frame: final, unmasked and uncompressed.

    Why uncompressed: a compressed message goes through the connection's own compressor
    (websockets' frame, its extensions, zlib), and our pushes are small and sent to many
    connections at once; an uncompressed one is these few header bytes and the message. It
    leaves the compressor alone, so it mixes freely with compressed ones (RFC 7692: the
    client inflates only messages that say they are compressed). The same bytes as websockets'
    ``Frame(TEXT, data).serialize(mask=False, extensions=[])``, without its checks and buffer,
    since this runs once per seat for every move."""
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 65536:
        return bytes((0x81, 126)) + size.to_bytes(2, "big") + data
    return bytes((0x81, 127)) + size.to_bytes(8, "big") + data
