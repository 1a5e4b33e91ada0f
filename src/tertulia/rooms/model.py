"""The pure fold that applies one log record to a room.

Everything a room accepts becomes a ``Record`` (``records.py``) — a join, a setting, a game
move, a timeout, a chat line. ``fold(room, record)`` either raises ``RuleError`` and changes
nothing, or applies the record to the room (``room_data.py``). The live room folds each record
before persisting it; a restarted server folds the persisted log to rebuild the room exactly.
So there is one code path for both, with one difference the fold is told of (``replaying``):
saved free text is not judged again. Computer players' records fold by ``bot_members.py``'s
functions, through the same table as the rest.

Every fold function checks everything first and changes the room only after, so a refusal
never leaves a half-applied record behind.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
from collections.abc import Callable
from typing import Any

import msgspec

from ..games import base
from ..games.base import Event, Player, RuleError
from ..text.profanity import is_profane
from . import bot_members, votes
from .departures import next_host, note_end, remove_seat
from .nicknames import check_new_nickname, check_nickname
from .openings import opening_of
from .records import (
    BotAdded,
    BotRemoved,
    Chatted,
    GameChosen,
    GameMove,
    HostPassed,
    Joined,
    Kicked,
    Left,
    MatchStarted,
    NameHidden,
    Presence,
    Record,
    Rematched,
    Renamed,
    Reordered,
    Seated,
    SettingsChanged,
    StandIn,
    StandInEnded,
    VoteClosed,
    Voted,
    VotesAllowed,
    VoteStarted,
)
from .refusals import not_in_room
from .room_data import RoomModel, Seat, Status, require_host, require_lobby

CHAT_MAX_LENGTH = 300
MAX_SPECTATORS = 20


# ---------------------------------------------------------------------------- fold


def fold(
    room: RoomModel, record: Record, *, replaying: bool = False, in_place: bool = False
) -> list[Event]:
    """Apply ``record`` to ``room`` (or raise ``RuleError`` and change nothing).

    ``replaying``: the record comes from the log (``replay``), so it was accepted once, and the
    game does not judge its free text (a Pitacor clue, a Pintó title) again: the word lists grow
    between versions, and one saved word a newer list refuses would drop that move, and every
    move after it that depended on it. (The room's own text rules, chat and nicknames, are
    ``check_new``'s, never asked on replay.)

    ``in_place``: a replay whose match state nobody else holds (a restart's), so a game move
    changes it instead of a copy; a ``RuleError`` may then leave it half-changed, and the
    caller must throw the room away (``replay.replay`` folds the log again on copies)."""
    if isinstance(record, GameMove):
        events = _move(room, record, judge_text=not replaying, in_place=in_place)
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
    # Only names of games this server has, and each once: what a client says is bounded.
    played = sorted(set(r.played) & set(room.games))
    seat = Seat(r.player, nickname, colour=colour, played=played)
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
        room.host = next_host(room)
    return [*events, Event("room.joined", {"player": r.player, "spectator": seat.spectator})]


def _renamed(room: RoomModel, r: Renamed) -> list[Event]:
    seat = _seat(room, r.player)
    nickname = check_nickname(room, r.nickname, r.player)
    if room.status is not Status.LOBBY and not seat.spectator:
        raise RuleError("nickname.locked", "Nicknames can change in the lobby only.")
    seat.nickname = nickname
    return [Event("room.renamed", {"player": r.player})]


def _left(room: RoomModel, r: Left | Kicked) -> list[Event]:
    events = remove_seat(room, r.player, r.at)
    return [*events, *votes.someone_left(room, r.player, r.at)]


def _kicked(room: RoomModel, r: Kicked) -> list[Event]:
    require_host(room, r.by)
    if r.player == r.by:
        raise RuleError("room.kick_self", "You can't remove yourself; leave the room instead.")
    seat = room.seat(r.player)
    hide = seat is not None and seat.hide_name and room.status is Status.PLAYING
    events = _left(room, r)
    room.removed.add(r.player)
    if hide:
        room.hidden_names.add(r.player)
    return events


def _presence(room: RoomModel, r: Presence) -> list[Event]:
    seat = _seat(room, r.player)
    if seat.online == r.online:
        return []
    events: list[Event] = []
    if room.status is Status.PLAYING and not seat.spectator:
        action = base.Return(r.player) if r.online else base.Drop(r.player)
        room.match, events = room.game.apply(room.match, None, action, r.at)
        note_end(room)
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
    require_lobby(room)
    seat = _seat(room, r.player)
    if not seat.spectator:  # nothing to record (the room asked twice)
        raise RuleError("room.already_seated", "You already have a seat.")
    if len(room.players()) >= room.game.MAX_PLAYERS:
        raise RuleError("room.full", "This room is full.")
    seat.spectator = False
    return [Event("room.seated", {"player": r.player})]


def _game_chosen(room: RoomModel, r: GameChosen) -> list[Event]:
    require_host(room, r.by)
    require_lobby(room)
    if r.game not in room.games:
        raise RuleError("room.unknown_game", "There is no such game.", game=r.game)
    room.game = room.games[r.game]
    room.settings = room.game.Settings()
    events = bot_members.unseat_bots_without_game(room)  # Pintó: drawing is for people
    return [*events, Event("room.game_chosen", {"game": r.game})]


def _settings(room: RoomModel, r: SettingsChanged) -> list[Event]:
    require_host(room, r.by)
    require_lobby(room)
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
    require_host(room, r.by)
    require_lobby(room)
    if sorted(r.order) != sorted(s.player for s in room.seats):
        raise RuleError("room.bad_order", "The new order must list everyone in the room once.")
    by_id = {s.player: s for s in room.seats}
    room.seats = [by_id[p] for p in r.order]
    return [Event("room.reordered", {})]


def _started(room: RoomModel, r: MatchStarted) -> list[Event]:
    require_host(room, r.by)
    require_lobby(room)
    game = room.game.NAME
    players = [Player(s.player, s.nickname, new=s.new_to(game)) for s in room.players()]
    versioned = {"version": r.version} if hasattr(room.game, "VERSION") else {}
    opening = opening_of(room)  # the room as it was, for the match's page
    room.match = room.game.start(
        room.settings, players, r.seed, r.at, public=room.public, **versioned
    )
    room.opening, room.match_page, room.match_started_at = opening, r.page, r.at
    room.hidden_names = set()
    room.status = Status.PLAYING
    for seat in room.players():  # the game starts with everyone here; tell it who is away
        if not seat.online:
            room.match, _ = room.game.apply(room.match, None, base.Drop(seat.player), r.at)
    room.match, _ = room.game.apply(room.match, None, base.Host(room.host), r.at)
    return [Event("room.started", {"game": room.game.NAME})]


def _move(
    room: RoomModel, r: GameMove, *, judge_text: bool = True, in_place: bool = False
) -> list[Event]:
    action = decode_move(room, r.seat, r.action)
    apply = room.game.apply
    if in_place and _can_change_in_place(apply):
        apply = functools.partial(apply, in_place=True)
    room.match, events = apply(room.match, r.seat, action, r.at, judge_text=judge_text)
    note_end(room)
    return events


@functools.cache
def _can_change_in_place(apply: Callable[..., Any]) -> bool:
    """Whether a game's ``apply`` takes ``in_place`` (``apply_with``'s does; one written by
    hand need not, and then a replay copies the state as the live room does)."""
    return "in_place" in inspect.signature(apply).parameters


def with_verdicts(room: RoomModel, record: Record) -> Record:
    """Live only, before the fold: a game move with the game's verdicts on its free text
    written in (the game's optional ``verdicts``: a Pintó interpretation's automatic mark), so
    the log keeps what the judge said when players saw it and a replay reuses it instead of
    asking a judge that may have changed since (docs/architecture.md, "Verdicts in the log").
    A move the fold will refuse anyway is left as it is."""
    verdicts = getattr(room.game, "verdicts", None)
    if verdicts is None or not isinstance(record, GameMove) or room.match is None:
        return record
    try:
        action = decode_move(room, record.seat, record.action)
    except RuleError:
        return record  # refused by the fold, with the same words
    judged = verdicts(room.match, record.seat, action)
    if judged is action:
        return record
    return msgspec.structs.replace(record, action=msgspec.to_builtins(judged))


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
    require_host(room, r.by)
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


# Each fold takes its own kind of record: the table is keyed by that kind.
_FOLDS: dict[type[Record], Callable[[RoomModel, Any], list[Event]]] = {
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
    # Computer players: the lobby's rules for them and "play for them" (``bot_members.py``).
    BotAdded: bot_members.bot_added,
    BotRemoved: bot_members.bot_removed,
    StandIn: bot_members.stood_in,
    StandInEnded: bot_members.stand_in_ended,
    # Votes to remove a player, and the choices around them (``votes.py``).
    VoteStarted: votes.vote_started,
    Voted: votes.voted,
    VoteClosed: votes.vote_closed,
    VotesAllowed: votes.votes_allowed,
    NameHidden: votes.name_hidden,
}


def note_seq(room: RoomModel, record: Record, seq: int) -> None:
    """``record``, just folded, is the log's entry ``seq``: note where the match is in the
    log (its start, its chat lines), which the match's page keeps (``Room._keep_match``).
    Called by whoever knows the seq: the commit path and replay, never the fold."""
    if isinstance(record, MatchStarted):
        room.match_seq, room.match_chat = seq, []
    elif isinstance(record, Chatted) and room.status is Status.PLAYING and room.match_seq:
        room.match_chat.append(seq)


# ---------------------------------------------------------------------------- checks


def check_new(room: RoomModel, record: Record) -> None:
    """Rules for new records only, asked before the fold and never on replay: they were added
    or tightened after logs were written, and a log they once accepted must still rebuild the
    same room. A removed player may not come back (one the host removed, ever; one the players
    voted out, for ``votes.BAR_SECONDS``); the host may not kick while the room votes on them;
    public rooms refuse profane nicknames and chat ("profanity-filtered in public rooms"; the
    word lists grow between versions); a nickname may not look like another one in the room,
    hide invisible characters or mix scripts in a word (older versions let these through)."""
    if isinstance(record, Joined) and record.player in room.removed:
        raise RuleError("room.removed", "The host removed you from this room.")
    if isinstance(record, Joined):
        barred = votes.barred_for(room, record.player, record.at)
        if barred is not None:
            raise RuleError(
                "room.voted_out",
                "The players voted you out of this room; you may come back later.",
                minutes=max(1, math.ceil(barred / 60)),
            )
    running = room.votes.running
    if isinstance(record, Kicked) and running is not None and running.player == record.by:
        raise RuleError(
            "room.kick_during_vote", "You can't remove anyone while the room votes on you."
        )
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
        check_new_nickname(room, record.nickname, record.player)
    elif isinstance(record, Chatted) and room.public and is_profane(record.text):
        # The whole line: listed phrases span words.
        raise RuleError("chat.profanity", "Please keep it friendly.")


@functools.cache
def _forced_in_public_rooms(settings_type: type) -> dict[str, Any]:
    """The settings a game fixes in public rooms (``setting(in_public_rooms=…)``)."""
    schema = base.settings_schema(settings_type)
    fields = schema["$defs"][settings_type.__name__]["properties"]
    return {name: spec["x-public"] for name, spec in fields.items() if "x-public" in spec}


def _seat(room: RoomModel, player: str) -> Seat:
    seat = room.seat(player)
    if seat is None:
        raise not_in_room()
    return seat
