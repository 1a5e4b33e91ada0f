"""The baseline for `load.py`: a bare Starlette WebSocket fan-out server, no rules, no storage.

Each connection says hello, joins a room by name, and from then on every message it sends
is broadcast to every connection in that room as one push (with the room's version, like
ours), then answered with an `ack` — the same conversation shape as Tertulia's protocol, so
the same load generator drives both. What is pushed is replayed: `--template FILE` holds the
pushes a few seats of our server received in the same round of `load.py` (a JSON list), and
each room sends them in turn (its version set in each), so both servers send pushes of the
same sizes and content (which matters for permessage-deflate). Without one, a synthetic
whole view of ~3 KB.

Fan-out is ours: the same `tertulia.server.outlet.Outlet` per connection (a push is written
at once, a slow client queues alone), imported rather than copied so that the two cannot
drift apart, and it runs on uvicorn with the options of `tertulia serve`
(`tertulia.server.serving`: the same WebSocket protocol and deflate settings). What it leaves
out is exactly what we measure: validation, the room's single writer, the fold, the durable
append, per-seat views, patches and per-seat encoding.

``--durable DIR`` puts back the one thing any server that persists an action before it tells
anyone must do, and nothing more: each action's bytes are appended to a file in DIR and
synced to the disk (``fdatasync``) by a process of its own, and only then pushed and
answered (`DurableLog`). No database, no checks: the floor under our SQLite writer, so that
ours against it says what our code costs beyond the disk (benchmarks/README.md, "The
durable floor").

    .venv/bin/python benchmarks/bare_server.py --port 8100 [--template push.json] [--durable DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import traceback
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
from bare_log_writer import LENGTH, LOG_BYTES, READ_SIZE, READY
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tertulia.server.config import Config
from tertulia.server.outlet import Outlet
from tertulia.server.serving import uvicorn_config


class Head(msgspec.Struct):
    """Only the fields the bare server looks at; msgspec skips the rest."""

    type: str = ""
    id: int | None = None
    code: str | None = None


SYNTHETIC = {
    "type": "room",
    "version": 0,
    "room": {"code": "BARE", "status": "playing", "seats": [], "online": []},
    "view": {"filler": "x" * 3000},
    "events": [],
    "chat": None,
}


class Conn:
    __slots__ = ("outlet", "room")

    def __init__(self, outlet: Outlet) -> None:
        self.outlet = outlet
        self.room: Room | None = None

    def send(self, data: bytes) -> None:
        self.outlet.put(data)


class Room:
    __slots__ = ("conns", "version")

    def __init__(self, version: int) -> None:
        self.conns: set[Conn] = set()
        self.version = version  # rooms start at different places in the replayed pushes


PROTOCOL_SEND = "bare.protocol_send"

# --durable ---------------------------------------------------------------------------------


class DurableLog:
    """Actions appended to a file and synced by a process of its own (`bare_log_writer`), each
    one's ``then`` called once it is on the disk: the durable append at its cheapest.

    Built like ours' SQLite writer (``tertulia/store/sqlite/writer_client.py``), so that only
    the database differs: what one turn of the loop appends goes to the process in one send;
    what reached it while the disk synced goes into one write and one sync (group commit);
    the answers already there are read whenever an action comes in (`settle`, as ours'
    ``Room.submit`` does), not only when the loop next polls the socket. The process answers
    each sync with how many records it made durable, in the order they were sent."""

    def __init__(self, folder: Path, size: int = LOG_BYTES) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).with_name("bare_log_writer.py")),
                str(folder / "actions.log"),
                str(theirs.fileno()),
                str(size),
            ],
            pass_fds=[theirs.fileno()],
            # Its own session, as ours' writer: a Ctrl-C reaches the server, which closes the
            # socket, and the process ends on that.
            start_new_session=True,
        )
        theirs.close()
        if ours.recv(1) != READY:  # the file is made: its making is not part of any run
            raise RuntimeError("the bare server's log writer did not start")
        ours.setblocking(False)
        self.sock = ours
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: deque[Callable[[], None]] = deque()  # in the order they were sent
        self.batch: list[bytes] = []  # this turn's records, not sent yet
        self.out = bytearray()  # sent in part: the rest, when the socket takes it
        self.answers = bytearray()
        self.told = 0  # actions told (their count on /healthz)
        self.gone = False

    def append(self, record: bytes, then: Callable[[], None]) -> None:
        if self.gone:
            return  # the server is stopping (see _lost): nothing can be made durable
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            self.loop.add_reader(self.sock.fileno(), self._readable)
        self.waiting.append(then)
        self.batch.append(LENGTH.pack(len(record)) + record)
        if len(self.batch) == 1:
            self.loop.call_soon(self._send_batch)

    def settle(self) -> None:
        """Tell the actions whose answers are already in the socket (older work first)."""
        if self.waiting and not self.gone:
            self._readable()

    def close(self) -> None:
        """Let the process end (it does when the socket closes) and wait for it (the tests; a
        server that stops just exits, and its socket closes with it)."""
        if self.loop is not None and not self.gone:
            self.loop.remove_reader(self.sock.fileno())
            self.loop.remove_writer(self.sock.fileno())
        self.sock.close()
        self.process.wait(timeout=30)

    def _send_batch(self) -> None:
        data, self.batch = b"".join(self.batch), []
        if self.gone:
            return
        if self.out:
            self.out += data
            return
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._lost()
            return
        if sent < len(data):
            self.out += data[sent:]
            assert self.loop is not None
            self.loop.add_writer(self.sock.fileno(), self._writable)

    def _writable(self) -> None:
        try:
            sent = self.sock.send(self.out)
        except BlockingIOError:
            return
        except OSError:
            self._lost()
            return
        del self.out[:sent]
        if not self.out:
            assert self.loop is not None
            self.loop.remove_writer(self.sock.fileno())

    def _readable(self) -> None:
        try:
            data = self.sock.recv(READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost()
            return
        self.answers += data
        whole = len(self.answers) - len(self.answers) % LENGTH.size
        # Taken off the buffer before anyone is told, so that a `then` that fails cannot
        # make the next answer count these records again.
        counts = [count for (count,) in LENGTH.iter_unpack(bytes(self.answers[:whole]))]
        del self.answers[:whole]
        for count in counts:
            for _ in range(count):
                then = self.waiting.popleft()
                self.told += 1
                try:
                    then()
                except Exception:
                    traceback.print_exc()

    def _lost(self) -> None:
        """The process has gone: nothing more can be made durable, so the server stops (once,
        not at every turn of the loop)."""
        if self.gone:
            return
        self.gone = True
        assert self.loop is not None
        self.loop.remove_reader(self.sock.fileno())
        self.loop.remove_writer(self.sock.fileno())
        print("bare server: its log writer stopped; stopping", file=sys.stderr)
        stop_this_server()


def stop_this_server() -> None:
    """As a Ctrl-C would: uvicorn closes the connections and returns from ``run``."""
    os.kill(os.getpid(), signal.SIGTERM)


def by_call(websocket: WebSocket, answer: Callable[[str | bytes], None]) -> Any:
    """--as-ours: each message handed over by a call, as ours takes them
    (``tertulia/server/frames.py``; imported here, so that ``load.py --rev`` of a commit from
    before it still runs the bare server without it)."""
    from tertulia.server.frames import Frames
    from tertulia.server.gate import Line

    direct = Line(websocket.scope[PROTOCOL_SEND]).direct()
    frames = Frames.by_call(direct, answer, lambda: False)
    if frames is None:  # measured as something it is not: stop here
        raise RuntimeError("--as-ours, and the WebSocket protocol cannot hand messages over")
    return frames


def straight(websocket: WebSocket) -> Any:
    """--as-ours: small messages written straight to the socket, uncompressed, as ours writes
    them (``TertuliaWebSocket.write_uncompressed``)."""
    from tertulia.server.gate import Line

    line = Line(websocket.scope[PROTOCOL_SEND])
    write_now = line.write_now() if hasattr(line, "write_now") else None
    if write_now is None:  # measured as something it is not: stop here (as by_call)
        raise RuntimeError("--as-ours, and this src cannot write small messages straight")
    return write_now


def create_app(
    pushes: list[dict[str, Any]], direct_frames: bool = False, durable: DurableLog | None = None
) -> Any:
    rooms: dict[str, Room] = {}
    conns: set[Conn] = set()
    decode = msgspec.json.Decoder(Head).decode
    encode = msgspec.json.encode

    async def health(request: Request) -> Response:
        body = {"status": "ok", "rooms": len(rooms), "connections": len(conns)}
        if durable is not None:
            body["synced"] = durable.told  # actions told once on the disk
        return JSONResponse(body)

    def handle(conn: Conn, frame: str | bytes) -> None:
        try:
            head = decode(frame)
        except msgspec.DecodeError:
            conn.send(encode({"type": "error", "re": None, "code": "message.malformed"}))
            return
        if head.type == "hello":
            conn.send(encode({"type": "welcome", "player": "bare", "token": "bare", "now": 0}))
        elif head.type == "join_room" and head.code:
            if conn.room is not None:
                conn.room.conns.discard(conn)
            if head.code not in rooms:
                rooms[head.code] = Room(version=len(rooms) * 7)
            conn.room = rooms[head.code]
            conn.room.conns.add(conn)
        elif conn.room is not None:
            if durable is not None:  # pushed and answered once it is on the disk
                durable.settle()
                durable.append(
                    bytes(frame, "utf-8") if isinstance(frame, str) else frame,
                    functools.partial(tell_and_answer, conn, conn.room, head.id),
                )
                return
            tell(conn.room)
        answer(conn, head.id)

    def tell(room: Room) -> None:
        room.version += 1
        # An existing key keeps its place: the same bytes as ours but the version's digits.
        push = encode({**pushes[room.version % len(pushes)], "version": room.version})
        for other in room.conns:
            other.send(push)

    def answer(conn: Conn, msg_id: int | None) -> None:
        conn.send(encode({"type": "ack", "re": msg_id, "data": None}))

    def tell_and_answer(conn: Conn, room: Room, msg_id: int | None) -> None:
        tell(room)
        answer(conn, msg_id)

    async def websocket(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(
            Outlet(
                websocket.send_text,
                lambda code: websocket.close(code=code),
                **({"write_now": straight(websocket)} if direct_frames else {}),
            )
        )
        conns.add(conn)
        frames = by_call(websocket, functools.partial(handle, conn)) if direct_frames else None
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                handle(conn, message.get("text") or message.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            if frames is not None:
                await frames.finish()
            conns.discard(conn)
            if conn.room is not None:
                conn.room.conns.discard(conn)
                if not conn.room.conns:
                    rooms.pop(next((k for k, r in rooms.items() if r is conn.room), ""), None)

    app = Starlette(routes=[Route("/healthz", health), WebSocketRoute("/ws", websocket)])

    async def keeping_the_protocols_send(scope: Any, receive: Any, send: Any) -> None:
        # Starlette hands the route a wrapped ``send``; ours reaches uvicorn's protocol through
        # the one uvicorn gave (server/gate.py's ``Line``), so the bare server keeps it too,
        # and lets go of it at the end as ours does (it reaches the scope: a cycle).
        scope[PROTOCOL_SEND] = send
        try:
            await app(scope, receive, send)
        finally:
            scope.pop(PROTOCOL_SEND, None)

    return keeping_the_protocols_send if direct_frames else app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--template", type=Path, help="pushes to replay (a JSON list)")
    parser.add_argument(
        "--durable",
        type=Path,
        metavar="DIR",
        help="append each action to a file in DIR and sync it before it is pushed and "
        "answered, in a process of its own (DurableLog)",
    )
    parser.add_argument(
        "--as-ours",
        action="store_true",
        help="what ours does for any server: each message taken by a call from the protocol "
        "(not through ASGI), small messages written straight to the socket uncompressed, and "
        "the garbage collector's thresholds (tertulia/server/collector.py; its full "
        "collection every ten minutes is left out)",
    )
    args = parser.parse_args()
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        parser.error("the bare server listens on loopback only")
    loaded = json.loads(args.template.read_text()) if args.template else [SYNTHETIC]
    pushes = loaded if isinstance(loaded, list) else [loaded]
    # The options of `tertulia serve` (serving.py), so only the app differs.
    durable = DurableLog(args.durable) if args.durable else None
    options = uvicorn_config(
        create_app(pushes, args.as_ours, durable),
        Config(host=args.host, port=args.port),
        lifespan="off",
    )
    if args.as_ours:
        from tertulia.server import collector  # (not at the top: see by_call)

        collector.tune()
    # The log writer ends when this process does (its socket closes), however it stops.
    uvicorn.Server(options).run()


if __name__ == "__main__":
    main()
