"""What other nodes send this one (``wire.ToNode``), and the frames they never heard: a
collaborator of ``node.ClusterRooms``, kept apart because it is a job of its own — reading
the messages between nodes and turning each into a call on a room or a session. It is given
what it needs: the bus to answer on, the bookkeeping of relayed connections it shares with
the node (``relay.Relays``), the rooms owned here, and the node's own steps it asks for.

Pushes go straight to the relaying session's socket; a frame goes into the room it was
attached to (or is refused: ``room.moved``, if that room is no longer here); an attach seats
a connection of another node in a room owned here; a detach takes it out; ``Released`` sends
this node's sessions to find their room's new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from .. import protocol as p
from ..games.base import RuleError
from ..rooms.refusals import outcome_unknown, room_moved
from ..rooms.room import Room
from . import wire
from .bus import Bus
from .relay import RelayedPeer, Relays, RemoteRoom


class Inbound:
    """This node's reading of the messages other nodes send it."""

    def __init__(
        self,
        bus: Bus,
        relays: Relays,
        *,
        room_here: Callable[[str], Room | None],
        loading: Callable[[str], asyncio.Future[Any] | None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        find_again: Callable[[Any, str], None],
        owned_now: Callable[[str, str, int], None],
        heir_named: Callable[[str, str], None],
    ) -> None:
        self.bus = bus
        self.relays = relays
        self._room_here = room_here  # the live room with that code owned here, or None
        self._loading = loading  # a take-over of that code under way here, or None
        self._spawn = spawn  # run work in a task of its own
        self._find_again = find_again  # move a session of this node after its room
        self._owned_now = owned_now  # another node says it has just taken a room over
        self._heir_named = heir_named  # a room handed to a node: the others do not race it

    def on_message(self, message: wire.ToNode) -> None:
        relays = self.relays
        if isinstance(message, wire.Pushes):
            for conn, data, answers in message.items:
                held = relays.relaying.get(conn)
                if held is None:
                    continue
                waiting = relays.awaiting.get(conn, {})
                # One answer per request: the pushes of a node the connection is no longer
                # attached through (an owner that was paused past its lease, then woke up)
                # are dropped; their requests were answered when it was given up. Only the
                # answer to a frame still owed one gets through: one the connection sent to
                # the room it then left for a room owned elsewhere, which nobody else answers.
                if message.sender and held[1] != message.sender and answers not in waiting:
                    continue
                held[0].outlet.put(data)
                if answers is not None:
                    waiting.pop(answers, None)
        elif isinstance(message, wire.Frame):
            self._frame(message)
        elif isinstance(message, wire.Attach):
            self._spawn(self._attach(message))
        elif isinstance(message, wire.Attached):
            remote = relays.remote.get(message.room)
            if remote is not None and _from_its_owner(remote, message.owner):
                remote.attached(message)
        elif isinstance(message, wire.Detach):
            # Only out of the room it names: the connection may be in another room of this
            # node by now (its node attached it there, then left this one).
            seated = relays.relayed.get(message.conn)
            if seated is not None and seated[1].code == message.room:
                del relays.relayed[message.conn]
                seated[1].detach(seated[0])
        elif isinstance(message, wire.Owned):
            self._owned_now(message.room, message.owner, message.fence)
        elif isinstance(message, wire.Released):
            remote = relays.remote.get(message.room)
            if remote is None or not _from_its_owner(remote, message.owner):
                return
            if not message.whole:
                # Only these connections: the owner answers each of their frames itself
                # (``room.moved``, through the registry, which stays), and they attach again
                # while their next messages are held. The others' frames are the owner's to
                # answer: giving the room up would answer them "moved" while it applies them.
                for conn in message.conns:
                    session = remote.sessions.get(conn)
                    if session is not None:
                        self._find_again(session, message.room)
                return
            if message.heir:
                self._heir_named(message.room, message.heir)
            del relays.remote[message.room]
            for session in remote.give_up(owner_died=False):
                self._find_again(session, message.room)

    def _frame(self, frame: wire.Frame) -> None:
        held = self.relays.relayed.get(frame.conn)
        try:
            message = p.decode(frame.body)
        except msgspec.ValidationError:
            return  # it was valid on the node that sent it
        if held is None or held[1].closed:
            node = frame.conn.split("/", 1)[0]
            answer = p.Error.refusing(message.id, room_moved())
            self.bus.push(node, frame.conn, p.encode(answer), message.id)
            if held is not None and not held[1].stopped:
                # Stopping (its save under way is being told): the room sends its own
                # ``released`` once stopped; a whole one now would make that node answer
                # "moved" to frames whose answers are still to come (``Room.stop``).
                return
            # Not whole when the room is here (live): only that connection is not in it.
            whole = self._room_here(frame.room) is None
            released = wire.Released(frame.room, [frame.conn], self.bus.node, whole=whole)
            self.bus.send(node, released)
            return
        peer, room = held
        room.submit(peer, message)

    async def _attach(self, attach: wire.Attach) -> None:
        room = self._room_here(attach.room)
        loading = self._loading(attach.room) if room is None else None
        if loading is not None:
            # Taken over here and still loading: the answer waits for it rather than
            # sending the connection away to ask again.
            with contextlib.suppress(Exception):
                await asyncio.shield(loading)
            room = self._room_here(attach.room)
        if room is None:
            error = room_moved()
            answer = wire.Attached(
                attach.conn,
                attach.room,
                (error.code, error.message, {}),
                owner=self.bus.node,
                serial=attach.serial,
            )
            self.bus.send(attach.reply_to, answer)
            return
        peer = RelayedPeer(
            self.bus, attach.reply_to, attach.conn, attach.player, address=attach.address
        )
        try:
            await room.attach(
                peer,
                attach.nickname,
                attach.msg_id,
                resume=attach.resume,
                screen=attach.screen,
                played=tuple(attach.played),
            )
        except RuleError as error:
            refusal = (error.code, error.message, error.params)
            answer = wire.Attached(
                attach.conn, attach.room, refusal, owner=self.bus.node, serial=attach.serial
            )
            self.bus.send(attach.reply_to, answer)
            return
        before = self.relays.relayed.get(attach.conn)
        if before is not None and before[0] is not peer:
            # It left that room for this one, or it attached again to this one (through a
            # way to its owner that went stale): one peer per connection, or pushes twice.
            before[1].detach(before[0])
        self.relays.relayed[attach.conn] = (peer, room)
        seated = wire.Attached(
            attach.conn, attach.room, None, room.game.NAME, self.bus.node, attach.serial
        )
        self.bus.send(attach.reply_to, seated)

    def heard(self, frame: wire.Frame) -> None:
        """Redis says the owner's node heard ``frame``: from now on nobody can say it was not
        applied. If that owner was given up meanwhile, its answer is ``room.outcome_unknown``
        (``relay.py``)."""
        if frame.msg_id is None:  # (every relayed frame has its id: relay.RemoteRoom.submit)
            return
        owed = self.relays.awaiting.get(frame.conn)
        if owed is not None and frame.msg_id in owed:
            owed[frame.msg_id] = True
            return
        session = self.relays.in_doubt.pop((frame.conn, frame.msg_id), None)
        if session is not None:
            session.send(p.Error.refusing(frame.msg_id, outcome_unknown()))

    def unheard(self, frame: wire.Frame) -> tuple[Any, p.ClientMessage, str] | None:
        """A frame a publish never delivered: its session and message (no longer owed an
        answer by the node it was sent to), or None if its session has gone."""
        session = (
            self.relays.in_doubt.pop((frame.conn, frame.msg_id), None)
            if frame.msg_id is not None
            else None
        )
        if session is None:
            held = self.relays.relaying.get(frame.conn)
            if held is None:
                return None
            if frame.msg_id is not None and frame.msg_id not in self.relays.awaiting.get(
                frame.conn, {}
            ):
                return None  # answered already (its owner let the room go: room.moved)
            session = held[0]
        try:
            message = p.decode(frame.body)
        except msgspec.ValidationError:
            return None
        self.relays.awaiting.get(frame.conn, {}).pop(message.id, None)
        return session, message, frame.room

    @staticmethod
    def hold_again(session: Any, message: p.ClientMessage, code: str) -> None:
        """A message nobody applied goes to ``code``'s next owner with the others its session
        holds while the room moves, before those (it was sent first); else it is answered
        ``room.moved`` (send it again)."""
        held = getattr(session, "held", None)
        if held is not None and held.code == code:
            held.hold_again(message)
            return
        session.send(p.Error.refusing(message.id, room_moved()))


def _from_its_owner(remote: RemoteRoom, sender: str) -> bool:
    """Whether a message about ``remote`` comes from the owner it is reached through (an
    answer or a release from a former owner is about a room this node no longer reaches
    there). A message built without a sender is taken at its word: every node names itself
    now, and the nodes of one cluster run one version (``wire.Pushes`` changed shape too)."""
    return not sender or remote.owner == sender
