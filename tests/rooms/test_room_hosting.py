"""What the live room decides from who is connected, and logs: hosting passes on after the
host grace; a spectator takes a seat that freed up in the lobby. Real SQLite store, short
graces; connections are stand-ins that keep what they are sent."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from room_testing import Peer, later, run_with_manager
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.rooms.config import RoomConfig
from tertulia.rooms.manager import ManagerConfig
from tertulia.rooms.replay import replay
from tertulia.rooms.timers import HandTimers

DROP, HOST_GRACE = 0.1, 0.3


def _run(tmp_path, scenario):
    config = ManagerConfig(room=RoomConfig(drop_grace_seconds=DROP, host_grace_seconds=HOST_GRACE))
    run_with_manager(tmp_path / "hosting.sqlite3", scenario, config, timers=HandTimers())


async def _until(condition, timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def _seated(manager, names: str):
    room = await manager.create(TINY, public=False)
    peers = {name: Peer(name) for name in names}
    for i, (name, peer) in enumerate(peers.items()):
        await room.attach(peer, name.upper(), i + 1)
    return room, peers


def test_a_host_away_longer_than_the_host_grace_hands_hosting_to_someone_here(tmp_path):
    """ "host hand-over when the host leaves": a host whose tab is gone for good (their drop
    grace and then the host grace over) is as good as gone, so the first one here hosts; it
    does not come back to them on their return."""

    async def scenario(manager, store):
        room, peers = await _seated(manager, "abc")
        room.detach(peers["a"])
        await later(manager.timers, room, DROP)  # dropped: the host grace starts
        await later(manager.timers, room, HOST_GRACE / 2)
        assert room.model.host == "a"  # away, but not for long yet
        await later(manager.timers, room, HOST_GRACE / 2)
        await _until(lambda: room.model.host == "b")
        await room.attach(Peer("a"), "A", 9)
        await later(manager.timers, room, HOST_GRACE)
        assert room.model.host == "b"
        (live,) = await store.load_live_rooms()
        assert replay(live, manager.games)[0].host == "b"  # logged: a restart keeps it

    _run(tmp_path, scenario)


def test_after_everyone_drops_the_host_who_comes_back_in_time_keeps_hosting(tmp_path):
    """After a server restart everyone's drop grace runs out at once; hosting must not hop
    from seat to seat to whoever reconnects first."""

    async def scenario(manager, store):
        room, peers = await _seated(manager, "abc")
        for peer in peers.values():
            room.detach(peer)
        await later(manager.timers, room, DROP)
        await _until(lambda: not any(s.online for s in room.model.seats))
        await room.attach(Peer("c"), "C", 7)  # the first one back is not the host
        await room.attach(Peer("a"), "A", 8)  # the host is back within the host grace
        await later(manager.timers, room, HOST_GRACE * 1.5)
        assert room.model.host == "a"

    _run(tmp_path, scenario)


def test_with_nobody_else_here_hosting_waits(tmp_path):
    async def scenario(manager, store):
        room, peers = await _seated(manager, "ab")
        for peer in peers.values():
            room.detach(peer)
        await later(manager.timers, room, DROP)
        await later(manager.timers, room, HOST_GRACE * 1.5)
        assert room.model.host == "a"
        await room.attach(Peer("b"), "B", 7)  # someone comes; the host is still away
        await later(manager.timers, room, HOST_GRACE)  # (the next change watches again)
        await _until(lambda: room.model.host == "b")

    _run(tmp_path, scenario)


def test_a_spectator_takes_the_seat_a_player_frees_in_the_lobby(tmp_path):
    """Someone who came to a full lobby plays as soon as a seat is free (the tiny game seats
    three), the longest waiting first; logged, so a restart keeps it."""

    async def scenario(manager, store):
        room, peers = await _seated(manager, "abcde")
        assert [s.player for s in room.model.players()] == ["a", "b", "c"]
        room.submit(peers["b"], p.LeaveRoom(id=20))
        await _until(lambda: [s.player for s in room.model.players()] == ["a", "c", "d"])
        assert room.model.seat("e").spectator
        # The room folds a change before it is durable: read the log once it is.
        await _until(lambda: not room.commits.ahead)
        (live,) = await store.load_live_rooms()
        assert [s.player for s in replay(live, manager.games)[0].players()] == ["a", "c", "d"]

    _run(tmp_path, scenario)
