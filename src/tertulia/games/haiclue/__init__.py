"""Haiclue: build a clue from your word tiles that points at one of four target words
(rules: ``shared/rules/haiclue-pl.txt``, translated in ``haiclue-en.md``)."""

from .rules import MAX_PLAYERS, MIN_PLAYERS, NAME, apply, deadline, may_chat, outcome, start
from .settings import Settings
from .state import HaiclueAction as Action
from .state import State
from .views import view

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
    "view",
]
