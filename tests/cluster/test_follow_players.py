"""Rooms follow their players (``serve --rooms-follow-players``, ``cluster/placement.py``):
between matches, a room is handed to the node most of its connections are on, so that they
are no longer relayed; behind a proxy that routes by room, every player of a room ends on
its owner. Real nodes, Redis, PostgreSQL and nginx."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

from cluster_testing import cluster, nginx_in_front, run

from tertulia.client import Client

LEASE = 1.0  # the nodes' lease: a beat every quarter of it
FOLLOW = {"TERTULIA_ROOMS_FOLLOW_PLAYERS": "1"}


def _health(node) -> dict:
    with urllib.request.urlopen(f"{node.base}/healthz", timeout=2) as response:
        return json.load(response)


def _owner(nodes):
    owners = [node for node in nodes if _health(node)["rooms"]]
    assert len(owners) <= 1, "two nodes own the room"
    return owners[0] if owners else None


async def _until_owned_by(nodes, node, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while _owner(nodes) is not node:
        assert time.monotonic() < deadline, "the room did not go to its players' node"
        await asyncio.sleep(0.05)


def _handovers(node) -> int:
    return node.log.read_text().count("where most of its players are")


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
            assert _owner(nodes) is first
            await ana.request("start_match")
            await bo.wait_for(lambda push: push.get("view") is not None)
            await cy.join_room(code, "Cy")  # a spectator: two of three now on the second node
            await asyncio.sleep(2 * LEASE)  # eight beats, mid-match: it stays
            assert _owner(nodes) is first and _handovers(first) == 0
            mover = ana if ana.view["turn"] == ana.player else bo
            await mover.act({"type": "add", "amount": 3})  # the target: the match is over
            await _until_owned_by(nodes, second)
            assert _handovers(first) == 1
            # Ana, the host, now relayed from the first node, asks for the rematch: it is
            # answered, and everyone sees the lobby, from the room's new owner.
            await ana.request("rematch")
            for player in (ana, bo, cy):
                await player.wait_for(lambda push: push["room"]["status"] == "lobby")
            await asyncio.sleep(2 * LEASE)  # Ana alone on the first node: it stays
            assert _owner(nodes) is second and _handovers(second) == 0
            for player in (ana, bo, cy):
                await player.request("ping")
                await player.close()

        run(go)


async def _room_on_another_node(creator_node, url: str):
    """Ana, on ``creator_node``, makes a room whose code the proxy sends elsewhere, and Bo
    comes to it through the proxy: (code, ana, bo). A code that hashes to Ana's own node
    proves nothing (one in three): she leaves that room (it stays open there, empty) and
    makes another."""
    for _ in range(20):
        ana = await Client.connect(creator_node.ws)
        code = await ana.create_room("tiny", "Ana")
        bo = await Client.connect(f"{url}?room={code}")
        await bo.join_room(code, "Bo")
        if _health(creator_node)["connections"] == 1:
            return code, ana, bo
        await bo.close()
        await ana.request("leave_room")
        await ana.close()
    raise AssertionError("every room's code hashed to its creator's node")


async def _until_moved_to_one_of(nodes, seconds: float = 15.0):
    """The node of ``nodes`` that takes the room over (they had none)."""
    deadline = time.monotonic() + seconds
    while True:
        owners = [node for node in nodes if _health(node)["rooms"]]
        assert len(owners) <= 1, "two nodes own the room"
        if owners:
            return owners[0]
        assert time.monotonic() < deadline, "the room did not go to its players' node"
        await asyncio.sleep(0.05)


def test_behind_a_proxy_that_routes_by_room_every_player_ends_on_its_owner(tmp_path) -> None:
    """nginx hashes the socket's ``?room=CODE`` (as the page sends it; docs/cluster.md):
    whoever comes to the room comes to one node, and the room, made on another, follows them
    there, so that nothing of theirs is relayed."""
    with (
        cluster(tmp_path, count=3, lease=LEASE, env=FOLLOW) as nodes,
        nginx_in_front(tmp_path, nodes, by_room=True) as url,
    ):

        async def go() -> None:
            code, ana, bo = await _room_on_another_node(nodes[0], url)
            cy = await Client.connect(f"{url}?room={code}")
            await cy.join_room(code, "Cy")
            owner = await _until_moved_to_one_of(nodes[1:])
            assert _health(owner)["connections"] == 2  # Bo's and Cy's
            # Ana comes back as a reloaded page would, with the room in the socket's address.
            await ana.close()
            ana = await Client.connect(f"{url}?room={code}", token=ana.token)
            await ana.join_room(code, "Ana", resume=True)
            deadline = time.monotonic() + 15
            while _health(owner)["connections"] != 3 or _health(nodes[0])["connections"]:
                assert time.monotonic() < deadline, "the room's players are not on its owner"
                await asyncio.sleep(0.05)
            await ana.request("start_match")
            for player in (ana, bo, cy):
                await player.wait_for(lambda push: push.get("view") is not None)
                await player.close()

        run(go)
