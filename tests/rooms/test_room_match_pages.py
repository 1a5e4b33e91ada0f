"""A page for every finished match (issue 31), through a real room on a real SQLite store:
the room keeps the match's records (not its chat) as it ends, in the transaction that keeps
the match; its page is folded from them after the room has closed, shows what a spectator
saw, step by step, and hides the name of a player removed during it who asked."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))
sys.path.insert(0, str(Path(__file__).parent.parent / "protocol"))

import json_patch
from room_testing import Peer, run_with_manager
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.rooms.codes import is_match_id
from tertulia.rooms.config import RoomConfig
from tertulia.rooms.manager import ManagerConfig
from tertulia.rooms.match_page import match_page
from tertulia.rooms.records import Chatted, record_decoder

_ids = iter(range(1000, 10**6))


def _run(tmp_path, scenario):
    config = ManagerConfig(room=RoomConfig(drop_grace_seconds=0.1, vote_seconds=5))
    run_with_manager(tmp_path / "pages.sqlite3", scenario, config)


async def _until(condition, timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def _kept(store, public_id: str):
    for _ in range(150):  # kept in the background as the match ends
        kept = await store.load_match(public_id)
        if kept is not None:
            return kept
        await asyncio.sleep(0.02)
    raise AssertionError("the match was never kept")


async def _tiny_room(manager, names: str, public: bool = False):
    room = await manager.create(TINY, public=public)
    peers = {name: Peer(name) for name in names}
    for i, (name, peer) in enumerate(peers.items()):
        await room.attach(peer, name.upper(), i + 1)
    room.submit(peers[names[0]], p.UpdateSettings(id=next(_ids), settings={"target": 7}))
    return room, peers


async def _play_to_the_end(room, peers) -> None:
    while room.model.status.value == "playing":
        match = room.model.match
        turn = match.players[match.turn]
        room.submit(peers[turn], p.Chat(id=next(_ids), text="my turn!"))  # not allowed: theirs
        other = next(x for x in peers if x != turn and room.model.seat(x) is not None)
        room.submit(peers[other], p.Chat(id=next(_ids), text=f"go {turn}"))
        room.submit(peers[turn], p.Act(id=next(_ids), action={"type": "add", "amount": 3}))
        await _until(
            lambda m=match: room.model.match is not m or room.model.status.value != "playing"
        )
        await _until(lambda: not room.commits.ahead and not room.inbox.busy)


def test_a_finished_match_has_a_page_built_from_its_kept_records_after_its_room_closed(
    tmp_path,
):
    async def scenario(manager, store):
        room, peers = await _tiny_room(manager, "ab")
        room.submit(peers["a"], p.StartMatch(id=next(_ids)))
        await _until(lambda: room.model.status.value == "playing")
        page_id = room.model.match_page
        assert is_match_id(page_id)
        assert (
            json.loads(bytes(room.fanout.update_for(peers["b"], room.model, 0).room))["match_page"]
            is None
        )  # named once the match has ended (the page exists from then on)
        await _play_to_the_end(room, peers)
        held = room.fanout.update_for(peers["b"], room.model, room.version)
        assert json.loads(bytes(held.room))["match_page"] == page_id
        kept = await _kept(store, page_id)
        records = [record_decoder.decode(e.payload) for e in kept.entries]
        assert type(records[0]).__name__ == "MatchStarted"
        assert not any(isinstance(r, Chatted) for r in records)  # the chat is not kept
        assert records[-1].action == {"type": "add", "amount": 3}  # the one that ended it
        assert kept.match.ended_at == records[-1].at
        final_view = room.game.view(room.model.match, None)
        await manager.close(room, "idle")
        assert await store.load_live_room(room.code) is None
        built = await manager.match_page(page_id)
        assert built is not None
        body, public = built
        page = json.loads(body)
        assert public is False and page["public"] is False and page["id"] == page_id
        assert page["game"] == TINY and page["reason"] == "target"
        assert page["settings"] == {"target": 7, "turn_seconds": 30}
        assert page["duration"] == round(page["ended_at"] - page["started_at"], 3)
        assert {pl["id"] for pl in page["players"]} == {"a", "b"}
        assert page["recap"] == json.loads(json.dumps(final_view))
        # The replay: the spectator's view at the start, then a patch a step gives the end.
        view = page["replay"]["start"]
        assert view["counter"] == 0 and view["secret"] is None
        for step in page["replay"]["steps"]:
            view = json_patch.apply(view, step["view"])
            assert [e["kind"] for e in step["events"]] and step["t"] >= 0
        assert view == page["recap"]
        added = [e for s in page["replay"]["steps"] for e in s["events"]]
        assert sum(e["amount"] for e in added if e["kind"] == "tiny.added") == 9
        assert "my turn" not in body.decode() and "go a" not in body.decode()
        # A player's own list says it, with their result; the public list does not.
        (mine,) = await manager.matches_of("a")
        assert mine["id"] == page_id and mine["game"] == TINY and "room" not in mine
        assert mine["you"]["place"] in (1, 2) and isinstance(mine["you"]["winner"], bool)
        assert await manager.recent_matches() == []
        assert await manager.match_page("x" * 16) is None

    _run(tmp_path, scenario)


def test_a_player_removed_during_the_match_who_asked_appears_on_its_page_by_no_name(tmp_path):
    async def scenario(manager, store):
        room, peers = await _tiny_room(manager, "abc", public=True)
        room.submit(peers["c"], p.HideName(id=next(_ids), hide=True))
        room.submit(peers["b"], p.HideName(id=next(_ids), hide=True))  # (never removed)
        room.submit(peers["a"], p.StartMatch(id=next(_ids)))
        await _until(lambda: room.model.status.value == "playing")
        page_id = room.model.match_page
        room.submit(peers["a"], p.VoteRemove(id=next(_ids), player="c", reason="offensive"))
        room.submit(peers["b"], p.CastVote(id=next(_ids), yes=True))
        await _until(lambda: room.model.seat("c") is None)  # two left: tiny ends
        kept = await _kept(store, page_id)
        assert kept.match.extra["hidden"] == ["c"]
        players = {pl["id"]: pl for pl in kept.match.players}
        assert players["c"]["name"] is None and players["c"]["hidden"] is True
        assert players["b"]["name"] == "B" and players["b"]["hidden"] is False
        body = json.dumps(match_page(kept, manager.games))
        assert '"C"' not in body  # their nickname is nowhere: a placeholder in the views
        page = json.loads(body)
        assert {pl["id"]: pl["name"] for pl in page["players"]}["c"] is None
        seats = {s["id"]: s["nickname"] for s in page["replay"]["start"]["players"]}
        assert seats["c"] == "?1" and seats["b"] == "B"
        assert not any(
            e["kind"].startswith("removal.") for s in page["replay"]["steps"] for e in s["events"]
        )
        (listed,) = await manager.recent_matches()
        assert listed["id"] == page_id and listed["players"][0]["hidden"] in (True, False)
        assert {pl["id"]: pl["name"] for pl in listed["players"]}["c"] is None

    _run(tmp_path, scenario)
