"""A room's fan-out: who is connected, and what each connection is told of a change.

A connection gets the whole picture once — a ``room`` push when it comes in, or when it asks
(``sync``) — and from then on, for each change, a ``patch``: the JSON Patch from the room and
view it last received to the new ones (``patches.py``). Each connection's last picture is kept
here, so a patch is computed from that seat's own views only, and a connection that missed
nothing always gets one that fits.

The pictures are kept encoded (JSON bytes), not as dicts: bytes hold no references, so the
garbage collector never walks them (as dicts, ten views per room made full collections of
half a second at 5,000 players; benchmarks/README.md), they take a fraction of the memory,
and "unchanged" is one comparison of bytes. A part that did change is diffed as bytes
(``patches.diff_encoded``): only the members whose bytes differ are read — usually a field or
two of one seat's view per action.

What every seat shares (the room, the events) is built once per change; each seat's game view
is built on its own — and only for the seats the change can alter, when the game says so
(``views_kept``): the others keep their previous view, and their patch says nothing of it.
Patches are built while the store writes (``prepare``) and sent once the change is durable
(``broadcast``). Large unchanging parts of a view travel as blobs, once per connection.

Most connections of a room get the very same frame for a change (the nine seats a marker
selection leaves as they were: no room change, no view change, the same events): they are
sent one message object, encoded once, not one each.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, KeysView
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import msgspec

from ..games.base import Event
from ..patches import diff_encoded
from ..protocol import ChatLine, Notice, RoomPatch, RoomUpdate, ServerMessage
from .records import Chatted, GameMove, Kicked, Left, Record, VoteClosed, record_encoder
from .room_data import RoomModel, Status
from .views import game_blobs, game_part, game_view, game_views, lobby_view, views_kept
from .votes import BAR_SECONDS

if TYPE_CHECKING:
    from .seams import Peer

log = logging.getLogger("tertulia.room")

_encode = record_encoder.encode
_NO_CHANGE = msgspec.Raw(b"[]")


class _Stay:
    """What one connection holds of this room: the blobs it has, and the picture (room,
    view, encoded) of the push numbered ``version`` it received last — None before its
    first."""

    __slots__ = ("blobs", "room", "told_on_arrival", "version", "view")

    def __init__(self) -> None:
        self.blobs: set[str] = set()
        self.version: int | None = None
        self.room = b""
        self.view = b"null"
        # Its first whole picture (with the chat) came with the change of its own arrival
        # (a join, a return): the room need not send it another (``arrived_told``).
        self.told_on_arrival = False


@dataclass
class Pushes:
    """A change's pushes, built before it is saved: a chat line, or the new room and each
    player's new view (encoded) with the patches to them from each picture connections
    hold."""

    line: ChatLine | None = None
    room: bytes = b""
    events: msgspec.Raw = field(default_factory=lambda: _NO_CHANGE)
    views: dict[str, bytes] = field(default_factory=dict)
    # Encoded patches, by the picture they start from (most connections share one), and for
    # views by the view they lead to; equal patches are one object.
    room_patches: dict[bytes, msgspec.Raw] = field(default_factory=dict)
    view_patches: dict[tuple[bytes, bytes], msgspec.Raw] = field(default_factory=dict)


@dataclass(frozen=True)
class _LastViews:
    """Each player's view and the room part (encoded) as the change numbered ``seq`` left
    them."""

    seq: int
    model: RoomModel
    views: dict[str, bytes]
    room: bytes


class FanOut:
    """The room's connections and what each one has been sent."""

    def __init__(self, code: Callable[[], str]) -> None:
        self._code = code  # for logs
        self._stays: dict[Peer, _Stay] = {}
        self._last_views: _LastViews | None = None
        self._shared_room = b""  # the newest room part sent: whole pictures share its bytes

    # ------------------------------------------------------------------ who is here

    @property
    def peers(self) -> KeysView[Peer]:
        return self._stays.keys()

    def add(self, peer: Peer) -> None:
        if peer not in self._stays:
            self._stays[peer] = _Stay()  # a new stay: no blobs, no picture yet

    def remove(self, peer: Peer) -> None:
        self._stays.pop(peer, None)

    def connected(self, player: str) -> bool:
        return any(p.player == player for p in self._stays)

    def tabs(self, player: str) -> int:
        return sum(1 for p in self._stays if p.player == player)

    def new_match(self) -> None:
        """A new match's blobs may reuse the last match's keys: everyone gets them again."""
        for stay in self._stays.values():
            stay.blobs.clear()

    def send_all(self, message: ServerMessage) -> None:
        """Send ``message`` to every connection here (a reaction: nothing to keep)."""
        for peer in self._stays:
            peer.send(message)

    def tell_everyone(self, message: ServerMessage) -> None:
        """Send ``message`` to every connection, and forget them all (the room closed)."""
        for peer in list(self._stays):
            peer.send(message)
        self._stays.clear()

    # ------------------------------------------------------------------ pushes

    def prepare(self, model: RoomModel, seq: int, record: Record, events: list[Event]) -> Pushes:
        """What each connection will be told of the change numbered ``seq``, built as far as
        it can be before the change is saved (the version and new blobs are added when it
        is). A connection without a picture yet gets the whole of it then."""
        if isinstance(record, Chatted):
            # A chat line is in nobody's view nor in the room part: the change after it may
            # keep them as the change before it left them.
            last = self._told_just_before(model, seq)
            if last is not None:
                self._last_views = replace(last, seq=seq)
            return Pushes(line=ChatLine(model.chat[-1]))
        if not self._stays:  # nobody to tell (a room restored before anyone is back)
            self._last_views = None
            return Pushes()
        players = list(dict.fromkeys(p.player for p in self._stays))
        kept = self._views_kept(model, seq, record)
        built = game_views(model, [p for p in players if p not in kept])
        encoded: dict[int, bytes] = {}  # seats that see the same view share its bytes
        views = {p: kept[p] for p in players if p in kept}
        for player, view in built.items():
            if id(view) not in encoded:
                encoded[id(view)] = _encode(view)
            views[player] = encoded[id(view)]
        room = self._room_kept(model, seq, record) or self._share(_encode(lobby_view(model)))
        self._last_views = _LastViews(seq, model, views, room)
        pushes = Pushes(
            room=room,
            events=msgspec.Raw(_encode([{"kind": e.kind, **e.data} for e in events])),
            views=views,
        )
        known: dict[bytes, msgspec.Raw] = {}  # equal patches are one object (``broadcast``)
        for peer, stay in self._stays.items():
            if stay.version is None:
                continue
            if stay.room not in pushes.room_patches:
                pushes.room_patches[stay.room] = _patch(stay.room, pushes.room, known)
            key = (stay.view, views[peer.player])
            if key not in pushes.view_patches:
                pushes.view_patches[key] = _patch(*key, known)
        return pushes

    def _views_kept(self, model: RoomModel, seq: int, record: Record) -> dict[str, bytes]:
        """The views of the change just before this one that this one leaves as they were
        (see ``views_kept``); only if that change was told (it is numbered ``seq - 1``) and
        the room was not rebuilt since."""
        last = self._told_just_before(model, seq)
        if last is None or not isinstance(record, GameMove) or record.seat is None:
            return {}
        return views_kept(model, record.seat, record.action, last.views)

    def _room_kept(self, model: RoomModel, seq: int, record: Record) -> bytes | None:
        """The room part of the change just before this one, if this one leaves it as it was:
        a game move changes the room only by ending the match (``departures.note_end``: the
        status, and the match's page with it), so one after which the match goes on leaves
        it as it was — if the change before was told and the room was not rebuilt since."""
        last = self._told_just_before(model, seq)
        if last is None or not isinstance(record, GameMove) or model.status is not Status.PLAYING:
            return None
        return last.room

    def _told_just_before(self, model: RoomModel, seq: int) -> _LastViews | None:
        """What was told of the change numbered ``seq - 1``, if the room was not rebuilt
        since; else None."""
        last = self._last_views
        if last is None or last.seq != seq - 1 or last.model is not model:
            return None
        return last

    def broadcast(self, model: RoomModel, version: int, record: Record, pushes: Pushes) -> None:
        if pushes.line is not None:
            for peer in self._stays:
                peer.send(pushes.line)
            return
        # Connections whose frames would be the same bytes get the same message, one after
        # the other, which is encoded once (``protocol.encode``): by what they start from
        # and the patches' objects (equal patches are one).
        alike: dict[tuple[int, int, int], tuple[msgspec.Raw, msgspec.Raw, list[Peer]]] = {}
        # Connections can only have left since prepare (joining goes through the inbox).
        for peer, stay in list(self._stays.items()):
            view = pushes.views[peer.player]
            if stay.version is None:  # its first: the whole picture, with the recent chat
                whole = self._whole(
                    peer, stay, model, version, pushes.room, view, pushes.events, list(model.chat)
                )
                stay.told_on_arrival = True
                peer.send(whole)
                continue
            base, room, patch = (
                stay.version,
                pushes.room_patches[stay.room],
                pushes.view_patches[(stay.view, view)],
            )
            blobs = self._new_blobs(stay, peer, model)
            stay.version, stay.room, stay.view = version, pushes.room, view
            if blobs is None:
                alike.setdefault((base, id(room), id(patch)), (room, patch, []))[2].append(peer)
            else:  # blobs of its own: a frame of its own
                peer.send(_patch_message(model.code, version, base, room, patch, pushes, blobs))
        for (base, _, _), (room, patch, peers) in alike.items():
            message = _patch_message(model.code, version, base, room, patch, pushes)
            for peer in peers:
                peer.send(message)
        self._part(record, model)

    def arrived_told(self, peer: Peer) -> bool:
        """Whether ``peer``'s first whole picture went with the change its arrival made (then
        it has the picture and the chat already); asked once, as it arrives."""
        stay = self._stays.get(peer)
        told = stay is not None and stay.told_on_arrival
        if stay is not None:
            stay.told_on_arrival = False
        return told

    def broadcast_one_by_one(self, model: RoomModel, version: int, record: Record) -> None:
        """Everyone's whole picture built now, each on its own: the pushes built ahead
        failed."""
        for peer in list(self._stays):
            try:
                if isinstance(record, Chatted):
                    peer.send(ChatLine(model.chat[-1]))
                else:
                    peer.send(self.update_for(peer, model, version))
            except Exception:
                log.exception("room %s: no update for %s", self._code(), peer.player)
        self._part(record, model)

    def update_for(
        self, peer: Peer, model: RoomModel, version: int, with_chat: bool = False
    ) -> RoomUpdate:
        """``peer``'s whole picture now (it comes in, asks for it, or a patch could not be
        built); its patches start from it."""
        stay = self._stays.setdefault(peer, _Stay())
        view = _encode(game_view(model, peer.player))
        last = self._last_views.views.get(peer.player) if self._last_views else None
        if view == last:
            view = last  # one copy for the player's connections and the last change's views
        chat = list(model.chat) if with_chat else None
        room = self._share(_encode(lobby_view(model)))
        return self._whole(peer, stay, model, version, room, view, _NO_CHANGE, chat)

    def _share(self, room: bytes) -> bytes:
        """Every connection keeps its picture and the room part is the same for all: one copy
        of it, not one per connection (everyone asking at once would keep ten)."""
        if room != self._shared_room:
            self._shared_room = room
        return self._shared_room

    def _whole(
        self,
        peer: Peer,
        stay: _Stay,
        model: RoomModel,
        version: int,
        room: bytes,
        view: bytes,
        events: msgspec.Raw,
        chat: list | None = None,
    ) -> RoomUpdate:
        stay.version, stay.room, stay.view = version, room, view
        return RoomUpdate(
            version=version,
            room=msgspec.Raw(room),
            view=msgspec.Raw(view),
            events=events,
            chat=chat,
            blobs=self._new_blobs(stay, peer, model),
        )

    def _part(self, record: Record, model: RoomModel) -> None:
        """The player who left (or was removed: by the host, by a vote) gets no more pushes
        from this room."""
        if isinstance(record, VoteClosed):
            if model.seat(record.player) is not None:
                return  # kept
            notice = Notice(
                "room.voted_out",
                "The players voted you out of the room.",
                {"minutes": round(BAR_SECONDS / 60)},
            )
        elif isinstance(record, Kicked):
            notice = Notice("room.kicked", "The host removed you from the room.")
        elif isinstance(record, Left):
            notice = None
        else:
            return
        for peer in [p for p in self._stays if p.player == record.player]:
            self.remove(peer)
            if notice is not None:
                peer.send(notice)

    def _new_blobs(self, stay: _Stay, peer: Peer, model: RoomModel) -> dict[str, Any] | None:
        """The game's blobs this seat may see and this connection does not have yet."""
        if game_part(model.game, "blobs") is None:
            return None
        fresh = game_blobs(model, peer.player, stay.blobs)
        stay.blobs.update(fresh)
        return fresh or None


def _patch(was: bytes, now: bytes, known: dict[bytes, msgspec.Raw]) -> msgspec.Raw:
    """The encoded patch from the picture part ``was`` to ``now``, diffed as bytes (equal
    bytes are no change; otherwise only the members whose bytes differ are read), and the
    same object as an equal one already in ``known``."""
    if was == now:
        return _NO_CHANGE
    patch = diff_encoded(was, now)
    return known.setdefault(patch, msgspec.Raw(patch))


def _patch_message(
    code: str,
    version: int,
    base: int,
    room: msgspec.Raw,
    view: msgspec.Raw,
    pushes: Pushes,
    blobs: dict[str, Any] | None = None,
) -> RoomPatch:
    return RoomPatch(
        code=code,
        version=version,
        base=base,
        room=room,
        view=view,
        events=pushes.events,
        blobs=blobs,
    )
