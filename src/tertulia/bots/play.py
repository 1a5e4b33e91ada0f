"""Whole matches played by bots through a game's pure engine: ``start``, ``apply``, ``view``.

What the tests and ``benchmarks/bots.py`` use to watch bots play. It does what the room will
do, minus the room: ask each seat's bot with that seat's view, decode the answer as a
browser's message is decoded (``base.decode_action``) and apply it; when nobody has anything
to do, let the clock run out (``Timeout`` at the deadline). Every decision can be watched
(``watch``), so a test can check what each bot was given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tertulia.games import base

from .base import Level, bot_for

# A bot is asked again after a refusal (with a new seed); this many refusals in a row for one
# seat means it is stuck, which is a bug the tests must see.
MAX_REFUSALS = 20

# Called with the state, the seat, the view its bot was given and what the bot answered.
Watch = Callable[[Any, str, dict[str, Any], dict[str, Any] | None], None]


class Stuck(RuntimeError):
    """A bot kept sending refused actions, or the match stopped moving."""


def play(
    game: Any,
    state: Any,
    seats: dict[str, Level],
    *,
    language: str,
    seed: int = 0,
    now: float = 1000.0,
    max_actions: int = 5000,
    until: Callable[[Any], bool] | None = None,
    watch: Watch | None = None,
    may_refuse: frozenset[str] = frozenset(),
) -> Any:
    """Play ``state`` on until the match ends (or ``until(state)``); returns the last state.

    ``seats`` names the bot seats and their levels; any other seat never acts (as a person
    who stays idle: clocks move the match on without them). A refused action raises
    ``Stuck`` unless its code is in ``may_refuse`` (hidden markers: a cell someone hid a
    marker on is refused, which the view cannot foresee); the bot is then asked again.
    """
    rng = random.Random(seed)
    decide = bot_for(game.NAME)
    for _ in range(max_actions):
        if game.outcome(state) is not None or (until is not None and until(state)):
            return state
        acted = False
        for seat, level in seats.items():
            refusals = 0
            while True:
                view = game.view(state, seat)
                action = decide(
                    view, language=language, level=level, rng=random.Random(rng.getrandbits(64))
                )
                if watch is not None:
                    watch(state, seat, view, action)
                if action is None:
                    break
                try:
                    state, _ = game.apply(state, seat, base.decode_action(game.Action, action), now)
                except base.RuleError as error:
                    if error.code not in may_refuse:
                        raise Stuck(f"{seat}'s {action} was refused: {error.code}") from error
                    refusals += 1
                    if refusals >= MAX_REFUSALS:
                        raise Stuck(f"{seat} refused {refusals} times: {error.code}") from error
                    continue
                acted = True
                break
            if acted:
                break
        if acted:
            now += 1.0
            continue
        deadline = game.deadline(state)
        if deadline is None:
            raise Stuck("nobody acts and no clock runs")
        now = max(now, deadline)
        state, _ = game.apply(state, None, base.Timeout(), now)
    raise Stuck(f"still playing after {max_actions} actions")
