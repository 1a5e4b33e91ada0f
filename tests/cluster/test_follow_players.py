"""Rooms follow their players (``serve --rooms-follow-players``, ``cluster/placement.py``):
between matches, a room is handed to the node most of its connections are on, so that they
are no longer relayed; behind a proxy that routes by room, every player of a room ends on
its owner. Real nodes, Redis, PostgreSQL and nginx."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import redis
from cluster_testing import REDIS_URL, cluster, nginx_in_front, run

from tertulia.client import Client
from tertulia.cluster.keys import Keys
from tertulia.cluster.leases import Owner

LEASE = 1.0  # the nodes' lease: a beat every quarter of it
FOLLOW = {"TERTULIA_ROOMS_FOLLOW_PLAYERS": "1"}


def _health(node) -> dict:
    with urllib.request.urlopen(f"{node.base}/healthz", timeout=2) as response:
        return json.load(response)


def _owner(nodes, code: str):
    """The node that holds the room's lease (its name has the node's process id), or None."""
    with redis.Redis.from_url(REDIS_URL) as client:
        value = client.get(Keys(nodes[0].namespace).lease(code))
    if value is None:
        return None
    pid = Owner.parse(value).node.split("-")[-2]  # name: host-pid-token (``node_name``)
    return next(node for node in nodes if str(node.process.pid) == pid)


async def _until_owned_by(nodes, code: str, wanted, seconds: float = 15.0):
    """Until a node ``wanted(node)`` holds the room: that node."""
    deadline = time.monotonic() + seconds
    while True:
        owner = _owner(nodes, code)
        if owner is not None and wanted(owner):
            return owner
        assert time.monotonic() < deadline, "the room did not go to its players' node"
        await asyncio.sleep(0.05)


def _handovers(node) -> int:
    return node.log.read_text().count("where more of its players are")


def _took_over(node, code: str) -> int:
    return node.log.read_text().count(f"took over room {code}")


def test_between_matches_a_room_goes_to_the_node_most_of_its_players_are_on(tmp_path) -> None:
    """A tie stays where it is; a match is never interrupted by a move; once it is over the
    room goes to the node with more of its players, and everyone goes on playing there."""
    with cluster(tmp_path, count=2, lease=LEASE, env=FOLLOW) as (first, second):
        nodes = [first, second]

        async def go() -> None:
            ana = await Client.connect(first.ws)
            bo = await Client.connect(second.ws)
            cy = await Client.connect(second.ws)
            code = await ana.create_room("tiny", "Ana")
            await ana.request("update_settings", settings={"turn_seconds": 0, "target": 3})
            await bo.join_room(code, "Bo")
            await asyncio.sleep(2 * LEASE)  # eight beats: one player on each node stays put
            assert _owner(nodes, code) is first
            await ana.request("start_match")
            await bo.wait_for(lambda push: push.get("view") is not None)
            await cy.join_room(code, "Cy")  # a spectator: two of three now on the second node
            await asyncio.sleep(2 * LEASE)  # eight beats, mid-match: it stays
            assert _owner(nodes, code) is first and _handovers(first) == 0
            mover = ana if ana.view["turn"] == ana.player else bo
            await mover.act({"type": "add", "amount": 3})  # the target: the match is over
            await _until_owned_by(nodes, code, lambda node: node is second)
            assert _handovers(first) == 1
            # Its own follower, Ana's socket, did not take it back on its way to the new owner.
            assert _took_over(first, code) == 0
            # Ana, the host, now relayed from the first node, asks for the rematch: it is
            # answered, and everyone sees the lobby, from the room's new owner.
            await ana.request("rematch")
            for player in (ana, bo, cy):
                await player.wait_for(lambda push: push["room"]["status"] == "lobby")
            await asyncio.sleep(2 * LEASE)  # Ana alone on the first node: it stays
            assert _owner(nodes, code) is second and _handovers(second) == 0
            for player in (ana, bo, cy):
                await player.request("ping")
                await player.close()

        run(go)


async def _screen(node, code: str) -> Client:
    tv = await Client.connect(node.ws)
    assert await tv.request("open_screen", code=code) == {"room": code, "screen": True}
    return tv


def test_a_room_goes_to_the_node_it_is_handed_to_and_no_other_races_it(tmp_path) -> None:
    """Three nodes: Ana and a shared screen on the first (the owner), Bo, Cy and another
    screen on the second, Di watching from the third. The room is handed to the second; the
    third, whose socket also follows the room, leaves it to that one instead of taking it
    first (and moving it once more). The first node's screen is told to open the room
    again (a screen does not follow by itself), and it can, through the new owner."""
    with cluster(tmp_path, count=3, lease=LEASE, env=FOLLOW) as nodes:
        first, second, third = nodes

        async def go() -> None:
            ana = await Client.connect(first.ws)
            code = await ana.create_room("tiny", "Ana")
            di = await Client.connect(third.ws)
            await di.join_room(code, "Di")
            clients = [ana, di, await _screen(first, code), await _screen(second, code)]
            for name in ("Bo", "Cy"):
                player = await Client.connect(second.ws)
                await player.join_room(code, name)
                clients.append(player)
            await _until_owned_by(nodes, code, lambda node: node is second)
            clients.append(await _screen(first, code))  # the first node finds it again
            await asyncio.sleep(2 * LEASE)  # eight beats: it stays there
            assert _owner(nodes, code) is second
            assert [_took_over(node, code) for node in nodes] == [0, 1, 0]
            assert [_handovers(node) for node in nodes] == [1, 0, 0]
            for client in (ana, di, *clients[4:]):
                await client.request("ping")
            for client in clients:
                await client.close()

        run(go)


async def _until(condition, what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def _connections(nodes) -> list[int]:
    return [_health(node)["connections"] for node in nodes]


async def _room_on_another_node(nodes, url: str):
    """Ana, on the first node, makes a room whose code the proxy sends elsewhere, and Bo
    comes to it through the proxy: (code, ana, bo). A code that hashes to Ana's own node
    proves nothing (one in three): she leaves that room (it stays open there, empty) and
    makes another, once the sockets of the first are gone."""
    for _ in range(20):
        ana = await Client.connect(nodes[0].ws)
        code = await ana.create_room("tiny", "Ana")
        bo = await Client.connect(f"{url}?room={code}")
        await bo.join_room(code, "Bo")
        await _until(lambda: sum(_connections(nodes)) == 2, "a socket went missing")
        if _connections(nodes)[0] == 1:
            return code, ana, bo
        await bo.close()
        await ana.request("leave_room")
        await ana.close()
        await _until(lambda: sum(_connections(nodes)) == 0, "closed sockets stay open")
    raise AssertionError("every room's code hashed to its creator's node")


def test_behind_a_proxy_that_routes_by_room_every_player_ends_on_its_owner(tmp_path) -> None:
    """nginx hashes the socket's ``?room=CODE`` (as the page sends it; docs/cluster.md):
    whoever comes to the room comes to one node, and the room, made on another, follows them
    there, so that nothing of theirs is relayed."""
    with (
        cluster(tmp_path, count=3, lease=LEASE, env=FOLLOW) as nodes,
        nginx_in_front(tmp_path, nodes, by_room=True) as url,
    ):

        async def go() -> None:
            code, ana, bo = await _room_on_another_node(nodes, url)
            cy = await Client.connect(f"{url}?room={code}")
            await cy.join_room(code, "Cy")
            owner = await _until_owned_by(nodes, code, lambda node: node is not nodes[0])
            assert _connections([owner]) == [2]  # Bo's and Cy's
            # Ana comes back as a reloaded page would, with the room in the socket's address.
            await ana.close()
            ana = await Client.connect(f"{url}?room={code}", token=ana.token)
            await ana.join_room(code, "Ana", resume=True)
            await _until(
                lambda: _connections([owner]) == [3] and sum(_connections(nodes)) == 3,
                "the room's players are not all on its owner",
            )
            await ana.request("start_match")
            for player in (ana, bo, cy):
                await player.wait_for(lambda push: push.get("view") is not None)
                await player.close()

        run(go)
