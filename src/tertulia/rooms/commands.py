"""From a client's message to the log record it asks for. The checks come when the record is
folded (``model.fold``), so a message and its replay are judged by the same code."""

from __future__ import annotations

import secrets

from ..games.base import RuleError
from ..protocol import (
    Act,
    AddBot,
    AllowVotes,
    CastVote,
    Chat,
    ChooseGame,
    ClientMessage,
    EndStandIn,
    HideName,
    Kick,
    LeaveRoom,
    Rematch,
    RemoveBot,
    Reorder,
    RestoreDefaults,
    SetNickname,
    StandIn,
    StartMatch,
    UpdateSettings,
    VoteRemove,
)
from .bot_members import new_bot
from .codes import new_match_id
from .records import (
    BotAdded,
    BotRemoved,
    Chatted,
    GameChosen,
    GameMove,
    Kicked,
    Left,
    MatchStarted,
    NameHidden,
    Record,
    Rematched,
    Renamed,
    Reordered,
    SettingsChanged,
    StandInEnded,
    Voted,
    VotesAllowed,
    VoteStarted,
)
from .records import StandIn as StoodIn
from .room_data import RoomModel
from .votes import VOTE_SECONDS


def record_for(
    message: ClientMessage,
    who: str,
    at: float,
    *,
    game_version: int = 0,
    room: RoomModel | None = None,
    vote_seconds: float = VOTE_SECONDS,
) -> Record:
    """The record ``who`` asks for at ``at`` (a match's seed and its page's id are drawn
    here, then logged, with ``game_version``: the room's game's ``VERSION``; a new bot's id
    and name from ``room``; a vote runs ``vote_seconds``)."""
    match message:
        case Act(action=action):
            return GameMove(at=at, seat=who, action=action)
        case Chat(text=text):
            return Chatted(at=at, player=who, text=text)
        case SetNickname(nickname=nickname):
            return Renamed(at=at, player=who, nickname=nickname)
        case LeaveRoom():
            return Left(at=at, player=who)
        case ChooseGame(game=game):
            return GameChosen(at=at, by=who, game=game)
        case UpdateSettings(settings=settings):
            return SettingsChanged(at=at, by=who, settings=settings)
        case RestoreDefaults():
            return SettingsChanged(at=at, by=who, settings={}, defaults=True)
        case Reorder(order=order):
            return Reordered(at=at, by=who, order=order)
        case Kick(player=player):
            return Kicked(at=at, by=who, player=player)
        case StartMatch():
            seed = secrets.randbits(63)
            return MatchStarted(at=at, by=who, seed=seed, version=game_version, page=new_match_id())
        case Rematch():
            return Rematched(at=at, by=who)
        case AddBot(level=level, language=language) if room is not None:
            player, nickname = new_bot(room)
            return BotAdded(
                at=at, by=who, player=player, nickname=nickname, level=level, language=language
            )
        case RemoveBot(player=player):
            return BotRemoved(at=at, by=who, player=player)
        case StandIn(player=player, level=level, language=language):
            return StoodIn(at=at, by=who, player=player, level=level, language=language)
        case EndStandIn(player=player):
            return StandInEnded(at=at, by=who, player=player)
        case VoteRemove(player=player, reason=reason):
            return VoteStarted(at=at, by=who, player=player, reason=reason, seconds=vote_seconds)
        case CastVote(yes=yes):
            return Voted(at=at, player=who, yes=yes)
        case AllowVotes(allow=allow):
            return VotesAllowed(at=at, by=who, allow=allow)
        case HideName(hide=hide):
            return NameHidden(at=at, player=who, hide=hide)
    raise RuleError("message.not_for_room", "That message is not for a room.")
