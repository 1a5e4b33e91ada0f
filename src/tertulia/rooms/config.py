"""How a live room behaves (``RoomConfig``): its graces, its caps, its computer players' pace,
its votes. Set once per server (``server/config.py`` turns flags into it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .votes import VOTE_SECONDS


@dataclass(frozen=True)
class RoomConfig:
    drop_grace_seconds: float = 5.0  # a closed connection counts as a drop after this
    # A host away this long after their drop (so ~35 s gone) hands hosting to someone here:
    # long enough for a phone to come back from a locked screen or a server restart, short
    # enough that a lobby is not stuck with nobody able to start.
    host_grace_seconds: float = 30.0
    # After a restart, a match's deadline that passed while the server was down, or falls
    # sooner than this, moves to this long from now: the drop grace plus time for phones to
    # reconnect, since nobody could act while it was down. 0: clocks resume as they were.
    restart_grace_seconds: float = 20.0
    # Every connection in a room gets every push: without caps, one browser opening the room
    # in a hundred tabs would multiply the room's work a hundredfold.
    max_tabs_per_player: int = 4
    max_connections: int = 64
    # Told of every message handled: its type, seconds from arrival until every seat's
    # update was queued, and the refusal code if it was refused (metrics live elsewhere).
    observe: Callable[[str, float, str | None], None] | None = None
    # A computer player moves this many seconds (drawn between the two) after its seat's
    # view changed: long enough to look like a person, short enough not to bore one.
    bot_delay: tuple[float, float] = (0.8, 2.5)
    # How long a vote to remove runs (written into each vote's record).
    vote_seconds: float = VOTE_SECONDS
    # A player voted out may not join again from any address their connections had, for this
    # long (their identity is barred for longer: ``votes.BAR_SECONDS``). Long enough that a
    # new browser or a private window does not bring them straight back; short, because an
    # address is shared (a family, a school, a phone carrier's NAT) and only new seats are
    # refused. Kept by the room in memory, like every per-address limit: never logged.
    address_bar_seconds: float = 15 * 60
