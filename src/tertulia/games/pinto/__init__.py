"""Pintó: each round a category; everyone secretly titles and draws something, then
interprets every other drawing (rules: ``shared/rules/pinto.txt``)."""

from . import judging
from .rules import (
    MAX_FRAME_BYTES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    VERSION,
    apply,
    deadline,
    may_chat,
    outcome,
    start,
    verdicts,
)
from .settings import Settings
from .state import PintoAction as Action
from .state import State
from .views import blobs, view, views_changed_by

ORDER = 3

# Every code Pintó's rules refuse with beyond the platform's (``rules.py``, ``marks.py``,
# ``drawing.py``); the client words each as ``games.pinto.errors.<code>``.
ERRORS = (
    "title.empty",
    "title.too_long",
    "title.category_name",
    "title.profanity",
    "title.locked",
    "drawing.empty",
    "drawing.too_large",
    "drawing.malformed",
    "drawing.locked",
    "drawing.no_title",
    "drawing.not_flagged",
    "drawing.already_scored",
    "drawing.unknown",
    "interpret.own",
    "interpret.unknown_artist",
    "interpret.reveal_first",
    "interpret.not_revealed",
    "interpret.too_long",
    "flag.own",
    "judge.unknown_seat",
    "judge.not_artist",
    "judge.by_the_table",
    "dispute.already",
    "vote.no_dispute",
    "vote.not_voter",
    "seat.next_round",
)


def warm_up(settings: Settings) -> None:
    """Called by the room in a thread when it picks these settings: load the judging
    dictionaries of the match's language before anybody waits for them."""
    judging.warm_up(settings.language.value)


# Whether a newcomer plays in a running match (from its next round) or watches:
# a newcomer plays from the next round.
LATECOMERS_PLAY = True

__all__ = [
    "ERRORS",
    "LATECOMERS_PLAY",
    "MAX_FRAME_BYTES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "ORDER",
    "VERSION",
    "Action",
    "Settings",
    "State",
    "apply",
    "blobs",
    "deadline",
    "may_chat",
    "outcome",
    "start",
    "verdicts",
    "view",
    "views_changed_by",
    "warm_up",
]
