"""Helpers the bots' tests share: players, and a mark for tests that need the model."""

from __future__ import annotations

from tertulia.games.base import Player
from tertulia.text import meaning

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Eva", "Filipe"]


def players(count: int) -> list[Player]:
    return [Player(f"p{i + 1}", NAMES[i]) for i in range(count)]


def needs_model(test):
    """Marks a test that uses the sentence encoder. The ``test`` extra installs it, so a
    missing model fails these tests (a skipped test has not passed)."""
    assert meaning.available(), "the 'bots' extra (the sentence encoder) is not installed"
    return test
