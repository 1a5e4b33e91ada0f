"""Pintó's host options. ``Settings()`` is "restore defaults"."""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from ..base import setting


class Language(enum.Enum):
    """The language of the category deck and of judging."""

    EN = "en"
    PT_BR = "pt-BR"
    ES = "es"
    PL = "pl"


class Matching(enum.Enum):
    """How close an interpretation must be to the title."""

    TOLERANT = "tolerant"  # case, accents, articles, number, gender, synonyms, small typos
    PERFECT = "perfect"  # the rulebook's variant: "interpretations must be a perfect match"


class FirstArtist(enum.Enum):
    RANDOM = "random"
    FIRST_SEAT = "first_seat"  # the host's choice: whoever the host put first in the lobby


def _label(name: str) -> str:
    return f"settings.pinto.{name}"


CustomCategory = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rounds: Annotated[int, setting(3, label=_label("rounds"), ge=1, le=8)] = 3
    language: Annotated[Language, setting("en", label=_label("language"))] = Language.EN
    matching: Annotated[Matching, setting("tolerant", label=_label("matching"))] = Matching.TOLERANT
    # The rulebook's blank cards: categories the host writes, shuffled in with the deck.
    custom_categories: Annotated[
        list[CustomCategory],
        msgspec.Meta(
            max_length=20,
            extra_json_schema={
                "x-label": _label("custom_categories"),
                "x-advanced": False,
                "default": [],
            },
        ),
    ] = []
    # Phase B has no clock in the rulebook ("Art and inspiration cannot be rushed!"); online, a
    # generous one keeps an idle player from holding everyone. 0 = no limit.
    drawing_seconds: Annotated[
        int, setting(600, label=_label("drawing_seconds"), ge=0, le=1800)
    ] = 600
    first_artist: Annotated[FirstArtist, setting("random", label=_label("first_artist"))] = (
        FirstArtist.RANDOM
    )
    # How long the table has to look at a drawing's marks and dispute one before the marks
    # stand (a vote pauses it). 0 = until everyone here has accepted the marks.
    judging_seconds: Annotated[
        int, setting(90, label=_label("judging_seconds"), ge=0, le=600, advanced=True)
    ] = 90
    # How long a vote on a disputed mark lasts: always a clock, so an absent voter never
    # holds the table ("a quick vote"); a vote not cast in time keeps the automatic mark.
    vote_seconds: Annotated[
        int, setting(30, label=_label("vote_seconds"), ge=10, le=120, advanced=True)
    ] = 30
