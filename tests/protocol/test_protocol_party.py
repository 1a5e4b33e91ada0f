"""A shared screen and quick reactions (docs/protocol.md, "A shared screen", "Reactions"),
over raw frames."""

from __future__ import annotations

import pytest
from raw_client import Clients, room_of, run
from test_protocol_game import _pitacor_round


@pytest.mark.covers("open_screen", "screen.read_only")
def test_a_shared_screen_takes_no_seat_and_sees_what_a_spectator_sees(shared, address):
    """Opened in the host's own browser (the same token), it is still not the host's seat:
    "never a seat's secret, even when the TV is opened in the same browser as a player"."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            tv = await clients.hello("tv", token=ana.token)
            assert await tv.ok("open_screen", code=code) == {"room": code, "screen": True}
            held = await tv.push(lambda held: held.room["code"] == code)
            assert [s["id"] for s in held.room["seats"]] == [ana.player, bo.player]
            assert tv.player not in held.room["online"] or tv.player == ana.player
            await ana.ok("update_settings", settings={"turn_seconds": 0})
            await ana.ok("start_match")
            held = await tv.push(lambda held: held.view is not None)
            assert held.view["you"]["role"] == "spectator"
            await tv.refused("act", "screen.read_only", action={"type": "add", "amount": 1})
            await tv.refused("chat", "screen.read_only", text="hi")
            await tv.ok("sync")

    run(go())


@pytest.mark.covers("react", "reaction", "reaction.unknown", "reaction.too_fast")
def test_a_reaction_reaches_everyone_and_changes_nothing(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            tv = await clients.hello("tv")
            await tv.ok("open_screen", code=code)
            await tv.push(lambda held: held.room["code"] == code)
            version = ana.picture.version
            start = {raw.name: len(raw.frames) for raw in (ana, bo, tv)}
            assert await bo.ok("react", kind="laugh") is None
            for raw in (ana, bo, tv):
                got = await raw.wait_for(lambda f: f["type"] == "reaction", start[raw.name])
                assert got == {"type": "reaction", "player": bo.player, "kind": "laugh"}
            await ana.refused("react", "reaction.unknown", kind="shrug")
            for _ in range(4):  # five in a row (one sent above), then one a second
                await bo.ok("react", kind="clap")
            await bo.refused("react", "reaction.too_fast", kind="clap")
            await ana.ok("sync")  # no change of the room came of any of it
            assert ana.picture.version == version

    run(go())


@pytest.mark.covers("reaction.not_now")
def test_the_clue_giver_may_not_react_while_giving_clues(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            giver, guessers = await _pitacor_round(clients)
            await giver.refused("react", "reaction.not_now", kind="wow")
            await guessers[0].ok("react", kind="wow")

    run(go())
