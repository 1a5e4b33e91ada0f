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

    .venv/bin/python benchmarks/bare_server.py --port 8100 [--template push.json]
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
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


def create_app(pushes: list[dict[str, Any]], direct_frames: bool = False) -> Any:
    rooms: dict[str, Room] = {}
    conns: set[Conn] = set()
    decode = msgspec.json.Decoder(Head).decode
    encode = msgspec.json.encode

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "rooms": len(rooms), "connections": len(conns)})

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
            room = conn.room
            room.version += 1
            # An existing key keeps its place: the same bytes as ours but the version's digits.
            push = encode({**pushes[room.version % len(pushes)], "version": room.version})
            for other in room.conns:
                other.send(push)
        conn.send(encode({"type": "ack", "re": head.id, "data": None}))

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
    options = uvicorn_config(
        create_app(pushes, args.as_ours), Config(host=args.host, port=args.port), lifespan="off"
    )
    if args.as_ours:
        from tertulia.server import collector  # (not at the top: see by_call)

        collector.tune()
    uvicorn.Server(options).run()


if __name__ == "__main__":
    main()
