"""Redis unreachable: the node says so, opens no room, and keeps none it cannot fence."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from cluster_testing import RedisServer, relay_nodes, run

from tertulia.client import Client, ClientError


def _health(base: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
            return response.status, json.load(response)["status"]
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)["status"]


def _until(condition, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("never happened")
        time.sleep(0.1)


def test_redis_lost_says_503_refuses_new_rooms_and_lets_its_rooms_go(tmp_path) -> None:
    from server_harness import free_port

    redis = RedisServer(free_port()).start()
    try:
        with relay_nodes(tmp_path, count=1, redis_url=redis.url, lease_seconds=1.0) as (node,):
            assert _health(node.base) == (200, "ok")

            async def create() -> str:
                async with await Client.connect(node.ws) as ana:
                    return await ana.create_room("tiny", "Ana")

            code = run(create)
            assert code in node.state.manager.rooms
            redis.stop()
            _until(lambda: _health(node.base) == (503, "cluster_unreachable"))
            # Its lease may lapse now: the room is not kept (nobody could fence it).
            _until(lambda: code not in node.state.manager.rooms)

            async def refused() -> str:
                async with await Client.connect(node.ws) as bo:
                    with pytest.raises(ClientError) as error:
                        await bo.create_room("tiny", "Bo")
                    return error.value.code

            assert run(refused) == "server.cluster"
            redis.start()
            _until(lambda: _health(node.base) == (200, "ok"))
    finally:
        redis.stop()


def test_a_node_starts_without_redis_and_joins_once_it_is_there(tmp_path) -> None:
    from server_harness import free_port

    redis = RedisServer(free_port())
    with relay_nodes(tmp_path, count=1, redis_url=redis.url, lease_seconds=1.0) as (node,):
        assert _health(node.base) == (503, "cluster_unreachable")
        redis.start()
        try:
            _until(lambda: _health(node.base) == (200, "ok"))

            async def create() -> str:
                async with await Client.connect(node.ws) as ana:
                    return await ana.create_room("tiny", "Ana")

            assert run(create)
        finally:
            redis.stop()
