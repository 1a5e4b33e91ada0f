"""Closing a room: idle housekeeping, the last player leaving, and what anyone still there is
told. A real SQLite store; connections are stand-ins that keep what they are sent."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

import msgspec
import pytest
from room_testing import Peer, run_with_manager
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.cluster import wire
from tertulia.cluster.inbound import Inbound
from tertulia.cluster.relay import RelayedPeer, Relays, RemoteRoom
from tertulia.games.base import RuleError
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


async def _joining_while_saving(room, peer) -> asyncio.Task:
    """``peer`` joins as "Bo" (message 2); returned once the join is folded and saving."""
    joining = asyncio.create_task(room.attach(peer, "Bo", 2))
    while room.idle or room.model.seat(peer.player) is None:
        await asyncio.sleep(0)
    return joining


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


def test_a_join_caught_by_the_room_closing_is_refused_not_left_hanging(tmp_path):
    """Every client message is answered: a join whose save was under way when the room closed
    gets "room.unknown" (the room will answer nothing more, though the seat was saved), and
    whoever is still connected is told the room has closed."""

    async def scenario(manager, now):
        room, ana = await _room_with_ana(manager)
        joining = await _joining_while_saving(room, Peer("bo"))
        await manager.close(room, "test")
        with pytest.raises(RuleError) as refused:
            await asyncio.wait_for(joining, 5)
        assert refused.value.code == "room.unknown"
        assert p.Notice("room.closed", "The room was closed.") in ana.got
        assert not room.peers

    _run(tmp_path, scenario)


def test_a_join_caught_by_its_room_moving_is_told_to_ask_where_the_room_is_now(tmp_path):
    """ "While a room moves, a connection is never told it is not in a room": a join whose
    save was under way when the room was handed on is answered ``room.moved`` (the client
    asks again where the room is now, and finds its seat there), not seated in the room
    that stopped, where nothing would answer it again."""

    async def scenario(manager, store):
        room, _ = await _room_with_ana(manager)
        bo = Peer("bo")
        joining = await _joining_while_saving(room, bo)
        await manager.let_go(room)
        with pytest.raises(RuleError) as refused:
            await asyncio.wait_for(joining, 5)
        assert refused.value.code == "room.moved"
        assert bo not in room.peers

    run_with_manager(tmp_path / "rooms.sqlite3", scenario)


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


class _Bus:
    """The cluster's bus as a node's ``Inbound`` uses it: what it sent and pushed, kept."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.sent: list = []
        self.pushed: list = []

    def send(self, node, message) -> None:
        self.sent.append((node, message))

    def push(self, node, conn, data, answers=None) -> None:
        self.pushed.append((node, conn, data, answers))


class _RelayingSession:
    """A connection on the other node: what reaches its socket, kept."""

    def __init__(self, conn: str) -> None:
        self.cluster_conn = conn
        self.player = "p-" + conn
        self.outlet = SimpleNamespace(frames=[], put=None)
        self.outlet.put = self.outlet.frames.append

    def send(self, message) -> None:
        self.outlet.put(p.encode(message))

    def answers(self) -> list[tuple[int | None, str]]:
        decoded = [msgspec.json.decode(frame) for frame in self.outlet.frames]
        return [(m.get("re"), m.get("code", "ack")) for m in decoded if "re" in m]


def test_a_frame_reaching_a_room_that_waits_for_its_save_to_stop_does_not_give_it_up(tmp_path):
    """ "`room.moved`: nothing was changed": Ana's and Bo's sockets are on another node; the
    owner hands the room on while Ana's chat line is saving, and Bo's frame comes in while
    the room waits for that save. Bo's frame is answered ``room.moved``, but the room is not
    given up on the other node yet (that would answer Ana's line "moved" too): she gets her
    ``ack`` once the line is saved."""

    async def scenario(manager, store):
        gate, saves = asyncio.Event(), []
        save = store.start_append

        def slow_append(code, entry, on_durable=None):  # durable only once the gate opens
            inner, outer = save(code, entry), asyncio.get_running_loop().create_future()

            async def later():
                error = None
                try:
                    await inner
                except Exception as failed:
                    error = failed
                await gate.wait()
                if on_durable is not None:
                    on_durable(error)
                if error is None:
                    outer.set_result(None)
                else:
                    outer.set_exception(error)

            saves.append(asyncio.ensure_future(later()))
            return outer

        def inbound(bus: _Bus, relays: Relays, room_here) -> Inbound:
            return Inbound(
                bus,
                relays,
                room_here=room_here,
                loading=lambda code: None,
                spawn=lambda work: None,
                find_again=lambda session, code: None,
                owned_now=lambda code, owner, fence: None,
                heir_named=lambda code, heir: None,
            )

        room = await manager.create(TINY, public=False)
        owner_bus, owner_relays = _Bus("owner"), Relays()
        owner = inbound(owner_bus, owner_relays, manager.get)
        peers = {conn: RelayedPeer(owner_bus, "n", conn, "p-" + conn) for conn in ("n/1", "n/2")}
        for conn, name in (("n/1", "Ana"), ("n/2", "Bo")):
            await room.attach(peers[conn], name, None)
            owner_relays.relayed[conn] = (peers[conn], room)
        owner_bus.pushed.clear()
        node_bus, node_relays = _Bus("n"), Relays()
        node = inbound(node_bus, node_relays, lambda code: None)
        remote = RemoteRoom(
            room.code,
            "owner",
            {},
            node_bus,
            lambda session: session.cluster_conn,
            node_relays.relaying,
            node_relays.awaiting,
            in_doubt=node_relays.in_doubt,
        )
        node_relays.remote[room.code] = remote
        ana, bo = _RelayingSession("n/1"), _RelayingSession("n/2")
        for session in (ana, bo):
            conn = session.cluster_conn
            remote.sessions[conn] = session
            entry = node_relays.relaying[conn] = (session, "owner")  # as attach makes them
            remote._entries[conn] = [entry]

        store.start_append = slow_append
        line = p.Chat(id=2, text="hi")
        remote.submit(ana, line)
        room.submit(peers["n/1"], line)  # at the owner: saving
        leaving = asyncio.create_task(manager.let_go(room))  # a drain: it waits for the save
        while not room.closed:
            await asyncio.sleep(0)
        other = p.Chat(id=9, text="yo")
        remote.submit(bo, other)
        owner.on_message(wire.Frame("n/2", room.code, p.encode(other), 9))
        for _, message in owner_bus.sent:
            node.on_message(message)
        gate.set()
        await leaving
        node.on_message(wire.Pushes([(c, d, a) for _, c, d, a in owner_bus.pushed], "owner"))
        assert ana.answers() == [(2, "ack")]
        assert bo.answers() == [(9, "room.moved")]

    run_with_manager(tmp_path / "rooms.sqlite3", scenario)
