"""Haiclue's host options. ``Settings()`` is "restore defaults"."""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from ..base import setting


class Deck(enum.Enum):
    """The language of the word tiles (the interface language is each player's own)."""

    EN = "en"
    PT_BR = "pt-BR"
    ES = "es"
    PL = "pl"


def _label(name: str) -> str:
    return f"settings.haiclue.{name}"


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    deck: Annotated[Deck, setting("en", label=_label("deck"))] = Deck.EN
    # Clocks in seconds, 0 = no limit. A clue not finished in time is skipped this round;
    # a guess not made in time simply scores nothing.
    clue_seconds: Annotated[int, setting(180, label=_label("clue_seconds"), ge=0, le=900)] = 180
    guess_seconds: Annotated[int, setting(60, label=_label("guess_seconds"), ge=0, le=300)] = 60
    # "A clue must contain at least two word tiles."
    min_clue_tiles: Annotated[
        int, setting(2, label=_label("min_clue_tiles"), ge=2, le=8, advanced=True)
    ] = 2
    # How long a clue's result stays before the next clue (0: until everyone is ready).
    reveal_seconds: Annotated[
        int, setting(10, label=_label("reveal_seconds"), ge=0, le=60, advanced=True)
    ] = 10
