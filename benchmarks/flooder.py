"""The unpaced client of ``flood.py``: one WebSocket that sends as fast as its socket takes
frames, waits for no answer, and never reads what the server sends.

Each flooder connects from a loopback address of its own, says hello, creates a private room
of its own and then floods: ``act`` in that room, ``ping``, ``list_rooms`` and malformed JSON,
in turn. A room of its own hurts more than none: its ``act`` frames reach ``Room.submit`` (the
room's inbox, the store's settling, the fold's refusal) instead of the session's cheap
``room.not_in``, and every reconnection makes another durable room. The frames are masked and
serialised once (a fixed batch, written again and again), so the flooder costs its own process
next to nothing and the server sees as many frames as its socket can carry. Its messages are
sent uncompressed (permessage-deflate allows that per message) while the server, which
negotiated deflate as browsers do, compresses every answer.

"Never reads": once set up, the flooder takes nothing out of its socket, so its receive window
fills and the server's writes to it stall, as with a client that stops reading. To see a close
frame anyway, it *peeks* at what has arrived (``MSG_PEEK`` with ``SO_PEEK_OFF``, Linux ≥ 6.9:
each peek returns only new bytes; elsewhere it peeks from the head, up to 1 MiB), which leaves
the window as full as before. A connection counts as closed at the first of: a close frame
seen, the socket reset or ended by the server. Then it reconnects after a pause and notes
whether the handshake was refused (the HTTP status) or accepted (and floods again).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

SO_PEEK_OFF = getattr(socket, "SO_PEEK_OFF", 42)  # Linux's value; Python ≥ 3.13 names it
PEEK_EVERY = 0.02  # seconds between looks at what has arrived
PEEK_CAP = 1 << 20  # without SO_PEEK_OFF: bytes peeked from the head at most
BATCH = 256  # frames written per send
SETUP_TIMEOUT = 10.0  # seconds for the handshake, hello and create_room


class Refused(Exception):
    """The server would not take this connection: ``why`` is "HTTP 429", "reset", "eof", ..."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class Life:
    """One flooding connection, from its first flood frame to its close (monotonic seconds)."""

    address: str
    started: float
    frames: int = 0  # in whole batches the kernel took
    closed: float | None = None  # close frame seen or socket gone, whichever came first
    gone: float | None = None  # the server reset or ended the socket
    code: str = "open"  # the close frame's code, else "reset" or "eof"; "open" at phase end
    longest_send: float = 0.0  # the longest wait for the socket to take a batch (seconds)

    def to_dict(self) -> dict[str, Any]:
        lived = None if self.closed is None else self.closed - self.started
        return {
            "address": self.address,
            "started": self.started,
            "frames": self.frames,
            "closed_after_s": lived,
            "gone_after_s": None if self.gone is None else self.gone - self.started,
            "code": self.code,
            "longest_send_s": self.longest_send,
        }


@dataclass
class Tally:
    """What one flooder saw over a phase: its connections and its reconnections."""

    lives: list[Life] = field(default_factory=list)
    reconnects: int = 0  # attempts after a close
    refused: dict[str, int] = field(default_factory=dict)  # why -> attempts
    setup_failed: dict[str, int] = field(default_factory=dict)  # accepted, then no room

    def note(self, table: dict[str, int], why: str) -> None:
        table[why] = table.get(why, 0) + 1


def flood_batch() -> bytes:
    """``BATCH`` client frames, masked once: act, ping, list_rooms, malformed JSON, in turn."""
    kinds = [
        lambda i: {"type": "act", "id": i, "action": {"type": "select_cell", "cell": "H12"}},
        lambda i: {"type": "ping", "id": i},
        lambda i: {"type": "list_rooms", "id": i},
    ]
    frames = []
    for i in range(1, BATCH + 1):
        if i % 4 == 0:
            data = b'{"type": "act", "id": %d, "action": {"type": "sel' % i  # cut short
        else:
            data = msgspec.json.encode(kinds[i % 4 - 1](i))
        frames.append(Frame(Opcode.TEXT, data).serialize(mask=True, extensions=[]))
    return b"".join(frames)


class Connection:
    """A raw socket speaking WebSocket through websockets' sans-I/O client protocol."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol, address: str) -> None:
        self.sock = sock
        self.protocol = protocol
        self.address = address
        self.answers: dict[int, Any] = {}
        self.reset = False  # the server reset the connection (rather than ending it)
        self.peek_off = True  # each peek returns only new bytes (SO_PEEK_OFF)
        self.seen = 0  # without SO_PEEK_OFF: bytes already peeked from the head
        self.sending_since = time.monotonic()  # when the batch being sent was started

    @classmethod
    async def open(cls, host: str, port: int, source: str, deflate: bool) -> Connection:
        """Connect from ``source`` and shake hands; raises ``Refused`` if the server says no."""
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            await loop.sock_connect(sock, (host, port))
            extensions = enable_client_permessage_deflate(None) if deflate else None
            protocol = ClientProtocol(
                parse_uri(f"ws://{host}:{port}/ws"), extensions=extensions, max_size=None
            )
            protocol.send_request(protocol.connect())
            await loop.sock_sendall(sock, b"".join(protocol.data_to_send()))
            connection = cls(sock, protocol, source)
            await connection._until(lambda event: isinstance(event, Response))
            if protocol.handshake_exc is not None:
                error = protocol.handshake_exc
                if isinstance(error, InvalidStatus):
                    raise Refused(f"HTTP {error.response.status_code}")
                raise Refused(type(error).__name__)
            return connection
        except ConnectionResetError:
            sock.close()
            raise Refused("reset") from None
        except BaseException:
            sock.close()
            raise

    async def request(self, msg_id: int, kind: str, **fields: Any) -> Any:
        """Send one message and read until its answer: the ``ack``'s data, or ``RuntimeError``."""
        self.protocol.send_text(msgspec.json.encode({"type": kind, "id": msg_id, **fields}))
        await asyncio.get_running_loop().sock_sendall(
            self.sock, b"".join(self.protocol.data_to_send())
        )
        await self._until(lambda _: msg_id in self.answers)
        answer = self.answers[msg_id]
        if answer.get("type") != "ack":
            raise RuntimeError(answer.get("code", "?"))
        return answer.get("data")

    async def _until(self, done: Any) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(100_000):  # bounded; the caller's timeout bounds it in time
            data = await loop.sock_recv(self.sock, 65536)
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
            for event in self.protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    close = self.protocol.close_rcvd
                    raise Refused(f"closed {close.code if close is not None else 1005}")
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    message = msgspec.json.decode(event.data)
                    if isinstance(message.get("re"), int):
                        self.answers[message["re"]] = message
                if done(event):
                    return
            if not data:
                raise Refused("eof")
            if isinstance(self.protocol.handshake_exc, Exception):
                return
        raise RuntimeError("no answer")

    async def flood(self, until: float, ignore_close: bool = False) -> Life:
        """Send the batch again and again until the server closes us or ``until``."""
        batch = flood_batch()
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, SO_PEEK_OFF, 0)
        except OSError:
            self.peek_off = False
        life = Life(self.address, time.monotonic())
        ended = asyncio.Event()
        sender = asyncio.get_running_loop().create_task(self._send(batch, life, ended))
        watcher = asyncio.get_running_loop().create_task(self._watch(life, ended, ignore_close))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), max(0.0, until - time.monotonic()))
        if not sender.done():  # a batch still waiting: perhaps the server stopped reading us
            life.longest_send = max(life.longest_send, time.monotonic() - self.sending_since)
        for task in (sender, watcher):
            task.cancel()
        await asyncio.gather(sender, watcher, return_exceptions=True)
        if life.gone is not None and life.code == "open":
            self._look(life)  # what arrived before the reset is still there to peek at
            if life.code == "open":
                life.code = "reset" if self.reset else "eof"
        return life

    async def _send(self, batch: bytes, life: Life, ended: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                self.sending_since = time.monotonic()
                await loop.sock_sendall(self.sock, batch)
                life.longest_send = max(life.longest_send, time.monotonic() - self.sending_since)
                life.frames += BATCH
        except OSError as error:
            self._gone(life, ended, isinstance(error, ConnectionResetError))

    async def _watch(self, life: Life, ended: asyncio.Event, ignore_close: bool) -> None:
        """Peek at what the server sent (taking nothing out of the socket) for a close frame."""
        while not ended.is_set():
            if self._look(life):
                life.closed = life.closed or time.monotonic()
                if life.gone is not None or not ignore_close:
                    ended.set()
                    return
            await asyncio.sleep(PEEK_EVERY)

    def _look(self, life: Life) -> bool:
        """Feed newly arrived bytes to the protocol; True on a close frame or once the socket
        has ended (reset, or the server's end of stream)."""
        for _ in range(1000):  # bounded: 1000 peeks of 256 KiB per look at most
            try:
                if self.peek_off:
                    data = self.sock.recv(1 << 18, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                else:
                    head = self.sock.recv(PEEK_CAP, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                    data, self.seen = head[self.seen :], len(head)
            except BlockingIOError:
                return False
            except OSError as error:
                self.reset = isinstance(error, ConnectionResetError)
                life.gone = life.gone or time.monotonic()
                return True
            if not data:
                life.gone = life.gone or time.monotonic()
                return True
            self.protocol.receive_data(data)
            for event in self.protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    close = self.protocol.close_rcvd
                    life.code = str(close.code) if close is not None else "1005"
                    return True
            if not self.peek_off or len(data) < 1 << 18:
                return False
        return False

    def _gone(self, life: Life, ended: asyncio.Event, reset: bool) -> None:
        now = time.monotonic()
        life.gone = life.gone or now
        life.closed = life.closed or now
        self.reset = self.reset or reset
        ended.set()

    def close(self) -> None:
        """Drop the socket (with unread data in it, the kernel resets the connection)."""
        self.sock.close()


async def flooder(
    host: str,
    port: int,
    source: str,
    until: float,
    deflate: bool = True,
    pause: float = 0.5,
    ignore_close: bool = False,
) -> Tally:
    """Flood from ``source`` until ``until``; after each close, wait ``pause`` and try again.
    With ``ignore_close``, a close frame is noted but the flood goes on until the server drops
    the socket (a hostile client does not have to answer a close)."""
    tally = Tally()
    first = True
    for _ in range(100_000):  # bounded; ends at ``until``
        if time.monotonic() >= until:
            break
        if not first:
            tally.reconnects += 1
        first = False
        try:
            connection = await asyncio.wait_for(
                Connection.open(host, port, source, deflate),
                min(SETUP_TIMEOUT, max(0.01, until - time.monotonic())),
            )
        except (Refused, OSError, TimeoutError) as error:
            tally.note(tally.refused, _why(error))
            await asyncio.sleep(pause)
            continue
        try:
            try:
                await asyncio.wait_for(
                    _set_up(connection), min(SETUP_TIMEOUT, max(0.01, until - time.monotonic()))
                )
            except (Refused, OSError, TimeoutError, RuntimeError) as error:
                tally.note(tally.setup_failed, _why(error))
                if time.monotonic() >= until:
                    break
                # Flood anyway: a connection the server accepted is a connection to flood.
            tally.lives.append(await connection.flood(until, ignore_close))
        finally:
            connection.close()
        await asyncio.sleep(pause)
    return tally


async def _set_up(connection: Connection) -> None:
    await connection.request(1, "hello", token=None)
    await connection.request(2, "create_room", game="pitacor", nickname="F", public=False)


def _why(error: BaseException) -> str:
    if isinstance(error, Refused):
        return error.why
    if isinstance(error, RuntimeError) and str(error):
        return str(error)  # the code of the error that answered hello or create_room
    return type(error).__name__
