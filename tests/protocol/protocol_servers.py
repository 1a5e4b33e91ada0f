"""The conformance suite's servers: real ones on loopback with a real SQLite file, started
with ``tests/server``'s harness (the tiny example game beside the shipped ones), with a short
drop grace, and computer players that never move (``StillBots``): the suite checks what the
protocol says of bots (their seats, the host's messages, the refusals), not how they play,
and a bot's first decision would start a worker process and load its word model.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from server_harness import ThreadServer, games_with_tiny

DROP_GRACE = 0.5  # seconds before a closed connection is a drop (a few by default)


class StillBots:
    """A bot runner whose bots decide nothing: they sit in their seats."""

    async def decide(self, game: str, view: dict, **options: object) -> None:
        return None

    def close(self) -> None:
        pass


def protocol_server(db: Path, **config: object) -> ThreadServer:
    """A server (not yet started) as the suite runs them: short drop grace, still bots."""
    config.setdefault("drop_grace_seconds", DROP_GRACE)
    server = ThreadServer(db, games_with_tiny(), **config)
    server.state.manager.bot_runner = StillBots()
    return server
