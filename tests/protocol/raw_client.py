"""A raw client of the Tertulia protocol: the server as an outside client sees it.

JSON text frames over the ``websockets`` library's client, and nothing of ``tertulia``: no
``tertulia.client``, no ``tertulia.protocol`` types, no ``tertulia.patches``. Everything it
knows is docs/protocol.md's: ids it picks, increasing; one answer per message, matched by
``re``; pushes in between; the picture it holds, built from a whole ``room`` push and then
the ``patch`` pushes whose ``base`` is the version it holds (RFC 6902, ``json_patch``).

Every frame received is checked against the page as it arrives (``protocol_shapes``), and so
is the rule of answers: a second answer to one id, or an answer to an id never sent, is
recorded. ``Clients.__aexit__`` asks each connection still open for one last ``ping`` (so
every answer due has arrived) and fails the test with whatever was recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import json_patch
import protocol_shapes
import websockets

Frame = dict[str, Any]
TIMEOUT = 10.0  # seconds to wait for an answer or a push that must come


@dataclass(frozen=True)
class Picture:
    """What a connection holds of its room after a push: never changed once made."""

    code: str
    version: int
    room: dict[str, Any]
    view: Any

    def seat(self, player: str) -> dict[str, Any]:
        found = next((s for s in self.room["seats"] if s["id"] == player), None)
        assert found is not None, f"no seat {player} in {self.room['seats']}"
        return found

    def has_seat(self, player: str) -> bool:
        return any(s["id"] == player for s in self.room["seats"])


class Raw:
    """One WebSocket, with every frame it received (decoded, in order) and its picture."""

    def __init__(self, socket: Any, name: str = "") -> None:
        self.socket = socket
        self.name = name
        self.frames: list[Frame] = []
        # For each frame, the picture held after it if it was a push that fit, else None.
        self.pictures: list[Picture | None] = []
        self.problems: list[str] = []
        self.player = ""
        self.token = ""
        self.welcome: Frame | None = None
        self.picture: Picture | None = None  # of the room the connection is in
        self.ignored: list[Frame] = []  # patches that did not fit the picture held
        self.close_code: int | None = None
        self._ids = itertools.count(1)
        self._sent: set[int] = set()
        self._answered: dict[int, Frame] = {}
        self._silent: set[int] = set()  # ids the page lets go unanswered (see ``unanswered``)
        self._changed = asyncio.Condition()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    # ------------------------------------------------------------------ opening

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        address: str | None = None,
        origin: str | None = None,
        name: str = "",
        **options: Any,
    ) -> Raw:
        """Open a WebSocket (from loopback ``address``, with an ``Origin`` header if given);
        no ``hello`` yet."""
        if address is not None:
            options["local_addr"] = (address, 0)
        headers = {"Origin": origin} if origin else None
        socket = await websockets.connect(
            url, additional_headers=headers, max_size=None, proxy=None, **options
        )
        return cls(socket, name)

    async def hello(self, token: str | None = None) -> Frame:
        """``hello``: returns the ``welcome`` (which comes before the ack)."""
        start = len(self.frames)
        answer = await self.request("hello", token=token)
        assert answer["type"] == "ack", f"{self.name}: hello refused: {answer}"
        welcome = self.first(lambda f: f["type"] == "welcome", start)
        assert welcome is not None, f"{self.name}: no welcome before the ack of hello"
        self.welcome, self.player, self.token = welcome, welcome["player"], welcome["token"]
        return welcome

    # ------------------------------------------------------------------ sending

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, frame: str | bytes | Frame) -> None:
        """Send a frame as it is (a dict is encoded as JSON); an ``id`` in it counts as sent."""
        if isinstance(frame, dict):
            if isinstance(frame.get("id"), int):
                self._sent.add(frame["id"])
            frame = json.dumps(frame, ensure_ascii=False)
        else:
            try:
                decoded = json.loads(frame)
            except ValueError:
                decoded = None
            if isinstance(decoded, dict) and isinstance(decoded.get("id"), int):
                self._sent.add(decoded["id"])
        await self.socket.send(frame)

    async def request(self, kind: str, /, *, timeout: float = TIMEOUT, **fields: Any) -> Frame:
        """Send ``{"type": kind, "id": …, **fields}``; returns its answer (ack or error)."""
        msg_id = self.next_id()
        await self.send({"type": kind, "id": msg_id, **fields})
        return await self.answer(msg_id, timeout)

    async def answer(self, msg_id: int, timeout: float = TIMEOUT) -> Frame:
        """The answer to the message numbered ``msg_id``, once it has come."""
        found = await self.wait_for(
            lambda f: f["type"] in protocol_shapes.ANSWERS and f.get("re") == msg_id,
            timeout=timeout,
            what=f"an answer to {msg_id}",
        )
        return found

    async def ok(self, kind: str, /, **fields: Any) -> Any:
        """``request`` that must be acknowledged; returns the ack's data."""
        answer = await self.request(kind, **fields)
        assert answer["type"] == "ack", f"{self.name}: {kind} {fields} refused: {answer}"
        return answer["data"]

    async def refused(self, kind: str, expected: str, /, **fields: Any) -> Frame:
        """``request`` that must be refused with the code ``expected``; returns the error."""
        answer = await self.request(kind, **fields)
        assert answer["type"] == "error", f"{self.name}: {kind} {fields} accepted: {answer}"
        assert answer["code"] == expected, f"{self.name}: {kind} {fields}: {answer}"
        return answer

    # ------------------------------------------------------------------ receiving

    def first(self, match: Callable[[Frame], bool], start: int = 0) -> Frame | None:
        return next((f for f in self.frames[start:] if match(f)), None)

    async def wait_for(
        self,
        match: Callable[[Frame], bool],
        start: int = 0,
        *,
        timeout: float = TIMEOUT,
        what: str = "a frame",
    ) -> Frame:
        """The first frame from index ``start`` on that ``match`` says yes to, once it came."""
        return await self._until(lambda: self.first(match, start), timeout, what)

    async def push(
        self, match: Callable[[Picture], bool], start: int = 0, *, timeout: float = TIMEOUT
    ) -> Picture:
        """The picture held after the first ``room`` or ``patch`` push from index ``start``
        on that ``match`` says yes to, once it came."""

        def find() -> Picture | None:
            for picture in self.pictures[start:]:
                if picture is not None and _holds(match, picture):
                    return picture
            return None

        return await self._until(find, timeout, "a push that shows it")

    async def _until(self, find: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                found = find()
                if found is not None:
                    return found
                if self.close_code is not None:
                    raise AssertionError(f"{self.name}: closed ({self.close_code}) before {what}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.name}: no {what} in {timeout} s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        """Until the server closes the connection; its close code."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.close_code

    async def _read(self) -> None:
        try:
            async for text in self.socket:
                self._receive(text)
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            received = self.socket.protocol.close_rcvd
            self.close_code = received.code if received is not None else 1006
            async with self._changed:
                self._changed.notify_all()

    def _receive(self, text: str | bytes) -> None:
        if not isinstance(text, str):
            self.problems.append(f"a binary frame (the page: JSON text frames): {text!r:.80}")
            return
        frame = json.loads(text)
        for problem in protocol_shapes.problems(frame):
            self.problems.append(f"{problem} in {text:.300}")
        if not isinstance(frame, dict):
            return
        self.frames.append(frame)
        self.pictures.append(None)
        kind = frame.get("type")
        if kind in protocol_shapes.ANSWERS and isinstance(frame.get("re"), int):
            re = frame["re"]
            if re not in self._sent:
                self.problems.append(f"an answer to {re}, which was never sent: {text:.200}")
            elif re in self._answered:
                self.problems.append(f"a second answer to {re}: {text:.200}")
            self._answered[re] = frame
        elif kind == "room":
            room = frame["room"]
            self.picture = Picture(room["code"], frame["version"], room, frame["view"])
            self.pictures[-1] = self.picture
        elif kind == "patch":
            self._patch(frame)

    def _patch(self, frame: Frame) -> None:
        """Apply a patch to the picture held, as the page says: only one whose ``code`` is the
        room held and whose ``base`` is the version held; any other is dropped."""
        held = self.picture
        if held is None or frame["code"] != held.code or frame["base"] != held.version:
            self.ignored.append(frame)
            return
        try:
            room = json_patch.apply(held.room, frame["room"])
            view = json_patch.apply(held.view, frame["view"])
        except json_patch.PatchError as error:
            self.problems.append(f"a patch that does not apply: {error}: {frame}")
            self.picture = None  # nothing held now: a sync is needed
            return
        self.picture = Picture(held.code, frame["version"], room, view)
        self.pictures[-1] = self.picture

    async def sync(self) -> tuple[Picture, Picture]:
        """The picture held, and the whole one a ``sync`` sends for it right after."""
        held, start = self.picture, len(self.frames)
        assert held is not None, f"{self.name}: no picture held"
        await self.ok("sync")
        push = self.first(lambda f: f["type"] == "room", start)
        assert push is not None, f"{self.name}: no room push before the ack of sync"
        return held, Picture(push["room"]["code"], push["version"], push["room"], push["view"])

    # ------------------------------------------------------------------ the end

    async def settle(self) -> None:
        """One more ``ping``, answered after everything sent before it."""
        answer = await self.request("ping")
        assert answer["type"] == "ack", f"{self.name}: ping refused: {answer}"

    def unanswered(self, *ids: int) -> None:
        """Messages the page says get no answer (a frame dropped past the rate limit, one
        over 1 MiB that is never read): not counted as unanswered at the end."""
        self._silent.update(ids)

    def assert_clean(self) -> None:
        """Nothing was wrong, and every message sent got its one answer."""
        missing = sorted(self._sent - set(self._answered) - self._silent)
        if missing:
            self.problems.append(f"no answer whose re is {missing}")
        assert not self.problems, f"{self.name}: " + "\n".join(self.problems)

    async def close(self) -> None:
        await self.socket.close()
        await asyncio.wait_for(asyncio.shield(self._reader), TIMEOUT)


class Clients:
    """The connections of one test: opened from one loopback address (the per-address
    limits are then the test's own), checked and closed at the end."""

    def __init__(self, url: str, address: str | None = None) -> None:
        self.url = url
        self.address = address
        self.opened: list[Raw] = []

    async def open(self, name: str = "", **options: Any) -> Raw:
        options.setdefault("address", self.address)
        raw = await Raw.open(self.url, name=name, **options)
        self.opened.append(raw)
        return raw

    async def hello(self, name: str = "", token: str | None = None, **options: Any) -> Raw:
        raw = await self.open(name, **options)
        await raw.hello(token)
        return raw

    async def __aenter__(self) -> Clients:
        return self

    async def __aexit__(self, kind: type | None, *exc: object) -> None:
        if kind is None:
            for raw in self.opened:
                if raw.close_code is None and raw.player:
                    await raw.settle()
        for raw in self.opened:
            if raw.close_code is None:
                await raw.close()
        if kind is None:
            for raw in self.opened:
                raw.assert_clean()


# ---------------------------------------------------------------------------- rooms


async def room_of(clients: Clients, game: str, *names: str, public: bool = False):
    """A room of ``game`` opened by the first of ``names`` (the host), the others joined;
    returns its code and each one's connection, every one holding a picture with everyone."""
    host = await clients.hello(names[0])
    data = await host.ok("create_room", game=game, nickname=names[0], public=public)
    code = data["room"]
    players = [host]
    for name in names[1:]:
        raw = await clients.hello(name)
        await raw.ok("join_room", code=code, nickname=name)
        players.append(raw)
    for raw in players:
        await raw.push(lambda held: len(held.room["seats"]) == len(names))
    return code, players


def _holds(match: Callable[[Picture], bool], picture: Picture) -> bool:
    """Whether ``match`` says yes to ``picture``; no if it cannot be asked of it (a seat
    that is not there yet, no view in the lobby)."""
    try:
        return bool(match(picture))
    except (AssertionError, KeyError, TypeError, IndexError):
        return False


def same_picture(held: Picture, fresh: Picture) -> None:
    """The page: patches applied give "exactly the picture a room push would carry, key
    order included"."""
    assert (held.code, held.version) == (fresh.code, fresh.version), "sync at another version"
    for part in ("room", "view"):
        mine, theirs = getattr(held, part), getattr(fresh, part)
        if mine != theirs:
            raise AssertionError(f"{part} patched: {_differences(mine, theirs)}")
        if json.dumps(mine) != json.dumps(theirs):
            raise AssertionError(f"{part}: the same, but in another key order")


def _differences(mine: Any, theirs: Any, path: str = "") -> list[str]:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        found = []
        for key in dict.fromkeys([*mine, *theirs]):
            found += _differences(
                mine.get(key, "<missing>"), theirs.get(key, "<missing>"), f"{path}/{key}"
            )
        return found
    if mine == theirs:
        return []
    return [f"{path or '/'}: held {mine!r:.120}, whole {theirs!r:.120}"]


def run(coro: Any) -> Any:
    return asyncio.run(coro)
