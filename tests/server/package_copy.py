"""A copy of the ``tertulia`` package in a temporary folder, to add games to it the way a
developer would, without writing into ``src/``: run a server on it with
``subprocess_server(..., python_path=root)``."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "tertulia"
EXAMPLE = ROOT / "docs" / "examples" / "tiny"
CACHES = shutil.ignore_patterns("__pycache__", "*.pyc")


def copy_package(into: Path) -> Path:
    """``src/tertulia`` copied to ``into/tertulia``; returns ``into`` (for ``PYTHONPATH``)."""
    shutil.copytree(SOURCE, into / "tertulia", ignore=CACHES)
    return into


def copy_game(package: Path, old: str, new: str) -> Path:
    """Copy game ``old`` under the name ``new`` in ``package`` (a ``tertulia`` folder), as a
    developer starting from an existing game would: its one folder (rules, views, bot, screen,
    stylesheet, translations, pictures). Nothing inside any file changes. Returns the copy."""
    target = package / "games" / new
    shutil.copytree(package / "games" / old, target, ignore=CACHES)
    return target


def install_example(package: Path) -> None:
    """Install the example game of docs/adding-a-game.md as its page says: copy the tree of
    ``docs/examples/tiny`` over the package's."""
    shutil.copytree(EXAMPLE, package, ignore=CACHES, dirs_exist_ok=True)
