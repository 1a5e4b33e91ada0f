"""The room's log: every ``Record`` a room accepts, and how each is written and read back.

A record is what happened (a join, a setting, a game move, a timeout, a chat line), never
how to apply it: that is ``model.fold`` (and ``bot_members.py`` for computer players), so
every module that folds records, writes them or reads them back can import them without
importing the others.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="k"):
    at: float


class Joined(Record, tag="joined", frozen=True):
    player: str
    nickname: str
    # The games the player's browser had played before (a first-timer is taught, and never
    # the first clue giver or artist of their first match).
    played: list[str] = []


class Renamed(Record, tag="renamed", frozen=True):
    player: str
    nickname: str


class Left(Record, tag="left", frozen=True):
    player: str


class Kicked(Record, tag="kicked", frozen=True):
    by: str
    player: str


class Presence(Record, tag="presence", frozen=True):
    player: str
    online: bool


class GameChosen(Record, tag="game_chosen", frozen=True):
    by: str
    game: str


class SettingsChanged(Record, tag="settings", frozen=True):
    by: str
    settings: dict[str, Any]  # only the fields that change; {} with defaults=True restores all
    defaults: bool = False


class Reordered(Record, tag="reordered", frozen=True):
    by: str
    order: list[str]


class MatchStarted(Record, tag="started", frozen=True):
    by: str
    seed: int
    # The game's VERSION when the match started (games/base.py), so a game that changes how
    # a match starts does so for new matches only. 0: a record from before versions.
    version: int = 0
    # The public id of the match's page (/m/<id>), drawn by the live room like the seed;
    # "": a record from before match pages.
    page: str = ""


class GameMove(Record, tag="move", frozen=True):
    seat: str | None  # None: the room itself (a timeout)
    action: dict[str, Any]


class Rematched(Record, tag="rematch", frozen=True):
    by: str


class Chatted(Record, tag="chat", frozen=True):
    player: str
    text: str


# Decisions the live room takes from who is connected and for how long, which the fold cannot
# see; logged like everything else so replay repeats them (see ``Room._watch_host``).
class HostPassed(Record, tag="host_passed", frozen=True):
    host: str  # who hosts now: the host was away longer than the host grace, they were here


class Seated(Record, tag="seated", frozen=True):
    player: str  # a spectator who takes a seat that freed up in the lobby


# Computer players (``bot_members.py`` folds them; ``bot_driver.py`` plays their seats).
class BotAdded(Record, tag="bot_added", frozen=True):
    by: str
    player: str  # the bot's id and name, drawn by the live room (``bot_members.new_bot``)
    nickname: str
    level: str  # "beginner" | "good" (bots.base.Level)
    language: str  # the language of its words (Pitacor clues): one of bots.base.LANGUAGES


class BotRemoved(Record, tag="bot_removed", frozen=True):
    by: str
    player: str


class StandIn(Record, tag="stand_in", frozen=True):
    """The host hands a dropped player's seat to a bot for the rest of the match ("play
    for them"); the player's return (``Presence``) takes it back."""

    by: str
    player: str
    level: str
    language: str


class StandInEnded(Record, tag="stand_in_ended", frozen=True):
    """The host ends a stand-in by hand: the computer player stops playing for ``player``,
    who is still away (their own return ends it too, without this record)."""

    by: str
    player: str


# Votes to remove a player (``votes.py`` folds them; the live room runs their clock).
class VoteStarted(Record, tag="vote_started", frozen=True):
    by: str
    player: str
    reason: str
    seconds: float  # how long the vote runs (the live room's setting when it started)


class Voted(Record, tag="voted", frozen=True):
    player: str
    yes: bool


class VoteClosed(Record, tag="vote_closed", frozen=True):
    """The room closes vote number ``vote`` (against ``player``): its outcome is decided, or
    its clock ran out."""

    vote: int
    player: str


class VotesAllowed(Record, tag="votes_allowed", frozen=True):
    by: str
    allow: bool  # a private room's host allows votes (a public room always has them)


class NameHidden(Record, tag="name_hidden", frozen=True):
    player: str
    hide: bool  # removed during a match, their name is not on its page


AnyRecord = (
    Joined
    | Renamed
    | Left
    | Kicked
    | Presence
    | GameChosen
    | SettingsChanged
    | Reordered
    | MatchStarted
    | GameMove
    | Rematched
    | Chatted
    | HostPassed
    | Seated
    | BotAdded
    | BotRemoved
    | StandIn
    | StandInEnded
    | VoteStarted
    | Voted
    | VoteClosed
    | VotesAllowed
    | NameHidden
)
record_decoder = msgspec.json.Decoder(AnyRecord)
record_encoder = msgspec.json.Encoder()
