"""A nickname's rules, all of them: its shape (1 to 20 printable characters), nobody else in
the room has it (the fold's: ``check_nickname``), and the rules for new names only, asked
before the fold and never on replay (``check_new_nickname``, ``check_first_nickname``: it
looks like nobody else's, shows and hides nothing, mixes no scripts in a word, and is
friendly in a public room; see ``model.check_new`` for why they are new-only).
"""

from __future__ import annotations

from ..games.base import RuleError
from ..text.lookalike import (
    hides_characters,
    looks_alike,
    mixed_scripts,
    shows_nothing,
    unshowable,
)
from ..text.profanity import is_profane
from .room_data import RoomModel

NICKNAME_MAX = 20


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


def check_new_nickname(room: RoomModel, text: str, player: str) -> None:
    """The new-only rules of a nickname ``player`` takes in ``room`` (``model.check_new``)."""
    nickname = check_nickname_shape(text)
    _unlike_others(room, nickname, player)
    _alone(nickname)
    _words(nickname, room.public)


def check_first_nickname(text: str, public: bool) -> str:
    """The checks a nickname must pass in a room nobody is in yet (asked before creating one,
    so a refused nickname leaves no empty room behind)."""
    nickname = check_nickname_shape(text)
    _alone(nickname)
    _words(nickname, public)
    return nickname


def _unlike_others(room: RoomModel, nickname: str, player: str) -> None:
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


def _alone(nickname: str) -> None:
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


def _words(nickname: str, public: bool) -> None:
    if public and is_profane(nickname):
        raise RuleError("nickname.profanity", "Please choose a friendlier nickname.")
