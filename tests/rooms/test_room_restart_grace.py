"""A restarted server gives a clock the downtime ate a grace: players could not act while it
was down. The live room moves the deadline with a logged ``extend`` move, the first thing it
commits, before its clock may fire. Real SQLite stores; the second server's clock runs ahead
of the first's by the time it was down."""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from room_testing import Peer
from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.games.base import RuleError
from tertulia.rooms import model, records, room_data
from tertulia.rooms.config import RoomConfig
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.rooms.replay import replay
from tertulia.store import CommitFailed
from tertulia.store.sqlite import SQLiteStore

# The restart grace in these tests (20 s by default): long enough that a loaded machine still
# sees the extend before the timeout that ends it (0.5 s was not, at a load average of 13).
GRACE = 2.0
# How long a wait for something that must happen may take before the test gives up: long, as
# a loaded machine may be slow, and the waits end as soon as it happens.
PATIENCE = 30.0


def _config() -> ManagerConfig:
    # A long drop grace: nobody reconnects here, and their drops would be records too.
    room = RoomConfig(drop_grace_seconds=60, restart_grace_seconds=GRACE)
    return ManagerConfig(room=room)


def _clock_ahead_by(seconds: float):
    return lambda: time.time() + seconds


async def _answered(peer: Peer, message_id: int) -> None:
    try:
        await _until(lambda: any(getattr(m, "re", None) == message_id for m in peer.got))
    except AssertionError:
        raise AssertionError(f"no answer to {message_id}") from None


async def _until(condition, timeout: float = PATIENCE) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("it never happened")
        await asyncio.sleep(0.01)


async def _first_server(db: Path, *messages: p.ClientMessage) -> int:
    """Ana and Bo in a tiny-game room; Ana sends ``messages``; the server stops. Returns how
    many records the room's log has."""
    store = SQLiteStore(db)
    manager = RoomManager(store, games_with_tiny(), _config())
    await manager.start()
    room = await manager.create(TINY, public=False)
    ana, bo = Peer("ana"), Peer("bo")
    await room.attach(ana, "Ana", 1)
    await room.attach(bo, "Bo", 2)
    for message in messages:
        room.submit(ana, message)
        await _answered(ana, message.id)
    seq = room.seq
    await manager.shutdown()
    await store.close()
    return seq


def _match_with_turns_of(seconds: int) -> tuple[p.ClientMessage, ...]:
    return (p.UpdateSettings(id=3, settings={"turn_seconds": seconds}), p.StartMatch(id=4))


async def _records_since(store: SQLiteStore, seq: int) -> list[records.Record]:
    (live,) = await store.load_live_rooms()
    return [records.record_decoder.decode(e.payload) for e in live.entries if e.seq > seq]


async def _restarted(db: Path, down_for: float, store: SQLiteStore | None = None):
    store = store or SQLiteStore(db)
    manager = RoomManager(store, games_with_tiny(), _config(), clock=_clock_ahead_by(down_for))
    await manager.start()
    (room,) = manager.rooms.values()
    return store, manager, room


@pytest.mark.parametrize("down_for", [100.0, 30 - GRACE / 2], ids=["passed", "nearly"])
def test_a_deadline_that_passed_while_the_server_was_down_gets_a_grace_after_restart(
    tmp_path, down_for
):
    """Ana's 30-second turn ran out (or all but ran out) while the server was down: after the
    restart she still has her turn, until the restart grace is over; then it times out."""
    db = tmp_path / "grace.sqlite3"

    async def go():
        seq = await _first_server(db, *_match_with_turns_of(30))
        store, manager, room = await _restarted(db, down_for)
        restored_at = room.clock()
        await _until(lambda: room.seq > seq)
        match = room.model.match
        assert match.counter == 0 and match.players[match.turn] == "ana"  # her turn, still
        assert restored_at + GRACE <= match.deadline <= room.clock() + GRACE
        (extended,) = await _records_since(store, seq)  # the first thing the room committed
        assert extended == records.GameMove(
            at=extended.at, seat=None, action={"type": "extend", "until": match.deadline}
        )
        await _until(lambda: room.seq == seq + 2)  # the grace is over: her turn times out
        assert room.model.match.counter == 1
        assert room.model.match.players[room.model.match.turn] == "bo"
        assert [r.action["type"] for r in await _records_since(store, seq)] == [
            "extend",
            "timeout",
        ]
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_a_deadline_comfortably_in_the_future_is_left_alone_after_restart(tmp_path):
    db = tmp_path / "future.sqlite3"

    async def go():
        seq = await _first_server(db, *_match_with_turns_of(30))
        store, manager, room = await _restarted(db, down_for=5)
        deadline = room.model.match.deadline
        await asyncio.sleep(0.2)
        assert room.model.match.deadline == deadline and room.seq == seq
        assert await _records_since(store, seq) == []
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


@pytest.mark.parametrize(
    "messages",
    [
        (),  # a lobby
        (  # a match Ana won at once: ended, no deadline
            p.UpdateSettings(id=3, settings={"target": 3}),
            p.StartMatch(id=4),
            p.Act(id=5, action={"type": "add", "amount": 3}),
        ),
    ],
    ids=["lobby", "match_over"],
)
def test_a_restored_room_without_a_running_clock_records_nothing(tmp_path, messages):
    db = tmp_path / "nothing.sqlite3"

    async def go():
        seq = await _first_server(db, *messages)
        store, manager, room = await _restarted(db, down_for=100)
        await asyncio.sleep(0.2)
        assert room.seq == seq and await _records_since(store, seq) == []
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_a_restart_grace_that_cannot_be_saved_is_retried_and_the_old_deadline_never_fires(
    tmp_path,
):
    """The store fails at start-up: the grace is tried again with growing pauses (not in a busy
    loop), the stale deadline does not time Ana out meanwhile, and once the store saves again
    the grace is the first thing recorded."""
    db = tmp_path / "failing.sqlite3"

    async def go():
        seq = await _first_server(db, *_match_with_turns_of(30))
        store = SQLiteStore(db)
        real_start_append, tried_at = store.start_append, []

        def failing(code, entries, on_durable=None):
            loop = asyncio.get_running_loop()
            tried_at.append(loop.time())
            failed = loop.create_future()
            failed.set_exception(CommitFailed("disk full (simulated)"))
            return failed

        store.start_append = failing
        store, manager, room = await _restarted(db, down_for=100, store=store)
        await _until(lambda: len(tried_at) >= 3)
        # Not a busy loop: a pause after each failed try, and a longer one after the next.
        # Load only stretches a pause, so these floors hold on a busy machine too.
        first, second = (later - earlier for earlier, later in itertools.pairwise(tried_at[:3]))
        assert first >= 0.15 and second >= 0.3, (first, second)
        assert room.model.match.counter == 0 and room.seq == seq  # no timeout either
        store.start_append = real_start_append
        await _until(lambda: room.seq > seq)
        assert room.model.match.counter == 0
        first, *_ = await _records_since(store, seq)
        assert first.action["type"] == "extend"
        await _until(lambda: room.model.match.counter == 1)  # and then the clock runs again
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_replaying_a_log_with_the_grace_rebuilds_the_same_room(tmp_path):
    db = tmp_path / "replay.sqlite3"

    async def go():
        seq = await _first_server(db, *_match_with_turns_of(30))
        store, manager, room = await _restarted(db, down_for=100)
        await _until(lambda: room.seq > seq)
        (live,) = await store.load_live_rooms()
        rebuilt, rebuilt_seq = replay(live, manager.games)
        assert rebuilt_seq == room.seq and rebuilt.match == room.model.match
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


@pytest.mark.parametrize("game", ["pitacor", "haiclue", "pinto", TINY])
def test_a_player_may_not_send_the_rooms_extend(game):
    games = games_with_tiny()
    room = room_data.new_room("ABCD", False, game, games)
    players = [f"p{i}" for i in range(games[game].MIN_PLAYERS)]
    for player in players:
        model.fold(room, records.Joined(at=1.0, player=player, nickname=player.upper()))
    model.fold(room, records.MatchStarted(at=2.0, by=players[0], seed=7))
    before = room.game.deadline(room.match)
    move = records.GameMove(at=3.0, seat=players[0], action={"type": "extend", "until": 1e9})
    with pytest.raises(RuleError) as refused:
        model.fold(room, move)
    assert refused.value.code == "action.room_only"
    assert room.game.deadline(room.match) == before
    model.fold(room, records.GameMove(at=3.0, seat=None, action={"type": "extend", "until": 1e9}))
    assert room.game.deadline(room.match) == (1e9 if before is not None else None)
