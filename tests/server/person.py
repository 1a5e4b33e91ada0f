"""A person at the table, played by the computer players' own mind: for tests of whole
matches with one person and bots."""

from __future__ import annotations

import random
import time

from tertulia.bots.base import Level, bot_for
from tertulia.client import Client, ClientError


async def play_as_person(
    client: Client, game: str, timeout: float = 90.0, mind: str | None = None
) -> dict:
    """Play ``client``'s seat until the match ends, deciding as a person might (the bots'
    own mind, on the pushes this client gets; ``mind``: the game whose bot decides, when
    ``game`` is a copy this process has not got); returns the last push."""
    decide, rng = bot_for(mind or game), random.Random(5)
    deadline = time.monotonic() + timeout
    version = -1
    while True:
        push = await client.wait_for(lambda p, v=version: p["version"] != v, timeout=timeout)
        if push["room"]["status"] != "playing":
            return push
        assert time.monotonic() < deadline, "the match did not end in time"
        version = push["version"]
        for _ in range(20):  # a hidden marker may take a cell: ask again
            action = decide(push["view"], language="en", level=Level.GOOD, rng=rng)
            if action is None:
                break
            try:
                await client.act(action)
                break
            except ClientError as error:
                if error.code in ("action.match_over", "room.no_match"):
                    break
                if client.latest["version"] != version:
                    break  # the match moved on meanwhile: look again
