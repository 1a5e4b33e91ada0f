"""The two ends of a relayed connection.

A player's WebSocket may land on any node; their room lives on its owner. On the node that
holds the socket, a ``RemoteRoom`` stands in for the room: a session submits to it, attaches
to it and detaches from it exactly as it would with a local ``Room``, and each becomes a
message to the owner. On the owner, a ``RelayedPeer`` stands in for the connection: the room
sends to it as to any local peer, and each push travels back to the connection's node,
which writes the bytes to the socket untouched.

A frame relayed to an owner that dies before answering it may or may not have been applied
(the owner may have committed it and died before its ack left). The connection's node keeps
the ids of the frames still waiting on the owner (``awaiting``), with whether Redis said the
owner's node heard each (a publish says how many listened). When it gives the owner up it
answers each heard one at once with ``room.outcome_unknown``: the client does not wait out
its own timeout, and learns the truth from the whole picture the new owner sends as the
connection attaches there. One whose publish has not come back yet is neither: it stays ``in
doubt`` until Redis says — heard (``room.outcome_unknown``), or heard by nobody, so applied
by nobody, and held for the new owner with the connection's other messages (never answered
twice, never applied twice).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .. import protocol as p
from ..games.base import RuleError
from ..rooms.refusals import outcome_unknown, room_moved
from . import wire
from .bus import Bus

if TYPE_CHECKING:
    from ..rooms.room import Room

# An owner that does not answer an attach in this long is treated as gone (the node passes
# twice its lease: past that, the lease has lapsed or been renewed, and finding the room
# again asks the lease where it is now, rather than waiting on an answer that may never come).
ATTACH_TIMEOUT = 10.0


@dataclass
class Relays:
    """A node's bookkeeping of relayed connections, shared by the node (``node.py``), the
    rooms it reaches through their owners (``RemoteRoom``) and its reading of what other
    nodes send it (``inbound.py``)."""

    # code → the room as reached through its owner
    remote: dict[str, RemoteRoom] = field(default_factory=dict)
    # conn → this node's session in a remote room, and the owner it is attached through
    relaying: dict[str, tuple[Any, str]] = field(default_factory=dict)
    # conn → its frames' ids that owners owe answers, with whether Redis said they heard each
    awaiting: dict[str, dict[int, bool]] = field(default_factory=dict)
    # (conn, id) → session: frames of an owner given up before Redis said it heard them
    in_doubt: dict[tuple[str, int], Any] = field(default_factory=dict)
    # conn → (peer, room): connections of other nodes in rooms owned here
    relayed: dict[str, tuple[RelayedPeer, Room]] = field(default_factory=dict)


class RelayedPeer:
    """A connection of another node, in a room this node owns (``rooms.seams.Peer``)."""

    __slots__ = ("_bus", "address", "conn", "node", "player")

    def __init__(self, bus: Bus, node: str, conn: str, player: str, address: str = "") -> None:
        self._bus = bus
        self.node = node
        self.conn = conn
        self.player = player
        self.address = address  # the connection's limit key, as its node resolved it

    def send(self, message: p.ServerMessage) -> None:
        answers = message.re if isinstance(message, (p.Ack, p.Error)) else None
        self._bus.push(self.node, self.conn, p.encode(message), answers)


class RemoteRoom:
    """A room owned by ``owner``, as the sessions of this node see it."""

    def __init__(
        self,
        code: str,
        owner: str,
        games: Mapping[str, ModuleType],
        bus: Bus,
        conn_of: Callable[[Any], str],
        registry: dict[str, tuple[Any, str]],
        awaiting: dict[str, dict[int, bool]],
        attach_timeout: float = ATTACH_TIMEOUT,
        in_doubt: dict[tuple[str, int], Any] | None = None,
        fence: int = 0,
    ) -> None:
        self.code = code
        self.owner = owner
        self.fence = fence  # of the owner's lease when this way to it was found
        self.game: ModuleType | None = None  # known once the owner answers an attach
        self._games = games
        self.closed = False  # the owner gave it up: sessions must find it again
        self._bus = bus
        self._conn_of = conn_of
        # ``Attach.serial`` → (conn, the Attached answer it waits for), oldest first: an owner
        # from before serials answers a connection's attaches in the order they were sent.
        self._waiting: dict[int, tuple[str, asyncio.Future]] = {}
        self.sessions: dict[str, Any] = {}  # conn → session, attached here
        # conn → the registry entries this room's attaches made for it that still stand
        # (seated, or waiting for the owner's answer), oldest first: a session that went on
        # to another remote room has a new entry there, which this room must not take away,
        # and a refused attach takes away only its own.
        self._entries: dict[str, list[tuple[Any, str]]] = {}
        # conn → the registry's entry before this room's first standing attach (another
        # remote room's, where the session still is until this one takes it), put back if
        # every attach here is refused.
        self._before: dict[str, tuple[Any, str] | None] = {}
        # Every remote room's sessions by conn, with the owner they are attached through: where
        # pushes go, and from whom (a former owner's late pushes are not this owner's).
        self._registry = registry
        # conn → its frames the owner has not answered yet: id → whether the owner heard it
        self._awaiting = awaiting
        # (conn, id) → session: frames of an owner given up before Redis said whether it
        # heard them (the node settles them when it does)
        self._in_doubt = in_doubt if in_doubt is not None else {}
        self._attach_timeout = attach_timeout

    def has_seat(self, player: str) -> bool | None:
        """Unknown here (None): the seats are the owner's, and it answers a join or a resume
        as it would a local one."""
        return None

    def submit(self, session: Any, message: p.ClientMessage) -> None:
        conn = self._conn_of(session)
        self._awaiting.setdefault(conn, {})[message.id] = False
        self._bus.send(self.owner, wire.Frame(conn, self.code, p.encode(message), message.id))

    async def attach(
        self,
        session: Any,
        nickname: str,
        msg_id: int | None,
        resume: bool = False,
        screen: bool = False,
        played: tuple[str, ...] = (),
    ) -> None:
        conn = self._conn_of(session)
        answer = asyncio.get_running_loop().create_future()
        serial = next(_SERIALS)
        self._waiting[serial] = (conn, answer)
        self.sessions[conn] = session
        standing = self._entries.setdefault(conn, [])
        if not standing:
            self._before[conn] = self._registry.get(conn)
        entry = self._registry[conn] = (session, self.owner)  # pushes may come before the answer
        standing.append(entry)
        self._bus.send(
            self.owner,
            wire.Attach(
                conn=conn,
                reply_to=self._bus.node,
                room=self.code,
                player=session.player,
                nickname=nickname,
                msg_id=msg_id,
                resume=resume,
                screen=screen,
                played=list(played),
                address=getattr(session, "address", ""),
                serial=serial,
            ),
        )
        try:
            error = await asyncio.wait_for(answer, self._attach_timeout)
        except TimeoutError:
            alone = all(e is entry for e in self._entries.get(conn, ()))
            self._refused(conn, entry)
            if alone:  # not when another attach of it stands here: that would unseat it
                # If the owner seats it after all, it takes it out again (messages keep order).
                self._bus.send(self.owner, wire.Detach(conn, self.code))
            raise room_moved() from None
        except RuleError:
            self._refused(conn, entry)
            raise room_moved() from None
        finally:
            del self._waiting[serial]
        if error is not None:
            self._refused(conn, entry)
            code, sentence, params = error
            raise RuleError(code, sentence, **params)

    def detach(self, session: Any) -> None:
        conn = self._conn_of(session)
        if self.sessions.get(conn) is session:
            self._forget(conn)
            self._bus.send(self.owner, wire.Detach(conn, self.code))

    def _refused(self, conn: str, entry: tuple[Any, str]) -> None:
        """One attach of ``conn`` failed: it lets go of its own entry only. Another attach of
        the same connection here that still stands (seated, or waiting: a resume and a join at
        once) keeps the connection; with none left, the room it is still in keeps it."""
        standing = [e for e in self._entries.get(conn, ()) if e is not entry]
        if not standing:
            self._forget(conn)
            return
        self._entries[conn] = standing
        if self._registry.get(conn) is entry:
            self._registry[conn] = standing[-1]

    def _forget(self, conn: str) -> None:
        """Let go of ``conn`` here. Pushes then go where they went before this room's first
        attach of it, if the session is still there (a join elsewhere was refused), or
        nowhere; unless another room has taken the connection since."""
        self.sessions.pop(conn, None)
        standing = self._entries.pop(conn, [])
        before = self._before.pop(conn, None)
        current = self._registry.get(conn)
        if not any(current is e for e in standing):  # another room's since, or none
            return
        if before is not None and _still_holds(before[0], conn, before):
            self._registry[conn] = before
            return
        del self._registry[conn]
        self._awaiting.pop(conn, None)

    def _holds(self, conn: str, entry: tuple[Any, str]) -> bool:
        return any(e is entry for e in self._entries.get(conn, ()))

    # ------------------------------------------------------------------ from the owner

    def attached(self, answer: wire.Attached) -> None:
        if answer.game:
            self.game = self._games.get(answer.game)
        if answer.serial:  # to that attach only: none if it timed out (its Detach follows)
            found = self._waiting.get(answer.serial)
            waiting = found[1] if found is not None and found[0] == answer.conn else None
        else:  # an owner from before serials: the connection's oldest attach still waiting
            waiting = next(
                (f for c, f in self._waiting.values() if c == answer.conn and not f.done()), None
            )
        if waiting is not None and not waiting.done():
            waiting.set_result(answer.error)

    def give_up(self, owner_died: bool) -> list[Any]:
        """The owner is gone (``owner_died``) or let the room go: every waiting attach fails
        (``room.moved``), every frame still waiting on the owner is answered, and the sessions
        attached here are returned, to find the room again.

        The answer to a frame still waiting: if the owner died, nobody can say whether one it
        heard was applied (``room.outcome_unknown``), and one Redis has not yet said it heard
        waits for that word (``in doubt``); if it let the room go, it had answered everything
        that reached it before it said so (the bus keeps a node's messages in order), so the
        rest was not applied (``room.moved``, as the owner itself answers them later)."""
        self.closed = True
        for _, waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(room_moved())
        answer = outcome_unknown() if owner_died else room_moved()
        for conn, session in self.sessions.items():
            for msg_id, heard in sorted(self._awaiting.pop(conn, {}).items()):
                if heard or not owner_died:
                    session.send(p.Error.refusing(msg_id, answer))
                else:  # not known yet whether the dead owner ever heard it
                    self._in_doubt[(conn, msg_id)] = session
        sessions = list(self.sessions.values())
        for conn in list(self.sessions):
            self._forget(conn)
        return sessions


# Every attach this process sends, numbered once (rooms come and go; a number is never reused).
_SERIALS = itertools.count(1)


def _still_holds(session: Any, conn: str, entry: tuple[Any, str]) -> bool:
    """The session is still in the remote room whose ``entry`` this is."""
    room = getattr(session, "room", None)
    return isinstance(room, RemoteRoom) and room._holds(conn, entry)
