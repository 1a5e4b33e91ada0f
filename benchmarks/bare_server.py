"""The baseline for `load.py`: a bare Starlette WebSocket fan-out server, no rules, no storage.

Each connection says hello, joins a room by name, and from then on every message it sends
is broadcast to every connection in that room as one JSON `room` push (with the room's
version, like ours), then answered with an `ack` — the same conversation shape as Tertulia's
protocol, so the same load generator drives both. The push body is a template: by default a
push captured from a real Tertulia room (`--template FILE`, written by `load.py`), so both
servers send pushes of the same size and content (which matters for permessage-deflate).

Fan-out is ours: the same `tertulia.server.outlet.Outlet` per connection (a push is written
at once, a slow client queues alone), imported rather than copied so that the two cannot
drift apart, and it runs on uvicorn with the same options as `tertulia serve`. What it leaves
out is exactly what we measure: validation, the room's single writer, the fold, the durable
append, per-seat views and per-seat encoding.

    .venv/bin/python benchmarks/bare_server.py --port 8100 [--template push.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tertulia.server.outlet import Outlet


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

    def __init__(self) -> None:
        self.conns: set[Conn] = set()
        self.version = 0


def create_app(template: dict[str, Any]) -> Starlette:
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
            conn.room = rooms.setdefault(head.code, Room())
            conn.room.conns.add(conn)
        elif conn.room is not None:
            room = conn.room
            room.version += 1
            push = encode({**template, "version": room.version})
            for other in room.conns:
                other.send(push)
        conn.send(encode({"type": "ack", "re": head.id, "data": None}))

    async def websocket(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(Outlet(websocket.send_text, lambda code: websocket.close(code=code)))
        conns.add(conn)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                handle(conn, message.get("text") or message.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            conns.discard(conn)
            if conn.room is not None:
                conn.room.conns.discard(conn)
                if not conn.room.conns:
                    rooms.pop(next((k for k, r in rooms.items() if r is conn.room), ""), None)

    return Starlette(routes=[Route("/healthz", health), WebSocketRoute("/ws", websocket)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--template", type=Path, help="a JSON push to send (version is set)")
    args = parser.parse_args()
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        parser.error("the bare server listens on loopback only")
    template = json.loads(args.template.read_text()) if args.template else SYNTHETIC
    # The same uvicorn options as `tertulia serve` (cli.py), so only the app differs.
    uvicorn.run(
        create_app(template),
        host=args.host,
        port=args.port,
        log_config=None,
        access_log=False,
        ws_max_size=1 << 20,
        lifespan="off",
    )


if __name__ == "__main__":
    main()
