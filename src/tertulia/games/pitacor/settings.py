"""Pitacor's host options: every value the rules let the host change, with its bounds.

``Settings()`` is "restore defaults": the values of the rulebook. Labels are i18n keys the
client translates; fields marked advanced go in the lobby's "advanced" part (point values,
goal, waits), the rest in the main form.
"""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from ..base import setting


class GuessMode(enum.Enum):
    """ "whether guesses are simultaneous (everyone at once) or in turns" """

    SIMULTANEOUS = "simultaneous"
    TURNS = "turns"


class MarkerVisibility(enum.Enum):
    """ "whether they're visible (everyone sees markers as they land) or hidden" """

    VISIBLE = "visible"
    HIDDEN = "hidden"


class EndMode(enum.Enum):
    """The three ways to finish a match."""

    RIGHT_AWAY = "right_away"
    END_OF_ROUND = "end_of_round"
    CLOSE_CYCLE = "close_cycle"


class OnTimeout(enum.Enum):
    """ "the host chooses whether the game forces the move ... or just warns" """

    FORCE = "force"
    WARN = "warn"


def _label(name: str) -> str:
    return f"settings.pitacor.{name}"


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything the host may set for a Pitacor match. Defaults are the rulebook's."""

    guess_mode: Annotated[GuessMode, setting("simultaneous", label=_label("guess_mode"))] = (
        GuessMode.SIMULTANEOUS
    )
    markers: Annotated[MarkerVisibility, setting("visible", label=_label("markers"))] = (
        MarkerVisibility.VISIBLE
    )
    end_mode: Annotated[EndMode, setting("right_away", label=_label("end_mode"))] = (
        EndMode.RIGHT_AWAY
    )
    ultra_hard: Annotated[bool, setting(False, label=_label("ultra_hard"))] = False

    # Clocks, in seconds; 0 means no limit.
    clue_seconds: Annotated[int, setting(90, label=_label("clue_seconds"), ge=0, le=600)] = 90
    guess_seconds: Annotated[int, setting(45, label=_label("guess_seconds"), ge=0, le=600)] = 45
    on_timeout: Annotated[OnTimeout, setting("force", label=_label("on_timeout"))] = OnTimeout.FORCE

    # Clue bans the host may lift ("They're banned by default").
    ban_light_dark: Annotated[bool, setting(True, label=_label("ban_light_dark"))] = True
    ban_directions: Annotated[bool, setting(True, label=_label("ban_directions"))] = True
    ban_nicknames: Annotated[bool, setting(True, label=_label("ban_nicknames"))] = True
    # Only private rooms may lift it: "In public rooms, profanity is always filtered."
    ban_profanity: Annotated[
        bool, setting(True, label=_label("ban_profanity"), in_public_rooms=True)
    ] = True

    # Advanced: the goal and every point value.
    goal: Annotated[int, setting(25, label=_label("goal"), ge=1, le=200, advanced=True)] = 25
    exact_points: Annotated[
        int, setting(3, label=_label("exact_points"), ge=0, le=20, advanced=True)
    ] = 3
    neighbour_points: Annotated[
        int, setting(2, label=_label("neighbour_points"), ge=0, le=20, advanced=True)
    ] = 2
    ring_points: Annotated[
        int, setting(1, label=_label("ring_points"), ge=0, le=20, advanced=True)
    ] = 1
    giver_points: Annotated[
        int, setting(1, label=_label("giver_points"), ge=0, le=20, advanced=True)
    ] = 1
    giver_points_three_players: Annotated[
        int, setting(2, label=_label("giver_points_three_players"), ge=0, le=20, advanced=True)
    ] = 2
    pass_multiplier: Annotated[
        int, setting(2, label=_label("pass_multiplier"), ge=1, le=5, advanced=True)
    ] = 2

    # Advanced: waits the rules describe loosely ("about a minute").
    giver_drop_wait_seconds: Annotated[
        int, setting(60, label=_label("giver_drop_wait_seconds"), ge=10, le=600, advanced=True)
    ] = 60
    reveal_seconds: Annotated[
        int, setting(15, label=_label("reveal_seconds"), ge=0, le=120, advanced=True)
    ] = 15
