"""Quick reactions: a few emoji anyone seated in a room (a player or a spectator) sends at a
reveal or a podium, shown for a moment on every screen.

They are not chat and not game moves: never logged, never part of the room's picture (so
they change no version and a late joiner sees none), just passed on to everyone here. But a
reaction can be a hint as much as a chat line can ("the clue giver can't chat until the
reveal"), so it is closed exactly where chat is. Each connection may send a few, then one a
second (the session's bucket, on top of every frame's own limit).
"""

from __future__ import annotations

from ..games.base import RuleError
from .refusals import not_in_room
from .room_data import RoomModel, Status

# The set a client offers, by name (the emoji are the client's): 👏 😂 😮 😍 🤔 🔥.
REACTIONS = ("clap", "laugh", "wow", "love", "think", "fire")


def check_reaction(room: RoomModel, player: str, kind: str) -> None:
    """Raise ``RuleError`` unless ``player`` may send reaction ``kind`` now."""
    if kind not in REACTIONS:
        raise RuleError("reaction.unknown", "There is no such reaction.", kind=kind)
    seat = room.seat(player)
    if seat is None:
        raise not_in_room()
    if (
        room.status is Status.PLAYING
        and not seat.spectator
        and not room.game.may_chat(room.match, player)
    ):
        raise RuleError("reaction.not_now", "You can't react right now: it could be a hint.")
