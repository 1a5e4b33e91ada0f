"""What is in flight between a connection's node and a room's owner when the owner changes.

A frame relayed to an owner that dies before answering it is answered by the node holding
the socket (``room.outcome_unknown``): the player hears at once that nobody can say whether
it counted, rather than waiting out their own timeout, and the whole picture from the new
owner tells them. A frame still on its way when the owner let the room go is answered
``room.moved``: the owner answered everything that reached it before it said so. And a room
reached through a former owner is given up as soon as the lease is seen to have moved on,
so nothing attached or attaching through it waits for answers nobody will send."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
import time
from types import SimpleNamespace

import msgspec
import pytest
import redis.asyncio
from cluster_testing import REDIS_URL, cluster, run

from tertulia import protocol as p
from tertulia.client import Client, ClientError
from tertulia.cluster import wire
from tertulia.cluster.inbound import Inbound
from tertulia.cluster.leases import Owner
from tertulia.cluster.node import ClusterRooms
from tertulia.cluster.relay import ATTACH_TIMEOUT, RelayedPeer, Relays, RemoteRoom
from tertulia.games.base import RuleError
from tertulia.server.guard import Guard, Limits
from tertulia.server.held import Held
from tertulia.server.session import Session


def test_a_move_heard_by_an_owner_that_then_dies_is_answered_outcome_unknown(tmp_path) -> None:
    """ "A node dies (SIGKILL)… players… are back in their seats": a move the dead owner heard
    but never answered gets an answer, and the match goes on."""
    with cluster(tmp_path, lease=3.0) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            bo = await Client.connect(other.ws)  # relayed: the room is Ana's node's
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")
            await ana.request("update_settings", settings={"turn_seconds": 0})
            await ana.request("start_match")
            view = (await bo.wait_for(lambda push: push.get("view") is not None))["view"]
            if view["turn"] == ana.player:
                await ana.act({"type": "add", "amount": 2})
                await bo.wait_for(lambda push: push["view"]["turn"] == bo.player)
            counter = bo.view["counter"]
            # The owner is frozen: Bo's move reaches its subscription (Redis says it was
            # heard) but nobody reads it; then the owner dies without a word.
            owner.signal(signal.SIGSTOP)
            move = asyncio.ensure_future(bo.request("act", action={"type": "add", "amount": 1}))
            await asyncio.sleep(0.5)  # well inside its 3 s lease: published, and heard
            pushes = len(bo.pushes)
            owner.kill()
            with pytest.raises(ClientError) as refused:
                await asyncio.wait_for(move, 20)  # never answered at all without the fix
            assert refused.value.code == "room.outcome_unknown"
            # Bo is moved to the new owner by his node and sees what became of the move.
            await bo.wait_for(lambda push: len(bo.pushes) > pushes, timeout=15)
            assert bo.view["counter"] == counter  # the frozen owner never applied it
            await bo.act({"type": "add", "amount": 1})  # and he plays on
            assert bo.view["counter"] == counter + 1 or await bo.wait_for(
                lambda push: push["view"]["counter"] == counter + 1
            )
            await bo.close()

        run(go)


# ---------------------------------------------------------------- the bookkeeping, alone


class _Bus:
    node = "here"

    def __init__(self) -> None:
        self.sent: list[tuple[str, object]] = []
        self.pushed: list[tuple[str, str, bytes, int | None]] = []

    def send(self, node: str, message: object) -> None:
        self.sent.append((node, message))

    def push(self, node: str, conn: str, data: bytes, answers: int | None = None) -> None:
        self.pushed.append((node, conn, data, answers))


class _Outlet:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def put(self, data: bytes) -> None:
        self.frames.append(data)

    def close(self, code: int) -> None:
        self.closed_with = code


class _Session:
    def __init__(self, conn: str) -> None:
        self.cluster_conn = conn
        self.player = "p-" + conn
        self.outlet = _Outlet()
        self.room: object = None  # the room it is in, as a session knows it

    def send(self, message: p.ServerMessage) -> None:
        self.outlet.put(p.encode(message))

    def answers(self) -> list[tuple[int | None, str]]:
        decoded = [msgspec.json.decode(frame) for frame in self.outlet.frames]
        return [(m.get("re"), m.get("code", "ack")) for m in decoded if "re" in m]


class _Node:
    """What of ``ClusterRooms`` the messages part (``Inbound``) is given: the registries and
    the bus; no room is owned here."""

    def __init__(self) -> None:
        self.bus = _Bus()
        self.relays = relays = Relays()
        self.remote = relays.remote
        self.relaying = relays.relaying
        self.awaiting = relays.awaiting
        self.relayed = relays.relayed
        self.found_again: list[object] = []
        inbound = Inbound(
            self.bus,
            relays,
            room_here=lambda code: None,
            loading=lambda code: None,
            spawn=lambda work: None,
            find_again=lambda session, code: self.found_again.append(session),
            owned_now=lambda code, owner, fence: None,
            heir_named=lambda code, heir: None,
        )
        self._on_message = inbound.on_message
        self._heard = inbound.heard
        self._unheard = inbound.unheard
        self._hold_again = inbound.hold_again

    @property
    def in_doubt(self) -> dict[tuple[str, int], object]:
        return self.relays.in_doubt

    @in_doubt.setter
    def in_doubt(self, value: dict[tuple[str, int], object]) -> None:
        self.relays.in_doubt = value

    def remote_room(
        self, code: str = "ABCD", owner: str = "owner", attach_timeout: float = ATTACH_TIMEOUT
    ) -> RemoteRoom:
        room = RemoteRoom(
            code,
            owner,
            {},
            self.bus,
            lambda s: s.cluster_conn,
            self.relaying,
            self.awaiting,
            attach_timeout=attach_timeout,
        )
        self.remote[code] = room
        return room


def _attached(node: _Node, room: RemoteRoom, conn: str) -> _Session:
    session = _Session(conn)
    room.sessions[conn] = session
    entry = node.relaying[conn] = (session, room.owner)  # as attach makes them
    room._entries[conn] = [entry]
    session.room = room
    return session


def _act(msg_id: int) -> p.Act:
    return p.Act(id=msg_id, action={"type": "add", "amount": 1})


def test_an_answer_from_the_owner_settles_its_frame_and_a_dead_owner_s_debts_are_told() -> None:
    node = _Node()
    room = node.remote_room()
    session = _attached(node, room, "here/1")
    room.submit(session, _act(1))
    room.submit(session, _act(2))
    assert set(node.awaiting["here/1"]) == {1, 2}
    for _, frame in node.bus.sent:
        node._heard(frame)  # Redis says the owner's node heard both
    # The owner's answer to 1 comes back with the pushes; 2 is never answered.
    node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(1)), 1)]))
    assert set(node.awaiting["here/1"]) == {2}
    assert room.give_up(owner_died=True) == [session]
    assert session.answers() == [(1, "ack"), (2, "room.outcome_unknown")]
    assert "here/1" not in node.awaiting


def test_frames_on_their_way_when_the_owner_let_the_room_go_are_answered_moved() -> None:
    node = _Node()
    room = node.remote_room()
    session = _attached(node, room, "here/1")
    room.submit(session, _act(7))
    node._on_message(wire.Released("ABCD", ["here/1"]))
    assert session.answers() == [(7, "room.moved")]
    assert node.found_again == [session]  # and it goes to find the new owner


def test_an_unheard_frame_is_answered_moved_once_if_its_session_stopped_following() -> None:
    """A frame nobody heard was applied by nobody: a session no longer following its room is
    told ``room.moved`` (send it again), and gets no second answer when the owner is given
    up."""
    node = _Node()
    room = node.remote_room()
    session = _attached(node, room, "here/1")
    room.submit(session, _act(3))
    frame = node.bus.sent[-1][1]
    unheard = node._unheard(frame)
    assert unheard is not None
    node._hold_again(*unheard)
    room.give_up(owner_died=True)
    assert session.answers() == [(3, "room.moved")]


def test_a_frame_that_reached_nobody_waits_for_the_new_owner_with_what_its_session_holds() -> None:
    """ "While a room moves, a connection is never told it is not in a room": a frame that
    reached nobody is not owed by the dead owner (no ``room.outcome_unknown``) and goes to the
    new owner with the messages its session holds meanwhile."""

    async def go() -> None:
        node = _Node()
        room = node.remote_room()
        session = _attached(node, room, "here/1")
        room.submit(session, _act(3))
        frame = node.bus.sent[-1][1]
        unheard = node._unheard(frame)
        assert unheard is not None
        session.held = Held("ABCD", lambda msg_id, error: None)  # what room_moves starts
        room.give_up(owner_died=True)
        node._hold_again(*unheard)
        assert session.answers() == []  # nothing owed, nothing refused
        assert [m.id for m in session.held.take()] == [3]

    asyncio.run(go())


def test_frames_that_reached_nobody_go_to_the_new_owner_before_those_held_since() -> None:
    """ "Held … handed to the new owner … in order": frames relayed to the owner just before it
    died come back (their publishes reached nobody) after later ones were held; the client sent
    them first, so the new owner gets them first, and the bound of 32 refuses the newest (the
    33rd the client sent), as if every one had been held in order. Seen on CI: with several
    frames in flight, the 33rd was held and an earlier one refused."""

    async def go() -> None:
        refused: list[int | None] = []
        held = Held("ABCD", lambda msg_id, error: refused.append(msg_id))
        for msg_id in range(4, 34):  # sent after the room began to move: 30 held
            held.hold(_act(msg_id))
        held.hold_again(_act(1))  # in flight to the dead owner: back, in the order published
        held.hold_again(_act(2))
        assert refused == []
        held.hold_again(_act(3))  # one too many: the newest goes
        assert refused == [33]
        assert [m.id for m in held.take()] == list(range(1, 33))
        held.hold(_act(40))  # after a take, new messages are held in order again
        held.hold_again(_act(39))
        assert [m.id for m in held.take()] == [39, 40]

    asyncio.run(go())


def test_a_relayed_player_who_goes_from_one_remote_room_to_another_still_hears_the_new_one() -> (
    None
):
    """ "One answer per request": a player whose socket is on this node goes from room X to
    room Y, both owned elsewhere; X is left after Y is joined (``Session._enter``), and X
    letting go of the connection must not take away what Y set up for it: Y's owner's pushes
    and answers still reach the player."""

    async def go() -> None:
        node = _Node()
        x = node.remote_room("XXXX")
        session = _attached(node, x, "here/1")
        y = node.remote_room("YYYY")
        joining = asyncio.ensure_future(y.attach(session, "Bo", 5))
        await asyncio.sleep(0)
        node._on_message(wire.Attached("here/1", "YYYY", None, "", owner="owner"))
        await joining
        x.detach(session)  # the room it left
        assert node.relaying["here/1"] == (session, "owner")
        y.submit(session, _act(6))
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(6)), 6)], sender="owner"))
        assert session.answers() == [(6, "ack")]
        y.detach(session)  # and leaving Y lets go of it for good
        assert "here/1" not in node.relaying

    asyncio.run(go())


class _OwnedRoom:
    """A room owned here, as ``Inbound`` sees it: it seats relayed peers and lets them go."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.closed = False
        self.game = SimpleNamespace(NAME="tiny")
        self.peers: list[RelayedPeer] = []

    async def attach(self, peer: RelayedPeer, *args: object, **kwargs: object) -> None:
        self.peers.append(peer)

    def detach(self, peer: RelayedPeer) -> None:
        self.peers.remove(peer)


def test_the_owner_takes_a_connection_out_of_the_room_it_left_not_the_one_it_went_to() -> None:
    """A player on another node goes from room X to room Y, both owned here: that node sends
    Y's attach, then X's detach, and Y's seating may be done before the detach comes. The
    player leaves X (not left "online" there for ever) and stays in Y."""

    async def go() -> None:
        rooms = {code: _OwnedRoom(code) for code in ("XXXX", "YYYY")}
        relays, tasks = Relays(), []
        inbound = Inbound(
            _Bus(),
            relays,
            room_here=rooms.get,
            loading=lambda code: None,
            spawn=lambda work: tasks.append(asyncio.ensure_future(work)),
            find_again=lambda session, code: None,
            owned_now=lambda code, owner, fence: None,
            heir_named=lambda code, heir: None,
        )
        for code in ("XXXX", "YYYY"):
            inbound.on_message(wire.Attach("there/1", "there", code, "p-bo", "Bo", None))
            await asyncio.gather(*tasks)
        assert rooms["XXXX"].peers == [] and len(rooms["YYYY"].peers) == 1
        inbound.on_message(wire.Detach("there/1", "XXXX"))  # late: it is in Y now
        assert len(rooms["YYYY"].peers) == 1 and relays.relayed["there/1"][1] is rooms["YYYY"]
        inbound.on_message(wire.Detach("there/1", "YYYY"))
        assert rooms["YYYY"].peers == [] and "there/1" not in relays.relayed

    asyncio.run(go())


def test_a_frame_answered_moved_is_not_held_again_when_its_publish_turns_out_unheard() -> None:
    """ "One answer per request": the owner let the room go, so a frame it had not answered
    was answered ``room.moved`` (send it again); when its publish then turns out to have
    reached nobody, it is not held for the next owner as well (it would count, and the
    player, told "nothing changed", sends it again)."""

    async def go() -> None:
        node = _Node()
        room = node.remote_room()
        session = _attached(node, room, "here/1")
        room.submit(session, _act(7))
        frame = node.bus.sent[-1][1]
        node._on_message(wire.Released("ABCD", ["here/1"], "owner"))
        assert session.answers() == [(7, "room.moved")]
        node.relaying["here/1"] = (session, "next")  # following it: through the next owner
        session.held = Held("ABCD", lambda msg_id, error: None)
        found = node._unheard(frame)
        if found is not None:
            node._hold_again(*found)
        assert session.answers() == [(7, "room.moved")]
        assert session.held.take() == []

    asyncio.run(go())


def test_an_owner_that_does_not_have_one_connection_in_its_room_sends_only_that_one_back() -> None:
    """ "One answer per request": a frame from a connection the owner does not have in a room
    it still owns is answered ``room.moved`` and only that connection is sent back to attach
    again; the room's other connections on that node stay, and their frames in flight are
    left for the owner to answer (answered "moved" there, they would be applied all the
    same). A frame for a room the owner no longer has sends the whole room back."""

    async def go() -> None:
        rooms = {"ABCD": _OwnedRoom("ABCD")}
        bus = _Bus()
        owner = Inbound(
            bus,
            Relays(),
            room_here=rooms.get,
            loading=lambda code: None,
            spawn=lambda work: None,
            find_again=lambda session, code: None,
            owned_now=lambda code, owner, fence: None,
            heir_named=lambda code, heir: None,
        )
        owner.on_message(wire.Frame("there/1", "ABCD", p.encode(_act(3)), 3))
        owner.on_message(wire.Frame("there/1", "GONE", p.encode(_act(4)), 4))
        released = [m for _, m in bus.sent if isinstance(m, wire.Released)]
        assert [(r.room, r.conns, r.whole) for r in released] == [
            ("ABCD", ["there/1"], False),
            ("GONE", ["there/1"], True),
        ]

        node = _Node()
        room = node.remote_room()
        ana, bo = _attached(node, room, "here/1"), _attached(node, room, "here/2")
        room.submit(bo, _act(8))  # Bo's move, in flight to the owner, which has him
        node._on_message(wire.Released("ABCD", ["here/1"], "owner", whole=False))
        assert node.found_again == [ana]  # only Ana attaches again
        assert node.remote["ABCD"] is room and not room.closed
        assert bo.answers() == [] and 8 in node.awaiting["here/2"]  # the owner answers it
        node._on_message(wire.Pushes([("here/2", p.encode(p.Ack(8)), 8)], sender="owner"))
        assert bo.answers() == [(8, "ack")]

    asyncio.run(go())


def test_two_attaches_of_one_connection_at_once_each_get_their_own_answer() -> None:
    """A connection attaches twice at once through one owner (a ``join_room`` while it
    follows its moved room): the owner answers both, in order, and each attach takes its own
    answer; neither waits out its timeout (which would detach the connection again)."""

    async def go() -> None:
        node = _Node()
        room = node.remote_room()
        session = _Session("here/1")
        first = asyncio.ensure_future(room.attach(session, "", None, resume=True))
        second = asyncio.ensure_future(room.attach(session, "Bo", 5))
        await asyncio.sleep(0)
        for _ in range(2):
            node._on_message(wire.Attached("here/1", "ABCD", None, "", owner="owner"))
        await asyncio.wait_for(asyncio.gather(first, second), 1)
        assert not any(isinstance(m, wire.Detach) for _, m in node.bus.sent)
        assert node.relaying["here/1"] == (session, "owner")

    asyncio.run(go())


_NO_SEAT = ("seat.unknown", "There is no seat of yours here.", {})
_FULL = ("room.full", "This room is full.", {})


async def _two_attaches_answered(
    first: tuple | None, second: tuple | None
) -> tuple[_Node, RemoteRoom, _Session, list]:
    """A resume and a join of one connection at once through one owner, answered in order
    (None: seated; else the refusal): the node, the room, the session and each outcome."""
    node = _Node()
    room = node.remote_room()
    session = _Session("here/1")
    resuming = asyncio.ensure_future(room.attach(session, "", None, resume=True))
    joining = asyncio.ensure_future(room.attach(session, "Bo", 5))
    await asyncio.sleep(0)
    for error in (first, second):
        node._on_message(wire.Attached("here/1", "ABCD", error, "", owner="owner"))
    results = await asyncio.wait_for(asyncio.gather(resuming, joining, return_exceptions=True), 1)
    return node, room, session, results


def test_two_attaches_at_once_the_first_refused_the_second_keeps_the_connection() -> None:
    """Two attaches of one connection at once through one owner, the first refused (its
    resume found no seat) and the second seated (the player's own join): the refusal lets
    go of nothing the second made, so the owner's pushes and answers still reach the
    connection."""

    async def go() -> None:
        node, room, session, results = await _two_attaches_answered(_NO_SEAT, None)
        assert isinstance(results[0], RuleError) and results[1] is None
        assert node.relaying["here/1"] == (session, "owner")
        assert room.sessions["here/1"] is session
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(5)), 5)], sender="owner"))
        assert session.answers() == [(5, "ack")]

    asyncio.run(go())


def test_two_attaches_at_once_the_first_seated_the_second_refused_keeps_the_connection() -> None:
    """The other order: the first attach (a resume) is seated, the second (a join, at once)
    refused: the connection stays attached through the first, and the owner's pushes and
    answers still reach it."""

    async def go() -> None:
        node, room, session, results = await _two_attaches_answered(None, _FULL)
        assert results[0] is None and isinstance(results[1], RuleError)
        assert node.relaying["here/1"][0] is session
        assert room.sessions["here/1"] is session
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(7)), 7)], sender="owner"))
        assert session.answers() == [(7, "ack")]

    asyncio.run(go())


def test_two_attaches_at_once_both_refused_leave_nothing_behind() -> None:
    """Both attaches refused: the connection is in this room through neither, and nothing of
    it is kept (no entry for pushes, no session)."""

    async def go() -> None:
        node, room, _, results = await _two_attaches_answered(_NO_SEAT, _FULL)
        assert all(isinstance(result, RuleError) for result in results)
        assert "here/1" not in node.relaying and room.sessions == {}

    asyncio.run(go())


def test_the_late_answer_to_an_attach_that_timed_out_is_not_taken_by_the_next_one() -> None:
    """Each attach takes its own answer: an owner slow to answer a resume (it timed out here,
    and a Detach went after it) answers it late, while the player's join waits; the join is
    seated, not refused with the resume's answer."""

    async def go() -> None:
        node = _Node()
        room = node.remote_room(attach_timeout=0.05)
        session = _Session("here/1")
        with pytest.raises(RuleError):
            await room.attach(session, "", None, resume=True)  # nobody answers in time
        joining = asyncio.ensure_future(room.attach(session, "Bo", 5))
        await asyncio.sleep(0)
        resume, join = [m for _, m in node.bus.sent if isinstance(m, wire.Attach)]
        late = wire.Attached("here/1", "ABCD", _NO_SEAT, "", owner="owner", serial=resume.serial)
        node._on_message(late)
        node._on_message(wire.Attached("here/1", "ABCD", None, "", "owner", serial=join.serial))
        assert await asyncio.wait_for(joining, 1) is None
        assert node.relaying["here/1"][0] is session

    asyncio.run(go())


def test_a_join_refused_by_a_remote_room_leaves_the_player_in_the_remote_room_they_are_in() -> None:
    """'A refusal leaves it where it was' (``Session._enter``): a player in room X, owned by
    another node, asks to join room Y, owned by a third, and is refused (Y is full); X's
    pushes and answers still reach them."""

    async def go() -> None:
        node = _Node()
        x, y = node.remote_room("XXXX", owner="x"), node.remote_room("YYYY", owner="y")
        session = _attached(node, x, "here/1")
        joining = asyncio.ensure_future(y.attach(session, "Bo", 5))
        await asyncio.sleep(0)
        node._on_message(wire.Attached("here/1", "YYYY", _FULL, "", owner="y"))
        with pytest.raises(RuleError):
            await joining
        x.submit(session, _act(9))
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(9)), 9)], sender="x"))
        assert session.answers() == [(9, "ack")]

    asyncio.run(go())


def test_a_frame_sent_to_a_room_just_left_for_one_owned_elsewhere_still_gets_its_answer() -> None:
    """ "One answer per request": a player sends a move in room X (owned by node x), then
    goes to room Y (owned by node y); x's answer to that move comes after the connection is
    attached through y, and still reaches the player. Nothing else x sends does."""

    async def go() -> None:
        node = _Node()
        x, y = node.remote_room("XXXX", owner="x"), node.remote_room("YYYY", owner="y")
        session = _attached(node, x, "here/1")
        x.submit(session, _act(4))
        joining = asyncio.ensure_future(y.attach(session, "Bo", 5))
        await asyncio.sleep(0)
        node._on_message(wire.Attached("here/1", "YYYY", None, "", owner="y"))
        await joining
        x.detach(session)
        patch = p.encode(p.Notice("x.late", "a late push of room X"))
        node._on_message(wire.Pushes([("here/1", patch, None)], sender="x"))
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(4)), 4)], sender="x"))
        node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(4)), 4)], sender="x"))
        assert session.answers() == [(4, "ack")]  # once, and nothing else of X's
        assert not any(b"x.late" in frame for frame in session.outlet.frames)

    asyncio.run(go())


def test_a_late_push_from_a_former_owner_is_dropped_at_the_node() -> None:
    """ "One answer per request": once a connection was given up by its owner (its request
    answered ``room.outcome_unknown``) and attached through a new one, pushes the former owner
    sends after all (it was paused, then woke) never reach it."""
    node = _Node()
    old = node.remote_room()  # reached through "owner"
    session = _attached(node, old, "here/1")
    old.submit(session, _act(4))
    node._heard(node.bus.sent[-1][1])
    old.give_up(owner_died=True)
    new = RemoteRoom(
        "ABCD", "next", {}, node.bus, lambda s: s.cluster_conn, node.relaying, node.awaiting
    )
    new.sessions["here/1"] = session
    node.relaying["here/1"] = (session, "next")
    node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(4)), 4)], sender="owner"))
    node._on_message(wire.Pushes([("here/1", p.encode(p.Ack(5)), None)], sender="next"))
    assert session.answers() == [(4, "room.outcome_unknown"), (5, "ack")]


def test_the_owner_tells_which_request_each_push_answers() -> None:
    bus = _Bus()
    peer = RelayedPeer(bus, "there", "there/5", "p1")
    peer.send(p.Ack(4))
    peer.send(p.Error(5, "action.not_your_turn", "Not your turn."))
    peer.send(p.Notice("room.closed", "The room was closed."))
    assert [answers for *_, answers in bus.pushed] == [4, 5, None]


# ---------------------------------------------------------------- the owner moved on


def _cluster_node() -> ClusterRooms:
    """A node's ``ClusterRooms`` on the fake bus (its Redis client is never used here)."""
    manager = SimpleNamespace(store=None, games={}, on_lost=None)
    rooms = ClusterRooms(manager, redis.asyncio.Redis.from_url(REDIS_URL), node="here")
    rooms.bus = rooms.inbound.bus = _Bus()
    return rooms


def test_a_room_reached_through_a_former_owner_is_given_up_when_the_lease_moved_on() -> None:
    """Two players of this node come back at once: one attaches through the owner the lease
    named then, the other finds the lease already moved to a new owner. The first must not
    wait for an answer nobody will send: its attach fails ``room.moved`` (it asks again, and
    finds the new owner) and a frame it had in flight is answered."""

    async def go() -> None:
        node = _cluster_node()
        old = node._remote("ABCD", Owner("gone", 1))
        ana = _Session("here/1")
        attaching = asyncio.ensure_future(old.attach(ana, "Ana", 5, resume=True))
        await asyncio.sleep(0)  # its Attach is on its way to "gone"
        bo = _attached(node, old, "here/2")
        old.submit(bo, _act(9))
        node._heard(node.bus.sent[-1][1])  # Redis said "gone" heard it
        new = node._remote("ABCD", Owner("next", 2))
        assert new is not old and new.owner == "next" and node.remote["ABCD"] is new
        with pytest.raises(RuleError) as refused:
            await asyncio.wait_for(attaching, 1)
        assert refused.value.code == "room.moved"
        assert bo.answers() == [(9, "room.outcome_unknown")]

    asyncio.run(go())


def test_an_answer_from_a_former_owner_does_not_answer_an_attach_to_the_new_one() -> None:
    async def go() -> None:
        node = _cluster_node()
        room = node._remote("ABCD", Owner("next", 2))
        ana = _Session("here/1")
        attaching = asyncio.ensure_future(room.attach(ana, "Ana", 5, resume=True))
        await asyncio.sleep(0)
        node._on_message(wire.Attached("here/1", "ABCD", None, "tiny", owner="gone"))
        await asyncio.sleep(0)
        assert not attaching.done()  # "gone" seated her nowhere this node reaches now
        node._on_message(wire.Attached("here/1", "ABCD", None, "tiny", owner="next"))
        await asyncio.wait_for(attaching, 1)

    asyncio.run(go())


def test_a_release_from_a_former_owner_leaves_the_room_reached_through_the_new_one() -> None:
    node = _Node()
    room = node.remote_room()  # reached through "owner"
    session = _attached(node, room, "here/1")
    node._on_message(wire.Released("ABCD", ["here/1"], owner="gone"))
    assert node.remote["ABCD"] is room and not room.closed and node.found_again == []
    node._on_message(wire.Released("ABCD", ["here/1"], owner="owner"))
    assert room.closed and node.found_again == [session]


def test_an_attach_the_owner_never_answers_fails_moved_and_is_taken_back() -> None:
    """An owner that says nothing (its answer lost, or it died unnoticed) does not hold a
    player for long: the attach fails ``room.moved`` after twice the lease (the session finds
    the room again), and the owner is told to take the seat out if it seated it after all."""

    async def go() -> None:
        node = _Node()
        room = node.remote_room(attach_timeout=0.05)
        ana = _Session("here/1")
        with pytest.raises(RuleError) as refused:
            await room.attach(ana, "Ana", 5, resume=True)
        assert refused.value.code == "room.moved"
        assert [type(m).__name__ for _, m in node.bus.sent] == ["Attach", "Detach"]
        assert "here/1" not in node.relaying and not room.sessions

    asyncio.run(go())


# ---------------------------------------------------------------- a room that just moved


class _Room:
    """A room as the owner's inbound side sees it: it seats whoever attaches."""

    game = SimpleNamespace(NAME="tiny")

    def __init__(self) -> None:
        self.peers: list[object] = []

    async def attach(
        self, peer: object, nickname: str, msg_id: int, resume: bool, **more: object
    ) -> None:
        self.peers.append(peer)


def test_an_attach_that_comes_while_the_room_is_still_loading_waits_for_it() -> None:
    """ "An attach refused while the new owner is still loading is retried …, never turned
    into a close": the new owner does not send the connection away while it replays the room
    it has just taken over; it answers once the room is there."""

    async def go() -> None:
        node = _cluster_node()
        rooms: dict[str, _Room] = {}
        node.manager.get = rooms.get
        loading = asyncio.get_running_loop().create_future()
        node._takeovers["ABCD"] = loading
        attach = wire.Attach("there/1", "there", "ABCD", "p1", "", 0, resume=True)
        answering = asyncio.ensure_future(node.inbound._attach(attach))
        await asyncio.sleep(0.05)
        assert node.bus.sent == []  # no room.moved while it loads
        rooms["ABCD"] = room = _Room()
        loading.set_result(room)
        await asyncio.wait_for(answering, 1)
        [(to, answer)] = node.bus.sent
        assert to == "there" and isinstance(answer, wire.Attached)
        assert answer.error is None and answer.owner == "here" and len(room.peers) == 1

    asyncio.run(go())


def test_a_node_waiting_for_a_dead_owner_s_lease_finds_the_room_when_told_of_its_new_owner():
    """ "A node that holds connections to a room hears the new owner at once (an event, not a
    poll)": a find waiting for a dead owner's lease to lapse returns the moment another node
    says it owns the room, not at its next look at the lease."""

    async def go() -> None:
        async with _a_room_of_other_nodes() as (node, code, lease):
            await node.redis.set(lease, "dead 1", px=10_000)  # lapses only in 10 s
            finding = asyncio.ensure_future(node.find(code))
            await asyncio.sleep(0.1)
            assert not finding.done()  # the owner is dead and its lease still runs
            await node.redis.set(lease, "next 2", px=10_000)
            node._live_nodes.add("next")
            told_at = time.monotonic()
            node._on_message(wire.Owned(code, "next"))
            room = await asyncio.wait_for(finding, 2)
            assert isinstance(room, RemoteRoom) and room.owner == "next"
            assert time.monotonic() - told_at < node.leases.renew_every / 2

    asyncio.run(go())


def test_a_way_to_a_room_through_an_older_lease_of_the_same_node_is_given_up():
    """A node that let a room go (handed it to another that never took it) and then took it
    back is the same owner under a newer lease: the sessions reached through it before must
    find it again (the new room never seated them), not wait for pushes that never come.
    The same lease's own news changes nothing."""

    async def go() -> None:
        async with _a_room_of_other_nodes() as (node, code, lease):
            await node.redis.set(lease, "next 2", px=10_000)
            node._live_nodes.add("next")
            room = await asyncio.wait_for(node.find(code), 2)
            assert isinstance(room, RemoteRoom) and (room.owner, room.fence) == ("next", 2)
            node._on_message(wire.Owned(code, "next", 2))
            assert node.remote.get(code) is room and not room.closed
            node._on_message(wire.Owned(code, "next", 3))
            assert code not in node.remote and room.closed

    asyncio.run(go())


@contextlib.asynccontextmanager
async def _a_room_of_other_nodes():
    """A cluster node that owns no room, a fresh room code and the Redis key of its lease
    (for the test to write; removed after): (node, code, lease key)."""
    node = _cluster_node()
    node.manager.get = {}.get
    code = f"T{secrets.token_hex(4).upper()}"
    lease = node.keys.lease(code)
    try:
        yield node, code, lease
    finally:
        await node.redis.delete(lease)
        await node.redis.aclose()


def test_a_frame_whose_fate_redis_has_not_told_yet_waits_for_it_when_its_owner_is_given_up():
    """ "never answered twice, never applied twice": the owner is given up (its beat lapsed)
    while two frames' publishes are still on their way. The one Redis then says was heard
    is ``room.outcome_unknown``; the one nobody heard joins what the session holds for the
    new owner."""

    async def go() -> None:
        node = _Node()
        node.in_doubt = {}
        room = RemoteRoom(
            "ABCD",
            "owner",
            {},
            node.bus,
            lambda s: s.cluster_conn,
            node.relaying,
            node.awaiting,
            in_doubt=node.in_doubt,
        )
        node.remote["ABCD"] = room
        session = _attached(node, room, "here/1")
        room.submit(session, _act(1))
        room.submit(session, _act(2))
        heard, unheard = (frame for _, frame in node.bus.sent[-2:])
        session.held = Held("ABCD", lambda msg_id, error: None)
        room.give_up(owner_died=True)
        assert session.answers() == []  # neither is known yet
        node._heard(heard)
        found = node._unheard(unheard)
        assert found is not None
        node._hold_again(*found)
        assert session.answers() == [(1, "room.outcome_unknown")]
        assert [m.id for m in session.held.take()] == [2]
        assert node.in_doubt == {}

    asyncio.run(go())


class _FollowedRoom:
    """A room a session is in, as ``Session`` sees it."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.closed = False
        self.submitted: list[p.ClientMessage] = []

    def submit(self, peer: object, message: p.ClientMessage) -> None:
        self.submitted.append(message)

    def detach(self, peer: object) -> None:
        pass


class _SlowRooms:
    """``find`` answers when the test says, with what it says."""

    def __init__(self) -> None:
        self.answer: asyncio.Future[object] | None = None

    async def find(self, code: str) -> object:
        self.answer = asyncio.get_running_loop().create_future()
        return await self.answer


def _session_in(room: _FollowedRoom, rooms: _SlowRooms) -> tuple[Session, _Outlet]:
    outlet = _Outlet()
    session = Session(rooms, None, None, 64_000, outlet, Guard(Limits()))  # type: ignore[arg-type]
    session.room = room  # type: ignore[assignment]
    return session, outlet


@pytest.mark.parametrize("found", ["closed", "unreachable"])
def test_a_player_who_joins_another_room_while_theirs_moves_stays_in_the_new_one(found) -> None:
    """While a room moves, its connection follows it; a player who meanwhile joins another
    room is in that one: when the moved room then turns out closed (or cannot be reached),
    they are not told it closed, taken out of the room they are in, or cut off."""

    async def go() -> None:
        rooms = _SlowRooms()
        moved, other = _FollowedRoom("XXXX"), _FollowedRoom("YYYY")
        session, outlet = _session_in(moved, rooms)
        following = asyncio.ensure_future(session.room_moves("XXXX"))
        while rooms.answer is None:
            await asyncio.sleep(0)
        # What joining YYYY does (Session._enter): it stops following the room it was in.
        assert session.held is not None
        session.held.refuse()
        session.held, session.room = None, other  # type: ignore[assignment]
        if found == "closed":
            rooms.answer.set_result(None)
        else:
            rooms.answer.set_exception(RuleError("room.unknown", "gone"))
        await following
        assert session.room is other
        assert not any(b"room.closed" in frame for frame in outlet.frames)
        assert getattr(outlet, "closed_with", None) is None  # not cut off

    asyncio.run(go())
