"""The room refusals that several parts give (the session, the room, the cluster's relay and
its held messages), each written once: one code, one English sentence. The client words each
by its code (``web/i18n``); the sentence is for logs and for clients without translations."""

from __future__ import annotations

from ..games.base import RuleError


def not_in_room() -> RuleError:
    """A room message from a connection that is in no room (or left, or was removed)."""
    return RuleError("room.not_in", "You are not in a room.")


def room_closed() -> RuleError:
    """A message still waiting in a room that closed."""
    return RuleError("room.unknown", "This room has closed.")


def room_moved() -> RuleError:
    """Nothing was changed: the room moved to another node (cluster mode); send it again."""
    return RuleError("room.moved", "The room moved to another server; try again.")


def outcome_unknown() -> RuleError:
    """The room's owner died after the message reached it and before it answered."""
    return RuleError(
        "room.outcome_unknown",
        "The server holding the room stopped before it answered; "
        "check whether your move counted before you send it again.",
    )
