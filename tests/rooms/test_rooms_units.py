"""Room codes, identity, rate limits and the room fold, without a network."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia.games.base import RuleError
from tertulia.rooms import model, views
from tertulia.rooms.codes import ALPHABET, new_code, normalize_code
from tertulia.rooms.identity import Identity
from tertulia.rooms.limits import TokenBucket
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.store import SQLiteStore


def test_codes_have_4_to_6_characters_without_ambiguous_ones():
    for confusing in "0O1IL2Z5S8BUV":
        assert confusing not in ALPHABET
    for length in (4, 5, 6):
        code = new_code(length)
        assert len(code) == length and set(code) <= set(ALPHABET)
    with pytest.raises(ValueError):
        new_code(3)


@pytest.mark.parametrize(("text", "code"), [(" kf7 qx ", "KF7QX"), ("kf7o", None), ("ab", None)])
def test_codes_are_read_forgivingly(text, code):
    assert normalize_code(text) == code


def test_public_id_is_stable_per_token_and_reveals_nothing(tmp_path):
    identity = Identity.from_file(tmp_path / "key")
    token = Identity.new_token()
    assert identity.player_id(token) == Identity.from_file(tmp_path / "key").player_id(token)
    assert identity.player_id(token) != identity.player_id(Identity.new_token())
    assert identity.player_id(token) not in token
    other_server = Identity(b"another key, 32 bytes long......")
    assert other_server.player_id(token) != identity.player_id(token)
    assert not Identity.is_token("short") and Identity.is_token(token)


def test_token_bucket_allows_a_burst_then_the_rate():
    now = [0.0]
    bucket = TokenBucket(capacity=3, rate=1, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert bucket.take() and not bucket.take()


def _room():
    return model.new_room("ABCD", False, TINY, games_with_tiny())


def test_a_refused_record_changes_nothing():
    room = _room()
    model.fold(room, model.Joined(at=1, player="a", nickname="Ana"))
    model.fold(room, model.Joined(at=2, player="b", nickname="Bo"))
    before = views.lobby_view(room)
    for record in [
        model.SettingsChanged(at=3, by="b", settings={"target": 20}),  # not the host
        model.SettingsChanged(at=3, by="a", settings={"target": 1}),  # out of bounds
        model.Reordered(at=3, by="a", order=["a"]),
        model.Joined(at=3, player="c", nickname="ana"),  # nickname taken
        model.GameMove(at=3, seat="a", action={"type": "add", "amount": 1}),  # no match
        model.Kicked(at=3, by="a", player="a"),
    ]:
        with pytest.raises(RuleError):
            model.fold(room, record)
        assert views.lobby_view(room) == before


@given(
    st.lists(
        st.sampled_from(["join", "add", "chat", "drop", "back", "settings", "leave"]), max_size=30
    )
)
def test_replaying_the_records_rebuilds_the_same_room(steps):
    """Live folding and replay are one code path: accepted records, refolded, give the same room."""
    room, accepted = _room(), []
    people = ["a", "b", "c"]
    for i, step in enumerate(steps):
        who = people[i % 3]
        record = {
            "join": model.Joined(at=i, player=who, nickname=who.upper()),
            "add": model.GameMove(at=i, seat=who, action={"type": "add", "amount": 1 + i % 3}),
            "chat": model.Chatted(at=i, player=who, text=f"hi {i}"),
            "drop": model.Presence(at=i, player=who, online=False),
            "back": model.Presence(at=i, player=who, online=True),
            "settings": model.SettingsChanged(at=i, by=who, settings={"target": 5}),
            "leave": model.Left(at=i, player=who),
        }[step]
        if step == "add" and room.status is model.Status.LOBBY and len(room.players()) >= 2:
            record = model.MatchStarted(at=i, by=room.host or who, seed=i)
        try:
            model.fold(room, record)
            accepted.append(model.record_encoder.encode(record))
        except RuleError:
            pass
    again = _room()
    for raw in accepted:
        model.fold(again, model.record_decoder.decode(raw))
    assert views.lobby_view(again) == views.lobby_view(room)
    assert list(again.chat) == list(room.chat)
    assert [views.game_view(again, p) for p in people] == [views.game_view(room, p) for p in people]


def test_idle_rooms_are_closed_after_the_configured_time(tmp_path):
    async def go():
        now = [1000.0]
        store = SQLiteStore(tmp_path / "idle.sqlite3")
        manager = RoomManager(
            store, games_with_tiny(), ManagerConfig(idle_seconds=60), clock=lambda: now[0]
        )
        await manager.start()
        room = await manager.create(TINY, public=True)
        assert await manager.close_idle() == []
        now[0] += 61
        assert await manager.close_idle() == [room.code]
        assert manager.get(room.code) is None and await store.load_live_rooms() == []
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_someone_who_joins_during_the_podium_waits_as_a_spectator_and_may_leave():
    room = _room()
    for at, (player, name) in enumerate([("a", "Ana"), ("b", "Bo")]):
        model.fold(room, model.Joined(at=at, player=player, nickname=name))
    model.fold(room, model.MatchStarted(at=3, by="a", seed=1))
    while room.status is model.Status.PLAYING:
        turn = views.game_view(room, "a")["turn"]
        model.fold(room, model.GameMove(at=4, seat=turn, action={"type": "add", "amount": 3}))
    model.fold(room, model.Joined(at=5, player="c", nickname="Cy"))
    assert room.seat("c").spectator
    model.fold(room, model.Left(at=6, player="c"))  # no game to tell: the match is over
    model.fold(room, model.Joined(at=7, player="d", nickname="Di"))
    model.fold(room, model.Rematched(at=8, by="a"))
    assert not room.seat("d").spectator  # promoted for the rematch


def test_a_room_whose_saves_and_rebuild_fail_refuses_every_change(tmp_path):
    """Memory must never run ahead of the log: with the store gone, nothing is accepted."""
    from tertulia.protocol import Chat, ChatLine, Error
    from tertulia.rooms.limits import TokenBucket

    class Peer:
        def __init__(self, player):
            self.player, self.chat_bucket, self.sent_blobs = player, TokenBucket(9, 9), set()
            self.got = []

        def send(self, message):
            self.got.append(message)

    async def go():
        store = SQLiteStore(tmp_path / "gone.sqlite3")
        manager = RoomManager(store, games_with_tiny())
        await manager.start()
        room = await manager.create(TINY, public=False)
        ana = Peer("a")
        await room.attach(ana, "Ana", 1)
        await store.close()  # the disk goes away
        for message_id in (2, 3):
            room.submit(ana, Chat(id=message_id, text="hello"))
            await asyncio.sleep(0.05)
        errors = [m for m in ana.got if isinstance(m, Error)]
        assert [e.code for e in errors] == ["server.store", "server.store"]
        assert room.broken and not any(isinstance(m, ChatLine) for m in ana.got)
        with pytest.raises(RuleError) as refused:  # nobody gets to see the unsaved state
            await room.attach(Peer("b"), "Bo", 4)
        assert refused.value.code == "server.store"
        await manager.shutdown()

    asyncio.run(go())
