"""What everyone in a room sees of it: the lobby, each seat's game view and blobs, and the
line of the public room list. Read-only: nothing here changes a room."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Set
from typing import Any, TypeVar

import msgspec

from ..games.base import Outcome, decode_action
from ..protocol import PublicRoom
from ..store import FinishedMatch, MatchLog
from .bot_members import BOT_ID_PREFIX, has_bots
from .codes import new_match_id
from .room_data import RoomModel, Status
from .votes import vote_view, votes_open

T = TypeVar("T")


def lobby_view(room: RoomModel) -> dict[str, Any]:
    """The room as everyone in it sees it (the game's own view comes separately)."""
    return {
        "code": room.code,
        "public": room.public,
        "game": room.game.NAME,
        "status": room.status.value,
        "host": room.host,
        "min_players": room.game.MIN_PLAYERS,
        "max_players": room.game.MAX_PLAYERS,
        "settings": msgspec.to_builtins(room.settings),
        "seats": [
            {
                "id": s.player,
                "nickname": s.nickname,
                "spectator": s.spectator,
                "online": s.online,
                "host": s.player == room.host,
                "colour": s.colour,
                # A computer player: its level; and a person's seat a bot plays for now.
                "bot": s.bot is not None,
                "level": s.bot,
                "stand_in": s.stand_in,
                "hide_name": s.hide_name,
            }
            for s in room.seats
        ],
        "bots": has_bots(room.game.NAME),  # whether the host may add computer players
        "former_colours": dict(room.former_colours),
        # The people here: every seat whose player is not away (their drop grace has not run
        # out), in seat order. Read from the seats, never from the live connections, so that
        # it changes only with a change of the room: a push rebuilt from patches always
        # equals a whole one at the same version (a list of connections would change with
        # no version to tell it by).
        "online": [s.player for s in room.seats if s.online and s.bot is None],
        # Votes to remove: whether one may be started here, and the one running (who has
        # voted, never how).
        "votes": {"allowed": votes_open(room), "running": vote_view(room)},
        # The page of the match on the podium (/m/<id>), once it has ended.
        "match_page": (room.match_page or None) if room.status is Status.ENDED else None,
    }


def game_view(room: RoomModel, player: str | None) -> dict[str, Any] | None:
    if room.match is None:
        return None
    return room.game.view(room.match, _as_seat(room, player))


def game_views(room: RoomModel, players: list[str]) -> dict[str, dict[str, Any] | None]:
    """``game_view`` for several connections' players at once (games may share the work)."""
    if room.match is None:
        return dict.fromkeys(players)
    as_seat = {p: _as_seat(room, p) for p in players}
    many = game_part(room.game, "views_for")
    if many is None:
        return {p: room.game.view(room.match, as_seat[p]) for p in players}
    views = many(room.match, sorted(set(as_seat.values()), key=lambda s: s or ""))
    return {p: views[as_seat[p]] for p in players}


def views_kept(
    room: RoomModel, seat: str, action: dict[str, Any], previous: dict[str, T]
) -> dict[str, T]:
    """Of ``previous`` (each player's view before ``seat``'s accepted game ``action``), those
    the action cannot have changed, by the game's own account (``views_changed_by``): a
    marker selection changes its owner's view only, so the other nine need not be rebuilt.
    Empty when the game does not say, or says anyone's may change."""
    changed_by = game_part(room.game, "views_changed_by")
    if changed_by is None or room.match is None:
        return {}
    changed = changed_by(seat, decode_action(room.game.Action, action))
    if changed is None:
        return {}
    if None in changed:  # the spectators' view: whoever sees the game as a spectator
        return {p: v for p, v in previous.items() if _as_seat(room, p) not in changed}
    # A player sees the game as their own seat or as a spectator: only a player named in
    # ``changed`` can see it as a changed seat, and only they need their seat looked up (a
    # scan of the seats each: ten players, a hundred steps per action).
    return {p: v for p, v in previous.items() if p not in changed or _as_seat(room, p) is None}


@functools.cache
def game_part(game: Any, name: str) -> Any:
    """An optional part of a game module, or None (asked per change: a failed getattr on a
    module raises inside, which is slow)."""
    return getattr(game, name, None)


def _as_seat(room: RoomModel, player: str | None) -> str | None:
    """The seat a player sees the game as: their own, or None (a spectator's view)."""
    seat = room.seat(player)
    return player if seat is not None and not seat.spectator else None


def game_blobs(
    room: RoomModel, player: str | None, known: Set[str] = frozenset()
) -> dict[str, Any]:
    """Large unchanging pieces of the view this seat may see, by key (games may have none),
    leaving out those ``known`` (a connection's: it has them already)."""
    blobs = game_part(room.game, "blobs")
    if room.match is None or blobs is None:
        return {}
    return blobs(room.match, _as_seat(room, player), known)


def summary(room: RoomModel, online: int) -> PublicRoom:
    """A line of the public room list."""
    return PublicRoom(
        code=room.code,
        game=room.game.NAME,
        status=room.status.value,
        players=len(room.players()),
        max_players=room.game.MAX_PLAYERS,
        online=online,
        host=next((s.nickname for s in room.seats if s.player == room.host), None),
        joining=joining(room),
    )


def listed_in_order(rooms: Iterable[PublicRoom]) -> list[PublicRoom]:
    """The public room list as it is shown: those waiting for players first, then by how
    many people are there."""
    return sorted(rooms, key=lambda r: (r.status != Status.LOBBY.value, -r.online))


def joining(room: RoomModel) -> str:
    """What a stranger who comes in now does, for the list's button ("Words on buttons say
    what happens"): ``play`` (a seat in the lobby, or at the podium for the rematch),
    ``next_round`` (the game seats latecomers from its next round and has room) or
    ``watch`` (a spectator until the next match)."""
    if room.status is not Status.PLAYING:
        full = len(room.players()) >= room.game.MAX_PLAYERS
        return "watch" if full and room.status is Status.LOBBY else "play"
    latecomers = game_part(room.game, "LATECOMERS_PLAY")
    if latecomers and len(room.players()) < room.game.MAX_PLAYERS:
        return "next_round"
    return "watch"


def finished_match(room: RoomModel, outcome: Outcome, at: float) -> FinishedMatch:
    """A match that just ended, as the store keeps it for the home page's recent matches,
    its players' own lists and its page: each player with the seat colour they had (or had
    before leaving); one removed during it who asked to hide their name, without it."""

    def colour_of(player: str) -> int | None:
        seat = room.seat(player)
        return seat.colour if seat is not None else room.former_colours.get(player)

    hidden = room.hidden_names
    players = [
        {
            "id": p.seat,
            "name": None if p.seat in hidden else p.nickname,
            "score": p.score,
            "place": p.place,
            "winner": p.winner,
            "colour": colour_of(p.seat),
            "bot": p.seat.startswith(BOT_ID_PREFIX),
            "hidden": p.seat in hidden,
        }
        for p in outcome.ranking
    ]
    return FinishedMatch(
        room=room.code,
        game=room.game.NAME,
        ended_at=at,
        players=players,
        started_at=room.match_started_at or None,
        # Only public rooms' matches are shown to everyone (a private room's code and
        # players are for those who were there).
        extra={"reason": outcome.reason, "public": room.public, "hidden": sorted(hidden)},
        public_id=room.match_page or new_match_id(),
    )


def match_log(room: RoomModel, last_seq: int) -> MatchLog | None:
    """What to keep of the match that ended with the log's entry ``last_seq``, for its page:
    its records from its start on (its chat left out) and the room as it started; None for a
    match whose start this code did not note (replayed from a log older than pages)."""
    if not room.match_seq or room.opening is None or room.match_seq > last_seq:
        return None
    return MatchLog(room.match_seq, last_seq, room.opening, list(room.match_chat))
