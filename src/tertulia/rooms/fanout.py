"""A room's fan-out: who is connected, and what each connection is told of a change.

What every seat shares (the lobby, the events) is encoded once per change; each seat's game
view is built and encoded on its own — and only for the seats the change can alter, when the
game says so (``views_kept``): the others get their previous view's bytes. Pushes are built
while the store writes (``prepare``) and sent once the change is durable (``broadcast``).
Large unchanging parts of a view travel as blobs, once per connection and stay in the room.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from ..games.base import Event
from ..protocol import ChatLine, Notice, RoomUpdate, ServerMessage
from .model import Chatted, GameMove, Kicked, Left, Record, RoomModel, record_encoder
from .views import game_blobs, game_part, game_view, game_views, lobby_view, views_kept

if TYPE_CHECKING:
    from .room import Peer

log = logging.getLogger("tertulia.room")

_BUILD_VIEW = object()  # update_for builds the seat's view itself unless it is given one
Shared = tuple[msgspec.Raw, msgspec.Raw]  # the room and the events, encoded once


@dataclass(frozen=True)
class Pushes:
    """A change's pushes, built before it is saved: a chat line, or the shared parts of a
    room update and each player's encoded view."""

    line: ChatLine | None = None
    shared: Shared | None = None
    views: dict[str, msgspec.Raw | None] = field(default_factory=dict)


@dataclass(frozen=True)
class _LastViews:
    """Each player's encoded view as the change numbered ``seq`` left them."""

    seq: int
    model: RoomModel
    views: dict[str, msgspec.Raw | None]


class FanOut:
    """The room's connections and what each one has been sent."""

    def __init__(self, code: Callable[[], str]) -> None:
        self._code = code  # for logs
        self.peers: set[Peer] = set()
        # The blob keys each connection already has (see RoomUpdate.blobs): the room's, as a
        # connection may be in two rooms for a moment while it moves from one to the other.
        self._sent_blobs: dict[Peer, set[str]] = {}
        self._last_views: _LastViews | None = None

    # ------------------------------------------------------------------ who is here

    def add(self, peer: Peer) -> None:
        if peer not in self.peers:
            self._sent_blobs[peer] = set()  # a new stay: it has none of this room's blobs
        self.peers.add(peer)

    def remove(self, peer: Peer) -> None:
        self.peers.discard(peer)
        self._sent_blobs.pop(peer, None)

    def connected(self, player: str) -> bool:
        return any(p.player == player for p in self.peers)

    def tabs(self, player: str) -> int:
        return sum(1 for p in self.peers if p.player == player)

    def online_players(self) -> list[str]:
        return sorted({p.player for p in self.peers})

    def new_match(self) -> None:
        """A new match's blobs may reuse the last match's keys: everyone gets them again."""
        for sent in self._sent_blobs.values():
            sent.clear()

    def tell_everyone(self, message: ServerMessage) -> None:
        """Send ``message`` to every connection, and forget them all (the room closed)."""
        for peer in list(self.peers):
            peer.send(message)
        self.peers.clear()
        self._sent_blobs.clear()

    # ------------------------------------------------------------------ pushes

    def prepare(self, model: RoomModel, seq: int, record: Record, events: list[Event]) -> Pushes:
        """What each connection will be told of the change numbered ``seq``, encoded as far
        as it can be before the change is saved (the version and new blobs are added when
        it is)."""
        if isinstance(record, Chatted):
            return Pushes(line=ChatLine(model.chat[-1]))
        wire_events = [{"kind": e.kind, **e.data} for e in events]
        players = list(dict.fromkeys(p.player for p in self.peers))
        kept = self._views_kept(model, seq, record)
        views = game_views(model, [p for p in players if p not in kept])
        encoded: dict[int, msgspec.Raw] = {}  # seats that see the same view share its bytes
        for view in views.values():
            if view is not None and id(view) not in encoded:
                encoded[id(view)] = msgspec.Raw(record_encoder.encode(view))
        by_player = {p: encoded[id(v)] if v is not None else None for p, v in views.items()}
        by_player.update((p, kept[p]) for p in players if p in kept)
        self._last_views = _LastViews(seq, model, by_player)
        return Pushes(shared=self._shared(model, wire_events), views=by_player)

    def _views_kept(self, model: RoomModel, seq: int, record: Record) -> dict[str, Any]:
        """The encoded views of the change just before this one that this one leaves as they
        were (see ``views_kept``); only if that change was told (it is numbered ``seq - 1``)
        and the room was not rebuilt since."""
        last = self._last_views
        if (
            last is None
            or last.seq != seq - 1
            or last.model is not model
            or not isinstance(record, GameMove)
            or record.seat is None
        ):
            return {}
        return views_kept(model, record.seat, record.action, last.views)

    def broadcast(self, model: RoomModel, version: int, record: Record, pushes: Pushes) -> None:
        if pushes.line is not None:
            for peer in self.peers:
                peer.send(pushes.line)
            return
        # Connections can only have left since prepare (joining goes through the inbox).
        for peer in list(self.peers):
            view = pushes.views[peer.player]
            peer.send(self.update_for(peer, model, version, pushes.shared, view=view))
        self._part(record)

    def broadcast_one_by_one(self, model: RoomModel, version: int, record: Record) -> None:
        """Everyone's update built now, each on its own: the pushes built ahead failed."""
        for peer in list(self.peers):
            try:
                if isinstance(record, Chatted):
                    peer.send(ChatLine(model.chat[-1]))
                else:
                    peer.send(self.update_for(peer, model, version))
            except Exception:
                log.exception("room %s: no update for %s", self._code(), peer.player)
        self._part(record)

    def update_for(
        self,
        peer: Peer,
        model: RoomModel,
        version: int,
        shared: Shared | None = None,
        with_chat: bool = False,
        view: Any = _BUILD_VIEW,  # a dict, its encoded bytes (msgspec.Raw) or None
    ) -> RoomUpdate:
        room, events = shared if shared is not None else self._shared(model, [])
        return RoomUpdate(
            version=version,
            room=room,
            view=game_view(model, peer.player) if view is _BUILD_VIEW else view,
            events=events,
            chat=list(model.chat) if with_chat else None,
            blobs=self._new_blobs(peer, model),
        )

    def _part(self, record: Record) -> None:
        """The player who left (or was removed) gets no more pushes from this room."""
        if not isinstance(record, (Left, Kicked)):
            return
        for peer in [p for p in self.peers if p.player == record.player]:
            self.remove(peer)
            if isinstance(record, Kicked):
                peer.send(Notice("room.kicked", "The host removed you from the room."))

    def _shared(self, model: RoomModel, events: list[dict]) -> Shared:
        """What every seat's push has in common, encoded once: the room and the events."""
        room = lobby_view(model) | {"online": self.online_players()}
        return msgspec.Raw(record_encoder.encode(room)), msgspec.Raw(record_encoder.encode(events))

    def _new_blobs(self, peer: Peer, model: RoomModel) -> dict[str, Any] | None:
        """The game's blobs this seat may see and this connection does not have yet."""
        if game_part(model.game, "blobs") is None:
            return None
        sent = self._sent_blobs.setdefault(peer, set())
        fresh = game_blobs(model, peer.player, sent)
        sent.update(fresh)
        return fresh or None
