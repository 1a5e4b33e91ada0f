"""Closing a room: idle housekeeping, the last player leaving, and what anyone still there is
told. A real SQLite store; connections are stand-ins that keep what they are sent."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from room_testing import Peer, run_with_manager
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.rooms import room as room_module
from tertulia.rooms.manager import ManagerConfig


def _run(tmp_path, scenario):
    """Run ``scenario(manager, now)``; ``now[0]`` is the rooms' clock."""
    now = [1000.0]
    config = ManagerConfig(idle_seconds=60, housekeeping_seconds=3600)
    run_with_manager(
        tmp_path / "rooms.sqlite3",
        lambda manager, store: scenario(manager, now),
        config,
        clock=lambda: now[0],
    )


async def _room_with_ana(manager):
    room = await manager.create(TINY, public=False)
    ana = Peer("ana")
    await room.attach(ana, "Ana", 1)
    return room, ana


def test_housekeeping_does_not_close_a_room_someone_is_joining(tmp_path):
    """ "idle rooms closed after a configurable time": while housekeeping closes one idle room,
    a player comes into another; that one is no longer idle, and the player gets their seat."""

    async def scenario(manager, now):
        first = await manager.create(TINY, public=False)
        second = await manager.create(TINY, public=False)
        now[0] += 61  # both idle
        closing = asyncio.create_task(manager.close_idle())
        await asyncio.sleep(0)  # closing the first room has begun
        ana = Peer("ana")
        joining = asyncio.create_task(second.attach(ana, "Ana", 7))
        closed = await closing
        await asyncio.wait_for(joining, 5)
        assert closed == [first.code]
        assert manager.get(second.code) is second
        assert ana.answers() == [p.Ack(7, {"room": second.code})]

    _run(tmp_path, scenario)


def test_a_join_caught_by_the_room_closing_is_answered_as_its_save_went_not_left_hanging(
    tmp_path,
):
    """Every client message is answered: a join whose save was under way when the room closed
    is in the log, so it is answered as it went (Bo is seated: no "nothing changed" for a
    change the log has), and then everyone still connected, Bo too, is told the room has
    closed."""

    async def scenario(manager, now):
        room, ana = await _room_with_ana(manager)
        bo = Peer("bo")
        joining = asyncio.create_task(room.attach(bo, "Bo", 2))
        while room.idle or room.model.seat("bo") is None:  # Bo's join is folded, saving
            await asyncio.sleep(0)
        await manager.close(room, "test")
        await asyncio.wait_for(joining, 5)  # seated, not refused
        for peer in (ana, bo):
            assert p.Notice("room.closed", "The room was closed.") in peer.got
        assert not room.peers

    _run(tmp_path, scenario)


def test_a_message_waiting_in_a_closing_room_gets_its_answer(tmp_path):
    async def scenario(manager, now):
        room, ana = await _room_with_ana(manager)
        room.submit(ana, p.Chat(id=2, text="first"))  # started at once: saving
        room.submit(ana, p.Chat(id=3, text="second"))  # waits in the inbox behind it
        await manager.close(room, "test")
        answers = {m.re: m for m in ana.answers()}
        assert set(answers) == {1, 2, 3}  # one answer each, none twice
        assert isinstance(answers[3], p.Error) and answers[3].code == "room.unknown"

    _run(tmp_path, scenario)


def test_a_room_whose_last_player_left_closes_when_idle(tmp_path):
    """The idle time starts when the last one leaves, even if their page stays open."""

    async def scenario(manager, now):
        room, ana = await _room_with_ana(manager)
        room.submit(ana, p.LeaveRoom(id=2))
        while not ana.answers()[1:]:
            await asyncio.sleep(0.01)
        assert ana.answers()[1] == p.Ack(2)
        now[0] += 61
        assert await manager.close_idle() == [room.code]

    _run(tmp_path, scenario)


def test_a_change_saving_as_its_room_is_handed_on_is_acknowledged_not_told_it_moved(tmp_path):
    """ "`room.moved`: nothing was changed … send it again": a change whose save had begun
    when its room was handed to another node (a drain, SIGTERM) is in the log, so its sender
    gets its ``ack`` (a player told "moved" would send it again, and it would count twice);
    the message that waited behind it was applied by nobody, and hears ``room.moved``."""

    async def scenario(manager, store):
        room, ana = await _room_with_ana(manager)
        before = (await store.load_live_rooms())[0].last_seq
        room.submit(ana, p.Chat(id=2, text="first"))  # started at once: saving
        room.submit(ana, p.Chat(id=3, text="second"))  # waits in the inbox behind it
        await manager.let_go(room)
        answers = {m.re: m for m in ana.answers()}
        assert set(answers) == {1, 2, 3}  # one answer each, none twice
        assert answers[2] == p.Ack(2)
        assert isinstance(answers[3], p.Error) and answers[3].code == "room.moved"
        assert (await store.load_live_rooms())[0].last_seq == before + 1  # "first" only

    run_with_manager(tmp_path / "rooms.sqlite3", scenario)


def test_a_change_whose_save_has_not_answered_when_its_room_stops_is_told_the_outcome_is_unknown(
    tmp_path, monkeypatch
):
    """ "`room.outcome_unknown`: … it may or may not have been applied": when the store has
    not answered by the time the room stops waiting for it, nobody can say whether the change
    counted (the write stays queued), so its sender is not told "nothing was changed"."""
    monkeypatch.setattr(room_module, "SETTLE_SECONDS", 0.0)

    async def scenario(manager, store):
        room, ana = await _room_with_ana(manager)
        room.submit(ana, p.Chat(id=2, text="first"))  # started at once: saving
        await manager.let_go(room)
        answers = {m.re: m for m in ana.answers()}
        assert isinstance(answers[2], p.Error) and answers[2].code == "room.outcome_unknown"

    run_with_manager(tmp_path / "rooms.sqlite3", scenario)
