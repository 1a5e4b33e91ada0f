"""Issue 17 point 15 under old logs: "a changed draw changes what an old seed draws: the draw
change must apply to new matches only ... so existing logs replay the same". The room logs the
game's VERSION with the start; a start record from before versions (none) replays the old
draw. Played here with a made-up deck whose every seventh tile is a connector."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from tertulia import protocol as p
from tertulia.games import GAMES
from tertulia.games.base import Player
from tertulia.games.haiclue import VERSION, decks, rules
from tertulia.games.haiclue.settings import Settings
from tertulia.rooms import model, records, room_data
from tertulia.rooms.commands import record_for
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.replay import replay
from tertulia.store.sqlite import SQLiteStore

DECK = tuple(decks.Tile(i, f"white{i}", f"black{i}", connector=i % 7 == 0) for i in range(216))


@pytest.fixture(autouse=True, scope="module")
def deck_with_connectors():
    before = decks.load
    decks.load = lambda language: DECK  # type: ignore[assignment]
    yield
    decks.load = before


def _connector_targets(state) -> list[int]:
    return [t for stack in state.stacks for t in stack if DECK[t].connector]


def _room_started(record: records.MatchStarted) -> room_data.RoomModel:
    room = room_data.new_room("ABCD", False, "haiclue", GAMES)
    for player in ("p0", "p1", "p2", "p3"):
        model.fold(room, records.Joined(at=1.0, player=player, nickname=player.upper()))
    model.fold(room, record)
    return room


def _old_seed() -> int:
    """A seed whose old draw put a connector on a stack."""
    players = [Player(f"p{i}", f"P{i}") for i in range(4)]
    return next(
        seed
        for seed in range(500)
        if _connector_targets(rules.start(Settings(), players, seed, 0.0, version=0))
    )


def test_an_old_start_record_without_a_version_replays_the_old_draw():
    seed = _old_seed()
    old = b'{"k":"started","at":2.0,"by":"p0","seed":%d}' % seed
    room = _room_started(records.record_decoder.decode(old))
    assert room.match.version == 0 and _connector_targets(room.match)


def test_a_new_start_record_carries_the_version_and_keeps_connectors_off_the_stacks():
    seed = _old_seed()
    record = record_for(p.StartMatch(id=1), "p0", 2.0, game_version=VERSION)
    record = msgspec.structs.replace(record, seed=seed)
    again = records.record_decoder.decode(records.record_encoder.encode(record))
    assert again.version == VERSION
    room = _room_started(again)
    assert room.match.version == VERSION and not _connector_targets(room.match)


class _Peer:
    def __init__(self, player: str) -> None:
        self.player = player
        self.got: list = []

    def send(self, message) -> None:
        self.got.append(message)


async def _ask(room, peer: _Peer, message) -> None:
    room.submit(peer, message)
    for _ in range(500):
        answer = next((m for m in peer.got if getattr(m, "re", None) == message.id), None)
        if answer is not None:
            assert isinstance(answer, p.Ack), answer
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no answer to {message!r}")


def test_a_live_room_logs_the_games_version_and_a_draft_replays(tmp_path):
    """The live path: the start record a real room saves names Haiclue's VERSION, and the
    saved log (drafts and all) replays to the very match the room holds."""

    async def go() -> None:
        store = SQLiteStore(tmp_path / "rooms.sqlite3")
        manager = RoomManager(store, GAMES)
        await manager.start()
        try:
            room = await manager.create("haiclue", public=False)
            peers = [_Peer(f"p{i}") for i in range(3)]
            for i, peer in enumerate(peers):
                await room.attach(peer, f"P{i}", 100 + i)
            await _ask(room, peers[0], p.StartMatch(id=200))
            words = rules_words(room, peers[1].player)[:3]
            act = {"type": "submit_clue", "words": words, "draft": True}
            await _ask(room, peers[1], p.Act(id=201, action=act))
            (live,) = await store.load_live_rooms()
            saved = [records.record_decoder.decode(e.payload) for e in live.entries]
            started = next(r for r in saved if isinstance(r, records.MatchStarted))
            assert started.version == VERSION
            rebuilt, _ = replay(live, manager.games)
            assert rebuilt.match == room.model.match
            assert rebuilt.match.drafts[peers[1].player] and not _connector_targets(rebuilt.match)
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())


def rules_words(room, seat: str) -> list[str]:
    state = room.model.match
    return [DECK[t].word(state.side.value) for t in state.racks[seat]]
