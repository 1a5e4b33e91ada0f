"""Helpers the bots' tests share: players, and a mark for tests that need the model."""

from __future__ import annotations

import pytest

from tertulia.bots import meaning
from tertulia.games.base import Player

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Eva", "Filipe"]


def players(count: int) -> list[Player]:
    return [Player(f"p{i + 1}", NAMES[i]) for i in range(count)]


needs_model = pytest.mark.skipif(
    not meaning.available(), reason="needs the optional 'bots' extra (the sentence encoder)"
)
