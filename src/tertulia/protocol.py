"""Every WebSocket message, by direction, as msgspec tagged unions (documented in
``docs/protocol.md`` with an example of each).

Shared by ``server/`` (which carries the frames), ``rooms/`` (which answers them) and
``client.py`` (which speaks them), so each message is written once.

A client message carries an ``id`` chosen by the client; the server answers every one of them
with exactly one ``ack`` or ``error`` naming that id (``re``) — never silence. State reaches the
client as ``room`` pushes, each with the room's ``version``; a push always carries the whole
current picture (lobby and the seat's own game view), so a client that missed anything just
takes the latest one.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec

from .games.base import RuleError
from .text.lookalike import BIDI_CONTROLS, strip_bidi_controls

# --------------------------------------------------------------------------- client → server


class ClientMessage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    id: int


class Hello(ClientMessage, tag="hello", frozen=True):
    """First message on a connection: who I am (the secret from localStorage, if any)."""

    token: str | None = None


class CreateRoom(ClientMessage, tag="create_room", frozen=True):
    game: str
    nickname: str
    public: bool = False
    # The games this browser has played before (a first-timer of the room's game is taught,
    # and never starts as its clue giver or artist).
    played: list[str] = []


class JoinRoom(ClientMessage, tag="join_room", frozen=True):
    code: str
    nickname: str
    # Only take back the seat this player still has (a client's automatic rejoin after a
    # reconnection): one who left in another tab, or whom the host removed, stays out.
    resume: bool = False
    played: list[str] = []  # as in create_room


class OpenScreen(ClientMessage, tag="open_screen", frozen=True):
    """Show room ``code`` on this connection as a shared screen (a TV): no seat, the picture
    a spectator sees, never anyone's secret; it sends nothing but ``sync``."""

    code: str


class LeaveRoom(ClientMessage, tag="leave_room", frozen=True):
    pass


class ListRooms(ClientMessage, tag="list_rooms", frozen=True):
    pass


class SetNickname(ClientMessage, tag="set_nickname", frozen=True):
    nickname: str


class ChooseGame(ClientMessage, tag="choose_game", frozen=True):
    game: str


class UpdateSettings(ClientMessage, tag="update_settings", frozen=True):
    """Change some settings; fields not named keep their value."""

    settings: dict[str, Any]


class RestoreDefaults(ClientMessage, tag="restore_defaults", frozen=True):
    pass


class Reorder(ClientMessage, tag="reorder", frozen=True):
    order: list[str]


class Kick(ClientMessage, tag="kick", frozen=True):
    player: str


class AddBot(ClientMessage, tag="add_bot", frozen=True):
    """The host seats a computer player (Pitacor and Haiclue); its name and colour are the
    room's choice. ``language``: the language of its words (the room's, as the host's page
    has it)."""

    level: str = "good"  # "beginner" | "good"
    language: str = "en"


class RemoveBot(ClientMessage, tag="remove_bot", frozen=True):
    player: str


class StandIn(ClientMessage, tag="stand_in", frozen=True):
    """The host hands ``player``'s seat, dropped out of the match, to a computer player until
    they come back ("play for them")."""

    player: str
    level: str = "good"
    language: str = "en"


class EndStandIn(ClientMessage, tag="end_stand_in", frozen=True):
    """The host takes the seat back from the computer player playing for ``player`` (who is
    still away): the seat waits for them again, as after their drop."""

    player: str


class StartMatch(ClientMessage, tag="start_match", frozen=True):
    pass


class Rematch(ClientMessage, tag="rematch", frozen=True):
    pass


class Act(ClientMessage, tag="act", frozen=True):
    """A game action, decoded by the room's game (``{"type": "give_clue", "text": "ocean"}``)."""

    action: dict[str, Any]


class Check(ClientMessage, tag="check", frozen=True):
    """Would this game action be accepted now? Answered by an ack or the refusal it would get;
    nothing changes and nobody else hears of it (the clue box's live "why not")."""

    action: dict[str, Any]


class Chat(ClientMessage, tag="chat", frozen=True):
    text: str


class React(ClientMessage, tag="react", frozen=True):
    """A quick reaction (``rooms/reactions.py``: clap, laugh, wow, love, think, fire), shown
    for a moment on every screen of the room; not chat, not logged."""

    kind: str


class VoteRemove(ClientMessage, tag="vote_remove", frozen=True):
    """Start a vote to remove ``player`` from the room, for ``reason`` (``rooms/votes.py``:
    spoiling, offensive, cheating, away)."""

    player: str
    reason: str


class CastVote(ClientMessage, tag="vote", frozen=True):
    """My ballot in the vote running: remove them (``yes``) or keep them."""

    yes: bool


class AllowVotes(ClientMessage, tag="allow_votes", frozen=True):
    """The host of a private room allows votes to remove (a public room always has them)."""

    allow: bool


class HideName(ClientMessage, tag="hide_name", frozen=True):
    """Should I be removed from the room during a match, its page does not show my name."""

    hide: bool = True


class MyMatches(ClientMessage, tag="my_matches", frozen=True):
    """The finished matches this connection's player played, newest first (those that ended
    before ``before``, for the next page of them); answered by an ack with ``matches``."""

    limit: Annotated[int, msgspec.Meta(ge=1, le=50)] = 20
    before: float | None = None


class Sync(ClientMessage, tag="sync", frozen=True):
    """Send me this room's whole picture again (a ``patch`` came for a push I do not hold);
    answered by a ``room`` push, then an ack."""


class Ping(ClientMessage, tag="ping", frozen=True):
    """Answered by an ack whose data has the server's clock (``now``), for countdowns."""


Incoming = (
    Hello
    | CreateRoom
    | JoinRoom
    | LeaveRoom
    | ListRooms
    | SetNickname
    | ChooseGame
    | UpdateSettings
    | RestoreDefaults
    | Reorder
    | Kick
    | AddBot
    | RemoveBot
    | StandIn
    | EndStandIn
    | StartMatch
    | Rematch
    | Act
    | Check
    | Chat
    | React
    | Sync
    | Ping
    | OpenScreen
    | VoteRemove
    | CastVote
    | AllowVotes
    | HideName
    | MyMatches
)


# --------------------------------------------------------------------------- server → client


class ServerMessage(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class Ack(ServerMessage, tag="ack", frozen=True):
    re: int
    data: dict[str, Any] | None = None


class Error(ServerMessage, tag="error", frozen=True):
    """A refusal: ``code`` is stable and translated by the client, ``message`` is English."""

    re: int | None
    code: str
    message: str
    params: dict[str, Any] = {}

    @classmethod
    def refusing(cls, msg_id: int | None, error: RuleError) -> Error:
        """The one way a rule's refusal becomes the client's error (its params included),
        wherever it is refused: the session, the room, or a node relaying for another."""
        return cls(msg_id, error.code, error.message, error.params)


class Welcome(ServerMessage, tag="welcome", frozen=True):
    """Who the server knows you as: your public id and the secret to keep (localStorage)."""

    player: str
    token: str
    now: float  # the server's clock: deadlines in views are on it
    # The live room where this player holds a seat (the latest they were active in), so a
    # page opened afresh can offer to go back to it; None if there is none.
    room: str | None = None


class RoomUpdate(ServerMessage, tag="room", frozen=True):
    """The room as this connection's seat may see it, after change number ``version``."""

    version: int
    # The room and the events are the same for every seat: the room encodes them once per
    # change (msgspec.Raw); each view is encoded once per seat while the change is saved.
    room: dict[str, Any] | msgspec.Raw
    view: dict[str, Any] | msgspec.Raw | None = None
    events: list[dict[str, Any]] | msgspec.Raw = []
    chat: list[dict[str, Any]] | None = None  # the recent chat, on joining or resuming
    # Large, unchanging pieces the view refers to by key (a Pintó drawing), each sent once per
    # connection: only the keys this connection has not received yet.
    blobs: dict[str, Any] | None = None


class RoomPatch(ServerMessage, tag="patch", frozen=True):
    """What changed for this connection's seat with change number ``version``, as JSON Patch
    operations (RFC 6902, see ``patches.py``) on the ``room`` and ``view`` of the push it last
    received, numbered ``base``. A client that does not hold ``base`` sends ``sync``."""

    code: str  # the room's: a connection moving between rooms may get a late one of the last
    version: int
    base: int
    room: list[dict[str, Any]] | msgspec.Raw = []
    view: list[dict[str, Any]] | msgspec.Raw = []
    events: list[dict[str, Any]] | msgspec.Raw = []
    blobs: dict[str, Any] | None = None


class ChatLine(ServerMessage, tag="chat", frozen=True):
    line: dict[str, Any]


class Reaction(ServerMessage, tag="reaction", frozen=True):
    """Someone here reacted (``react``): show it for a moment."""

    player: str
    kind: str


class PublicRoom(msgspec.Struct, frozen=True):
    """A line of the public room list, written once (``rooms.views.summary``) and sent as it
    is: to a browser (``rooms``, ``GET /api/rooms``) and from node to node (each node
    publishes its own rooms' lines)."""

    code: str
    game: str
    status: str  # the room's: "lobby", "playing" or "ended"
    players: int  # seated players (not spectators)
    max_players: int
    online: int  # players with a connection here
    host: str | None  # the host's nickname
    joining: str  # what a stranger who comes in does: "play", "next_round" or "watch"


class RoomList(ServerMessage, tag="rooms", frozen=True):
    rooms: list[PublicRoom]
    recent: list[dict[str, Any]] = []


class Notice(ServerMessage, tag="notice", frozen=True):
    """Something happened to you outside an answer: kicked, room closed, server restarting."""

    code: str
    message: str
    params: dict[str, Any] = {}


Outgoing = Ack | Error | Welcome | RoomUpdate | RoomPatch | ChatLine | Reaction | RoomList | Notice

_decoder = msgspec.json.Decoder(Incoming)
_encoder = msgspec.json.Encoder()


# Whether a frame may hold a bidirectional control: the character itself, or a JSON escape
# of it ("\u202e"). An ASCII frame cannot hold the character, and a frame without a
# backslash holds no escape: both are told by scans at memory speed. Measured: a chat line
# costs well under a microsecond more, a 130 KB drawing a few microseconds (some tens if its
# text is not ASCII), against about a millisecond to decode it.
_BIDI_ESCAPE = "|".join(f"{ord(ch):04x}" for ch in BIDI_CONTROLS)
_BIDI_ESCAPE_TEXT = re.compile(rf"\\u(?:{_BIDI_ESCAPE})", re.IGNORECASE)
_BIDI_ESCAPE_BYTES = re.compile(rf"\\u(?:{_BIDI_ESCAPE})".encode(), re.IGNORECASE)
_BIDI_UTF8 = re.compile(b"|".join(re.escape(ch.encode()) for ch in BIDI_CONTROLS))
_BIDI_LEAD_BYTES = frozenset(ch.encode()[:1] for ch in BIDI_CONTROLS)


def _may_hold_bidi(frame: bytes | str) -> bool:
    if isinstance(frame, str):
        if not frame.isascii() and any(ch in frame for ch in BIDI_CONTROLS):
            return True
        return "\\" in frame and _BIDI_ESCAPE_TEXT.search(frame) is not None
    lead = not frame.isascii() and any(byte in frame for byte in _BIDI_LEAD_BYTES)
    if lead and _BIDI_UTF8.search(frame):
        return True
    return b"\\" in frame and _BIDI_ESCAPE_BYTES.search(frame) is not None


def decode(frame: bytes | str) -> ClientMessage:
    """Parse one client frame; raises ``msgspec.DecodeError`` / ``ValidationError``.

    Every string in it loses its bidirectional controls first (nicknames, chat, clues,
    titles, settings): they make text display in another order than it is written, and no
    player text needs them. The cleaned message is validated as the frame would have been.
    """
    if _may_hold_bidi(frame):
        frame = _encoder.encode(_without_bidi(msgspec.json.decode(frame)))
    return _decoder.decode(frame)


def _without_bidi(value: Any) -> Any:
    if isinstance(value, str):
        return strip_bidi_controls(value)
    if isinstance(value, list):
        return [_without_bidi(item) for item in value]
    if isinstance(value, dict):
        return {_without_bidi(key): _without_bidi(item) for key, item in value.items()}
    return value


def encode(message: ServerMessage | ClientMessage) -> bytes:
    """A message as JSON: a server message for a client, or a client's relayed to its room's
    owner (``cluster/relay.py``).

    A push several connections share is one message object, sent to each of them in turn
    (``rooms/fanout.py``): the last message encoded is kept with its bytes, so it is encoded
    once (messages are frozen). Holding it keeps its id from being reused."""
    global _last_encoded
    last = _last_encoded
    if last[0] is message:
        return last[1]
    data = _encoder.encode(message)
    _last_encoded = (message, data)
    return data


_last_encoded: tuple[object, bytes] = (None, b"")
