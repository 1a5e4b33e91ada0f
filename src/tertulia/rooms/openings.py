"""A match's opening: the room as it was just before the match started, kept with the match's
records once it ends (``Store.record_finished_match``), so its page can fold them again
(``match_page.py``) long after the room has closed.

Unlike a snapshot (``replay.py``, a cache tied to the version that wrote it) an opening is
kept for ``--keep-days`` across upgrades, so it is JSON with named fields: a field added
later takes its default when an older opening is read, as records' fields do. What it holds
is what folding the match's records reads of the room: the game and its settings, the seats,
the host, who was removed and the votes (one may run into the match). Never the chat.
"""

from __future__ import annotations

import collections
from types import ModuleType
from typing import Any

import msgspec

from .room_data import CHAT_HISTORY, RoomModel, Seat, Status, VoteBook

FORMAT = 1


class Opening(msgspec.Struct, frozen=True):
    game: str
    public: bool
    settings: dict[str, Any]
    host: str | None
    seats: list[Seat]
    former_colours: dict[str, int] = {}
    removed: list[str] = []
    votes: VoteBook = msgspec.field(default_factory=VoteBook)
    format: int = FORMAT


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Opening)


def opening_of(room: RoomModel) -> bytes:
    """The room now, as a match starting now keeps it."""
    return _encoder.encode(
        Opening(
            game=room.game.NAME,
            public=room.public,
            settings=msgspec.to_builtins(room.settings),
            host=room.host,
            seats=room.seats,
            former_colours=room.former_colours,
            removed=sorted(room.removed),
            votes=room.votes,
        )
    )


def room_from_opening(
    data: bytes, code: str, games: dict[str, ModuleType]
) -> tuple[RoomModel, Opening] | None:
    """The room an opening describes, in the lobby, ready to fold the match's first record;
    None if this code cannot read it (a game that is gone, settings it no longer takes)."""
    try:
        opening = _decoder.decode(data)
        game = games[opening.game]
        settings = msgspec.convert(opening.settings, game.Settings)
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError):
        return None
    room = RoomModel(
        code=code,
        public=opening.public,
        game=game,
        games=games,
        settings=settings,
        host=opening.host,
        seats=list(opening.seats),  # decoded afresh: the room's own
        status=Status.LOBBY,
        chat=collections.deque(maxlen=CHAT_HISTORY),
        former_colours=dict(opening.former_colours),
        removed=set(opening.removed),
        votes=opening.votes,
    )
    return room, opening
