"""The tests' tiny game is the example game of ``docs/adding-a-game.md``: its folder is
``docs/examples/tiny/games/tiny``, laid out as it would be in ``src/tertulia``, so the example
a newcomer copies is the game every platform test plays. ``import tiny_game`` gives that very
module (patching ``tiny_game.apply`` patches the game the rooms run)."""

from __future__ import annotations

import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "tiny"
sys.path.insert(0, str(EXAMPLE / "games"))

import tiny  # noqa: E402

# The import system hands ``import tiny_game`` whatever this name holds once we are done.
sys.modules[__name__] = tiny
