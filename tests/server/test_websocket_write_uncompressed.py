"""``TertuliaWebSocket.write_uncompressed``: a small message goes straight to the transport
only while the connection is open and the socket takes writes; otherwise the caller is told
no, and the message takes the ASGI send, which waits (or fails) as any other."""

from __future__ import annotations

import asyncio
import base64
import os

import uvicorn
from uvicorn.server import ServerState
from websockets.frames import Close, Frame, Opcode

from tertulia.server.websocket import TertuliaWebSocket


async def _app(scope, receive, send) -> None:  # never reached: the tests drive the protocol
    pass


class Transport:
    """What uvloop's transport gives the protocol, keeping what is written."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default=None):
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name, default)


def _handshake() -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
    ).encode()


def _connection(accepted: bool = True):
    """A protocol that has read a browser's handshake (and, if ``accepted``, answered it)."""

    async def make():
        config = uvicorn.Config(_app, ws=TertuliaWebSocket, ws_ping_interval=None)
        config.load()
        protocol = TertuliaWebSocket(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.data_received(_handshake())
        if accepted:
            await protocol.send({"type": "websocket.accept"})
        return protocol, transport

    return make()


def _run(test) -> None:
    async def body():
        await test()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    asyncio.run(body())


def test_an_open_connection_gets_one_final_uncompressed_text_frame():
    async def test():
        protocol, transport = await _connection()
        assert protocol.write_uncompressed(b'{"type":"ack"}')
        assert transport.written[-1] == b"\x81\x0e" + b'{"type":"ack"}'

    _run(test)


def test_nothing_is_written_straight_before_the_handshake_is_answered():
    async def test():
        protocol, transport = await _connection(accepted=False)
        written = len(transport.written)
        assert not protocol.write_uncompressed(b"early")
        assert len(transport.written) == written

    _run(test)


def test_a_socket_paused_for_writing_is_refused_until_it_drains():
    """The ASGI send then waits for the drain, and the outlet's backlog and stall rules apply
    to a client that stopped reading."""

    async def test():
        protocol, transport = await _connection()
        protocol.pause_writing()
        assert not protocol.write_uncompressed(b"full")
        protocol.resume_writing()
        assert protocol.write_uncompressed(b"drained")
        assert transport.written[-1].endswith(b"drained")

    _run(test)


def test_nothing_is_written_after_the_client_starts_closing():
    async def test():
        protocol, transport = await _connection()
        close = Frame(Opcode.CLOSE, Close(1000, "bye").serialize())
        protocol.data_received(close.serialize(mask=True, extensions=[]))
        assert not protocol.write_uncompressed(b"late")
        assert not any(data.endswith(b"late") for data in transport.written)

    _run(test)


def test_nothing_is_written_after_our_close_or_once_the_transport_closes():
    async def test():
        protocol, _ = await _connection()
        await protocol.send({"type": "websocket.close", "code": 1000})
        assert not protocol.write_uncompressed(b"after our close")

        protocol, transport = await _connection()
        transport.closing = True
        assert not protocol.write_uncompressed(b"after the transport")

    _run(test)
