"""Rule tests play with a made-up deck (white0/black0, white1/black1, …) so that they read
clearly and do not depend on the words of the real decks (tested in test_haiclue_decks.py)."""

from __future__ import annotations

import pytest

from tertulia.games.haiclue import decks

SYNTHETIC = tuple(decks.Tile(i, f"white{i}", f"black{i}") for i in range(216))


@pytest.fixture(autouse=True, scope="module")
def synthetic_deck():
    real = decks.load
    decks.load = lambda language: SYNTHETIC  # type: ignore[assignment]
    yield
    decks.load = real
