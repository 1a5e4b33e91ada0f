"""A connection's room messages held while its room moves to another node (cluster mode).

When the node that owns a room dies or hands it on, the connection's own node attaches it to
the new owner by itself. Until that is done there is no room to give a message to, yet the
player is still in it: a message sent meanwhile is kept here, in order, and handed to the
new owner once the connection is attached there (after the whole picture it gets from it).
Bounded, so a client cannot make the server keep much: at most ``MAX_FRAMES`` messages (any
more is answered ``room.moved`` at once) for at most ``MAX_SECONDS`` (then whatever is still
held is answered ``room.moved``: nothing was changed, send it again — the connection is
still on its way to the room and will get its picture). Never ``room.not_in``: the player
did not leave.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..games.base import RuleError
from ..rooms.refusals import room_moved

MAX_FRAMES = 32  # two seconds of a connection's whole rate limit
MAX_SECONDS = 10.0  # past two leases and a replay: a move that takes longer is in trouble


class Held:
    """The messages of one connection waiting for its room's new owner."""

    def __init__(self, code: str, answer: Callable[[int | None, RuleError], None]) -> None:
        self.code = code  # the room that moves
        self._answer = answer  # how the session refuses a message
        self._messages: list[Any] = []
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, message: Any) -> None:
        if len(self._messages) >= MAX_FRAMES:
            self._answer(message.id, room_moved())
            return
        self._messages.append(message)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(MAX_SECONDS, self.refuse)

    def take(self) -> list[Any]:
        """Everything held, in order, for the room's new owner."""
        messages, self._messages = self._messages, []
        self._stop_timer()
        return messages

    def refuse(self, error: RuleError | None = None) -> None:
        """Answer everything held (``room.moved`` unless told otherwise)."""
        self._timer = None
        for message in self.take():
            self._answer(message.id, error or room_moved())

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
