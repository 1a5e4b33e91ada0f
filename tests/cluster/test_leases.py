"""Room leases in a real Redis: one owner at a time, a fence that only grows."""

from __future__ import annotations

import asyncio

from cluster_testing import redis_namespace, run

from tertulia.cluster.leases import Leases, Owner


def test_one_owner_at_a_time_the_second_node_is_told_who_holds_it() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a, b = Leases(redis, "a", namespace=ns), Leases(redis, "b", namespace=ns)
            assert await a.acquire("ROOM") == Owner("a", 1)
            assert await b.acquire("ROOM") == Owner("a", 1)
            assert await b.owner("ROOM") == Owner("a", 1)
            assert "ROOM" in a.held and "ROOM" not in b.held

    run(body)


def test_asking_again_keeps_the_same_fence() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a = Leases(redis, "a", namespace=ns)
            assert await a.acquire("ROOM") == Owner("a", 1)
            assert await a.acquire("ROOM") == Owner("a", 1)

    run(body)


def test_a_lapsed_lease_goes_to_the_next_node_with_a_higher_fence() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a = Leases(redis, "a", ttl=0.2, namespace=ns)
            b = Leases(redis, "b", ttl=0.2, namespace=ns)
            await a.acquire("ROOM")
            await asyncio.sleep(0.3)  # a was paused: it renewed nothing
            assert await b.acquire("ROOM") == Owner("b", 2)
            # a wakes up: its renewal tells it the room is gone, and it forgets it.
            assert await a.renew() == ["ROOM"]
            assert a.held == {}
            assert await a.owner("ROOM") == Owner("b", 2)

    run(body)


def test_renewing_keeps_a_lease_past_its_ttl() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a = Leases(redis, "a", ttl=0.3, namespace=ns)
            b = Leases(redis, "b", ttl=0.3, namespace=ns)
            await a.acquire("ROOM")
            await a.acquire("OTHER")
            for _ in range(6):
                await asyncio.sleep(a.renew_every)
                assert await a.renew() == []
            assert await b.acquire("ROOM") == Owner("a", 1)
            assert await b.acquire("OTHER") == Owner("a", 1)

    run(body)


def test_release_frees_the_room_at_once_but_only_for_its_holder() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a = Leases(redis, "a", ttl=0.2, namespace=ns)
            b = Leases(redis, "b", ttl=5, namespace=ns)
            await a.acquire("ROOM")
            await asyncio.sleep(0.3)
            await b.acquire("ROOM")  # a's lease lapsed; b holds it now
            await a.release("ROOM")  # a, late, lets go of what it no longer has
            assert await b.owner("ROOM") == Owner("b", 2)
            await b.release("ROOM")
            assert await b.owner("ROOM") is None

    run(body)


def test_a_floor_from_the_log_lifts_a_counter_redis_forgot() -> None:
    """Redis keeps nothing on disk here: after a restart its counter starts again, but the log
    knows the room's fence already reached 7."""

    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            a = Leases(redis, "a", namespace=ns)
            assert await a.acquire("ROOM", floor=7) == Owner("a", 8)

    run(body)


def test_racing_nodes_never_both_win() -> None:
    async def body() -> None:
        async with redis_namespace() as (redis, ns):
            nodes = [Leases(redis, f"n{i}", namespace=ns) for i in range(8)]
            owners = await asyncio.gather(*(n.acquire("ROOM") for n in nodes))
            assert len(set(owners)) == 1
            assert sum("ROOM" in n.held for n in nodes) == 1

    run(body)
