"""Any node, any room: a connection on one node plays in a room another node owns."""

from __future__ import annotations

import asyncio

import pytest
from cluster_testing import relay_nodes, run

from tertulia.client import Client, ClientError


def test_a_player_on_another_node_joins_and_plays_through_the_owner(tmp_path) -> None:
    with relay_nodes(tmp_path) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            bo = await Client.connect(other.ws, token=None)
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")  # Bo's socket is on the other node
            seats = await ana.wait_for(lambda push: len(push["room"]["seats"]) == 2)
            assert [s["nickname"] for s in seats["room"]["seats"]] == ["Ana", "Bo"]
            assert code in owner.state.manager.rooms and code not in other.state.manager.rooms
            await ana.request("start_match")
            view = await bo.wait_for(lambda push: push.get("view") is not None)
            first, second = (ana, bo) if view["view"]["turn"] == ana.player else (bo, ana)
            await first.act({"type": "add", "amount": 3})
            seen = await second.wait_for(lambda push: push["view"]["counter"] == 3)
            assert seen["view"]["turn"] == second.player
            await second.act({"type": "add", "amount": 2})
            await first.wait_for(lambda push: push["view"]["counter"] == 5)
            # Each seat's own view travels: Bo's secret word reaches Bo through the relay.
            assert bo.view["secret"] and ana.view["secret"]
            await ana.close()
            await bo.close()

        run(go)


def test_a_refusal_by_the_owner_reaches_the_relayed_player_as_an_error(tmp_path) -> None:
    with relay_nodes(tmp_path) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            bo = await Client.connect(other.ws)
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")
            await ana.request("start_match")
            view = await bo.wait_for(lambda push: push.get("view") is not None)
            waiting = bo if view["view"]["turn"] == ana.player else ana
            with pytest.raises(ClientError) as error:
                await waiting.act({"type": "add", "amount": 1})
            assert error.value.code == "action.not_your_turn"
            await ana.close()
            await bo.close()

        run(go)


def test_closing_a_relayed_connection_starts_its_drop_grace_on_the_owner(tmp_path) -> None:
    with relay_nodes(tmp_path, drop_grace_seconds=0.3) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            bo = await Client.connect(other.ws)
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")
            await ana.wait_for(lambda push: len(push["room"]["online"]) == 2)
            await bo.close()
            await ana.wait_for(lambda push: push["room"]["online"] == [ana.player])
            # Back through the other node: the same seat.
            again = await Client.connect(other.ws, token=bo.token)
            await again.join_room(code, "Bo", resume=True)
            await ana.wait_for(lambda push: len(push["room"]["online"]) == 2)
            assert len(ana.latest["room"]["seats"]) == 2
            await again.close()
            await ana.close()

        run(go)


def test_an_unknown_code_is_unknown_on_every_node(tmp_path) -> None:
    with relay_nodes(tmp_path) as (_, other):

        async def go() -> None:
            async with await Client.connect(other.ws) as bo:
                with pytest.raises(ClientError) as error:
                    await bo.join_room("QQQQQ", "Bo")
                assert error.value.code == "room.unknown"

        run(go)


def test_public_rooms_of_every_node_are_listed_on_each(tmp_path) -> None:
    with relay_nodes(tmp_path) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            code = await ana.create_room("tiny", "Ana", public=True)
            for _ in range(100):
                rooms = other.state.rooms.public_rooms()
                if any(r.code == code for r in rooms):
                    break
                await asyncio.sleep(0.1)
            assert [r.code for r in other.state.rooms.public_rooms()] == [code]
            await ana.close()

        run(go)
