"""Votes to remove a player (issue 31), through a real room on a real SQLite store: a
majority removes, a tie or the clock keeps, one vote at a time with cooldowns, the host, the
voter's and the target's drop or departure during the vote, a removed player's identity and
address kept out, a removal in a match being the game's leave — and every step a record, so
the log replays to the very room."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import msgspec
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from room_testing import Peer, run_with_manager
from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia import protocol as p
from tertulia.games.base import RuleError
from tertulia.rooms import votes
from tertulia.rooms.config import RoomConfig
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.rooms.records import VoteClosed, VoteStarted, record_decoder
from tertulia.rooms.replay import replay
from tertulia.rooms.room_data import Vote
from tertulia.store.sqlite import SQLiteStore

VOTE, DROP = 5.0, 0.1  # a vote's clock; the test of the clock itself runs a short one
SHORT_VOTE = 0.6


class AddressedPeer(Peer):
    """A connection from a client address (the session's limit key)."""

    def __init__(self, player: str, address: str) -> None:
        super().__init__(player)
        self.address = address


def _run(tmp_path, scenario, vote: float = VOTE, **room):
    config = ManagerConfig(room=RoomConfig(vote_seconds=vote, drop_grace_seconds=DROP, **room))
    run_with_manager(tmp_path / "votes.sqlite3", scenario, config)


async def _until(condition, timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def _room(manager, names: str, game: str = "pitacor", public: bool = True):
    """A room of ``game`` with a player per letter of ``names`` (the first hosts), each
    connected from an address of their own."""
    room = await manager.create(game, public=public)
    peers = {name: AddressedPeer(name, f"10.0.0.{i}") for i, name in enumerate(names, 1)}
    for i, (name, peer) in enumerate(peers.items()):
        await room.attach(peer, name.upper(), i + 1)
    return room, peers


_ids = iter(range(1000, 10**6))


async def _ask(room, peer, message_type, **fields):
    """Send a message and wait for its answer: None for an ack, the error's code else."""
    message = message_type(id=next(_ids), **fields)
    room.submit(peer, message)
    await _until(lambda: any(getattr(m, "re", None) == message.id for m in peer.answers()))
    answer = next(m for m in peer.answers() if m.re == message.id)
    return answer.code if isinstance(answer, p.Error) else None


async def _settled(room) -> None:
    """Every change folded so far is saved and told."""
    await _until(lambda: not room.commits.ahead and not room.inbox.busy)


async def _replays_to_the_room(room, store, manager) -> None:
    await _settled(room)
    live = await store.load_live_room(room.code, snapshot=False)
    assert replay(live, manager.games)[0] == room.model


def _events(peer, kind: str) -> list[dict]:
    found = []
    for message in peer.got:
        events = getattr(message, "events", None)
        if events is None:
            continue
        decoded = events if isinstance(events, list) else json.loads(bytes(events))
        found += [e for e in decoded if e["kind"] == kind]
    return found


def test_a_majority_of_the_others_removes_the_player_who_is_told_and_kept_out(tmp_path):
    """ "the seated players other than the two decide by majority": three voters, two yes."""

    async def scenario(manager, store):
        room, peers = await _room(manager, "abcde")
        assert await _ask(room, peers["b"], p.VoteRemove, player="c", reason="spoiling") is None
        vote = room.model.votes.running
        assert (vote.by, vote.player, vote.voters) == ("b", "c", ["a", "d", "e"])
        assert await _ask(room, peers["c"], p.CastVote, yes=False) == "removal.not_voter"
        assert await _ask(room, peers["b"], p.CastVote, yes=True) == "removal.not_voter"
        assert await _ask(room, peers["a"], p.CastVote, yes=True) is None
        assert await _ask(room, peers["a"], p.CastVote, yes=True) == "removal.already_voted"
        assert room.model.seat("c") is not None  # one of three is no majority
        assert await _ask(room, peers["d"], p.CastVote, yes=True) is None
        await _until(lambda: room.model.seat("c") is None)
        assert room.model.votes.running is None
        # The seat goes at the fold; the notice once the removal is saved (persist, then tell).
        await _until(lambda: any(isinstance(m, p.Notice) for m in peers["c"].got))
        notice = next(m for m in peers["c"].got if isinstance(m, p.Notice))
        assert notice.code == "room.voted_out" and notice.params == {"minutes": 60}
        await _settled(room)
        (ended,) = _events(peers["a"], "removal.ended")
        assert ended["result"] == "removed" and (ended["yes"], ended["no"]) == (2, 0)
        # Their browser may not come back, nor anyone new from their address; others may.
        again = AddressedPeer("c", "10.0.9.9")
        with pytest.raises(RuleError) as refused:
            await room.attach(again, "C", 90)
        assert refused.value.code == "room.voted_out" and refused.value.params["minutes"] == 60
        with pytest.raises(RuleError) as refused:
            await room.attach(AddressedPeer("c2", "10.0.0.3"), "C2", 91)
        assert refused.value.code == "room.voted_out" and refused.value.params["minutes"] == 15
        await room.attach(AddressedPeer("f", "10.0.0.6"), "F", 92)
        await _replays_to_the_room(room, store, manager)

    _run(tmp_path, scenario)


def test_a_tie_keeps_the_player_and_the_vote_ends_as_soon_as_it_is_one(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "abcdef")
        assert await _ask(room, peers["a"], p.VoteRemove, player="b", reason="away") is None
        assert room.model.votes.running.voters == ["c", "d", "e", "f"]
        for voter, yes in (("c", True), ("d", False), ("e", True)):
            assert await _ask(room, peers[voter], p.CastVote, yes=yes) is None
        assert room.model.votes.running is not None  # f may still decide
        assert await _ask(room, peers["f"], p.CastVote, yes=False) is None
        await _until(lambda: room.model.votes.running is None)
        assert room.model.seat("b") is not None
        await _settled(room)
        (ended,) = _events(peers["b"], "removal.ended")
        assert (ended["result"], ended["yes"], ended["no"]) == ("kept", 2, 2)
        await _replays_to_the_room(room, store, manager)

    _run(tmp_path, scenario)


def test_the_clock_keeps_a_player_no_majority_removed_in_time(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "abcde")
        assert await _ask(room, peers["a"], p.VoteRemove, player="b", reason="offensive") is None
        assert await _ask(room, peers["c"], p.CastVote, yes=True) is None
        started = room.model.votes.running
        await _until(lambda: room.model.votes.running is None, timeout=SHORT_VOTE * 6)
        assert room.model.seat("b") is not None
        await _settled(room)
        (ended,) = _events(peers["a"], "removal.ended")
        assert (ended["result"], ended["yes"], ended["no"]) == ("kept", 1, 0)
        live = await store.load_live_room(room.code, snapshot=False)
        records = [record_decoder.decode(e.payload) for e in live.entries]
        (start,) = [r for r in records if isinstance(r, VoteStarted)]
        assert start.seconds == SHORT_VOTE and started.deadline == start.at + SHORT_VOTE
        closed = records[-1]
        assert isinstance(closed, VoteClosed) and closed.at >= started.deadline
        await _replays_to_the_room(room, store, manager)

    _run(tmp_path, scenario, vote=SHORT_VOTE)


def test_one_vote_at_a_time_a_cooldown_per_starter_and_no_vote_back_at_the_starter(tmp_path):
    """One at a time; the starter waits after their vote; a player a vote just kept is not
    voted on again at once; and its target may not turn a vote on its starter (no vote
    against the host during, nor straight after, a vote the host started)."""

    async def scenario(manager, store):
        room, peers = await _room(manager, "abcde")
        assert await _ask(room, peers["a"], p.VoteRemove, player="b", reason="spoiling") is None
        assert await _ask(room, peers["b"], p.VoteRemove, player="a", reason="spoiling") == (
            "removal.running"
        )
        assert await _ask(room, peers["c"], p.VoteRemove, player="d", reason="away") == (
            "removal.running"
        )
        for voter in "cd":
            assert await _ask(room, peers[voter], p.CastVote, yes=False) is None
        await _until(lambda: room.model.votes.running is None)
        for starter, target, code in (
            ("a", "c", "removal.cooldown"),
            ("c", "b", "removal.recently_kept"),
            ("b", "a", "removal.retaliation"),
        ):
            message = p.VoteRemove(id=next(_ids), player=target, reason="away")
            room.submit(peers[starter], message)
            await _until(lambda m=message, s=starter: any(a.re == m.id for a in peers[s].answers()))
            error = next(a for a in peers[starter].answers() if a.re == message.id)
            assert error.code == code and 1 <= error.params["seconds"] <= 120
        assert await _ask(room, peers["b"], p.VoteRemove, player="c", reason="away") is None

    _run(tmp_path, scenario)


def test_who_may_start_a_vote_against_whom_and_why(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "abc", public=False)
        assert await _ask(room, peers["b"], p.VoteRemove, player="c", reason="away") == (
            "removal.not_allowed"
        )
        assert await _ask(room, peers["b"], p.AllowVotes, allow=True) == "room.host_only"
        assert await _ask(room, peers["a"], p.AllowVotes, allow=True) is None
        assert room.model.votes.allowed
        for target, reason, code in (
            ("b", "away", "removal.bad_target"),
            ("nobody", "away", "removal.bad_target"),
            ("c", "ugly", "removal.reason"),
        ):
            assert await _ask(room, peers["b"], p.VoteRemove, player=target, reason=reason) == (
                code
            )
        room.submit(peers["a"], p.AddBot(id=51))
        await _until(lambda: any(s.bot for s in room.model.seats))
        bot = next(s.player for s in room.model.seats if s.bot)
        assert await _ask(room, peers["b"], p.VoteRemove, player=bot, reason="away") == (
            "removal.bad_target"
        )
        # A computer player never decides: two people, a bot and the target, nobody.
        room.submit(peers["c"], p.LeaveRoom(id=next(_ids)))
        await _until(lambda: room.model.seat("c") is None)
        assert await _ask(room, peers["b"], p.VoteRemove, player="a", reason="away") == (
            "removal.too_few"
        )

    _run(tmp_path, scenario)


def test_two_players_and_a_target_leave_nobody_to_decide_and_spectators_do_not_vote(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "abcd", game=TINY)  # three players, d watches
        assert room.model.seat("d").spectator
        assert await _ask(room, peers["d"], p.VoteRemove, player="a", reason="away") == (
            "removal.not_a_player"
        )
        assert await _ask(room, peers["a"], p.VoteRemove, player="d", reason="spoiling") is None
        assert room.model.votes.running.voters == ["b", "c"]  # the spectator is no voter
        assert await _ask(room, peers["d"], p.CastVote, yes=False) == "removal.not_voter"
        room.submit(peers["c"], p.LeaveRoom(id=next(_ids)))
        room.submit(peers["b"], p.LeaveRoom(id=next(_ids)))
        await _until(lambda: room.model.votes.running is None)  # struck off: nobody decides
        assert room.model.seat("d") is not None
        assert await _ask(room, peers["a"], p.CastVote, yes=True) == "removal.none"
        room.model.votes.starters.clear()  # (past the cooldowns)
        room.model.votes.kept.clear()
        assert await _ask(room, peers["a"], p.VoteRemove, player="d", reason="away") == (
            "removal.too_few"
        )

    _run(tmp_path, scenario)


def test_a_vote_against_the_host_stops_their_kick_and_removes_them_like_anyone(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "abcd")
        assert await _ask(room, peers["b"], p.VoteRemove, player="a", reason="spoiling") is None
        assert await _ask(room, peers["a"], p.Kick, player="b") == "room.kick_during_vote"
        assert await _ask(room, peers["a"], p.Kick, player="c") == "room.kick_during_vote"
        for voter in "cd":
            assert await _ask(room, peers[voter], p.CastVote, yes=True) is None
        await _until(lambda: room.model.seat("a") is None)
        assert room.model.host == "b"  # hosting passes on as when a host leaves
        assert await _ask(room, peers["b"], p.Kick, player="c") is None  # the new host may

    _run(tmp_path, scenario)


def test_the_voters_and_the_targets_drop_or_departure_during_the_vote(tmp_path):
    """A voter who drops stays a voter (they may be back in time), one who leaves is struck
    off with their ballot; a target who drops is still voted on (and may not come back once
    removed); one who leaves ends the vote, and nobody is barred then."""

    async def scenario(manager, store):
        room, peers = await _room(manager, "abcdef")
        assert await _ask(room, peers["a"], p.VoteRemove, player="b", reason="away") is None
        room.detach(peers["c"])  # a voter drops
        await _until(lambda: not room.model.seat("c").online, timeout=DROP * 20)
        assert "c" in room.model.votes.running.voters
        assert await _ask(room, peers["d"], p.CastVote, yes=True) is None
        assert await _ask(room, peers["e"], p.CastVote, yes=True) is None
        assert room.model.seat("b") is not None  # 2 of 4
        room.submit(peers["f"], p.LeaveRoom(id=next(_ids)))  # a voter leaves: 2 of 3
        await _until(lambda: room.model.seat("b") is None)
        await _settled(room)
        (ended,) = _events(peers["a"], "removal.ended")
        assert (ended["result"], ended["voters"]) == ("removed", 3)

        room2, peers2 = await _room(manager, "abcde")
        assert await _ask(room2, peers2["a"], p.VoteRemove, player="b", reason="away") is None
        room2.detach(peers2["b"])  # the target drops: the vote goes on
        await _until(lambda: not room2.model.seat("b").online, timeout=DROP * 20)
        for voter in "cd":
            assert await _ask(room2, peers2[voter], p.CastVote, yes=True) is None
        await _until(lambda: room2.model.seat("b") is None)
        with pytest.raises(RuleError) as refused:
            await room2.attach(AddressedPeer("b", "10.0.7.7"), "B", 60, resume=True)
        assert refused.value.code == "room.no_seat"
        with pytest.raises(RuleError) as refused:
            await room2.attach(AddressedPeer("b", "10.0.7.7"), "B", 61)
        assert refused.value.code == "room.voted_out"

        room3, peers3 = await _room(manager, "abcd")
        assert await _ask(room3, peers3["c"], p.VoteRemove, player="b", reason="away") is None
        room3.submit(peers3["b"], p.LeaveRoom(id=next(_ids)))  # the target leaves
        await _until(lambda: room3.model.votes.running is None)
        await _settled(room3)
        (ended,) = _events(peers3["a"], "removal.ended")
        assert ended["result"] == "gone"
        await room3.attach(AddressedPeer("b", "10.0.0.2"), "B", 62)  # not barred
        room3.submit(peers3["c"], p.LeaveRoom(id=next(_ids)))  # the starter leaving: nothing
        for each in (room, room2, room3):
            await _replays_to_the_room(each, store, manager)

    _run(tmp_path, scenario)


def test_a_player_removed_in_a_match_leaves_it_as_the_game_has_a_leave_do(tmp_path):
    """ "a removed player's turn is handled as a drop" — as the host's kick does: the game
    hears ``base.Leave`` (Tiny: two left, the first other player wins)."""

    async def scenario(manager, store):
        room, peers = await _room(manager, "abc", game=TINY)
        assert await _ask(room, peers["a"], p.StartMatch) is None
        turn = room.model.match.players[room.model.match.turn]
        starter = next(x for x in "abc" if x != turn)
        voter = next(x for x in "abc" if x not in (turn, starter))
        reason = "cheating"
        assert await _ask(room, peers[starter], p.VoteRemove, player=turn, reason=reason) is None
        assert await _ask(room, peers[voter], p.CastVote, yes=True) is None
        await _until(lambda: room.model.seat(turn) is None)
        match = room.model.match
        assert next(s for s in match.seats if s.id == turn).left
        assert room.model.status.value == "ended" and match.end_reason == "player_left"
        assert turn in room.model.former_colours  # the scores still name them
        await _replays_to_the_room(room, store, manager)

    _run(tmp_path, scenario)


def test_hide_name_is_the_players_choice_logged_with_their_seat(tmp_path):
    async def scenario(manager, store):
        room, peers = await _room(manager, "ab")
        assert await _ask(room, peers["b"], p.HideName, hide=True) is None
        assert room.model.seat("b").hide_name and not room.model.seat("a").hide_name
        await _replays_to_the_room(room, store, manager)

    _run(tmp_path, scenario)


def test_a_vote_is_decided_by_more_than_half_of_its_voters():
    def outcome(voters: int, yes: int, no: int):
        ballots = {f"y{i}": True for i in range(yes)} | {f"n{i}": False for i in range(no)}
        names = [*ballots, *(f"u{i}" for i in range(voters - yes - no))]
        return votes.decided(Vote(1, "s", "t", "away", 0.0, names, ballots))

    assert outcome(1, 1, 0) == "removed"
    assert outcome(1, 0, 0) is None
    assert outcome(2, 1, 0) is None and outcome(2, 1, 1) == "kept"
    assert outcome(3, 2, 0) == "removed" and outcome(3, 1, 1) is None
    assert outcome(3, 0, 2) == "kept" and outcome(4, 2, 2) == "kept"
    assert outcome(4, 2, 1) is None and outcome(4, 3, 0) == "removed"
    assert outcome(0, 0, 0) == "kept"  # every voter struck off


def test_vote_records_carry_what_replay_needs():
    started = VoteStarted(at=1.0, by="a", player="b", reason="away", seconds=30.0)
    assert record_decoder.decode(msgspec.json.encode(started)) == started


def test_a_vote_whose_clock_ran_out_while_the_server_was_down_ends_when_it_is_back(tmp_path):
    """The vote is in the model (and its snapshot): the restarted room runs its clock again;
    one that ran out meanwhile ends at once, as its clock would have ended it (kept)."""
    db = tmp_path / "restart.sqlite3"
    config = ManagerConfig(room=RoomConfig(vote_seconds=SHORT_VOTE, drop_grace_seconds=DROP))

    async def go() -> None:
        store = SQLiteStore(db)
        manager = RoomManager(store, games_with_tiny(), config)
        await manager.start()
        room, peers = await _room(manager, "abcd")
        assert await _ask(room, peers["a"], p.VoteRemove, player="b", reason="away") is None
        assert await _ask(room, peers["c"], p.CastVote, yes=True) is None
        code, running = room.code, room.model.votes.running
        await manager.shutdown()
        await store.close()
        await asyncio.sleep(SHORT_VOTE * 1.5)  # its clock runs out while the server is down
        store = SQLiteStore(db)
        manager = RoomManager(store, games_with_tiny(), config)
        await manager.start()
        try:
            room = manager.get(code)
            assert room is not None
            await _until(lambda: room.model.votes.running is None)
            assert room.model.seat("b") is not None
            await _settled(room)
            live = await store.load_live_room(code, snapshot=False)
            records = [record_decoder.decode(e.payload) for e in live.entries]
            (closed,) = [r for r in records if isinstance(r, VoteClosed)]
            assert closed.vote == running.number
            assert closed.at >= running.deadline
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(go())
