"""Pintó: each round a category; everyone secretly titles and draws something, then
interprets every other drawing (rules: ``shared/rules/pinto.txt``)."""

from . import judging
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
from .views import blobs, view, views_changed_by


def warm_up(settings: Settings) -> None:
    """Called by the room in a thread when it picks these settings: load the judging
    dictionaries of the match's language before anybody waits for them."""
    judging.warm_up(settings.language.value)


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
    "views_changed_by",
    "warm_up",
]
