"""Pitacor: colour guessing on a 30 × 16 board (rules: ``shared/rules/pitacor.txt``).

This module is the game as the room sees it (the contract in ``games/base.py``); the rules
are in ``rules.py``, what each seat sees in ``views.py``, the clue checks in ``clues.py``.
"""

from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    VERSION,
    apply,
    deadline,
    may_chat,
    outcome,
    start,
)
from .settings import Settings
from .state import PitacorAction as Action
from .state import State
from .views import static_data, view, views_changed_by, views_for

ORDER = 1  # first in the lists of games
# "Play now with computer players": Pitacor plays best with four; a goal of 10 is about two
# rounds, a short first match.
QUICK_PLAY = {"bots": 3, "settings": {"goal": 10}}

# Every code Pitacor's rules refuse with beyond the platform's (``clues.py``, ``rules.py``);
# the client words each as ``games.pitacor.errors.<code>``.
ERRORS = (
    "clue.empty",
    "clue.too_many_words",
    "clue.not_letters",
    "clue.too_short",
    "clue.too_many_hyphens",
    "clue.mixed_scripts",
    "clue.color_name",
    "clue.number",
    "clue.coordinate",
    "clue.already_used",
    "clue.light_dark",
    "clue.direction",
    "clue.nickname",
    "clue.profanity",
    "target.unknown",
    "marker.unknown_cell",
    "marker.cell_taken",
    "marker.nothing_selected",
    "marker.already_placed",
    "marker.giver_cannot_guess",
    "marker.not_playing_yet",
)

# Whether a newcomer plays in a running match (from its next round) or watches:
# "You can join while a match is running: you play from the next
# round".
LATECOMERS_PLAY = True

__all__ = [
    "ERRORS",
    "LATECOMERS_PLAY",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "ORDER",
    "VERSION",
    "Action",
    "Settings",
    "State",
    "apply",
    "deadline",
    "may_chat",
    "outcome",
    "start",
    "static_data",
    "view",
    "views_changed_by",
    "views_for",
]
