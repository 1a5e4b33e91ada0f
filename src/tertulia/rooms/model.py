"""A room as data, and the pure fold that applies one log record to it.

Everything a room accepts becomes a ``Record`` — a join, a setting, a game move, a timeout, a
chat line. ``fold(room, record)`` either raises ``RuleError`` and changes nothing, or applies
the record. The live room folds each record before persisting it; a restarted server folds the
persisted log to rebuild the room exactly. So there is one code path for both, with one
difference the fold is told of (``replaying``): saved free text is not judged again.

Every fold function checks everything first and changes the room only after, so a refusal
never leaves a half-applied record behind.
"""

from __future__ import annotations

import collections
import enum
import functools
import itertools
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import msgspec

from ..games import base
from ..games.base import Event, Player, RuleError
from ..text.lookalike import hides_characters, looks_alike, mixed_scripts, shows_nothing, unshowable
from ..text.profanity import is_profane

CHAT_HISTORY = 100
CHAT_MAX_LENGTH = 300
NICKNAME_MAX = 20
MAX_SPECTATORS = 20


class Status(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"  # the podium shows; the host may call a rematch


# ---------------------------------------------------------------------------- records


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="k"):
    at: float


class Joined(Record, tag="joined"):
    player: str
    nickname: str


class Renamed(Record, tag="renamed"):
    player: str
    nickname: str


class Left(Record, tag="left"):
    player: str


class Kicked(Record, tag="kicked"):
    by: str
    player: str


class Presence(Record, tag="presence"):
    player: str
    online: bool


class GameChosen(Record, tag="game_chosen"):
    by: str
    game: str


class SettingsChanged(Record, tag="settings"):
    by: str
    settings: dict[str, Any]  # only the fields that change; {} with defaults=True restores all
    defaults: bool = False


class Reordered(Record, tag="reordered"):
    by: str
    order: list[str]


class MatchStarted(Record, tag="started"):
    by: str
    seed: int
    # The game's VERSION when the match started (games/base.py), so a game that changes how
    # a match starts does so for new matches only. 0: a record from before versions.
    version: int = 0


class GameMove(Record, tag="move"):
    seat: str | None  # None: the room itself (a timeout)
    action: dict[str, Any]


class Rematched(Record, tag="rematch"):
    by: str


class Chatted(Record, tag="chat"):
    player: str
    text: str


# Decisions the live room takes from who is connected and for how long, which the fold cannot
# see; logged like everything else so replay repeats them (see ``Room._watch_host``).
class HostPassed(Record, tag="host_passed"):
    host: str  # who hosts now: the host was away longer than the host grace, they were here


class Seated(Record, tag="seated"):
    player: str  # a spectator who takes a seat that freed up in the lobby


# Computer players (``bot_members.py`` folds them; ``bot_driver.py`` plays their seats).
class BotAdded(Record, tag="bot_added"):
    by: str
    player: str  # the bot's id and name, drawn by the live room (``bot_members.new_bot``)
    nickname: str
    level: str  # "beginner" | "good" (bots.base.Level)
    language: str  # the language of its words (Pitacor clues): one of bots.base.LANGUAGES


class BotRemoved(Record, tag="bot_removed"):
    by: str
    player: str


class StandIn(Record, tag="stand_in"):
    """The host hands a dropped player's seat to a bot for the rest of the match ("play
    for them"); the player's return (``Presence``) takes it back."""

    by: str
    player: str
    level: str
    language: str


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
)
record_decoder = msgspec.json.Decoder(AnyRecord)
record_encoder = msgspec.json.Encoder()


# ---------------------------------------------------------------------------- the room


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


# ---------------------------------------------------------------------------- fold


def fold(room: RoomModel, record: Record, *, replaying: bool = False) -> list[Event]:
    """Apply ``record`` to ``room`` (or raise ``RuleError`` and change nothing).

    ``replaying``: the record comes from the log (``replay``), so it was accepted once, and the
    game does not judge its free text (a Pitacor clue, a Pintó title) again: the word lists grow
    between versions, and one saved word a newer list refuses would drop that move, and every
    move after it that depended on it. (The room's own text rules, chat and nicknames, are
    ``check_new``'s, never asked on replay.)"""
    if isinstance(record, GameMove):
        events = _move(room, record, judge_text=not replaying)
    elif type(record) in bot_members.FOLDS:
        events = bot_members.FOLDS[type(record)](room, record)
    else:
        events = _FOLDS[type(record)](room, record)
    room.last_activity = record.at
    return events


def _joined(room: RoomModel, r: Joined) -> list[Event]:
    if room.seat(r.player) is not None:
        raise RuleError("room.already_in", "You are already in this room.")
    nickname = check_nickname(room, r.nickname, r.player)
    taken = {s.colour for s in room.seats}
    colour = room.former_colours.get(r.player)
    if colour is None or colour in taken:
        colour = next(c for c in itertools.count() if c not in taken)
    seat = Seat(r.player, nickname, colour=colour)
    if room.status is Status.ENDED:
        seat.spectator, events = True, []  # a seat at the rematch (Rematched promotes them)
    elif room.status is Status.PLAYING:
        try:  # "joining mid-match as the game allows, otherwise as a spectator"
            room.match, events = room.game.apply(
                room.match, None, base.Join(r.player, nickname), r.at
            )
        except RuleError:
            seat.spectator, events = True, []
    else:
        seat.spectator, events = len(room.players()) >= room.game.MAX_PLAYERS, []
    if seat.spectator and len(room.seats) - len(room.players()) >= MAX_SPECTATORS:
        raise RuleError("room.full", "This room is full.")
    room.seats.append(seat)
    room.former_colours.pop(r.player, None)
    if room.host is None:
        room.host = _next_host(room)
    return [*events, Event("room.joined", {"player": r.player, "spectator": seat.spectator})]


def _renamed(room: RoomModel, r: Renamed) -> list[Event]:
    seat = _seat(room, r.player)
    nickname = check_nickname(room, r.nickname, r.player)
    if room.status is not Status.LOBBY and not seat.spectator:
        raise RuleError("nickname.locked", "Nicknames can change in the lobby only.")
    seat.nickname = nickname
    return [Event("room.renamed", {"player": r.player})]


def _left(room: RoomModel, r: Left | Kicked) -> list[Event]:
    seat = _seat(room, r.player)
    events: list[Event] = []
    if room.status is Status.PLAYING and not seat.spectator:
        room.match, events = room.game.apply(room.match, None, base.Leave(r.player), r.at)
        _note_end(room)
    room.seats.remove(seat)
    if room.match is not None and not seat.spectator:  # the match's scores still name them
        room.former_colours[r.player] = seat.colour
    if room.host == r.player:  # "host hand-over when the host leaves"
        room.host = _next_host(room)
        if room.status is Status.PLAYING:
            room.match, more = room.game.apply(room.match, None, base.Host(room.host), r.at)
            events = [*events, *more]
    return [*events, Event("room.left", {"player": r.player, "host": room.host})]


def _kicked(room: RoomModel, r: Kicked) -> list[Event]:
    _require_host(room, r.by)
    if r.player == r.by:
        raise RuleError("room.kick_self", "You can't remove yourself; leave the room instead.")
    events = _left(room, r)
    room.removed.add(r.player)
    return events


def _presence(room: RoomModel, r: Presence) -> list[Event]:
    seat = _seat(room, r.player)
    if seat.online == r.online:
        return []
    events: list[Event] = []
    if room.status is Status.PLAYING and not seat.spectator:
        action = base.Return(r.player) if r.online else base.Drop(r.player)
        room.match, events = room.game.apply(room.match, None, action, r.at)
        _note_end(room)
    seat.online = r.online
    if r.online and seat.stand_in is not None:  # "the player takes it back on return"
        seat.stand_in = None
        events = [*events, Event("room.stand_in_ended", {"player": r.player})]
    return events


def _host_passed(room: RoomModel, r: HostPassed) -> list[Event]:
    """The room passes hosting on (its host was away too long; see ``Room._watch_host``)."""
    seat = _seat(room, r.host)
    if room.status is Status.PLAYING and seat.spectator:
        raise RuleError("room.not_a_player", "During a match only a player can host.")
    room.host = r.host
    events: list[Event] = []
    if room.status is Status.PLAYING:
        room.match, events = room.game.apply(room.match, None, base.Host(r.host), r.at)
    return [*events, Event("room.host", {"host": r.host})]


def _seated(room: RoomModel, r: Seated) -> list[Event]:
    """A spectator takes a seat that freed up in the lobby (see ``Room._seat_spectators``)."""
    _require_lobby(room)
    seat = _seat(room, r.player)
    if not seat.spectator:  # nothing to record (the room asked twice)
        raise RuleError("room.already_seated", "You already have a seat.")
    if len(room.players()) >= room.game.MAX_PLAYERS:
        raise RuleError("room.full", "This room is full.")
    seat.spectator = False
    return [Event("room.seated", {"player": r.player})]


def _game_chosen(room: RoomModel, r: GameChosen) -> list[Event]:
    _require_host(room, r.by)
    _require_lobby(room)
    if r.game not in room.games:
        raise RuleError("room.unknown_game", "There is no such game.", game=r.game)
    room.game = room.games[r.game]
    room.settings = room.game.Settings()
    events = bot_members.unseat_bots_without_game(room)  # Pintó: drawing is for people
    return [*events, Event("room.game_chosen", {"game": r.game})]


def _settings(room: RoomModel, r: SettingsChanged) -> list[Event]:
    _require_host(room, r.by)
    _require_lobby(room)
    if r.defaults:
        room.settings = room.game.Settings()  # "restore defaults gives the seed's values"
        return [Event("room.settings", {"defaults": True})]
    current = msgspec.to_builtins(room.settings)
    unknown = sorted(set(r.settings) - set(current))
    if unknown:
        raise RuleError("settings.unknown", "No such setting.", field=unknown[0])
    try:
        room.settings = msgspec.convert({**current, **r.settings}, room.game.Settings)
    except msgspec.ValidationError as error:
        raise RuleError("settings.invalid", str(error), detail=str(error)) from None
    return [Event("room.settings", {"fields": sorted(r.settings)})]


def _reordered(room: RoomModel, r: Reordered) -> list[Event]:
    _require_host(room, r.by)
    _require_lobby(room)
    if sorted(r.order) != sorted(s.player for s in room.seats):
        raise RuleError("room.bad_order", "The new order must list everyone in the room once.")
    by_id = {s.player: s for s in room.seats}
    room.seats = [by_id[p] for p in r.order]
    return [Event("room.reordered", {})]


def _started(room: RoomModel, r: MatchStarted) -> list[Event]:
    _require_host(room, r.by)
    _require_lobby(room)
    players = [Player(s.player, s.nickname) for s in room.players()]
    versioned = {"version": r.version} if hasattr(room.game, "VERSION") else {}
    room.match = room.game.start(
        room.settings, players, r.seed, r.at, public=room.public, **versioned
    )
    room.status = Status.PLAYING
    for seat in room.players():  # the game starts with everyone here; tell it who is away
        if not seat.online:
            room.match, _ = room.game.apply(room.match, None, base.Drop(seat.player), r.at)
    room.match, _ = room.game.apply(room.match, None, base.Host(room.host), r.at)
    return [Event("room.started", {"game": room.game.NAME})]


def _move(room: RoomModel, r: GameMove, *, judge_text: bool = True) -> list[Event]:
    action = decode_move(room, r.seat, r.action)
    room.match, events = room.game.apply(room.match, r.seat, action, r.at, judge_text=judge_text)
    _note_end(room)
    return events


def check_move(room: RoomModel, seat: str, action: dict[str, Any], at: float) -> None:
    """Would this game action be accepted now? Raises the refusal; changes nothing.

    The browser asks this while a player types ("not allowed: 'reddish' is a form of a colour
    name"), so the answer comes from the same rules that will judge the real move."""
    room.game.apply(room.match, seat, decode_move(room, seat, action), at)


def decode_move(room: RoomModel, seat: str | None, raw: dict[str, Any]) -> base.Action:
    if room.status is not Status.PLAYING:
        raise RuleError("room.no_match", "No match is being played.")
    if seat is not None and room.seat(seat) is None:
        raise RuleError(base.NOT_A_PLAYER, "You are not in this room.")
    try:
        action = base.decode_action(room.game.Action, raw)
    except msgspec.ValidationError as error:
        raise RuleError("action.malformed", str(error), detail=str(error)) from None
    if seat is not None and isinstance(action, base.SYSTEM_ACTIONS):
        # Timeouts, joins, drops and leaves come from the room alone, whatever the game says.
        raise RuleError(base.ROOM_ONLY, "Only the room may send this action.")
    return action


def _rematched(room: RoomModel, r: Rematched) -> list[Event]:
    _require_host(room, r.by)
    if room.status is not Status.ENDED:
        raise RuleError("room.not_ended", "A rematch starts after the match has ended.")
    room.status = Status.LOBBY
    room.match = None
    room.former_colours.clear()  # the next match names only those here
    for seat in room.seats:  # a stand-in plays "for the rest of the match", no further
        seat.stand_in = None
    for seat in room.seats:  # spectators who waited get a seat if there is room
        if seat.spectator and len(room.players()) < room.game.MAX_PLAYERS:
            seat.spectator = False
    return [Event("room.rematch", {})]


def _chatted(room: RoomModel, r: Chatted) -> list[Event]:
    seat = _seat(room, r.player)
    text = " ".join(r.text.split())
    if not text:
        raise RuleError("chat.empty", "Write something first.")
    if len(text) > CHAT_MAX_LENGTH:
        raise RuleError("chat.too_long", "That message is too long.", max=CHAT_MAX_LENGTH)
    if (
        room.status is Status.PLAYING
        and not seat.spectator
        and not room.game.may_chat(room.match, r.player)
    ):
        raise RuleError("chat.not_now", "You can't chat right now.")
    room.chat.append({"player": r.player, "nickname": seat.nickname, "text": text, "at": r.at})
    return []


_FOLDS = {
    Joined: _joined,
    Renamed: _renamed,
    Left: _left,
    Kicked: _kicked,
    Presence: _presence,
    GameChosen: _game_chosen,
    SettingsChanged: _settings,
    Reordered: _reordered,
    MatchStarted: _started,
    # GameMove: ``fold`` calls ``_move`` itself, telling it whether to judge text.
    Rematched: _rematched,
    Chatted: _chatted,
    HostPassed: _host_passed,
    Seated: _seated,
}


# ---------------------------------------------------------------------------- checks


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
    and the look-alike rules are ``check_new``'s, on the live path only)"""
    nickname = check_nickname_shape(text)
    taken = {s.nickname.casefold() for s in room.seats if s.player != player}
    if nickname.casefold() in taken:
        raise RuleError("nickname.taken", "Someone in this room already has that nickname.")
    return nickname


def check_first_nickname(text: str, public: bool) -> str:
    """The checks a nickname must pass in a room nobody is in yet (asked before creating one,
    so a refused nickname leaves no empty room behind)."""
    nickname = check_nickname_shape(text)
    _check_nickname_alone(nickname)
    _check_nickname_words(nickname, public)
    return nickname


def check_new(room: RoomModel, record: Record) -> None:
    """Rules for new records only, asked before the fold and never on replay: they were added
    or tightened after logs were written, and a log they once accepted must still rebuild the
    same room. A removed player may not come back; public rooms refuse profane nicknames and
    chat ("profanity-filtered in public rooms"; the word lists grow between versions); a
    nickname may not look like another one in the room, hide invisible characters or mix
    scripts in a word (older versions let these through)."""
    if isinstance(record, Joined) and record.player in room.removed:
        raise RuleError("room.removed", "The host removed you from this room.")
    if isinstance(record, SettingsChanged) and room.public:
        forced = _forced_in_public_rooms(room.game.Settings)
        for name, value in record.settings.items():
            if name in forced and value != forced[name]:
                raise RuleError(
                    "settings.public_forced",
                    "Public rooms always keep this setting as it is.",
                    field=name,
                )
    if isinstance(record, (Joined, Renamed)):
        nickname = check_nickname_shape(record.nickname)
        _check_nickname_unlike_others(room, nickname, record.player)
        _check_nickname_alone(nickname)
        _check_nickname_words(nickname, room.public)
    elif isinstance(record, Chatted) and room.public and is_profane(record.text):
        # The whole line: listed phrases span words.
        raise RuleError("chat.profanity", "Please keep it friendly.")


@functools.cache
def _forced_in_public_rooms(settings_type: type) -> dict[str, Any]:
    """The settings a game fixes in public rooms (``setting(in_public_rooms=…)``)."""
    schema = base.settings_schema(settings_type)
    fields = schema["$defs"][settings_type.__name__]["properties"]
    return {name: spec["x-public"] for name, spec in fields.items() if "x-public" in spec}


def _check_nickname_unlike_others(room: RoomModel, nickname: str, player: str) -> None:
    """Someone else's nickname written with look-alike characters (a Cyrillic "о" in "Bob",
    fullwidth letters, a blank filler after it) would let one player pass for another. The
    same name in another case is ``nickname.taken``, which the fold says."""
    for seat in room.seats:
        if seat.player == player or seat.nickname.casefold() == nickname.casefold():
            continue
        if looks_alike(seat.nickname, nickname):
            raise RuleError(
                "nickname.looks_alike",
                f"That nickname looks too much like {seat.nickname}'s; choose another one.",
                name=seat.nickname,
            )


def _check_nickname_alone(nickname: str) -> None:
    """What a nickname may not be even in an empty room: invisible, or hiding characters
    (a Hangul filler, a variation selector after a letter), or a word in two scripts — a
    look-alike taken first ("Bоb", Cyrillic "о") would lock the real Bob out."""
    if shows_nothing(nickname) or hides_characters(nickname):
        raise RuleError("nickname.characters", "That nickname has characters we can't show.")
    if mixed_scripts(nickname):
        raise RuleError(
            "nickname.mixed_scripts",
            "That nickname mixes alphabets in one word; write each word in one alphabet.",
        )


def _check_nickname_words(nickname: str, public: bool) -> None:
    if public and is_profane(nickname):
        raise RuleError("nickname.profanity", "Please choose a friendlier nickname.")


def _seat(room: RoomModel, player: str) -> Seat:
    seat = room.seat(player)
    if seat is None:
        raise RuleError("room.not_in", "You are not in this room.")
    return seat


def _next_host(room: RoomModel) -> str | None:
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


def _require_host(room: RoomModel, player: str) -> None:
    if player != room.host:
        raise RuleError("room.host_only", "Only the host can do that.")


def _require_lobby(room: RoomModel) -> None:
    if room.status is not Status.LOBBY:
        raise RuleError("room.not_in_lobby", "That can only be done in the lobby.")


def _note_end(room: RoomModel) -> None:
    if room.match is not None and room.game.outcome(room.match) is not None:
        room.status = Status.ENDED


# Last: bot_members folds with this module's own helpers (imported once they all exist).
from . import bot_members  # noqa: E402
