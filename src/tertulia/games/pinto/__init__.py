"""Pintó: each round a category; everyone secretly titles and draws something, then
interprets every other drawing (rules: ``shared/rules/pinto.txt``)."""

from .judging import warm_up
from .rules import (
    MAX_FRAME_BYTES,
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
from .state import PintoAction as Action
from .state import State
from .views import blobs, view

__all__ = [
    "MAX_FRAME_BYTES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "Action",
    "Settings",
    "State",
    "apply",
    "blobs",
    "deadline",
    "may_chat",
    "outcome",
    "start",
    "view",
    "warm_up",
]
