from __future__ import annotations

import pytest
from server_harness import ThreadServer, games_with_tiny


@pytest.fixture
def server(tmp_path):
    """A real server on loopback with a real SQLite file, playing Pitacor and the tiny game."""
    with ThreadServer(
        tmp_path / "tertulia.sqlite3", games_with_tiny(), drop_grace_seconds=0.3
    ) as s:
        yield s
