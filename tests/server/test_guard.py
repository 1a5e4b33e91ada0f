"""The per-address tables: connections, room-code misses, rooms opened."""

from __future__ import annotations

import dataclasses

import pytest

from tertulia.games.base import RuleError
from tertulia.rooms.limits import PerKeyBuckets
from tertulia.server.guard import Guard, Limits


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _guard(**limits) -> tuple[Guard, Clock]:
    clock = Clock()
    return Guard(dataclasses.replace(Limits(), **limits), clock), clock


def test_connections_per_address_are_capped_and_given_back_when_they_close():
    guard, _ = _guard(connections_per_address=2)
    assert guard.admit("a") is None and guard.admit("a") is None
    assert guard.admit("a")[0] == "too_many_connections"
    assert guard.admit("b") is None  # another address has its own
    guard.release("a")
    assert guard.admit("a") is None


def test_new_connections_per_address_are_rate_limited():
    guard, clock = _guard(connect_burst=3, connect_rate=1.0, connections_per_address=0)
    for _ in range(3):
        assert guard.admit("a") is None
    reason, retry = guard.admit("a")
    assert reason == "connecting_too_fast" and 0 < retry <= 1
    clock.now += 1.0
    assert guard.admit("a") is None


def test_an_address_that_flooded_is_kept_out_longer_each_time_it_does_it_again():
    guard, clock = _guard(flood_penalty_seconds=10, flood_penalty_max_seconds=25)
    assert guard.flooded("a") == 10
    reason, retry = guard.admit("a")
    assert reason == "flooding" and retry == pytest.approx(10)
    clock.now += 10.5
    assert guard.admit("a") is None
    assert guard.flooded("a") == 20  # again soon after: twice as long
    clock.now += 20.5
    assert guard.flooded("a") == 25  # never past the max
    clock.now += 1000
    assert guard.flooded("a") == 10  # long forgiven


def test_room_code_misses_run_out_then_every_lookup_is_refused_until_they_refill():
    guard, clock = _guard(code_misses_burst=3, code_misses_rate=0.1)
    for _ in range(3):
        assert guard.may_look_up_codes("a")
        guard.code_missed("a")
    assert not guard.may_look_up_codes("a")
    assert guard.may_look_up_codes("b")
    clock.now += 10
    assert guard.may_look_up_codes("a")


def test_rooms_opened_are_capped_live_and_by_rate_per_address_and_per_player():
    guard, clock = _guard(
        rooms_per_player=2, rooms_per_address=3, room_burst_per_address=2,
        room_rate_per_address=0.1, room_burst_per_player=5, room_rate_per_player=1,
    )  # fmt: skip
    with pytest.raises(RuleError) as live:
        guard.check_new_room("a", "p", rooms_of_address=2, rooms_of_player=2)
    assert live.value.code == "room.too_many_rooms" and live.value.params == {"max": 2}
    with pytest.raises(RuleError) as network:
        guard.check_new_room("a", "p", rooms_of_address=3, rooms_of_player=0)
    assert network.value.code == "room.too_many_on_network"
    assert network.value.params == {"max": 3}
    guard.check_new_room("a", "p", 0, 0)
    guard.check_new_room("a", "q", 0, 0)
    with pytest.raises(RuleError) as fast:
        guard.check_new_room("a", "r", 0, 0)  # the address's burst is spent
    assert fast.value.code == "rate.rooms" and fast.value.params["seconds"] == 10
    clock.now += 10
    guard.check_new_room("a", "r", 0, 0)


def test_the_per_key_table_forgets_refilled_buckets_first_and_never_everyone_at_once():
    clock = Clock()
    table = PerKeyBuckets(capacity=2, rate=1, max_keys=4, clock=clock)
    table.take("busy")
    table.take("busy")
    for key in ("a", "b", "c"):
        table.take(key)
    clock.now += 0.5  # a, b, c are not full yet either; "busy" is the most spent
    table.take("busy")  # touched last: the least recently used go first
    table.take("d")  # the table is full: some go, but not "busy"
    assert len(table) <= 4
    assert not table.has("busy")


def test_each_new_key_forgets_the_oldest_buckets_that_have_refilled():
    """A refilled bucket remembers nothing: a table does not keep every address it ever saw
    (the soak's only growth after warm-up was these tables; benchmarks/README.md, "Memory
    after a soak"), only those seen within about a refill time."""
    clock = Clock()
    table = PerKeyBuckets(capacity=2, rate=1, max_keys=10_000, clock=clock)
    for n in range(100):  # a hundred visitors, one token each
        table.take(f"visitor {n}")
    assert len(table) == 100  # none has refilled yet: each remembers its token
    clock.now += 1.0  # now every one has
    table.take("spent")
    table.take("spent")  # this one remembers: it is spent
    for n in range(60):
        table.take(f"later {n}")
    # Each new key forgot two refilled ones, oldest first, down to the spent one.
    assert len(table) == 61
    assert not table.has("spent")
    assert all(table.has(f"later {n}") for n in range(60))
    clock.now += 2.0  # everything has refilled
    for n in range(100):
        table.take(f"new {n}")
    assert len(table) == 100  # only the keys of the last refill time
