"""What a browser holds of a seat's view when it gets the first view whole and every later one
as a patch (``tertulia.patches``, as the room's fan-out sends them): the game properties
check it equals the view built afresh, byte for byte, at every step of random matches."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from tertulia.patches import apply, diff


def _wire(value: Any) -> Any:
    """``value`` as it crosses the wire (what the client decodes)."""
    return msgspec.json.decode(msgspec.json.encode(value))


class PatchedViews:
    """Each onlooker's view as the server last built it, and as its client holds it."""

    def __init__(self, view_of: Callable[[str | None], Any]) -> None:
        self._view_of = view_of
        self._built: dict[str | None, Any] = {}
        self._held: dict[str | None, Any] = {}

    def follow(self, onlookers: Iterable[str | None]) -> None:
        """One change later: patch each onlooker's picture and compare it with a fresh view."""
        for who in onlookers:
            now = self._view_of(who)
            if who not in self._built:  # the first push is the whole view
                self._held[who] = _wire(now)
            else:
                ops = _wire(diff(self._built[who], now))
                self._held[who] = apply(self._held[who], ops)
            self._built[who] = now
            held = msgspec.json.encode(self._held[who])
            assert held == msgspec.json.encode(now), f"the patched view of {who} drifted"
