"""Where a player has a seat, and a room's game, known on every node (``cluster/seats.py``):
a page opened on any node can offer "Back to the room", and ``/api/rooms/CODE`` names the
game of a room another node owns."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from types import SimpleNamespace

from cluster_testing import redis_namespace, relay_nodes, run, welcomed_to

from tertulia.client import Client
from tertulia.cluster.seats import ACTIVITY_STEP, SeatIndex


def test_a_page_opened_on_another_node_is_offered_the_room_of_its_seat(tmp_path) -> None:
    with relay_nodes(tmp_path) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            code = await ana.create_room("tiny", "Ana")
            assert code not in other.state.manager.rooms
            assert await welcomed_to(other.ws, ana.token, code) == code
            async with await Client.connect(other.ws, token=ana.token) as home:
                assert await home.request("list_rooms") == {"seated": code}
                # Bo, relayed through the other node, is seated there too.
                bo = await Client.connect(other.ws)
                await bo.join_room(code, "Bo")
                assert await welcomed_to(owner.ws, bo.token, code) == code
                # A seat left is no longer offered, on any node.
                await ana.request("leave_room")
                assert await welcomed_to(other.ws, ana.token, None) is None
                assert await home.request("list_rooms") == {"seated": None}
                await bo.close()
            await ana.close()

        run(go)


def test_the_game_of_a_room_owned_elsewhere_is_named_by_every_node(tmp_path) -> None:
    """A link opened on a node that does not own the room says which game it is (it said
    ``null`` until someone was seated through that node)."""
    with relay_nodes(tmp_path) as (owner, other):

        async def go() -> None:
            async with await Client.connect(owner.ws) as ana:
                code = await ana.create_room("tiny", "Ana")
                answer = await asyncio.to_thread(_get_json, f"{other.base}/api/rooms/{code}")
                assert answer == {"code": code, "game": "tiny"}

        run(go)


def _get_json(url: str) -> object:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def _room(code: str, players: list[str], last_activity: float, closed: bool = False):
    seats = [SimpleNamespace(player=player) for player in players]
    model = SimpleNamespace(seats=seats, last_activity=last_activity)
    return SimpleNamespace(code=code, model=model, closed=closed)


def test_the_index_follows_seats_taken_left_and_rooms_closed() -> None:
    async def go() -> None:
        async with redis_namespace() as (redis, namespace):
            index = SeatIndex(redis, namespace)
            rooms = {"ABCD": _room("ABCD", ["p1", "p2"], 100.0)}
            await index.publish(rooms.values())
            reader = SeatIndex(redis, namespace)  # another node
            assert await reader.seated_room("p1", set(), {}) == "ABCD"
            rooms["EFGH"] = _room("EFGH", ["p1"], 500.0)  # later active: the one offered
            await index.publish(rooms.values())
            assert await reader.seated_room("p1", set(), {}) == "EFGH"
            rooms["EFGH"] = _room("EFGH", [], 600.0)  # p1 left it
            await index.publish(rooms.values())
            assert await reader.seated_room("p1", set(), {}) == "ABCD"
            del rooms["ABCD"]  # closed
            await index.publish(rooms.values())
            assert await reader.seated_room("p2", set(), {}) is None
            assert await reader.seated_room("p1", set(), {}) is None

    run(go)


def test_each_beat_writes_only_what_changed_a_seat_swapped_activity_moved_a_room_closed():
    """ "At each beat, only what changed since the last one": a beat over rooms as written
    sends Redis nothing; a seat given to another player with the count unchanged, a last
    activity moved by ``ACTIVITY_STEP``, and a room marked closed are each written."""

    async def go() -> None:
        async with redis_namespace() as (redis, namespace):
            index = SeatIndex(redis, namespace)
            rooms = {"ABCD": _room("ABCD", ["p1", "p2"], 100.0)}
            rooms["EFGH"] = _room("EFGH", ["p1"], 50.0)
            await index.publish(rooms.values())
            written = await redis.zrange(index.keys.seated("p1"), 0, -1, withscores=True)
            rooms["ABCD"].model.last_activity = 100.0 + ACTIVITY_STEP - 1  # not far enough
            pipelines: list[object] = []
            real_pipeline = redis.pipeline
            redis.pipeline = lambda **kw: pipelines.append(kw) or real_pipeline(**kw)
            await index.publish(rooms.values())
            assert pipelines == []  # nothing changed enough to be written
            rooms["ABCD"].model.seats[1] = SimpleNamespace(player="p3")  # p2's seat to p3
            rooms["EFGH"].model.last_activity = 50.0 + ACTIVITY_STEP  # EFGH now the latest
            await index.publish(rooms.values())
            reader = SeatIndex(redis, namespace)
            assert await reader.seated_room("p3", set(), {}) == "ABCD"
            assert await reader.seated_room("p2", set(), {}) is None
            assert await reader.seated_room("p1", set(), {}) == "EFGH" != written[-1][0]
            rooms["EFGH"].closed = True
            await index.publish(rooms.values())
            assert await reader.seated_room("p1", set(), {}) == "ABCD"

    run(go)


def test_a_room_handed_over_keeps_its_seats_and_its_old_owner_leaves_them_alone() -> None:
    async def go() -> None:
        async with redis_namespace() as (redis, namespace):
            old = SeatIndex(redis, namespace)
            rooms = {"ABCD": _room("ABCD", ["p1", "p2"], 100.0)}
            await old.publish(rooms.values())
            old.leaving("ABCD")
            moved = rooms.pop("ABCD")
            await old.publish(rooms.values())  # a beat while it moves
            moved.model.seats.pop()  # p2 left just before it went
            await old.hand_over("ABCD", {"p1": 100.0})
            await old.publish(rooms.values())  # and a beat after
            reader = SeatIndex(redis, namespace)
            assert await reader.seated_room("p1", set(), {}) == "ABCD"
            assert await reader.seated_room("p2", set(), {}) is None

    run(go)


def test_a_node_trusts_its_own_rooms_over_the_index() -> None:
    """A room this node owns is read from memory: a seat left a moment ago (not yet written)
    is not offered, and one taken a moment ago is."""

    async def go() -> None:
        async with redis_namespace() as (redis, namespace):
            index = SeatIndex(redis, namespace)
            rooms = {"ABCD": _room("ABCD", ["p1"], 100.0)}
            await index.publish(rooms.values())
            assert await index.seated_room("p1", {"ABCD"}, {}) is None
            assert await index.seated_room("p9", {"WXYZ"}, {"WXYZ": 5.0}) == "WXYZ"

    run(go)
