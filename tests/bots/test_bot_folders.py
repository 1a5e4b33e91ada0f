"""A game's computer player is part of its folder (issue 28, point 1): ``bots/`` finds it by
convention and names no game, and a game's bot imports nothing from above ``games/``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tertulia import bots
from tertulia.bots import base
from tertulia.games import GAMES

SRC = Path(bots.__file__).parents[1]
# What games/ may never import: the floors above it (DESIGN.md, "A folder is a room").
ABOVE_GAMES = ("tertulia.bots", "tertulia.rooms", "tertulia.server", "tertulia.store",
               "tertulia.cluster", "tertulia.protocol")  # fmt: skip


def test_the_games_with_bots_are_the_game_folders_with_a_bot() -> None:
    """No list: a game has a computer player when its folder has ``bot/``."""
    folders = {
        name for name, game in GAMES.items() if (Path(game.__file__).parent / "bot").is_dir()
    }
    assert set(base.games()) == folders == {"pitacor", "haiclue"}
    assert list(base.games()) == [name for name in GAMES if name in folders]
    for name in folders:
        assert (
            base.bot_for(name) is __import__(f"{GAMES[name].__name__}.bot", fromlist=["x"]).decide
        )


def test_bots_names_no_game() -> None:
    """``bots/`` dispatches through what a game offers: no game's name in its code (its
    docstrings may name one as an example)."""
    names = re.compile(r"\b(" + "|".join(GAMES) + r")\b", re.IGNORECASE)
    for path in (SRC / "bots").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and ast.get_docstring(node) is not None
        }
        words = [
            node.value if isinstance(node, ast.Constant) else ast.unparse(node)
            for node in ast.walk(tree)
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings)
            or isinstance(node, ast.Name | ast.Attribute | ast.ImportFrom | ast.Import)
        ]  # fmt: skip
        assert not [w for w in words if names.search(w)], path


def test_a_games_bot_imports_nothing_from_above_games() -> None:
    for game in GAMES.values():
        folder = Path(game.__file__).parent / "bot"
        for path in folder.rglob("*.py") if folder.is_dir() else ():
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    assert not node.module.startswith(ABOVE_GAMES), (path, node.module)
                if isinstance(node, ast.ImportFrom) and node.level > 2:
                    raise AssertionError(f"{path}: relative import above its game")
