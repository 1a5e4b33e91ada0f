"""Someone's seat goes (they leave, the host removes them, a vote does), who hosts next, and
the end of a match: what ``model.py``'s folds and ``votes.py``'s share, so that neither
imports the other back.
"""

from __future__ import annotations

from ..games import base
from ..games.base import Event
from .refusals import not_in_room
from .room_data import RoomModel, Status


def remove_seat(room: RoomModel, player: str, at: float) -> list[Event]:
    """``player``'s seat goes: in a match the game hears they left (``base.Leave``, the
    match's scores still name them), and hosting passes on if they hosted."""
    seat = room.seat(player)
    if seat is None:
        raise not_in_room()
    events: list[Event] = []
    if room.status is Status.PLAYING and not seat.spectator:
        room.match, events = room.game.apply(room.match, None, base.Leave(player), at)
        note_end(room)
    room.seats.remove(seat)
    if room.match is not None and not seat.spectator:  # the match's scores still name them
        room.former_colours[player] = seat.colour
    if room.host == player:  # "host hand-over when the host leaves"
        room.host = next_host(room)
        if room.status is Status.PLAYING:
            room.match, more = room.game.apply(room.match, None, base.Host(room.host), at)
            events = [*events, *more]
    return [*events, Event("room.left", {"player": player, "host": room.host})]


def next_host(room: RoomModel) -> str | None:
    """Who hosts when the host leaves (or nobody did): the first player seated; with no player
    left and no match running, the first spectator — the podium's latecomers would otherwise
    wait for a rematch nobody may call. During a match only a player hosts: the game gives
    its host powers (``base.Host``) to someone who plays. (One who is away hands it on after
    the host grace: ``Room._watch_host``.)"""
    people = [s for s in room.seats if s.bot is None]  # a computer player never hosts
    player = next((s.player for s in people if not s.spectator), None)
    if player is None and room.status is not Status.PLAYING:
        return next((s.player for s in people), None)
    return player


def note_end(room: RoomModel) -> None:
    """The podium, once the game says the match is over."""
    if room.match is not None and room.game.outcome(room.match) is not None:
        room.status = Status.ENDED
        for seat in room.players():  # they have played it now: nobody's first time again
            if seat.new_to(room.game.NAME):
                seat.played = sorted({*seat.played, room.game.NAME})
