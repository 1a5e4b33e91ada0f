"""One WebSocket connection: who it is, which room it is in, and the answer to every frame.

Each request is a ladder of early returns; a rule refusal becomes an ``error`` message in
exactly one place (``_refuse``), and anything unexpected is logged and answered with a plain
``server.error`` — never a stack trace.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

import msgspec

from .. import protocol as p
from ..games.base import RuleError
from ..rooms.codes import normalize_code
from ..rooms.identity import Identity
from ..rooms.limits import TokenBucket
from ..rooms.manager import RoomManager
from ..rooms.model import check_first_nickname
from ..rooms.room import Room
from ..rooms.views import game_part
from .metrics import Metrics
from .outlet import Outlet

log = logging.getLogger("tertulia.session")

_ROOM_MESSAGES = (
    p.Act,
    p.Check,
    p.Chat,
    p.SetNickname,
    p.LeaveRoom,
    p.ChooseGame,
    p.UpdateSettings,
    p.RestoreDefaults,
    p.Reorder,
    p.Kick,
    p.StartMatch,
    p.Rematch,
)


class Session:
    """Implements ``rooms.room.Peer`` for one connection."""

    def __init__(
        self,
        manager: RoomManager,
        identity: Identity,
        metrics: Metrics,
        max_frame: int,
        outlet: Outlet,
    ) -> None:
        self.manager = manager
        self.identity = identity
        self.metrics = metrics
        self.max_frame = max_frame
        self.player = ""
        self.room: Room | None = None
        self.outlet = outlet
        self.requests = TokenBucket(capacity=30, rate=15)  # any message
        self.chat_bucket = TokenBucket(capacity=5, rate=0.5)  # chat lines
        self.sent_blobs: set[str] = set()

    # ------------------------------------------------------------------ Peer

    def send(self, message: p.ServerMessage) -> None:
        self.outlet.put(p.encode(message))

    # ------------------------------------------------------------------ frames

    async def handle_frame(self, frame: str | bytes) -> None:
        limit = self._frame_limit()
        size = _size_in_bytes(frame, limit)
        # Every frame costs a token, a malformed or oversized one too: refusing them is work.
        if not self.requests.take():
            refusal = RuleError("rate.limited", "Too many messages; slow down.")
            self._refuse(_quick_id(frame), refusal)
            return
        if size > limit:
            too_large = RuleError("frame.too_large", "That message is too large.", max=limit)
            self._refuse(None, too_large)
            return
        try:
            message = p.decode(frame)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
            self._refuse(_guess_id(frame), RuleError("message.malformed", str(error)))
            return
        self.metrics.count_message(type(message).__struct_config__.tag)
        try:
            await self._dispatch(message)
        except RuleError as error:
            self._refuse(message.id, error)
        except Exception:
            log.exception("failed on %s", type(message).__name__)
            self._refuse(message.id, RuleError("server.error", "Something went wrong."))

    async def _dispatch(self, message: p.ClientMessage) -> None:
        if isinstance(message, p.Hello):
            self._hello(message)
            return
        if not self.player:
            raise RuleError("session.hello_first", "Say hello first.")
        if isinstance(message, _ROOM_MESSAGES):
            if self.room is None or self.room.closed:
                raise RuleError("room.not_in", "You are not in a room.")
            self.room.submit(self, message)
        elif isinstance(message, p.CreateRoom):
            check_first_nickname(message.nickname, message.public)  # no empty room left behind
            room = await self.manager.create(message.game, message.public)
            await self._enter(room, message.nickname, message.id)
        elif isinstance(message, p.JoinRoom):
            code = normalize_code(message.code)
            room = self.manager.get(code) if code is not None else None
            if room is None:
                raise RuleError(
                    "room.unknown", "There is no room with that code.", code=message.code
                )
            await self._enter(room, message.nickname, message.id, resume=message.resume)
        elif isinstance(message, p.ListRooms):
            recent = await self.manager.recent_matches()
            self.send(p.RoomList(self.manager.public_rooms(), recent))
            # Where this player still has a seat (a home page open for a while keeps its
            # "Back to the room" right: not after a kick, a leave in another tab, a close).
            self.send(p.Ack(message.id, {"seated": self.manager.seated_room(self.player)}))
        elif isinstance(message, p.Ping):
            self.send(p.Ack(message.id, {"now": time.time()}))

    def _hello(self, message: p.Hello) -> None:
        token = message.token if Identity.is_token(message.token) else Identity.new_token()
        player = self.identity.player_id(token)
        if self.player and player != self.player:
            raise RuleError("session.identity_changed", "This connection already said hello.")
        self.player = player
        room = self.manager.seated_room(player)
        self.send(p.Welcome(player=player, token=token, now=time.time(), room=room))
        self.send(p.Ack(message.id))

    async def _enter(self, room: Room, nickname: str, msg_id: int, resume: bool = False) -> None:
        """Move this connection to ``room`` (the seat in the previous room stays)."""
        if self.room is not None and self.room is not room:
            self.room.detach(self)
            self.room = None
            self.sent_blobs = set()  # blob keys belong to one room
        await room.attach(self, nickname, msg_id, resume=resume)
        self.room = room

    def _frame_limit(self) -> int:
        """64 KiB by default; a game may ask for more (drawings) in its rooms."""
        game = self.room.model.game if self.room is not None else None
        return max(self.max_frame, game_part(game, "MAX_FRAME_BYTES") or 0)

    def _refuse(self, msg_id: int | None, error: RuleError) -> None:
        self.metrics.errors.labels(error.code).inc()
        self.send(p.Error(msg_id, error.code, error.message, error.params))

    def closed(self) -> None:
        if self.room is not None:
            self.room.detach(self)
            self.room = None


def _size_in_bytes(frame: str | bytes, limit: int) -> int:
    """The frame's size on the wire (UTF-8 for text: a character may be 4 bytes); encoded only
    when its length in characters cannot already tell it is within ``limit``."""
    if isinstance(frame, bytes) or len(frame) * 4 <= limit:
        return len(frame)
    return len(frame.encode("utf-8", "surrogatepass"))


_ID_NEAR_START = re.compile(r'"id"\s*:\s*(\d{1,15})\b')


def _quick_id(frame: str | bytes) -> int | None:
    """The id of a frame refused unread (rate limit): looked for near its start, where clients
    put it, so refusing a flood costs no JSON parsing."""
    head = frame[:256]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    found = _ID_NEAR_START.search(head)
    return int(found.group(1)) if found else None


def _guess_id(frame: str | bytes) -> int | None:
    """The id of a message we could not decode, so the client can match the error to it."""
    try:
        raw: Any = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None
    value = raw.get("id") if isinstance(raw, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
