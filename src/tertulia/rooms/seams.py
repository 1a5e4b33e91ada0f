"""The seams between the rooms and what uses them, declared as protocols: one process with
SQLite and a cluster of nodes are two back-ends of the same room code (DESIGN.md), so a
session never knows which one it talks to. The type checker (``make test``) holds each
implementation to its protocol:

- ``Rooms``, every room a session can reach: ``rooms.manager.RoomManager`` (this process's)
  and ``cluster.node.ClusterRooms`` (every node's, owned here or reached through its owner);
- ``RoomHandle``, one room as a session uses it: ``rooms.room.Room`` (owned here) and
  ``cluster.relay.RemoteRoom`` (relayed to its owner);
- ``Peer``, a connection as a room sees it: ``server.session.Session``,
  ``server.screens.ScreenPeer``, ``cluster.relay.RelayedPeer`` and ``rooms.bot_driver.BotPeer``.

The store's seams are ``store.base.Store`` and ``store.base.FencedStore``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

from ..protocol import ClientMessage, PublicRoom, ServerMessage


class Peer(Protocol):
    """A connection as a room sees it: a player and a way to send. What the room keeps about
    a connection (the blobs it has) is the room's; what the server keeps, the session's."""

    player: str

    def send(self, message: ServerMessage) -> None:
        """Queue a message for this connection; never blocks."""
        ...


class RoomHandle(Protocol):
    """One room, as a session joins it, talks to it and leaves it."""

    @property
    def code(self) -> str: ...

    @property
    def closed(self) -> bool:
        """The room has stopped here (closed, or moved to another node)."""
        ...

    @property
    def game(self) -> ModuleType | None:
        """The game played (or chosen) there; None while a relaying node does not know it."""
        ...

    def has_seat(self, player: str) -> bool | None:
        """Whether ``player`` has a seat there; None when only the room's owner can say."""
        ...

    def submit(self, peer: Peer, message: ClientMessage) -> None:
        """Handle a room message of ``peer``'s; its answer (an ack or an error) is sent to it."""
        ...

    async def attach(
        self,
        peer: Peer,
        nickname: str,
        msg_id: int | None,
        resume: bool = False,
        screen: bool = False,
        played: tuple[str, ...] = (),
    ) -> None:
        """Seat ``peer`` (or show the room on it, a ``screen``); raises ``RuleError``."""
        ...

    def detach(self, peer: Peer) -> None:
        """The connection left the room (closed, or went to another): not a leave."""
        ...


class Rooms(Protocol):
    """Every room a session can reach, and the lists the home page shows."""

    async def find(self, code: str) -> RoomHandle | None:
        """The live room with ``code``, or None."""
        ...

    async def create(self, game: str, public: bool, opened_by: tuple[str, ...] = ()) -> RoomHandle:
        """A new room with a fresh code, counted for each of ``opened_by`` while it lives."""
        ...

    def rooms_opened_by(self, key: str) -> int:
        """How many live rooms ``key`` (one of ``create``'s ``opened_by``) opened."""
        ...

    async def seated_room(self, player: str) -> str | None:
        """The code of the open room where ``player`` has a seat and was last active."""
        ...

    def public_rooms(self) -> list[PublicRoom]:
        """The public room list's lines, those waiting for players first."""
        ...

    async def recent_matches(self, limit: int = 10) -> list[dict[str, Any]]:
        """The latest finished matches of public rooms (each with its page's ``id``)."""
        ...

    async def matches_of(
        self, player: str, limit: int = 20, before: float | None = None
    ) -> list[dict[str, Any]]:
        """The finished matches ``player`` played, newest first."""
        ...

    async def match_page(self, public_id: str) -> tuple[bytes, bool] | None:
        """A finished match's page as JSON and whether it is public; None if none."""
        ...
