"""A refused move: ``RuleError`` and the codes the platform refuses with in every game.

The player's fault, expected and answered, never our bug: the room turns a ``RuleError`` into
an ``error`` message in one place. A game adds its own codes (its ``ERRORS``); these are
worded by the platform (``errors.<code>`` in the shared translations).
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A move the rules forbid: the player's fault, expected, answered with ``code``.

    ``code`` is a stable dotted string (``clue.color_name``, ``marker.cell_taken``) that the
    client translates; ``params`` fill the translated sentence (``{"word": "reddish"}``).
    The English ``message`` is for logs and for clients without a translation.
    """

    def __init__(self, code: str, message: str = "", /, **params: Any) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
        self.params = params

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


# Codes every game may raise; each game adds its own in its rules module.
NOT_YOUR_TURN = "action.not_your_turn"  # another seat must act now
WRONG_PHASE = "action.wrong_phase"  # the action exists, but not at this moment
NOT_A_PLAYER = "action.not_a_player"  # the seat is not playing this match (spectator)
MATCH_OVER = "action.match_over"  # the match has ended
ROOM_ONLY = "action.room_only"  # only the room (seat=None) may send this action
EARLY_TIMEOUT = "timeout.early"  # a timeout before the deadline, or with no deadline
UNKNOWN_SEAT = "seat.unknown"  # a system action names a seat the match does not know
ALREADY_SEATED = "seat.already_seated"  # a join for someone already in the match
MATCH_FULL = "seat.match_full"  # no seat left; the room makes the newcomer a spectator
