"""How the room asks a game's computer player for a move without waiting on it.

A game offers a bot in its folder (``games/<name>/bot/``, the contract in
``games/_bot.py``); this module finds it by that convention and names no game. A bot is a
pure function of what its seat may see: ``decide(view, language=, level=, rng=)``
gets the seat's view dict — exactly what ``game.view(state, seat)`` sends that seat's
browser — and returns the action dict a person at that seat would send (``{"type":
"select_cell", "cell": "H12"}``), or None when the seat has nothing to do now. It never
receives the state, so it cannot see another seat's secret: "bots see only what their seat
sees" holds by construction, not by care.

Model work (the sentence encoder, a few to a few hundred milliseconds of CPU) must never run
on the event loop. ``DecisionRunner`` runs decisions in a worker — a process by default, so
a bot's CPU never holds the server's GIL — and the room awaits it.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any

from tertulia import games as game_folders
from tertulia.games.base import Bot, Level

__all__ = ["LANGUAGES", "Bot", "DecisionRunner", "Level", "bot_for", "games", "has_bot"]

# The room's languages; Pitacor clues are free text in the room's language, Haiclue tiles come
# from the deck of that language.
LANGUAGES = ("en", "pt-BR", "es", "pl")


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"expected one of {LANGUAGES}, got {language!r}")
    return language


@cache
def has_bot(game: str) -> bool:
    """Whether ``game`` offers a computer player: a ``bot`` in its folder
    (``games/<name>/bot/``). Found without importing the bot (and its word data)."""
    module = game_folders.GAMES.get(game)
    return module is not None and importlib.util.find_spec(f"{module.__name__}.bot") is not None


def games() -> tuple[str, ...]:
    """The games that have a computer player, in the games' list order."""
    return tuple(name for name in game_folders.GAMES if has_bot(name))


def bot_for(game: str) -> Bot:
    """The ``decide`` function of ``game``'s bot; KeyError if the game has none (Pintó:
    drawing is for people)."""
    if not has_bot(game):
        raise KeyError(f"no computer player for {game!r}")
    # Imported here, on the first decision, so that the lobby loads no bot (and no word data).
    return importlib.import_module(f"{game_folders.GAMES[game].__name__}.bot").decide


def decide(
    game: str, view: dict[str, Any], language: str, level: str, seed: int
) -> dict[str, Any] | None:
    """One decision from plain, picklable arguments: what a worker process runs."""
    return bot_for(game)(
        view, language=check_language(language), level=Level(level), rng=random.Random(seed)
    )


class DecisionRunner:
    """Runs bot decisions off the event loop, one worker by default.

    One worker is enough for a server: a decision takes milliseconds, bots act after a
    human-looking delay of seconds, and a second worker would double the model's memory.
    The worker is a process started with ``spawn`` (a fork of a running server would copy
    its threads' locks); the model loads there once, on the first decision that needs it.
    Pass an ``executor`` (a thread pool, in tests) to run elsewhere.
    """

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._owned = executor is None

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self._executor

    async def decide(
        self, game: str, view: dict[str, Any], *, language: str, level: Level, seed: int
    ) -> dict[str, Any] | None:
        """The bot's action for ``view``, computed in the worker while the loop goes on."""
        loop = asyncio.get_running_loop()
        run: Callable[..., dict[str, Any] | None] = decide
        try:
            return await loop.run_in_executor(
                self._pool(), run, game, view, check_language(language), level.value, seed
            )
        except BrokenProcessPool:
            # The worker died (killed, out of memory): the next decision starts a new one,
            # rather than every bot of the server failing for as long as it runs.
            if self._owned:
                self._executor = None
            raise

    def close(self) -> None:
        """Stop the worker (only one this runner started)."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
