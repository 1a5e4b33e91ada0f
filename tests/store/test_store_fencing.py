"""Fencing (issue 16): "a former owner that was paused can never append after a takeover".

Two or more `PostgresStore` objects on one database play the nodes: the owner before a
takeover and the one after. The fencing number is checked in the transaction that appends.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_testing import logged, open_pg, row_held, until_blocked
from store_testing import entries, entry, run

from tertulia.store import LogEntry, SeqError, UnknownRoom
from tertulia.store.errors import FencedOut
from tertulia.store.postgres import PostgresStore


def test_after_a_takeover_the_former_owner_writes_nothing_and_the_new_one_goes_on(
    pg_schema: str,
) -> None:
    async def body() -> None:
        old, new = await open_pg(pg_schema), await open_pg(pg_schema)
        try:
            await old.create_room("ABCD", "pitacor", public=True, meta={"host": "p1"}, fence=1)
            await old.append("ABCD", entries(1, 3))
            await old.save_snapshot("ABCD", 2, b"state@2")
            live = await new.claim("ABCD", 2)
            assert live.room.meta == {"host": "p1"} and live.last_seq == 3
            assert live.snapshot is not None and live.snapshot.seq == 2
            assert live.entries == [entry(3)]
            with pytest.raises(FencedOut, match="fence 2, ours 1"):
                await old.append("ABCD", entry(4, "stale owner"))
            with pytest.raises(FencedOut):
                await old.save_snapshot("ABCD", 3, b"stale")
            with pytest.raises(FencedOut):
                await old.update_room_meta("ABCD", {"host": "stale"})
            with pytest.raises(FencedOut):
                await old.close_room("ABCD", "stale")
            await new.append("ABCD", entries(4, 5))  # the seq goes on from the log
        finally:
            await old.close()
            await new.close()

    run(body)
    assert logged(pg_schema)["ABCD"] == [(seq, entry(seq).payload) for seq in range(1, 6)]


def test_a_claim_must_be_above_the_rooms_fence(pg_schema: str) -> None:
    """ "if the room's stored fence is greater than or equal to fence, raise FencedOut"."""

    async def body() -> None:
        async with await open_pg(pg_schema) as a, await open_pg(pg_schema) as b:
            await a.create_room("ABCD", "pitacor", public=True, fence=7)
            for stale in (0, 6, 7):
                with pytest.raises(FencedOut):
                    await b.claim("ABCD", stale)
            await a.append("ABCD", entry(1))  # a failed claim takes nothing from the owner
            await b.claim("ABCD", 8)
            with pytest.raises(FencedOut):
                await a.claim("ABCD", 8)
            with pytest.raises(UnknownRoom):
                await b.claim("NOPE", 9)
            with pytest.raises(ValueError):
                await b.claim("ABCD", -1)

    run(body)


def test_a_room_created_without_a_fence_starts_at_zero(pg_schema: str) -> None:
    async def body() -> None:
        async with await open_pg(pg_schema) as a, await open_pg(pg_schema) as b:
            await a.create_room("ABCD", "pitacor", public=True)
            await a.append("ABCD", entry(1))
            with pytest.raises(FencedOut):
                await b.claim("ABCD", 0)
            assert (await b.claim("ABCD", 1)).last_seq == 1

    run(body)


def test_a_node_writes_only_rooms_it_created_or_claimed(pg_schema: str) -> None:
    """A cluster store refuses a write of a room it holds no claim on, and after `release`."""

    async def body() -> None:
        async with await open_pg(pg_schema) as a, await open_pg(pg_schema) as b:
            await a.create_room("ABCD", "pitacor", public=True, fence=3)
            with pytest.raises(FencedOut, match="no claim"):
                await b.append("ABCD", entry(1))  # b never claimed it
            await a.append("ABCD", entry(1))
            a.release("ABCD")
            with pytest.raises(FencedOut, match="no claim"):
                await a.append("ABCD", entry(2))
            await a.claim("ABCD", 4)  # taking it back is a claim like any other
            await a.append("ABCD", entry(2))

    run(body)


def test_only_the_fenced_rooms_requests_fail_in_a_shared_batch(pg_schema: str) -> None:
    async def body() -> None:
        async with await open_pg(pg_schema) as old, await open_pg(pg_schema) as new:
            for code in ("HOLD", "LOST", "KEPT"):
                await old.create_room(code, "pitacor", public=True, fence=1)
            await new.claim("LOST", 2)
            with row_held(pg_schema, "HOLD"):
                first = old.start_append("HOLD", entry(1))
                await until_blocked(old)
                lost = old.start_append("LOST", entry(1))
                kept = old.start_append("KEPT", entries(1, 2))
                commits = old.stats.commits
            await first
            with pytest.raises(FencedOut):
                await lost
            await kept
            assert old.stats.commits == commits + 2  # LOST and KEPT shared one transaction

    run(body)
    assert {code: len(rows) for code, rows in logged(pg_schema).items()} == {"HOLD": 1, "KEPT": 2}


def test_a_paused_owners_append_waiting_behind_a_takeover_is_refused(pg_schema: str) -> None:
    """The former owner's append is already on its way when the new owner claims (it was
    paused, or slow): it waits for the room's row, then finds the new fence in the same
    transaction that would have appended, and writes nothing."""

    async def body() -> None:
        async with await open_pg(pg_schema) as old, await open_pg(pg_schema) as new:
            await old.create_room("ABCD", "pitacor", public=True, fence=1)
            await old.append("ABCD", entry(1))
            with row_held(pg_schema, "ABCD"):
                claiming = asyncio.ensure_future(new.claim("ABCD", 2))
                await until_blocked(new)  # first in the row's queue
                appending = old.start_append("ABCD", entry(2, "paused owner"))
                await until_blocked(old)  # second
            assert (await claiming).last_seq == 1
            with pytest.raises(FencedOut):
                await appending
            await new.append("ABCD", entry(2, "new owner"))

    run(body)
    assert logged(pg_schema)["ABCD"] == [(1, entry(1).payload), (2, entry(2, "new owner").payload)]


# -- no entry is ever written under a stale fence, whatever the interleaving ---------------

_NODES = 3

# One step: (node, kind, how many entries / how stale a claim is). A round of steps (one per
# node) runs at once, gathered, as nodes do; rounds run one after another.
_step = st.tuples(
    st.integers(0, _NODES - 1),
    st.sampled_from(["append", "append", "append", "claim", "stale_claim", "release"]),
    st.integers(1, 3),
)
_plans = st.lists(st.lists(_step, min_size=1, max_size=5), min_size=1, max_size=8)


class _Node:
    """What one node believes about the room: its fence and the seq to append next."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store
        self.fence: int | None = None
        self.next_seq = 1


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=_plans)
def test_no_entry_is_ever_written_under_a_stale_fence(
    pg_schema: str, plan: list[list[tuple[int, str, int]]]
) -> None:
    """Appends, claims (fresh and stale) and releases by three nodes, interleaved at random:
    every acknowledged entry is in the log, the log has no gap, and no append succeeds with a
    fence below one whose claim was acknowledged before that append was sent."""
    code = f"R{uuid.uuid4().hex[:8]}"  # a room of its own per example (they may repeat)

    async def body() -> None:
        nodes = [_Node(await open_pg(pg_schema)) for _ in range(_NODES)]
        fences = iter(range(2, 10_000))  # what the lease would hand out
        acked_fence = 1  # the highest fence whose claim was acknowledged so far
        written: dict[int, bytes] = {}  # every acknowledged entry
        try:
            await nodes[0].store.create_room(code, "pitacor", public=True, fence=1)
            nodes[0].fence = 1

            async def step(node: _Node, kind: str, count: int) -> None:
                nonlocal acked_fence
                if kind == "release":
                    node.store.release(code)
                    node.fence = None
                    return
                if kind in ("claim", "stale_claim"):
                    fence = next(fences) if kind == "claim" else max(0, acked_fence - count + 1)
                    try:
                        live = await node.store.claim(code, fence)
                    except FencedOut:
                        return
                    assert kind == "claim", "a claim at or below an acknowledged fence won"
                    acked_fence = max(acked_fence, fence)
                    node.fence, node.next_seq = fence, live.last_seq + 1
                    return
                seqs = range(node.next_seq, node.next_seq + count)
                node.next_seq += count
                batch = [LogEntry(seq, float(seq), f"{node.fence}:{seq}".encode()) for seq in seqs]
                floor = acked_fence  # claims acknowledged before this append was sent
                try:
                    await node.store.append(code, batch)
                except (FencedOut, SeqError):
                    node.next_seq -= count
                    return
                assert node.fence is not None and node.fence >= floor, (node.fence, floor)
                written.update((e.seq, e.payload) for e in batch)

            for round_ in plan:
                # One step per node at a time, as a node's room does one thing at a time.
                steps = {i: (kind, n) for i, kind, n in reversed(round_)}
                await asyncio.gather(*(step(nodes[i], *how) for i, how in steps.items()))
        finally:
            for node in nodes:
                await node.store.close()
        log = dict(logged(pg_schema).get(code, []))
        assert list(log) == list(range(1, len(log) + 1))  # no gap
        assert written.items() <= log.items()  # nothing acknowledged is lost
        fences_in_order = [int(payload.split(b":")[0]) for payload in log.values()]
        assert fences_in_order == sorted(fences_in_order)  # no stale owner after a new one

    run(body)
