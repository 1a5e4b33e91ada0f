"""The games: every folder here is one, a pure rules package behind the contract in ``base.py``.

A game is a folder. ``games/<name>/`` is found by looking, not by a list: every package in
this folder whose name does not start with ``_`` is a game, and its folder's name is the
game's name (``NAME`` must say the same). Plain modules are never games: ``base.py`` (the
contract, the one module games import) and the modules of shared tools it gathers
(``_seating.py``, ``_match.py``, …), named with a ``_`` so that no game folder can shadow
one. A game's browser side is in its folder too, ``games/<name>/web/`` (``screen.js``,
``style.css``, ``i18n/<lang>.json``, served at ``/static/games/<name>/``; the contract is in
``web/js/games/index.js``); ``docs/adding-a-game.md`` walks through all of it.

Besides the contract, a game package may give:

- ``ORDER``: where it stands in lists (the home page, ``/api/games``), lower first; games
  without one come after those with one; a tie goes by name.
- ``QUICK_PLAY``: ``{"bots": N, "settings": {...}}``, what "Play now with computer players"
  seats beside the player and the settings that make a first match short (the rest are the
  defaults); without it, one bot fewer than the minimum, at least one, and the defaults.
- ``ERRORS``: every code its rules may refuse with beyond the platform's (``base.py``),
  which the client words as ``games.<name>.errors.<code>`` from the game's own translations.
  The tests check that the list is complete and that each code has a sentence in every
  language.

A game that cannot be imported, or that breaks the contract, stops the server at start with
a message naming it (``BrokenGames``): a server that quietly ran without it would leave that
game's live rooms closed after a restart, and the home page would lose it with no word why.

``GAMES`` (name → module, in order) is found the first time someone asks for it, so that
importing ``games.base`` or one game does not import every other one.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import traceback
from collections.abc import Iterable
from types import ModuleType
from typing import Any

# What the room needs of a game module (``base.Game``): names that must be there.
REQUIRED = (
    "NAME",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Settings",
    "Action",
    "State",
    "start",
    "apply",
    "deadline",
    "view",
    "may_chat",
    "outcome",
)
CALLABLE = ("start", "apply", "deadline", "view", "may_chat", "outcome")
NOT_GAMES = frozenset({"base"})
GAME_NAME = re.compile(r"^[a-z][a-z0-9_]*$")  # a folder name that is also a file and URL name
ERROR_CODE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")


class BrokenGames(Exception):
    """One or more game folders could not be loaded; the message names each and why."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        lines = [f"  games/{name}: {why}" for name, why in problems.items()]
        super().__init__("these games could not be loaded:\n" + "\n".join(lines))


def discover(package: str = __name__, paths: Iterable[str] | None = None) -> dict[str, ModuleType]:
    """Import every game folder of ``package`` and return them by name, in list order.

    Raises ``BrokenGames`` naming every folder that fails to import or to meet the contract.
    """
    where = list(paths) if paths is not None else list(importlib.import_module(package).__path__)
    games: dict[str, ModuleType] = {}
    problems: dict[str, str] = {}
    for found in sorted(pkgutil.iter_modules(where), key=lambda m: m.name):
        name = found.name
        if not found.ispkg or name.startswith("_") or name in NOT_GAMES:
            continue
        try:
            module = importlib.import_module(f"{package}.{name}")
        except Exception as error:  # whatever it is, the message must name the folder
            problems[name] = f"import failed: {_failure(error)}"
            continue
        why = contract_problem(name, module)
        if why is not None:
            problems[name] = why
            continue
        games[name] = module
    if problems:
        raise BrokenGames(problems)
    return dict(sorted(games.items(), key=lambda item: list_position(*item)))


def list_position(name: str, module: ModuleType) -> tuple[bool, float, str]:
    """The sort key of a game in lists: ``ORDER`` first (none: after every game with one),
    then the name."""
    order = getattr(module, "ORDER", None)
    return (order is None, order if order is not None else 0, name)


def contract_problem(name: str, module: ModuleType) -> str | None:
    """Why ``module`` (the folder ``name``) is not a game, or None if it is one."""
    if not GAME_NAME.match(name):
        return "a game's folder name has lowercase letters, digits and '_' only"
    missing = [attr for attr in REQUIRED if not hasattr(module, attr)]
    if missing:
        return f"the contract of games/base.py needs {', '.join(missing)}"
    if name != module.NAME:
        return f"NAME is {module.NAME!r}; a game's name is its folder's name ({name!r})"
    not_callable = [attr for attr in CALLABLE if not callable(getattr(module, attr))]
    if not_callable:
        return f"not functions: {', '.join(not_callable)}"
    low, high = module.MIN_PLAYERS, module.MAX_PLAYERS
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        return f"MIN_PLAYERS {low!r} and MAX_PLAYERS {high!r} must be 1 <= MIN <= MAX"
    try:
        module.Settings()
    except Exception as error:
        return f"Settings() must work with no arguments (every field a default): {error}"
    order = getattr(module, "ORDER", None)
    if order is not None and (isinstance(order, bool) or not isinstance(order, int | float)):
        return f"ORDER must be a number, not {order!r}"
    bad = [code for code in getattr(module, "ERRORS", ()) if not _is_code(code)]
    if bad:
        return f"ERRORS holds what is not an error code (word.word): {bad}"
    return None


def _failure(error: Exception) -> str:
    """An exception as one line that says where it happened."""
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} ({error.filename}, line {error.lineno})"
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return f"{type(error).__name__}: {error} ({frame.filename}, line {frame.lineno})"


def _is_code(code: Any) -> bool:
    return isinstance(code, str) and ERROR_CODE.match(code) is not None


def __getattr__(attr: str) -> Any:
    """``GAMES``, discovered on first use (PEP 562) and kept."""
    if attr == "GAMES":
        games = discover()
        globals()["GAMES"] = games
        return games
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


GAMES: dict[str, ModuleType]  # (for readers and type checkers: filled in by __getattr__)
