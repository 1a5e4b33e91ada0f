"""The codes only cluster mode produces (docs/protocol.md, "Error codes of the platform"),
over raw frames, on the cluster harness's real nodes (Redis at 127.0.0.1:6379, PostgreSQL
at 127.0.0.1:5432; see tests/cluster/cluster_testing.py).

- ``server.cluster``: a node that cannot reach Redis opens no room. Its own Redis is
  stopped, and its ``/healthz`` says so before the client asks.
- A frame for a room whose owner has gone before the frame reached it (SIGKILL, and Redis
  has seen its connection close: nobody hears the frame) is held and played at the new
  owner, after the whole picture it sends ("While a room moves").
- ``room.outcome_unknown``: the owner heard the frame (it is paused, SIGSTOP, so it never
  answers) and is given up as dead once its heartbeat lapses. The client is attached to the
  new owner by itself and its whole picture tells what became of the move.

Not tested here, because no outside client can bring it about deterministically:
``server.busy`` (a room's owner that other nodes see as gone while its lease is still renewed
for ten lease times: a node whose pub/sub subscription alone is broken); ``room.moved``, which
is now only said when a connection holds more than 32 messages or holds them for 10 s while
its room moves (``tests/server/test_held.py``), or to a frame on its way while the owner hands
the room over (SIGTERM), which races the owner's own answer to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from raw_client import Clients, Raw, run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cluster"))

from cluster_testing import REDIS_URL, RedisServer, cluster, relay_nodes
from server_harness import free_port


def _health(base: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
            return response.status, json.load(response)["status"]
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)["status"]


@pytest.mark.covers("server.cluster")
def test_a_node_that_cannot_reach_redis_opens_no_room(tmp_path, address):
    redis = RedisServer(free_port()).start()
    try:
        with relay_nodes(tmp_path, count=1, redis_url=redis.url, lease_seconds=1.0) as (node,):
            redis.stop()
            deadline = time.monotonic() + 15
            while _health(node.base) != (503, "cluster_unreachable"):
                assert time.monotonic() < deadline, "the node never said Redis is away"
                time.sleep(0.05)

            async def go():
                async with Clients(node.ws, address) as clients:
                    ana = await clients.hello("ana")
                    await ana.refused("create_room", "server.cluster", game="tiny", nickname="A")

            run(go())
    finally:
        redis.stop()


async def _channels(namespace: str) -> int:
    """How many nodes listen on Redis now (each subscribes to its own channel)."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(REDIS_URL)
    try:
        return len(await client.pubsub_channels(f"{namespace}:node:*"))
    finally:
        await client.aclose()


async def _relayed_match(
    owner, relay, address: str, stack: contextlib.AsyncExitStack, name: str
) -> tuple[Raw, Raw]:
    """A tiny match in a room ``owner`` opened (Ana is there), ``name``'s socket on
    ``relay``; untimed, and ``name`` to move."""
    here = await stack.enter_async_context(Clients(owner.ws, address))
    there = await stack.enter_async_context(Clients(relay.ws, address))
    ana = await here.hello("ana")
    code = (await ana.ok("create_room", game="tiny", nickname="Ana"))["room"]
    bo = await there.hello(name)
    await bo.ok("join_room", code=code, nickname=name)
    await ana.ok("update_settings", settings={"turn_seconds": 0, "target": 50})
    await ana.ok("start_match")
    held = await bo.push(lambda held: held.view is not None)
    if held.view["turn"] == ana.player:
        await ana.ok("act", action={"type": "add", "amount": 1})
        await bo.push(lambda held: held.view["turn"] == bo.player)
    return ana, bo


def _healthy(node) -> None:
    deadline = time.monotonic() + 15
    while _health(node.base) != (200, "ok"):
        assert time.monotonic() < deadline, "the node never came back"
        time.sleep(0.05)


@pytest.mark.covers("room.outcome_unknown")
def test_a_frame_for_an_owner_that_died_is_answered_or_held_by_the_node_holding_the_socket(
    tmp_path, address
):
    with cluster(tmp_path, count=2, lease=1.0) as (owner, relay):
        namespace = relay.env["TERTULIA_REDIS_NAMESPACE"]

        async def outcome_unknown(stack: contextlib.AsyncExitStack) -> None:
            """The owner heard Bo's move (it is paused) and never answers it."""
            _, bo = await _relayed_match(owner, relay, address, stack, "Bo")
            counter = bo.picture.view["counter"]
            owner.signal(signal.SIGSTOP)
            start = len(bo.frames)
            await bo.refused("act", "room.outcome_unknown", action={"type": "add", "amount": 1})
            # Attached to the new owner by itself: its whole picture tells.
            held = await bo.push(lambda held: held.view is not None, start + 1)
            assert held.view["counter"] == counter  # the paused owner never applied it
            await bo.ok("act", action={"type": "add", "amount": 1})  # and he plays on

        async def held(stack: contextlib.AsyncExitStack) -> None:
            """The owner is gone, and Redis knows it, before Cy's move is sent: nobody hears
            it, so it is held ("While a room moves") and played at the new owner — after its
            whole picture, which the move's patch then follows."""
            _, cy = await _relayed_match(owner, relay, address, stack, "Cy")
            counter = cy.picture.view["counter"]
            owner.kill()
            while await _channels(namespace) != 1:
                await asyncio.sleep(0.01)
            start = len(cy.frames)
            await cy.ok("act", action={"type": "add", "amount": 1})
            kinds = [f["type"] for f in cy.frames[start:]]
            assert "room" in kinds and kinds.index("room") < kinds.index("ack"), kinds
            whole = next(f for f in cy.frames[start:] if f["type"] == "room")
            assert whole["view"]["counter"] == counter  # nothing applied before the move
            assert (await cy.push(lambda p: p.view["counter"] == counter + 1, start)) is not None

        async def go():
            async with contextlib.AsyncExitStack() as stack:
                assert await _channels(namespace) == 2
                await outcome_unknown(stack)
                owner.signal(signal.SIGCONT)  # back, its rooms gone: a node like any other
                await asyncio.to_thread(_healthy, owner)
                await held(stack)

        run(go())


@pytest.mark.covers("room.moved")
def test_a_connection_holding_too_much_while_its_room_moves_is_told_to_send_it_again(
    tmp_path, address
):
    """ "Held is bounded: at most 32 messages (a 33rd is answered `room.moved` at once)". The
    owner dies and Redis knows it; Cy sends 33 room messages as fast as the rate limit lets
    him: the 33rd is answered ``room.moved`` before the room is back, the 32 held ones are
    answered by the new owner after its whole picture, and sent again the 33rd is too."""
    with cluster(tmp_path, count=2, lease=4.0) as (owner, relay):
        namespace = relay.env["TERTULIA_REDIS_NAMESPACE"]

        async def go():
            async with contextlib.AsyncExitStack() as stack:
                _, cy = await _relayed_match(owner, relay, address, stack, "Cy")
                await asyncio.sleep(2.1)  # his rate limit's burst of 30 whole again
                owner.kill()
                while await _channels(namespace) != 1:
                    await asyncio.sleep(0.01)
                start = len(cy.frames)
                ids = []
                for n in range(33):
                    if n >= 30:  # past the burst: one a fifteenth of a second (session.py)
                        await asyncio.sleep(0.07)
                    ids.append(cy.next_id())
                    action = {"type": "add", "amount": 1}
                    await cy.send({"type": "check", "id": ids[-1], "action": action})
                moved = await cy.answer(ids[-1])
                assert moved["type"] == "error" and moved["code"] == "room.moved", moved
                assert cy.first(lambda f: f["type"] == "room", start) is None  # not back yet
                answers = [await cy.answer(msg_id) for msg_id in ids[:-1]]
                assert {a["type"] for a in answers} == {"ack"}  # his turn: each check is fine
                whole = cy.first(lambda f: f["type"] == "room", start)
                assert whole is not None and cy.frames.index(whole) < cy.frames.index(answers[0])
                await cy.ok("check", action={"type": "add", "amount": 1})  # sent again

        run(go())
