"""Who plays: the players a match starts with, and players coming and going during it.

A game declares its ``SEATS = Seating(...)``: where its state lists the players, how many it
plays with, its ended phase and its ``end_match``. Then joining, dropping, returning and
leaving work the same in every game, and the game's own handler does what its rules say
about it. A player, as the state lists them, satisfies ``Seat`` (``Scored`` with a score);
a game's player type extends ``SeatedPlayer``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Generic, Protocol, TypeGuard, TypeVar

import msgspec

from ._actions import Drop, Event, Join, Leave, Return
from ._errors import ALREADY_SEATED, MATCH_FULL, MATCH_OVER, UNKNOWN_SEAT, RuleError
from ._match import M
from ._rng import Rng


class Player(msgspec.Struct, frozen=True):
    """A seat handed to ``start``: public id plus the nickname shown to others."""

    id: str
    nickname: str
    # New to this game (the room knows: their browser had never played it, and they have not
    # finished a match of it here): "a first-timer is never the first clue giver or artist".
    new: bool = False


def first_turn(seats: list[str], newcomers: Collection[str], rng: Rng | None) -> int:
    """Where a turn order over ``seats`` starts: at random (``rng``), or at the first one
    (None: the host's order), but never at a newcomer when someone else could start ("a
    first-timer is never the first clue giver or artist": they watch one go round first).
    With no newcomer it draws exactly what ``rng.below(len(seats))`` would, so matches
    dealt before newcomers were known replay as they were dealt."""
    eligible = [i for i, seat in enumerate(seats) if seat not in newcomers]
    if not eligible:
        eligible = list(range(len(seats)))
    return eligible[rng.below(len(eligible))] if rng is not None else eligible[0]


def require_players(count: int, game: str, lowest: int, highest: int) -> None:
    """Refuse to start a match with too few or too many players."""
    if not lowest <= count <= highest:
        raise RuleError(
            "match.player_count",
            f"{game} needs {lowest} to {highest} players.",
            min=lowest,
            max=highest,
            count=count,
        )


class Seat(Protocol):
    """A player as a game's state lists them, as ``Seating`` and ``apply_with`` read them."""

    id: str  # the public player id, which is the seat
    nickname: str
    online: bool  # connected now: ``Drop`` clears it, ``Return`` sets it
    left: bool  # gone for good: still listed with their score, but playing no more


class Scored(Seat, Protocol):
    """A player of a game that keeps scores (``seat_view`` shows it)."""

    score: int


class SeatedPlayer(msgspec.Struct):
    """``Scored`` as a struct: the fields every game keeps for a player, which a game's own
    player type extends with what its rules need (Pitacor: the round they play from)."""

    id: str
    nickname: str
    score: int = 0
    online: bool = True
    left: bool = False


P = TypeVar("P", bound=Seat)

TOO_FEW_PLAYERS = "too_few_players"  # the reason a match ends when a leave leaves too few


def is_playing(player: P | None) -> TypeGuard[P]:
    """In the match and not gone for good (a dropped player still plays)."""
    return player is not None and not player.left


def is_here(player: P | None) -> TypeGuard[P]:
    """Playing and connected: someone the match waits for."""
    return player is not None and player.online and not player.left


@dataclass(frozen=True)
class Seating(Generic[M, P]):
    """A game's seats: where its state lists the players, how many it plays with, the phase
    of a finished match and how the game ends one (``end_match(state, reason, events)``).

    With these, players come and go the same way in every game: each method finds the seat
    (``seat.unknown`` if the match never had it), refuses with the shared codes, marks the
    player, tells everyone with an event and returns the player, or None when there is nothing
    more to do. What the game then does about it (whose turn it is now, who is still waited
    for) is its own handler's job; a game that refuses latecomers never calls ``join``.
    """

    players: Callable[[M], list[P]]
    min_players: int
    max_players: int
    ended: enum.Enum
    end_match: Callable[[M, str, list[Event]], None]

    def find(self, state: M, seat: str | None) -> P | None:
        """The player whose id is ``seat``, also after they left; None if the match never had
        them (a spectator, or the room itself)."""
        for player in self.players(state):  # (a loop: the quickest way, on every move)
            if player.id == seat:
                return player
        return None

    def known(self, state: M, seat: str) -> P:
        """The player a room action names; ``seat.unknown`` if the match never had them."""
        player = self.find(state, seat)
        if player is None:
            raise RuleError(UNKNOWN_SEAT, "No such player in this match.", seat=seat)
        return player

    def playing(self, state: M) -> int:
        """How many are still in the match (whether connected or not)."""
        return sum(1 for p in self.players(state) if not p.left)

    def join(
        self,
        state: M,
        action: Join,
        events: list[Event],
        *,
        plays_from: int,
        new: Callable[[str, str], P],
    ) -> P:
        """``action.player`` takes a seat in the running match and plays from round
        ``plays_from``: a newcomer (``new(id, nickname)``) at the end of the list, someone who
        had left in their old place, with their points. Refused once the match is over, for
        someone already in it, and when it is full. Where they fit in the game's own order is
        the game's."""
        if state.phase is self.ended:
            raise RuleError(MATCH_OVER, "The match is over; join the rematch.")
        player = self.find(state, action.player)
        if is_playing(player):
            raise RuleError(ALREADY_SEATED, "You are already in this match.")
        if self.playing(state) >= self.max_players:
            raise RuleError(MATCH_FULL, "This match is full.", max=self.max_players)
        if player is None:
            player = new(action.player, action.nickname)
            self.players(state).append(player)
        else:
            player.left, player.online = False, True
        events.append(Event("player.joined", {"seat": action.player, "plays_from": plays_from}))
        return player

    def drop(self, state: M, action: Drop, events: list[Event]) -> P | None:
        """``action.player``'s last connection closed: they still play, but are not waited
        for. None if they were away already."""
        return self._connected(state, action.player, False, events)

    def return_(self, state: M, action: Return, events: list[Event]) -> P | None:
        """``action.player`` is connected again, to the same seat. None if they were not away."""
        return self._connected(state, action.player, True, events)

    def _connected(self, state: M, seat: str, online: bool, events: list[Event]) -> P | None:
        player = self.known(state, seat)
        if player.online is online:
            return None
        player.online = online
        events.append(Event("player.returned" if online else "player.dropped", {"seat": seat}))
        return player

    def leave(self, state: M, action: Leave, events: list[Event]) -> P | None:
        """``action.player`` left for good: listed still, with their score, but playing no
        more. With fewer than ``min_players`` left the match ends (``TOO_FEW_PLAYERS``).
        Returns the player when the match goes on without them, for the game to move past
        them; None if they had left already or the match is over."""
        player = self.known(state, action.player)
        if player.left:
            return None
        player.left, player.online = True, False
        events.append(Event("player.left", {"seat": action.player}))
        if state.phase is self.ended:
            return None
        if self.playing(state) < self.min_players:
            self.end_match(state, TOO_FEW_PLAYERS, events)
            return None
        return player
