"""The messages nodes send each other over Redis, listed by direction (as lila-ws's LilaIn
and LilaOut are): small, typed, one struct each.

Every node listens on its own channel (``<namespace>:node:<name>``). A connection that is in
a room owned by another node is known there by ``conn``, a name unique in the cluster
(``<node>/<n>``); the owner answers on the connection's node's channel (``reply_to``).
"""

from __future__ import annotations

import msgspec

# ---------------------------------------------------------------- to a room's owner


class Attach(msgspec.Struct, tag="attach", frozen=True):
    """Seat this connection in ``room`` (``join_room``/``create_room``'s second half)."""

    conn: str
    reply_to: str
    room: str
    player: str
    nickname: str
    msg_id: int | None  # None: the connection's node follows the room by itself
    resume: bool = False
    screen: bool = False  # a shared screen (``player`` is then the screen's own name)
    played: list[str] = []  # the games the joiner's browser has played
    # The connection's address as its node counts it (a vote keeps a removed player's out
    # of the room for a while: ``rooms/live_votes.py``).
    address: str = ""
    # Echoed in the answer, so it reaches this attach and no other of the connection (one that
    # timed out is answered late); 0 from a node before serials (answers then go in order).
    serial: int = 0


class Frame(msgspec.Struct, tag="frame", frozen=True):
    """A room message from a connection already attached (encoded as the client sent it)."""

    conn: str
    room: str
    body: bytes
    # The request's id: the connection's node learns from Redis whether the owner heard it
    # (a frame nobody heard was applied by nobody; see relay.py).
    msg_id: int | None = None


class Detach(msgspec.Struct, tag="detach", frozen=True):
    """The connection left the room (closed, or moved to another room): not a leave."""

    conn: str
    room: str


# ---------------------------------------------------------------- to a connection's node


class Pushes(msgspec.Struct, tag="pushes", frozen=True):
    """Encoded server messages for connections of the receiving node, in order:
    ``[conn, message, answers], …``; ``answers`` is the id of the request an ``ack`` or
    ``error`` answers (else None), so the connection's node knows which of its frames are
    still waiting on the owner."""

    items: list[tuple[str, bytes, int | None]]
    sender: str = ""  # the node that built them: a former owner's late ones are dropped


class Attached(msgspec.Struct, tag="attached", frozen=True):
    """The answer to ``Attach``: seated (its picture and ack were in the pushes before it),
    or refused with a rule error."""

    conn: str
    room: str
    error: tuple[str, str, dict] | None = None  # code, sentence, params
    game: str = ""  # the game played there (a session's frame limit depends on it)
    owner: str = ""  # the node answering: an answer from a former owner is not the new one's
    serial: int = 0  # the ``Attach.serial`` this answers


class Released(msgspec.Struct, tag="released", frozen=True):
    """The owner no longer has ``room`` (it lost or gave up the lease): its connections there
    find the room's new owner and attach again."""

    room: str
    conns: list[str]
    owner: str = ""  # the node that let it go: the room may already be reached through another
    # False: the owner still has the room, but not these connections in it (it refused a
    # frame of theirs ``room.moved``): only they attach again; the room stays reached there.
    whole: bool = True
    # The node the owner handed the room to (its players are there: ``placement.py``); the
    # other nodes leave the free lease to it for a while rather than racing it. "": anyone.
    heir: str = ""


# ---------------------------------------------------------------- to every node


class Owned(msgspec.Struct, tag="owned", frozen=True):
    """``owner`` has just taken ``room`` over and it is playable there: a node waiting to
    find the room again (its connections were in it) looks now, rather than at its next
    look at the lease."""

    room: str
    owner: str
    # The fence of the lease it took: a way to the room through the same node under an older
    # lease is stale (that node let the room go and took it back meanwhile). 0: not said.
    fence: int = 0


ToNode = Attach | Frame | Detach | Pushes | Attached | Released | Owned

_decoder = msgspec.msgpack.Decoder(ToNode)
_encoder = msgspec.msgpack.Encoder()


def encode(message: ToNode) -> bytes:
    return _encoder.encode(message)


def decode(data: bytes) -> ToNode:
    return _decoder.decode(data)
