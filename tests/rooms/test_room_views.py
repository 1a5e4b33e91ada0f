"""Every push leads to the view a fresh build would give, whatever the room skipped building.

A room rebuilds only the views an action can change (a Pitacor marker selection changes its
owner's view alone; ``views_changed_by``), and after a connection's first whole picture sends
it patches. Each connection here holds its picture as a browser does (the patches applied).
These properties drive a real Pitacor room on a real store through random marker moves,
confirmations, chat, second tabs, drops and returns, and saves that fail, and after each step
compare what every connection holds with a view built from scratch.
"""

from __future__ import annotations

import asyncio

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tertulia import patches, protocol
from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.protocol import (
    Ack,
    Act,
    Chat,
    Error,
    RoomPatch,
    RoomUpdate,
    StartMatch,
    UpdateSettings,
)
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.views import game_view
from tertulia.store import CommitFailed
from tertulia.store.sqlite import SQLiteStore

ROWS = "ABCDEFGHIJKLMNOP"


class _Peer:
    """A connection as a room sees it: it keeps what it is sent, and holds the picture as the
    browser does — the last whole ``room`` push with every ``patch`` since applied to it."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.got: list = []
        self.version: int | None = None
        self.picture: dict = {}

    def send(self, message) -> None:
        self.got.append(message)
        if isinstance(message, RoomUpdate):
            self.version = message.version
            self.picture = {"room": _as_json(message.room), "view": _as_json(message.view)}
        elif isinstance(message, RoomPatch):
            assert message.base == self.version, "a patch that does not fit what it holds"
            self.version = message.version
            self.picture = {
                "room": patches.apply(self.picture["room"], _as_json(message.room)),
                "view": patches.apply(self.picture["view"], _as_json(message.view)),
            }

    def view(self):
        """The game view this connection holds now."""
        return self.picture["view"]


def _last_update(peer: _Peer) -> RoomUpdate | RoomPatch:
    return next(m for m in reversed(peer.got) if isinstance(m, (RoomUpdate, RoomPatch)))


def _as_json(value):
    if isinstance(value, msgspec.Raw):
        return msgspec.json.decode(value)
    return msgspec.json.decode(msgspec.json.encode(value))


_ids = iter(range(1000, 10**9))


async def _ask(room, peer: _Peer, message) -> Ack | Error:
    room.submit(peer, message)
    for _ in range(500):
        for m in peer.got:
            if isinstance(m, (Ack, Error)) and m.re == message.id:
                return m
        await asyncio.sleep(0.01)
    raise AssertionError(f"no answer to {message!r}")


async def _pitacor_room(store: SQLiteStore, players: int):
    manager = RoomManager(store, GAMES)
    await manager.start()
    room = await manager.create("pitacor", public=False)
    peers = [_Peer(f"p{i}") for i in range(players)]
    for i, peer in enumerate(peers):
        await room.attach(peer, f"P{i}", next(_ids))
    host = peers[0]
    settings = {"guess_seconds": 0, "clue_seconds": 0}
    assert isinstance(await _ask(room, host, UpdateSettings(next(_ids), settings=settings)), Ack)
    assert isinstance(await _ask(room, host, StartMatch(next(_ids))), Ack)
    giver = next(p for p in peers if p.player == room.model.match.round.giver)
    choose = Act(next(_ids), action={"type": "choose_target", "index": 0})
    assert isinstance(await _ask(room, giver, choose), Ack)
    clue = Act(next(_ids), action={"type": "give_clue", "text": "ocean"})
    assert isinstance(await _ask(room, giver, clue), Ack)
    return manager, room, peers


def _fail_next_save(store: SQLiteStore) -> None:
    """The next append fails as a full disk would; the one after works again."""
    real = store.start_append

    def failing(code, entries, on_durable=None):
        store.start_append = real
        error = CommitFailed("disk full (simulated)")
        loop = asyncio.get_running_loop()
        failed = loop.create_future()
        failed.set_exception(error)
        if on_durable is not None:
            loop.call_soon(on_durable, error)
        return failed

    store.start_append = failing


steps = st.lists(
    st.tuples(
        st.sampled_from(["select", "select", "select", "confirm", "chat", "tab", "drop", "fail"]),
        st.integers(min_value=0, max_value=9),
        st.sampled_from(ROWS),
        st.integers(min_value=1, max_value=30),
    ),
    min_size=5,
    max_size=30,
)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(players=st.integers(min_value=3, max_value=6), script=steps)
def test_every_connection_holds_the_view_a_fresh_build_would_give(
    tmp_path_factory, players, script
):
    """Skipping the views a move cannot change must never leave a seat with a stale one, nor
    show anyone what is not theirs: after every step, each connection's last view equals its
    seat's view built from scratch."""

    async def go() -> None:
        store = SQLiteStore(tmp_path_factory.mktemp("views") / "views.sqlite3")
        manager, room, peers = await _pitacor_room(store, players)
        try:
            for kind, who, row, col in script:
                peer = peers[who % len(peers)]
                if kind in ("select", "fail"):
                    if kind == "fail":
                        _fail_next_save(store)
                    action = {"type": "select_cell", "cell": f"{row}{col}"}
                    await _ask(room, peer, Act(next(_ids), action=action))
                elif kind == "confirm":
                    await _ask(room, peer, Act(next(_ids), action={"type": "confirm"}))
                elif kind == "chat":
                    await _ask(room, peer, Chat(next(_ids), text="hi"))
                elif kind == "tab":  # the same player in another tab (up to the cap)
                    tab = _Peer(peer.player)
                    try:
                        await room.attach(tab, "again", next(_ids))
                    except RuleError as refused:
                        assert refused.code == "room.too_many_tabs"
                    else:
                        peers.append(tab)
                elif kind == "drop" and len(peers) > 1:  # one connection goes away
                    peers.remove(peer)
                    room.detach(peer)
                await asyncio.sleep(0)
                for each in peers:
                    fresh = _as_json(game_view(room.model, each.player))
                    assert each.view() == fresh, (kind, each.player)
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())


def test_a_selection_rebuilds_only_its_owners_view_and_the_others_patch_leaves_theirs(tmp_path):
    """The saving itself: after a marker selection, every other connection's patch says
    nothing of its view (it was not rebuilt), and the owner's carries the new selection."""

    async def go() -> None:
        store = SQLiteStore(tmp_path / "same.sqlite3")
        manager, room, peers = await _pitacor_room(store, 4)
        try:
            guesser = next(p for p in peers if p.player != room.model.match.round.giver)
            action = {"type": "select_cell", "cell": "C7"}
            assert isinstance(await _ask(room, guesser, Act(next(_ids), action=action)), Ack)
            for peer in peers:
                patch = _last_update(peer)
                assert isinstance(patch, RoomPatch)
                ops = _as_json(patch.view)
                if peer is guesser:
                    assert {"op": "replace", "path": "/selection", "value": "C7"} in ops
                    assert peer.view()["selection"] == "C7"
                else:
                    assert ops == []
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())


def test_seats_that_would_get_the_same_frame_share_its_bytes_and_nobody_gets_anothers(tmp_path):
    """What a client notices of the shared frames: after a marker selection, every connection
    gets exactly the patch that turns its previous picture into its new one; the connections
    whose frame is the same (the seats the move left as they were, two shared screens) get
    the same bytes, encoded once; and the unconfirmed selection, which its owner alone may
    see, is in no other connection's frame."""

    async def go() -> None:
        store = SQLiteStore(tmp_path / "shared.sqlite3")
        manager, room, peers = await _pitacor_room(store, 5)
        try:
            screens = [_Peer(f"screen-{i}") for i in range(2)]
            for screen in screens:
                await room.attach(screen, "", next(_ids), screen=True)
            rnd = room.model.match.round
            guesser = next(p for p in peers if p.player != rnd.giver)
            cell = next(  # a cell no one else may see for another reason (the giver's cards)
                f"{row}{col}"
                for row in ROWS
                for col in range(1, 31)
                if f"{row}{col}" not in rnd.candidates
            )
            before = {id(peer): peer.view() for peer in peers + screens}
            sent = {id(peer): len(peer.got) for peer in peers + screens}
            action = {"type": "select_cell", "cell": cell}
            assert isinstance(await _ask(room, guesser, Act(next(_ids), action=action)), Ack)

            frames = {}
            for peer in peers + screens:
                (frame,) = [m for m in peer.got[sent[id(peer)] :] if isinstance(m, RoomPatch)]
                frames[id(peer)] = frame
                patched = patches.apply(before[id(peer)], _as_json(frame.view))
                assert patched == _as_json(game_view(room.model, peer.player)) == peer.view()
            others = [p for p in peers + screens if p is not guesser]
            encoded = {protocol.encode(frames[id(p)]) for p in others}
            assert len(encoded) == 1, "the seats the move left as they were: one frame"
            assert len({id(frames[id(p)]) for p in others}) == 1, "one message, encoded once"
            assert protocol.encode(frames[id(guesser)]) not in encoded
            assert f'"{cell}"'.encode() in protocol.encode(frames[id(guesser)])
            for peer in others:
                assert f'"{cell}"'.encode() not in protocol.encode(frames[id(peer)])
                assert peer.view()["selection"] is None
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())


def test_a_chat_line_does_not_make_the_next_selection_rebuild_every_view(tmp_path, monkeypatch):
    """A chat line is in no view: the marker selection after it still rebuilds its owner's
    view alone (it rebuilt all of them, and diffed each, after every chat line)."""
    from tertulia.rooms import fanout

    async def go() -> None:
        store = SQLiteStore(tmp_path / "chat.sqlite3")
        manager, room, peers = await _pitacor_room(store, 5)
        try:
            guesser = next(p for p in peers if p.player != room.model.match.round.giver)
            assert isinstance(await _ask(room, guesser, Chat(next(_ids), text="hi")), Ack)
            built: list[list[str]] = []
            real = fanout.game_views
            monkeypatch.setattr(
                fanout,
                "game_views",
                lambda model, players: built.append(players) or real(model, players),
            )
            action = {"type": "select_cell", "cell": "C7"}
            assert isinstance(await _ask(room, guesser, Act(next(_ids), action=action)), Ack)
            assert built == [[guesser.player]]
            for peer in peers:
                assert peer.view() == _as_json(game_view(room.model, peer.player))
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())
