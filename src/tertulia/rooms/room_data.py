"""A room as data (its seats, its status, the match it plays) and the checks every fold of
it may ask: host only, lobby only, a nickname's shape and that nobody in the room has it.

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
from ..text.lookalike import unshowable

CHAT_HISTORY = 100
NICKNAME_MAX = 20


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

    def new_to(self, game: str) -> bool:
        """A first-timer of ``game`` (a computer player never is)."""
        return self.bot is None and game not in self.played

    @property
    def played_by_bot(self) -> str | None:
        """The level of the bot that plays this seat now, or None (a person plays it)."""
        return self.bot or self.stand_in


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


def check_nickname_shape(text: str) -> str:
    """1 to 20 printable characters, spaces tidied (the room adds its own checks). Zero-width
    spaces, soft hyphens and other format characters are refused, not removed: the name
    shown is the name typed. Only emoji keep the invisible characters they are made of
    (the joiner in 👩‍💻, the tags of a subdivision flag)."""
    nickname = " ".join(text.split()) if isinstance(text, str) else ""
    if not 1 <= len(nickname) <= NICKNAME_MAX:
        raise RuleError("nickname.length", "A nickname has 1 to 20 characters.", max=NICKNAME_MAX)
    if unshowable(nickname):
        raise RuleError("nickname.characters", "That nickname has characters we can't show.")
    return nickname


def check_nickname(room: RoomModel, text: str, player: str) -> str:
    """ "nicknames 1–20 characters, unique in the room" (the profanity filter of public rooms
    and the look-alike rules are ``model.check_new``'s, on the live path only)"""
    nickname = check_nickname_shape(text)
    taken = {s.nickname.casefold() for s in room.seats if s.player != player}
    if nickname.casefold() in taken:
        raise RuleError("nickname.taken", "Someone in this room already has that nickname.")
    return nickname
