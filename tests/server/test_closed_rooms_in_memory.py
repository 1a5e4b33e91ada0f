"""Nothing of a closed room stays in memory (issue 27, point 5; benchmarks/README.md, "Memory
after a soak"): once its connections have gone, none of a room's objects, its connections' or
its match's is alive; and a connection that left a room (a leave, a kick) and stays open — a
home page left open for hours — does not keep that room alive once it has closed."""

from __future__ import annotations

import asyncio
import gc
import re
import time
import weakref

import pytest
from server_harness import ThreadServer, games_with_tiny, run

from tertulia.client import Client
from tertulia.server.memory_report import live_objects

# A room's objects, its connections' and its match's (the soak's list: benchmarks/soak.py).
PER_ROOM = re.compile(
    r"^tertulia\.("
    r"rooms\.(room\.Room$|room_data\.|fanout\.|commit\.|inbox\.|clocks\.|bot_driver\.|records\.)"
    r"|server\.(session|outlet|held)\.|server\.gate\.Line$"
    r"|games\._seating\.SeatedPlayer$"
    r")|\.State$"
)


@pytest.fixture
def server(tmp_path):
    """Rooms close as soon as nobody is in them (housekeeping is called by the tests)."""
    with ThreadServer(
        tmp_path / "t.sqlite3", games_with_tiny(), drop_grace_seconds=0.05, idle_minutes=0
    ) as s:
        yield s


async def _tiny_room(server, names=("Ana", "Bo")) -> tuple[list[Client], str]:
    clients = [await Client.connect(server.ws) for _ in names]
    code = await clients[0].create_room("tiny", names[0])
    for client, name in zip(clients[1:], names[1:], strict=True):
        await client.join_room(code, name)
    await clients[0].request("start_match")
    await clients[0].wait_for(lambda p: p["view"] is not None)
    return clients, code


async def _play_to_the_end(clients: list[Client]) -> None:
    by_id = {c.player: c for c in clients}
    view = clients[0].view
    while view["winner"] is None:
        mover = by_id[view["turn"]]
        await mover.act({"type": "add", "amount": 3})
        counter = view["counter"]
        view = (await mover.wait_for(lambda p, n=counter: p["view"]["counter"] > n))["view"]


async def _close_idle_rooms(server) -> list[str]:
    await asyncio.sleep(0.1)  # the leaves and detaches reach the rooms
    return await server.call(server.state.manager.close_idle())


def _ours_left() -> dict[str, int]:
    gc.collect()
    ours, _ = live_objects()
    return {name: n for name, n in ours.items() if PER_ROOM.search(name)}


def test_nothing_of_closed_rooms_or_closed_connections_stays(server):
    """Rooms played to the end with a rematch, left by everyone, abandoned mid-match with its
    clock running, a player kicked: once every connection has closed and housekeeping has
    closed every room, none of their objects is alive."""

    async def go():
        codes = []
        for ending in ("leave", "close", "abandon"):
            clients, code = await _tiny_room(server, ("Ana", "Bo", "Cy"))
            codes.append(code)
            if ending != "abandon":
                await _play_to_the_end(clients)
                await clients[0].request("rematch")
                await clients[0].request("kick", player=clients[2].player)
            await clients[1].say("bye")
            if ending == "leave":
                for client in clients[:2]:
                    await client.request("leave_room")
            for client in clients:
                await client.close()
        return codes

    codes = run(go())
    end = time.monotonic() + 10
    while server.state.sessions:  # the server has seen every connection close
        assert time.monotonic() < end
        time.sleep(0.05)
    rooms = [weakref.ref(server.state.manager.rooms[code]) for code in codes]
    assert sorted(run(_close_idle_rooms(server))) == sorted(codes)
    assert _ours_left() == {}
    assert all(room() is None for room in rooms)


def test_a_connection_that_left_a_room_does_not_keep_it_once_it_closed(server):
    """A player leaves (or is kicked) and stays on the home page: once housekeeping closed the
    room, their next message (the page pings and asks for the room list every few seconds)
    lets the closed room go — its model, match and pictures with it."""

    async def go():
        (ana, bo, cy), code = await _tiny_room(server, ("Ana", "Bo", "Cy"))
        room = weakref.ref(server.state.manager.rooms[code])
        await ana.request("kick", player=cy.player)
        await ana.request("leave_room")
        await bo.request("leave_room")
        assert await server.call(_close_idle_rooms(server)) == [code]
        for client in (ana, bo, cy):  # still connected, on the home page
            await client.request("list_rooms")
        left = _ours_left()  # (a room holds cycles: only a collection frees it)
        alive = room() is not None
        for client in (ana, bo, cy):
            await client.close()
        return alive, left

    alive, left = run(go())
    assert not alive
    # Their connections' objects are alive (they are connected), nothing of the room is.
    connections = {"server.session.Session", "server.outlet.Outlet", "server.gate.Line"}
    assert set(left) <= {f"tertulia.{name}" for name in connections}, left
