"""The parts of a view every game builds the same way: a player as views list them, a
view's ``you``, and the podium. The generic screen and the room's sounds read these names."""

from __future__ import annotations

from typing import Any

import msgspec

from ._match import Outcome
from ._seating import Scored


def seat_view(player: Scored, **more: Any) -> dict[str, Any]:
    """A player as every game's view lists them, then the game's own keys (``more``)."""
    return {
        "id": player.id,
        "nickname": player.nickname,
        "score": player.score,
        "online": player.online,
        "left": player.left,
        **more,
    }


def you(
    seat: str | None, role: str = "spectator", may_chat: bool = True, to_do: str | None = None
) -> dict[str, Any]:
    """A view's ``you``: the seat's role, and what it is expected to do now (an i18n key
    suffix), if anything. By default, a spectator's."""
    return {"seat": seat, "role": role, "may_chat": may_chat, "to_do": to_do}


def podium(outcome: Outcome | None) -> list[dict[str, Any]] | None:
    """The ranking as views send it (None while the match runs)."""
    if outcome is None:
        return None
    return [msgspec.structs.asdict(placing) for placing in outcome.ranking]
