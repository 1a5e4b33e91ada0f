"""Pitacor: colour guessing on a 30 × 16 board (rules: ``shared/rules/pitacor.txt``).

This module is the game as the room sees it (the contract in ``games/base.py``); the rules
are in ``rules.py``, what each seat sees in ``views.py``, the clue checks in ``clues.py``.
"""

from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
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

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
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
