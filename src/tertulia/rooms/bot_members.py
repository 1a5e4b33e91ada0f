"""Computer players as members of a room: the lobby rules for adding and removing them, and
for a bot playing a dropped player's seat ("play for them"). Pure folds, in ``model.py``'s
fold table with every other record's; like them they build on ``records.py`` and
``room_data.py``, so neither module imports the other back. The live room draws a new bot's
id and name (``new_bot``) and logs them in the record, so replay seats the same bot, with the
same name and colour, again.

Which seats a bot plays is the model's (``Seat.bot``, ``Seat.stand_in``); playing them is
``bot_driver.py``'s. A bot counts as a player like anyone (minimums, maximums, the order).
"""

from __future__ import annotations

import itertools
import random
import secrets

from ..bots.base import LANGUAGES, Level, has_bot
from ..games import base
from ..games.base import Event, RuleError
from ..text.lookalike import looks_alike
from .nicknames import check_nickname
from .records import BotAdded, BotRemoved, StandIn, StandInEnded
from .room_data import RoomModel, Seat, Status, require_host, require_lobby

BOT_ID_PREFIX = "bot-"  # people's ids are base32 (rooms/identity.py): never a hyphen

# Short, friendly, and read the same in the four languages; a bot's mark (the client's robot
# glyph) says what it is, so the name need not.
NAMES = (
    "Pixel", "Nova", "Orbit", "Echo", "Comet", "Piper", "Juno", "Kiwi", "Mango", "Pico",
    "Luma", "Miro", "Nimbus", "Opal", "Quill", "Rumba", "Tiko", "Vega", "Wren", "Yuki",
    "Zippy", "Astro", "Cosmo", "Dottie", "Fig", "Gizmo", "Hopper", "Indigo", "Jazz", "Lumen",
)  # fmt: skip


def has_bots(game: str) -> bool:
    return has_bot(game)


def new_bot(room: RoomModel, rng: random.Random | None = None) -> tuple[str, str]:
    """A new bot's id and a pleasant name nobody in the room has or looks like."""
    rng = rng or random.Random(secrets.randbits(64))
    names = [s.nickname for s in room.seats]

    def free(name: str) -> bool:
        return all(n.casefold() != name.casefold() and not looks_alike(n, name) for n in names)

    choices = [name for name in NAMES if free(name)]
    if choices:
        nickname = rng.choice(choices)
    else:  # thirty taken: numbered
        nickname = next(f"Bot {n}" for n in itertools.count(2) if free(f"Bot {n}"))
    return BOT_ID_PREFIX + secrets.token_hex(6), nickname


def _checked_level(level: str) -> str:
    try:
        return Level(level).value
    except ValueError:
        raise RuleError(
            "bot.level", "A computer player is a beginner or good.", level=level
        ) from None


def _checked_language(language: str) -> str:
    if language not in LANGUAGES:
        raise RuleError("bot.language", "No computer player speaks that language.")
    return language


def _require_bots(room: RoomModel) -> None:
    if not has_bots(room.game.NAME):
        raise RuleError("bot.no_bots", "This game has no computer players.", game=room.game.NAME)


def bot_added(room: RoomModel, r: BotAdded) -> list[Event]:
    require_host(room, r.by)
    require_lobby(room)
    _require_bots(room)
    level, language = _checked_level(r.level), _checked_language(r.language)
    if len(room.players()) >= room.game.MAX_PLAYERS:
        raise RuleError("room.full", "This room is full.")
    if room.seat(r.player) is not None or not r.player.startswith(BOT_ID_PREFIX):
        raise RuleError("bot.bad_id", "That id is not a new computer player's.")
    nickname = check_nickname(room, r.nickname, r.player)
    taken = {s.colour for s in room.seats}
    colour = next(c for c in itertools.count() if c not in taken)
    room.seats.append(Seat(r.player, nickname, colour=colour, bot=level, bot_language=language))
    return [Event("room.joined", {"player": r.player, "spectator": False, "bot": True})]


def bot_removed(room: RoomModel, r: BotRemoved) -> list[Event]:
    require_host(room, r.by)
    require_lobby(room)
    seat = room.seat(r.player)
    if seat is None or seat.bot is None:
        raise RuleError("bot.not_a_bot", "That is not a computer player here.")
    room.seats.remove(seat)
    return [Event("room.left", {"player": r.player, "host": room.host})]


def stood_in(room: RoomModel, r: StandIn) -> list[Event]:
    require_host(room, r.by)
    if room.status is not Status.PLAYING:
        raise RuleError("room.no_match", "No match is being played.")
    _require_bots(room)
    level, language = _checked_level(r.level), _checked_language(r.language)
    seat = room.seat(r.player)
    if seat is None or seat.spectator or seat.bot is not None:
        raise RuleError("bot.not_a_player", "Only a person playing this match can be stood in for.")
    if seat.online:
        raise RuleError(
            "bot.player_here",
            "They are still here: a computer player only plays for someone who dropped out.",
        )
    if seat.stand_in is not None:
        raise RuleError("bot.already_standing_in", "A computer player already plays for them.")
    # The game waits for the seat again (a dropped Pitacor giver pauses the clock): the bot
    # is there. In the room the player stays away, so their return is a ``Presence``.
    room.match, events = room.game.apply(room.match, None, base.Return(r.player), r.at)
    seat.stand_in, seat.bot_language = level, language
    return [*events, Event("room.stand_in", {"player": r.player})]


def stand_in_ended(room: RoomModel, r: StandInEnded) -> list[Event]:
    """The host ends a stand-in by hand ("let them play it themselves when they are back"):
    the bot stops, and the game is told the seat is away again (a dropped Pitacor giver's
    clock pauses as it did before the stand-in)."""
    require_host(room, r.by)
    if room.status is not Status.PLAYING:
        raise RuleError("room.no_match", "No match is being played.")
    seat = room.seat(r.player)
    if seat is None or seat.stand_in is None:
        raise RuleError("bot.not_standing_in", "No computer player plays for them.")
    room.match, events = room.game.apply(room.match, None, base.Drop(r.player), r.at)
    seat.stand_in = None
    return [*events, Event("room.stand_in_ended", {"player": r.player, "by": r.by})]


def unseat_bots_without_game(room: RoomModel) -> list[Event]:
    """The host chose a game with no computer players (Pintó): its bots leave the room."""
    if has_bots(room.game.NAME):
        return []
    bots = [s for s in room.seats if s.bot is not None]
    for seat in bots:
        room.seats.remove(seat)
    return [Event("room.left", {"player": s.player, "host": room.host}) for s in bots]
