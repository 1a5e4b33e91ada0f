"""Decisions the live room takes from who is connected, which the fold cannot see: who hosts
when the host stays away, and which spectator takes a seat that freed up. Each becomes a
logged record (``HostPassed``, ``Seated``) so that replay repeats it. Pure: the room asks,
then commits what they answer."""

from __future__ import annotations

from collections.abc import Callable

from .room_data import RoomModel, Status


def away_host(room: RoomModel) -> str | None:
    """The host, if they count as away (their drop grace is over): the host grace runs."""
    host = room.seat(room.host)
    return host.player if host is not None and not host.online else None


def next_host(room: RoomModel, host: str, connected: Callable[[str], bool]) -> str | None:
    """The host has been away for the whole host grace: hosting passes to the first one in
    seat order who is connected (a player; during a match, only a player), so the lobby is not
    stuck with nobody able to start, kick or change a setting. None: nobody to pass it to, or
    no longer needed (``host`` is back, or no longer hosts)."""
    seat = room.seat(host)
    if room.host != host or seat is None or seat.online or connected(host):
        return None
    here = [s for s in room.seats if s.player != host and connected(s.player)]
    players = [s for s in here if not s.spectator]
    if not players and room.status is not Status.PLAYING:
        players = here
    return players[0].player if players else None


def spectator_to_seat(room: RoomModel) -> str | None:
    """In the lobby, a spectator takes a seat as soon as one is free (a player left, or the
    host chose a game for more): the one who waited longest, one at a time."""
    if room.status is not Status.LOBBY or len(room.players()) >= room.game.MAX_PLAYERS:
        return None
    waiting = next((s for s in room.seats if s.spectator), None)
    return waiting.player if waiting is not None else None
