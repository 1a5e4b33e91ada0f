"""The host ends a stand-in by hand: over real WebSockets, only the host may, the seat is a
dropped player's again (the bot stops playing it), and the log keeps it for a restart."""

from __future__ import annotations

import asyncio

from server_harness import run
from test_server_bots import FAST, _add_bots, _host, _moves_by, _refusal, _seat, server

from tertulia.client import Client
from tertulia.games import GAMES
from tertulia.rooms import records
from tertulia.rooms.replay import replay

__all__ = ["server"]  # the bots' server (fast bots), shared with test_server_bots


def test_the_host_stops_a_computer_player_playing_for_someone_away(server):
    async def go():
        ana, code = await _host(
            server, "pitacor", goal=50, clue_seconds=4, guess_seconds=4, reveal_seconds=1
        )
        await _add_bots(ana, 1)
        bo, cy = await Client.connect(server.ws), await Client.connect(server.ws)
        await bo.join_room(code, "Bo")
        await cy.join_room(code, "Cy")
        await ana.request("start_match")
        await bo.wait_for(lambda p: p["view"] is not None)
        await bo.close()
        await ana.wait_for(lambda p: not _seat(p, bo.player)["online"])
        refused = await _refusal(ana, "end_stand_in", player=bo.player)
        assert refused.code == "bot.not_standing_in"
        await ana.request("stand_in", player=bo.player, level="good", language="en")
        await ana.wait_for(lambda p: _seat(p, bo.player)["stand_in"] == "good")
        assert (await _refusal(cy, "end_stand_in", player=bo.player)).code == "room.host_only"

        async def log():
            live = await server.call(server.state.store.load_live_room(code, snapshot=False))
            return live, [records.record_decoder.decode(e.payload) for e in live.entries]

        for _ in range(300):  # the bot plays Bo's seat: a clue or a marker of Bo's
            if _moves_by((await log())[1], bo.player):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the bot never played for Bo")
        await ana.request("end_stand_in", player=bo.player)
        push = await cy.wait_for(lambda p: _seat(p, bo.player)["stand_in"] is None)
        assert not _seat(push, bo.player)["online"]  # still away: the seat waits for Bo
        live, entries = await log()
        ended = len(entries)
        assert isinstance(entries[-1], records.StandInEnded) and entries[-1].by == ana.player
        await asyncio.sleep(20 * FAST[1] + 2)  # the bot would have played Bo's seat by now
        _, later = await log()
        assert not [i for i in _moves_by(later, bo.player) if i >= ended]
        replayed, _ = replay(live, GAMES)  # a restart: the stand-in stays ended
        seat = replayed.seat(bo.player)
        assert seat is not None and seat.stand_in is None and not seat.online
        assert (await _refusal(ana, "end_stand_in", player=bo.player)).code == (
            "bot.not_standing_in"
        )

    run(go())
