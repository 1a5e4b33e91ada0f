"""Identity and reconnection: "Same browser → same seat and points; knowing someone's public
id gives no way into their seat"."""

from __future__ import annotations

import asyncio

from server_harness import run

from tertulia.client import Client


async def _started(server):
    ana = await Client.connect(server.ws)
    bo = await Client.connect(server.ws)
    code = await ana.create_room("tiny", "Ana")
    await bo.join_room(code, "Bo")
    await ana.request("start_match")
    await bo.wait_for(lambda p: p["view"] is not None)
    return ana, bo, code


def test_same_token_same_seat_and_points_after_reconnecting(server):
    async def go():
        ana, bo, code = await _started(server)
        first = ana if ana.latest["view"]["turn"] == ana.player else bo
        await first.act({"type": "add", "amount": 3})
        token, player, secret = first.token, first.player, first.view["secret"]
        await first.close()
        again = await Client.connect(server.ws, token=token)
        assert again.player == player
        await again.join_room(code, "whatever")
        push = again.latest
        assert push["view"]["counter"] == 3 and push["view"]["secret"] == secret
        seats = [s for s in push["room"]["seats"] if s["id"] == player]
        assert len(seats) == 1 and len(push["room"]["seats"]) == 2
        assert push["chat"] is not None  # a resumed client gets the recent chat too

    run(go())


def test_a_public_id_gives_no_way_into_a_seat(server):
    async def go():
        _ana, bo, code = await _started(server)
        thief = await Client.connect(server.ws, token=bo.player + "x" * 32)
        assert thief.player != bo.player
        await thief.join_room(code, "Bo2")
        assert thief.view["secret"] is None  # a spectator, not Bo
        assert [s["spectator"] for s in thief.latest["room"]["seats"]][-1] is True

    run(go())


def test_a_dropped_player_is_marked_offline_after_the_grace_and_back_on_return(server):
    async def go():
        ana, bo, code = await _started(server)
        token = bo.token
        await bo.close()
        push = await ana.wait_for(lambda p: p["view"]["online"][bo.player] is False, timeout=5)
        assert [s["online"] for s in push["room"]["seats"] if s["id"] == bo.player] == [False]
        again = await Client.connect(server.ws, token=token)
        await again.join_room(code, "Bo")
        await ana.wait_for(lambda p: p["view"]["online"][bo.player] is True, timeout=5)

    run(go())


def test_a_quick_reconnect_within_the_grace_is_not_a_drop(server):
    async def go():
        ana, bo, code = await _started(server)
        version = ana.latest["version"]
        await bo.close()
        again = await Client.connect(server.ws, token=bo.token)
        await again.join_room(code, "Bo")
        await asyncio.sleep(0.6)  # longer than the grace (0.3 s)
        assert ana.latest["version"] == version and ana.latest["view"]["online"][bo.player]

    run(go())


def test_joining_mid_match_as_the_game_allows_otherwise_as_a_spectator(server):
    async def go():
        _ana, _bo, code = await _started(server)
        cy = await Client.connect(server.ws)
        await cy.join_room(code, "Cy")
        me = next(s for s in cy.latest["room"]["seats"] if s["id"] == cy.player)
        assert me["spectator"] is True and cy.view is not None and cy.view["secret"] is None

    run(go())


def test_blobs_are_sent_once_per_connection_and_again_after_reconnecting(server):
    """Large unchanging parts of a view (a drawing) travel once, not in every push."""

    async def go():
        ana, bo, code = await _started(server)
        key = f"secret:{ana.player}"
        first = next(p for p in ana.pushes if p.get("blobs"))
        assert first["blobs"] == {key: ana.view["secret"]}
        mover = ana if ana.view["turn"] == ana.player else bo
        await mover.act({"type": "add", "amount": 1})
        await ana.wait_for(lambda p: p["view"]["counter"] == 1)
        assert ana.latest["blobs"] is None  # already has it
        assert f"secret:{ana.player}" not in bo.blobs  # and never another seat's
        again = await Client.connect(server.ws, token=ana.token)
        await again.join_room(code, "Ana")
        assert again.blobs == {key: ana.view["secret"]}

    run(go())
