"""A connection shown a room as a shared screen (a TV in the living room, ``open_screen``).

The screen is a peer of the room of its own, not the session itself: a session's ``player``
is the browser's identity, and a TV opened from the host's own laptop would carry the host's
identity — and so the host's seat, the giver's target, their secrets. The screen's peer has
a name no seat can have (``SCREEN_PREFIX`` and a random part), so the room can only ever
build it the picture a spectator sees. Everything it is sent goes down the session's socket.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Coroutine
from typing import Any

from .. import protocol as p

SCREEN_PREFIX = "screen-"  # player ids are base32 letters and digits: no seat starts so


class ScreenPeer:
    """The room-side stand-in for a connection that shows ``room`` as a screen."""

    def __init__(self, session: Any, on_room_moved: Callable[[str], None]) -> None:
        self.player = SCREEN_PREFIX + secrets.token_hex(6)
        self.outlet = session.outlet  # relayed pushes are written here (cluster mode)
        self._send = session.send
        self._on_room_moved = on_room_moved
        self.room: Any = None  # the room it shows, once attached

    def send(self, message: p.ServerMessage) -> None:
        self._send(message)

    def room_moves(self, code: str) -> Coroutine[Any, Any, None] | None:
        """Its room moves to another node (cluster mode): a screen does not follow it by
        itself; it is told to come back (the page reconnects and opens it again)."""
        if self.room is not None and self.room.code == code:
            self._on_room_moved(code)
        return None
