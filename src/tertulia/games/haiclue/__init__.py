"""Haiclue: build a clue from your word tiles that points at one of four target words
(rules: ``shared/rules/haiclue-pl.txt``, translated in ``haiclue-en.md``)."""

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
from .state import HaiclueAction as Action
from .state import State
from .views import view, views_changed_by

ORDER = 2
# "Play now with computer players": with three it is a contest (with two, a team game).
QUICK_PLAY = {"bots": 2, "settings": {}}

# Every code Haiclue's rules refuse with beyond the platform's (``rules.py``); the client
# words each as ``games.haiclue.errors.<code>``.
ERRORS = (
    "clue.not_your_tile",
    "clue.wrong_side",
    "clue.tile_twice",
    "clue.too_few_tiles",
    "clue.already_submitted",
    "guess.own_clue",
    "guess.already",
    "seat.no_joining",
)

# Whether a newcomer plays in a running match (from its next round) or watches:
# tiles are dealt at the start, so
# latecomers watch.
LATECOMERS_PLAY = False

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
    "view",
    "views_changed_by",
]
