"""A Python client for the Tertulia protocol: tests, the load benchmark and computer players.

    async with await Client.connect("ws://127.0.0.1:8000/ws") as ana:
        code = await ana.create_room("pitacor", "Ana")
        await ana.request("start_match")
        view = await ana.wait_for(lambda push: push["view"] is not None)

Every request waits for its ``ack`` and returns its data, or raises ``ClientError`` with the
server's code. Room pushes are kept: ``latest`` is the newest, ``wait_for`` waits for one that
matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import msgspec
import websockets

from . import patches


class ClientError(Exception):
    def __init__(self, code: str, message: str, params: dict[str, Any]) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params = params


class Client:
    def __init__(self, socket: Any, keep_frames: bool = False) -> None:
        self.socket = socket
        self.keep_frames = keep_frames
        self.player = ""
        self.token = ""
        self.seated_room: str | None = None  # welcome's room: where this player has a seat
        self.server_now = 0.0
        self.latest: dict[str, Any] | None = None
        self.pushes: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.blobs: dict[str, Any] = {}  # every blob received on this connection, by key
        self.notices: list[dict[str, Any]] = []
        self.reactions: list[dict[str, Any]] = []
        self.frames: list[bytes] = []  # with keep_frames: every frame, for checking the bytes
        self.rooms: dict[str, Any] | None = None  # the latest public room list
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._changed = asyncio.Condition()
        self._syncing = False  # a sync request is on its way
        self._background: set[asyncio.Task] = set()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(
        cls,
        url: str,
        token: str | None = None,
        origin: str | None = None,
        keep_frames: bool = False,
        headers: dict[str, str] | None = None,
        **options: Any,
    ) -> Client:
        """Connect and say hello. ``options`` go to ``websockets.connect`` (and from there to
        the event loop's ``create_connection``: ``local_addr``, ``sock``, …)."""
        headers = {**({"Origin": origin} if origin else {}), **(headers or {})} or None
        socket = await websockets.connect(url, additional_headers=headers, max_size=None, **options)
        client = cls(socket, keep_frames)
        await client.request("hello", token=token)
        return client

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.socket.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    # ------------------------------------------------------------------ requests

    async def request(self, kind: str, /, timeout: float = 10.0, **fields: Any) -> Any:
        """Send ``{"type": kind, "id": …, **fields}`` and return the ack's data."""
        message_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[message_id] = future
        await self.socket.send(msgspec.json.encode({"type": kind, "id": message_id, **fields}))
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(message_id, None)

    async def send_raw(self, frame: str | bytes) -> None:
        """Send a frame as it is (for tests of bad input)."""
        await self.socket.send(frame)

    async def create_room(self, game: str, nickname: str, public: bool = False) -> str:
        data = await self.request("create_room", game=game, nickname=nickname, public=public)
        return data["room"]

    async def join_room(self, code: str, nickname: str, resume: bool = False) -> None:
        """Join (or take back one's seat); ``resume``: only take back a seat one still has."""
        await self.request("join_room", code=code, nickname=nickname, resume=resume)

    async def act(self, action: dict[str, Any]) -> None:
        await self.request("act", action=action)

    async def say(self, text: str) -> None:
        await self.request("chat", text=text)

    # ------------------------------------------------------------------ pushes

    @property
    def view(self) -> dict[str, Any] | None:
        return self.latest["view"] if self.latest else None

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        """The first room push (the latest, or one still to come) that ``predicate`` accepts."""

        def found() -> bool:
            return self.latest is not None and predicate(self.latest)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(found), timeout)
        assert self.latest is not None
        return self.latest

    async def _read(self) -> None:
        try:
            async for frame in self.socket:
                raw = frame.encode() if isinstance(frame, str) else frame
                if self.keep_frames:
                    self.frames.append(raw)
                await self._take(msgspec.json.decode(raw))
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the connection closed"))
                    # A caller still waiting gets it; one that gave up (a timeout) is no
                    # reason for asyncio to print "exception was never retrieved".
                    future.exception()

    def _patched(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The whole picture a ``patch`` push leads to, as a ``room`` push would give it; or
        None, for a patch of another room (a late one from the last) or one that does not fit
        what this client holds — then it asks for the whole picture again (``sync``)."""
        latest = self.latest
        if latest is None or latest["room"]["code"] != message["code"]:
            return None
        if latest["version"] != message["base"]:
            if message["version"] > latest["version"] and not self._syncing:
                self._syncing = True
                task = asyncio.get_running_loop().create_task(self._sync())
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            return None
        try:
            room = patches.apply(latest["room"], message["room"])
            view = patches.apply(latest["view"], message["view"])
        except ValueError:
            return None
        return {
            "type": "room",
            "version": message["version"],
            "room": room,
            "view": view,
            "events": message["events"],
            "chat": None,
            "blobs": message.get("blobs"),
        }

    async def _sync(self) -> None:
        try:
            await self.request("sync")
        except (ClientError, ConnectionError, TimeoutError):
            pass
        finally:
            self._syncing = False

    async def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("ack", "error"):
            future = self._pending.get(message.get("re"))  # type: ignore[arg-type]
            if future is not None and not future.done():
                if kind == "ack":
                    future.set_result(message.get("data"))
                else:
                    error = ClientError(message["code"], message["message"], message["params"])
                    future.set_exception(error)
            elif kind == "error":
                self.notices.append(message)
            return
        if kind == "welcome":
            self.player, self.token = message["player"], message["token"]
            self.seated_room = message.get("room")
            self.server_now = message["now"]
        elif kind == "patch":
            whole = self._patched(message)
            if whole is not None:
                await self._take(whole)
        elif kind == "room":
            if message.get("chat") is not None:
                self.chat = list(message["chat"])
            self.blobs.update(message.get("blobs") or {})
            async with self._changed:
                self.latest = message
                self.pushes.append(message)
                self._changed.notify_all()
        elif kind == "chat":
            self.chat.append(message["line"])
        elif kind == "notice":
            self.notices.append(message)
        elif kind == "reaction":
            self.reactions.append(message)
        elif kind == "rooms":
            self.rooms = message
