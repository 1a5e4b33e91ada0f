"""A game's computer player, as the game offers it: the contract of ``games/<name>/bot/``.

A game that has a computer player has a ``bot`` package (or module) in its folder whose
``decide`` is a ``Bot``: a pure function of what its seat may see. It is given the seat's
view dict — exactly what ``view(state, seat)`` sends that seat's browser — and returns the
action dict a person at that seat would send, or None when the seat has nothing to do now. It
never receives the state, so it cannot see another seat's secret.

Running bots (a worker process, the human-looking delay, the play loop) is ``bots/``'s, which
finds a game's bot by this convention and names no game; a bot's folder imports nothing above
``games/`` (the meaning model it may read words with is ``text/meaning.py``).
"""

from __future__ import annotations

import enum
import random
from typing import Any, Protocol


class Level(enum.Enum):
    """How well a bot plays. "beginner makes human-like mistakes"."""

    BEGINNER = "beginner"
    GOOD = "good"


class Bot(Protocol):
    """A game's ``bot.decide``."""

    def __call__(
        self, view: dict[str, Any], *, language: str, level: Level, rng: random.Random
    ) -> dict[str, Any] | None: ...
