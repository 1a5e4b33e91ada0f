"""Fixtures for the bots' tests (pytest puts this folder on ``sys.path``, so the tests also
import ``bot_helpers``)."""

from __future__ import annotations

import pytest

from tertulia.text import meaning


@pytest.fixture
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play as a server without the ``bots`` extra does."""
    monkeypatch.setattr(meaning, "encoder", lambda: None)
