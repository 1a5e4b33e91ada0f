"""One WebSocket connection: who it is, which room it is in, and the answer to every frame.

Each request is a ladder of early returns; a rule refusal becomes an ``error`` message in
exactly one place (``_refuse``), and anything unexpected is logged and answered with a plain
``server.error`` — never a stack trace.

Past its rate limit a connection's frames are dropped: the first one is answered
(``rate.limited``), the rest are not — answering a flood is work too. A connection that has
``FLOOD_STRIKES`` frames dropped (the count forgets one a second) is flooding: ``flooding``
turns true and the server closes it (1008, policy).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Coroutine
from typing import Any

import msgspec

from .. import protocol as p
from ..games.base import RuleError
from ..rooms.codes import normalize_code
from ..rooms.identity import Identity
from ..rooms.limits import TokenBucket
from ..rooms.nicknames import check_first_nickname
from ..rooms.refusals import not_in_room
from ..rooms.room import NO_SEAT, Room
from ..rooms.seams import RoomHandle, Rooms
from ..rooms.views import game_part
from .guard import Guard, codes_run_out
from .held import Held
from .metrics import Metrics
from .outlet import Outlet
from .screens import ScreenPeer

log = logging.getLogger("tertulia.session")

MESSAGE_BURST, MESSAGES_PER_SECOND = 30, 15  # any frame
FLOOD_STRIKES = 20  # frames dropped past the limit before the connection is closed
SERVICE_RESTART = 1012  # the WebSocket close code for "come back in a moment"
# A room that moves to another node (cluster mode) may be refused for a moment: the new owner
# is still loading it, or the lease has not lapsed yet. An attach is asked again, with growing
# pauses, for this long (a player's own join) or that long (following the room by itself).
ATTACH_TRIES_SECONDS = 5.0
FOLLOW_SECONDS = 30.0
_NOT_YET = frozenset({"room.moved", "server.busy", "server.cluster"})

_ROOM_MESSAGES = (
    p.Act,
    p.AddBot,
    p.RemoveBot,
    p.StandIn,
    p.EndStandIn,
    p.Check,
    p.Chat,
    p.React,
    p.SetNickname,
    p.LeaveRoom,
    p.ChooseGame,
    p.UpdateSettings,
    p.RestoreDefaults,
    p.Reorder,
    p.Kick,
    p.StartMatch,
    p.Rematch,
    p.Sync,
    p.VoteRemove,
    p.CastVote,
    p.AllowVotes,
    p.HideName,
)


class Session:
    """Implements ``rooms.seams.Peer`` for one connection."""

    # One per connection, thousands at once: no per-instance dict (issue 33, memory).
    __slots__ = (
        "address",
        "chat_bucket",
        "cluster_conn",
        "flooding",
        "guard",
        "held",
        "identity",
        "manager",
        "max_frame",
        "metrics",
        "outlet",
        "player",
        "reaction_bucket",
        "requests",
        "room",
        "screen",
        "slowed_down",
        "strikes",
    )

    def __init__(
        self,
        manager: Rooms,
        identity: Identity,
        metrics: Metrics,
        max_frame: int,
        outlet: Outlet,
        guard: Guard,
        address: str = "",
    ) -> None:
        self.manager = manager
        self.identity = identity
        self.metrics = metrics
        self.max_frame = max_frame
        self.guard = guard
        self.address = address  # the client's limit key (see server/addresses.py)
        self.player = ""
        self.room: RoomHandle | None = None
        self.held: Held | None = None  # its room messages, while that room moves (cluster)
        self.screen: ScreenPeer | None = None  # it shows a room as a shared screen
        self.outlet = outlet
        self.requests = TokenBucket(capacity=MESSAGE_BURST, rate=MESSAGES_PER_SECOND)
        self.strikes = TokenBucket(capacity=FLOOD_STRIKES, rate=1)  # frames dropped
        self.slowed_down = False  # told rate.limited since the last frame let through
        self.flooding = False
        self.chat_bucket = TokenBucket(capacity=5, rate=0.5)  # chat lines
        self.reaction_bucket = TokenBucket(capacity=5, rate=1)  # quick reactions
        self.cluster_conn: str | None = None  # its name on the cluster's wire (cluster/node.py)

    # ------------------------------------------------------------------ Peer

    def send(self, message: p.ServerMessage) -> None:
        self.outlet.put(p.encode(message))

    # ------------------------------------------------------------------ frames

    def take_frame(self, frame: str | bytes) -> Coroutine[Any, Any, None] | None:
        """Answer one frame as far as it can be answered now; what has to wait (a hello, a
        join, a room list: the store or another node) comes back to be awaited, and the
        connection's next frame waits behind it. A move in a room never waits here (its
        room answers once its record is durable, ``rooms/commit.py``), so most frames are
        handled to the end right where they are read (``server/frames.py``)."""
        self._let_go_of_a_closed_room()
        limit = self._frame_limit()
        size = _size_in_bytes(frame, limit)
        # Every frame costs a token, a malformed or oversized one too: refusing them is work.
        if not self.requests.take():
            self._drop(frame)
            return None
        self.slowed_down = False
        if size > limit:
            # Answered unread (parsing it is the work being refused), but with its id, which
            # clients put first: every message gets its answer.
            too_large = RuleError("frame.too_large", "That message is too large.", max=limit)
            self._refuse(_quick_id(frame), too_large)
            return None
        try:
            message = p.decode(frame)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
            self._refuse(_guess_id(frame), RuleError("message.malformed", str(error)))
            return None
        self.metrics.count_message(str(type(message).__struct_config__.tag))
        try:
            waiting = self._dispatch(message)
        except RuleError as error:
            self._refuse(message.id, error)
            return None
        except Exception:
            self._failed(message)
            return None
        return None if waiting is None else self._answer_when_done(message, waiting)

    async def _answer_when_done(
        self, message: p.ClientMessage, waiting: Coroutine[Any, Any, None]
    ) -> None:
        try:
            await waiting
        except RuleError as error:
            self._refuse(message.id, error)
        except Exception:
            self._failed(message)

    def _failed(self, message: p.ClientMessage) -> None:
        log.exception("failed on %s", type(message).__name__)
        self._refuse(message.id, RuleError("server.error", "Something went wrong."))

    def _dispatch(self, message: p.ClientMessage) -> Coroutine[Any, Any, None] | None:
        """Does what ``message`` asks, or returns the work that has to wait for it."""
        if isinstance(message, p.Hello):
            return self._hello(message)
        if not self.player:
            raise RuleError("session.hello_first", "Say hello first.")
        if isinstance(message, _ROOM_MESSAGES):
            if self.screen is not None:
                self._as_screen(message)
                return None
            if isinstance(message, p.Chat) and not self.chat_bucket.take():
                raise RuleError("chat.too_fast", "Slow down a little.")
            if isinstance(message, p.React) and not self.reaction_bucket.take():
                raise RuleError("reaction.too_fast", "Slow down a little.")
            if self.held is not None:  # the room is on its way to another node
                self.held.hold(message)
                return None
            if self.room is None or self.room.closed:
                raise not_in_room()
            self.room.submit(self, message)
            return None
        if isinstance(message, p.Ping):
            self.send(p.Ack(message.id, {"now": time.time()}))
            return None
        if isinstance(message, p.CreateRoom):
            return self._create(message)
        if isinstance(message, p.JoinRoom):
            return self._join(message)
        if isinstance(message, p.OpenScreen):
            return self._open_screen(message)
        if isinstance(message, p.ListRooms):
            return self._list_rooms(message)
        if isinstance(message, p.MyMatches):
            return self._my_matches(message)
        return None

    async def _create(self, message: p.CreateRoom) -> None:
        check_first_nickname(message.nickname, message.public)  # no empty room left behind
        by_address, by_player = f"address:{self.address}", f"player:{self.player}"
        self.guard.check_new_room(
            self.address,
            self.player,
            rooms_of_address=self.manager.rooms_opened_by(by_address),
            rooms_of_player=self.manager.rooms_opened_by(by_player),
        )
        room = await self.manager.create(
            message.game, message.public, opened_by=(by_address, by_player)
        )
        await self._enter(room, message.nickname, message.id, played=message.played)

    async def _join(self, message: p.JoinRoom) -> None:
        room = await self._room_to_join(message.code, message.resume)
        await self._enter(
            room, message.nickname, message.id, resume=message.resume, played=message.played
        )

    async def _list_rooms(self, message: p.ListRooms) -> None:
        recent = await self.manager.recent_matches()
        self.send(p.RoomList(self.manager.public_rooms(), recent))
        # Where this player still has a seat (a home page open for a while keeps its
        # "Back to the room" right: not after a kick, a leave in another tab, a close).
        seated = await self.manager.seated_room(self.player)
        self.send(p.Ack(message.id, {"seated": seated}))

    async def _my_matches(self, message: p.MyMatches) -> None:
        # This connection's own player only: its identity was proved by its secret token
        # at hello, so nobody can list another browser's matches.
        matches = await self.manager.matches_of(self.player, message.limit, message.before)
        self.send(p.Ack(message.id, {"matches": matches}))

    async def _hello(self, message: p.Hello) -> None:
        token = message.token if Identity.is_token(message.token) else Identity.new_token()
        player = self.identity.player_id(token)
        if self.player and player != self.player:
            raise RuleError("session.identity_changed", "This connection already said hello.")
        self.player = player
        room = await self.manager.seated_room(player)
        self.send(p.Welcome(player=player, token=token, now=time.time(), room=room))
        self.send(p.Ack(message.id))

    async def _room_to_join(self, given_code: str, resume: bool) -> RoomHandle:
        """The live room ``join_room`` names, or a refusal. Looking up a room where one has no
        seat is limited per address (misses cost; once they run out every lookup is refused,
        so a hit and a miss look alike), and a ``resume`` — only ever back into one's own seat —
        answers a room without your seat exactly as a room that does not exist."""
        code = normalize_code(given_code)
        room = await self.manager.find(code) if code is not None else None
        if room is not None and room.has_seat(self.player):
            return room  # one's own seat: nothing to learn, nothing to limit
        if not self.guard.may_look_up_codes(self.address):
            raise codes_run_out()
        if room is not None and (not resume or room.has_seat(self.player) is None):
            return room  # (None: a room of another node, whose owner knows the seats)
        self.guard.code_missed(self.address)
        if resume:
            raise RuleError("room.no_seat", NO_SEAT, code=given_code)
        raise RuleError("room.unknown", "There is no room with that code.", code=given_code)

    # ------------------------------------------------------------------ a shared screen

    async def _open_screen(self, message: p.OpenScreen) -> None:
        """Show a room on this connection as a shared screen (``screens.py``). Looking up its
        code costs what a join's does; a connection in a room leaves it for the screen."""
        room = await self._room_to_join(message.code, resume=False)
        if self.screen is not None:  # (one room per screen: the last one asked)
            self._close_screen()
        screen = ScreenPeer(self, self._screen_moved)
        room = await self._attach(room, "", message.id, resume=False, peer=screen)
        screen.room, self.screen = room, screen
        previous, self.room = self.room, None
        if previous is not None:
            previous.detach(self)

    def _as_screen(self, message: p.ClientMessage) -> None:
        """A screen only shows: it may ask for its whole picture again, nothing else."""
        assert self.screen is not None
        if not isinstance(message, p.Sync):
            raise RuleError("screen.read_only", "A shared screen only shows the room.")
        self.screen.room.submit(self.screen, message)

    def _screen_moved(self, code: str) -> None:
        """The screen's room moved to another node: the page comes back and opens it there."""
        self._close_screen()
        self.outlet.close(SERVICE_RESTART)

    def _close_screen(self) -> None:
        if self.screen is not None and self.screen.room is not None:
            self.screen.room.detach(self.screen)
        self.screen = None

    async def _enter(
        self,
        room: RoomHandle,
        nickname: str,
        msg_id: int | None,
        resume: bool = False,
        played: list[str] | None = None,
    ) -> None:
        """Move this connection to ``room`` (the seat in the previous room stays). A refusal
        leaves it where it was: it only leaves the previous room once the new one took it.
        ``played``: the games its browser has played (for a first-timer's seat)."""
        room = await self._attach(room, nickname, msg_id, resume, played=played)
        self._close_screen()  # (a screen that joins a room is a screen no more)
        previous, self.room = self.room, room
        if self.held is not None:  # it stops following the room it was in (room_moves)
            self.held.refuse()
            self.held = None
        if previous is not None and previous is not room:
            previous.detach(self)

    def room_moves(self, code: str) -> Coroutine[Any, Any, None] | None:
        """The room this connection is in moves to another node (cluster mode: its owner died
        or handed it on). From now on its room messages are held (``held.py``); the work
        returned attaches it to the room's new owner, back in the same seat, and hands them
        on there. None if the connection is not in that room, or already following it."""
        if self.room is None or self.room.code != code or self.held is not None:
            return None
        self.held = Held(code, self._refuse)
        return self._follow_room(self.held)

    async def _follow_room(self, held: Held) -> None:
        """Attach to wherever ``held.code`` is owned now: the client gets the whole picture
        from there, then its held messages are handed on, in order. Refusals that mean "not
        yet" (the lease has not lapsed, the new owner is still loading it) are asked again
        with growing pauses; only a room that has closed, or one that stays unreachable for
        ``FOLLOW_SECONDS``, ends it (the client then reconnects by itself and resumes)."""
        loop = asyncio.get_running_loop()
        give_up_at, pause = loop.time() + FOLLOW_SECONDS, 0.05
        while True:
            if self.held is not held:  # it went to another room, or closed, meanwhile
                return
            try:
                room = await self.manager.find(held.code)
                if self.held is not held:  # it went to another room while we asked
                    return
                if room is None:
                    self.held = self.room = None
                    self.send(p.Notice("room.closed", "The room was closed."))
                    held.refuse(RuleError("room.unknown", "This room has closed."))
                    return
                room = await self._attach(room, "", None, resume=True)
                break
            except Exception as error:
                if self.held is not held:  # it went to another room: nothing to end here
                    return
                not_yet = not isinstance(error, RuleError) or error.code in _NOT_YET
                if not isinstance(error, RuleError):
                    log.warning("room %s: could not follow it yet (%r)", held.code, error)
                if not not_yet or loop.time() > give_up_at:
                    self.held = None
                    held.refuse()
                    self.outlet.close(SERVICE_RESTART)
                    return
            await asyncio.sleep(pause)
            pause = min(pause * 2, 1.0)
        if self.held is not held:
            room.detach(self)
            return
        self.room, self.held = room, None
        for message in held.take():
            room.submit(self, message)

    async def _attach(
        self,
        room: RoomHandle,
        nickname: str,
        msg_id: int | None,
        resume: bool,
        peer: ScreenPeer | None = None,
        played: list[str] | None = None,
    ) -> RoomHandle:
        """Seat this connection in ``room`` (or, given a screen's ``peer``, show it there);
        returns the room it is in (in cluster mode, the owner may die or hand the room on
        while we ask, or still be loading a room it has just taken over: then it is asked
        again, with growing pauses, wherever the room is owned now)."""
        loop = asyncio.get_running_loop()
        give_up_at, pause = loop.time() + ATTACH_TRIES_SECONDS, 0.05
        while True:
            try:
                if peer is not None:
                    await room.attach(peer, nickname, msg_id, screen=True)
                else:
                    await room.attach(
                        self, nickname, msg_id, resume=resume, played=tuple(played or ())
                    )
                return room
            except RuleError as error:
                if error.code != "room.moved" or loop.time() > give_up_at:
                    raise
                await asyncio.sleep(pause)
                pause = min(pause * 2, 0.8)
                again = await self.manager.find(room.code)
                if again is None:
                    raise
                room = again

    def _let_go_of_a_closed_room(self) -> None:
        """Forget a room of this node that has closed with this connection out of it (it
        left, was removed, or was told the room closed): nothing more can happen there, and
        holding it kept the whole room — its model, match and pictures — in memory for as long
        as the connection stayed open (a home page left open; a browser pings, so this runs
        every few seconds). Not a room that moves to another node: it keeps its connections,
        which follow it (``room_moves``)."""
        room = self.room
        if isinstance(room, Room) and room.closed and self.held is None and self not in room.peers:
            self.room = None

    def _frame_limit(self) -> int:
        """64 KiB by default; a game may ask for more (drawings) in its rooms."""
        game = self.room.game if self.room is not None else None
        return max(self.max_frame, game_part(game, "MAX_FRAME_BYTES") or 0)

    def _drop(self, frame: str | bytes) -> None:
        """A frame past the rate limit: the first is answered, the rest are not; too many and
        the connection is flooding."""
        if not self.strikes.take():
            self.flooding = True
            self.metrics.count_error("rate.flooding")
            return
        if self.slowed_down:
            self.metrics.count_error("rate.limited")
            return
        self.slowed_down = True
        self._refuse(_quick_id(frame), RuleError("rate.limited", "Too many messages; slow down."))

    def _refuse(self, msg_id: int | None, error: RuleError) -> None:
        self.metrics.count_error(error.code)
        self.send(p.Error.refusing(msg_id, error))

    def closed(self) -> None:
        if self.held is not None:  # nobody to answer, and nothing to follow any more
            self.held.take()
            self.held = None
        self._close_screen()
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
