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


def copy_game(package: Path, old: str, new: str) -> list[Path]:
    """Copy game ``old`` under the name ``new`` in ``package`` (a ``tertulia`` folder), as a
    developer starting from an existing game would: its folder, its screen module (and the
    folder of its parts, if any), its stylesheet, its translations and its pictures. Nothing
    inside any file changes. Returns what was made."""
    web = package / "web"
    pairs = [
        (package / "games" / old, package / "games" / new),
        (web / "js" / "games" / f"{old}.js", web / "js" / "games" / f"{new}.js"),
        (web / "js" / "games" / old, web / "js" / "games" / new),
        (web / "css" / "games" / f"{old}.css", web / "css" / "games" / f"{new}.css"),
        (web / "i18n" / "games" / old, web / "i18n" / "games" / new),
        (web / "img" / "games" / old, web / "img" / "games" / new),  # its rules card's pictures
    ]
    made = []
    for source, target in pairs:
        if source.is_dir():
            shutil.copytree(source, target, ignore=CACHES)
        elif source.is_file():
            shutil.copyfile(source, target)
        else:
            continue
        made.append(target)
    return made


def install_example(package: Path) -> None:
    """Install the example game of docs/adding-a-game.md as its page says: copy the tree of
    ``docs/examples/tiny`` over the package's."""
    shutil.copytree(EXAMPLE, package, ignore=CACHES, dirs_exist_ok=True)
