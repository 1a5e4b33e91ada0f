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

A message relayed to the old owner just before it died may come back (its publish reached
nobody) after later ones were held: it was sent first, so it goes first (``hold_again``), and
when that makes one too many it is the newest that is answered ``room.moved``, as it would
have been had everything been held in the order the client sent it.
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
        self._given_back = 0  # how many of the first messages came back from the old owner
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, message: Any) -> None:
        """A message the client sends while its room moves: after everything held."""
        if len(self._messages) >= MAX_FRAMES:
            self._answer(message.id, room_moved())
            return
        self._messages.append(message)
        self._start_timer()

    def hold_again(self, message: Any) -> None:
        """A message sent before the room began to move that nobody applied (its publish
        reached nobody): after those given back before it, before every message held since
        (the client sent it before them). One too many, and the newest is refused."""
        self._messages.insert(self._given_back, message)
        self._given_back += 1
        if len(self._messages) > MAX_FRAMES:
            newest = self._messages.pop()
            self._given_back = min(self._given_back, len(self._messages))
            self._answer(newest.id, room_moved())
        self._start_timer()

    def take(self) -> list[Any]:
        """Everything held, in order, for the room's new owner."""
        messages, self._messages = self._messages, []
        self._given_back = 0
        self._stop_timer()
        return messages

    def refuse(self, error: RuleError | None = None) -> None:
        """Answer everything held (``room.moved`` unless told otherwise)."""
        self._timer = None
        for message in self.take():
            self._answer(message.id, error or room_moved())

    def _start_timer(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(MAX_SECONDS, self.refuse)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
