"""A room as data (its seats, its status, the match it plays) and the checks every fold of
it may ask: host only, lobby only (a nickname's are ``nicknames.py``'s).

Its own module so that ``model.py``'s folds and ``bot_members.py``'s both build on it and
neither imports the other back: ``model`` folds through one table that holds both.
"""

from __future__ import annotations

import collections
import enum
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..games.base import RuleError

CHAT_HISTORY = 100


class Status(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"  # the podium shows; the host may call a rematch


@dataclass
class Seat:
    player: str
    nickname: str
    spectator: bool = False
    online: bool = True
    # The player's colour in this room: the lowest number no one present has, given at join,
    # so the first eight people in a room never share a colour (the client's palette has
    # eight) and replaying the log gives everyone the same one again.
    colour: int = 0
    # A computer player's level ("beginner" or "good"): its seat is played by the room's bot
    # driver (rooms/bot_driver.py), never by a connection. None: a person.
    bot: str | None = None
    # A person's seat a bot plays while they are away (the host's "play for them"): that
    # bot's level, until they come back.
    stand_in: str | None = None
    # The language of the words a bot says for this seat (Pitacor clues).
    bot_language: str = "en"
    # The games this player has played: as their browser said when they joined, and every
    # game of a match they played to its end here.
    played: list[str] = field(default_factory=list)
    # The player asked that, should they be removed from the room during a match (a vote, the
    # host's kick), that match's page does not show their name (``hide_name``).
    hide_name: bool = False

    def new_to(self, game: str) -> bool:
        """A first-timer of ``game`` (a computer player never is)."""
        return self.bot is None and game not in self.played

    @property
    def played_by_bot(self) -> str | None:
        """The level of the bot that plays this seat now, or None (a person plays it)."""
        return self.bot or self.stand_in


@dataclass
class Vote:
    """A vote to remove ``player``, started by ``by`` (``votes.py`` has its rules)."""

    number: int  # the room's how-manieth vote: a clock of an earlier one never closes it
    by: str
    player: str
    reason: str
    deadline: float
    # Who decides: the people playing here when it started, but the two; one who leaves the
    # room is struck off (with their ballot).
    voters: list[str]
    ballots: dict[str, bool] = field(default_factory=dict)  # voter -> yes


@dataclass
class VoteBook:
    """A room's votes to remove: whether a private room's host allows them, the one running,
    and what the ones before left behind (times until which something is not allowed)."""

    allowed: bool = False  # a public room has them whatever this says
    running: Vote | None = None
    held: int = 0  # votes started in this room
    starters: dict[str, float] = field(default_factory=dict)  # a starter's cooldown
    kept: dict[str, float] = field(default_factory=dict)  # a player a vote just kept
    # "target starter": the target of a vote may not start one against its starter
    retaliation: dict[str, float] = field(default_factory=dict)
    barred: dict[str, float] = field(default_factory=dict)  # voted out: no joining until


@dataclass
class RoomModel:
    code: str
    public: bool
    game: ModuleType
    games: dict[str, ModuleType]
    settings: Any
    host: str | None = None
    seats: list[Seat] = field(default_factory=list)
    status: Status = Status.LOBBY
    match: Any = None  # the game's State while a match runs or shows its podium
    chat: collections.deque = field(default_factory=lambda: collections.deque(maxlen=CHAT_HISTORY))
    last_activity: float = 0.0
    # The colour of each player who left during the match (until the next one), so every
    # device draws them as they were on the scores and past rounds that still name them, and
    # a player who comes back gets it again if nobody present has taken it.
    former_colours: dict[str, int] = field(default_factory=dict)
    # Players the host removed: new joins of theirs are refused (``check_new``; replay lets
    # through what an older version accepted).
    removed: set[str] = field(default_factory=set)
    votes: VoteBook = field(default_factory=VoteBook)
    # The match's page (``match_page.py``): its public id, drawn by the live room and logged
    # with the start; the room as it was just before the start (``openings.py``), from which
    # the kept records fold again; players removed during the match who asked to hide their
    # name there. Kept until the next match starts.
    match_page: str = ""
    match_started_at: float = 0.0
    opening: bytes | None = None
    hidden_names: set[str] = field(default_factory=set)
    # Where the match is in the log, noted by whoever knows the seqs (the commit path, replay:
    # ``model.note_seq``): the seq of its start, and of its chat lines (not kept with it).
    match_seq: int = 0
    match_chat: list[int] = field(default_factory=list)

    def seat(self, player: str | None) -> Seat | None:
        return next((s for s in self.seats if s.player == player), None)

    def players(self) -> list[Seat]:
        return [s for s in self.seats if not s.spectator]


def new_room(code: str, public: bool, game: str, games: dict[str, ModuleType]) -> RoomModel:
    module = games[game]
    return RoomModel(code=code, public=public, game=module, games=games, settings=module.Settings())


# ---------------------------------------------------------------------------- checks


def require_host(room: RoomModel, player: str) -> None:
    if player != room.host:
        raise RuleError("room.host_only", "Only the host can do that.")


def require_lobby(room: RoomModel) -> None:
    if room.status is not Status.LOBBY:
        raise RuleError("room.not_in_lobby", "That can only be done in the lobby.")
