"""Bounded restart: a room's snapshot plus the records after it rebuild exactly what folding
its whole log does, and a real room saves one every ``SNAPSHOT_EVERY`` records, so a restart
folds only the tail (issue 20, "a restart replays every live room's whole log")."""

from __future__ import annotations

import asyncio
import types

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_testing import run

from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.protocol import Chat
from tertulia.rooms import commit
from tertulia.rooms.manager import RoomManager
from tertulia.rooms.model import check_new, fold
from tertulia.rooms.records import (
    Chatted,
    GameChosen,
    GameMove,
    HostPassed,
    Joined,
    Kicked,
    Left,
    MatchStarted,
    NameHidden,
    Presence,
    Rematched,
    Renamed,
    Reordered,
    SettingsChanged,
    VoteClosed,
    Voted,
    VotesAllowed,
    VoteStarted,
    record_decoder,
    record_encoder,
)
from tertulia.rooms.replay import _fold_log, _RefusedInPlace, replay, replay_room, snapshot_of
from tertulia.rooms.room_data import new_room
from tertulia.store import LiveRoom, LogEntry, RoomRecord, Snapshot
from tertulia.store.sqlite import SQLiteStore

PLAYERS = ["p0", "p1", "p2", "p3", "p4"]
COLOURS = ["red", "green", "blue", "yellow", "white"]

player = st.sampled_from(PLAYERS)
host = st.sampled_from(["p0", "p0", "p0", "p1"])  # mostly the host, so matches start
# Game moves of each of the three games (most refused at a given moment, as in real play),
# and the room's own timeout, which walks every game through its phases.
game_action = st.one_of(
    st.just({"type": "timeout"}),
    st.builds(lambda i: {"type": "choose_target", "index": i}, st.integers(0, 3)),
    st.builds(lambda w: {"type": "give_clue", "text": w}, st.sampled_from(["ocean", "grass"])),
    st.just({"type": "pass_clue"}),
    st.builds(
        lambda r, c: {"type": "select_cell", "cell": f"{r}{c}"},
        st.sampled_from("ABCDEFGHIJKLMNOP"),
        st.integers(1, 30),
    ),
    st.just({"type": "confirm"}),
    st.just({"type": "next_round"}),
    st.builds(lambda c: {"type": "guess", "colour": c}, st.sampled_from(COLOURS)),
    st.just({"type": "ready"}),
    st.builds(lambda t: {"type": "set_title", "text": t}, st.sampled_from(["cat", "a boat"])),
    st.just({"type": "confirm_marks"}),
)
record = st.one_of(
    st.builds(lambda p, n: Joined(0, p, n), player, st.sampled_from(["Ana", "Bo", "Cy", "Di"])),
    st.builds(lambda p: Renamed(0, p, f"N{p}"), player),
    st.builds(lambda p: Left(0, p), player),
    st.builds(lambda b, p: Kicked(0, b, p), host, player),
    st.builds(lambda p, o: Presence(0, p, o), player, st.booleans()),
    st.builds(lambda b, g: GameChosen(0, b, g), host, st.sampled_from(sorted(GAMES))),
    st.builds(lambda b: SettingsChanged(0, b, {}, defaults=True), host),
    st.builds(lambda b, o: Reordered(0, b, o), host, st.permutations(PLAYERS[:3])),
    st.builds(lambda b, s: MatchStarted(0, b, s), host, st.integers(0, 2**32)),
    st.builds(lambda s, a: GameMove(0, s, a), st.one_of(st.none(), player), game_action),
    st.builds(lambda b: Rematched(0, b), host),
    st.builds(lambda p, t: Chatted(0, p, t), player, st.sampled_from(["hi", "olá", "gg"])),
    st.builds(lambda h: HostPassed(0, h), player),
    # Votes to remove (issue 31): allowed by the host, started, cast, closed by the room.
    st.builds(lambda b, a: VotesAllowed(0, b, a), host, st.booleans()),
    st.builds(lambda b, p: VoteStarted(0, b, p, "away", 200.0), player, player),
    st.builds(lambda p, y: Voted(0, p, y), player, st.booleans()),
    st.builds(lambda n, p: VoteClosed(0, n, p), st.integers(1, 3), player),
    st.builds(lambda p, h: NameHidden(0, p, h), player, st.booleans()),
)
move = st.builds(lambda s, a: GameMove(0, s, a), st.one_of(st.none(), player), game_action)
# A lobby, a match started by the host, then play: mostly moves, with everything else mixed in.
script = st.tuples(
    st.lists(record, max_size=15),
    st.integers(0, 2**32),
    st.lists(st.one_of(move, move, move, move, record), min_size=30, max_size=200),
).map(lambda parts: [*parts[0], MatchStarted(0, "p0", parts[1]), *parts[2]])


def _accepted_log(game: str, script: list) -> tuple[RoomRecord, list[LogEntry]]:
    """What a live room would have logged for ``script``: each record it accepted (checked
    and folded as live), refusals dropped, times increasing as a real room's."""
    room = RoomRecord("SNAP", game, public=False, created_at=1000.0)
    model = new_room(room.code, room.public, game, GAMES)
    entries: list[LogEntry] = []
    seated = [Joined(0, p, f"Player {p}") for p in PLAYERS[:4]]
    for step, proposed in enumerate([*seated, *script]):
        record = msgspec.structs.replace(proposed, at=1000.0 + 90.0 * step)
        try:
            check_new(model, record)
            fold(model, record)
        except RuleError:
            continue
        entries.append(LogEntry(len(entries) + 1, record.at, record_encoder.encode(record)))
    return room, entries


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    script=script,
    cut=st.floats(0, 1),
)
def test_a_snapshot_plus_the_tail_is_exactly_what_the_whole_log_replays(game, script, cut):
    """ "A snapshot must restore exactly the state replay would give": for any accepted log
    and any point in it, restoring the snapshot taken there and folding the records after it
    gives the same model (and the same snapshot bytes) as folding the whole log."""
    room, entries = _accepted_log(game, script)
    whole, seq = replay(LiveRoom(room, None, entries), GAMES)
    at = round(cut * len(entries))
    before, _ = replay(LiveRoom(room, None, entries[:at]), GAMES)
    if at == 0:
        return  # nothing to snapshot: replay starts from a new room anyway
    snapshot = Snapshot(at, entries[at - 1].at, snapshot_of(before))
    resumed, resumed_seq = replay(LiveRoom(room, snapshot, entries[at:]), GAMES)
    assert resumed_seq == seq == len(entries)
    assert resumed == whole
    assert snapshot_of(resumed) == snapshot_of(whole)


def _live_fold(game: str, script: list) -> tuple[RoomRecord, list[LogEntry], object]:
    """``_accepted_log`` and the live room's match state at its end (folded on copies)."""
    room, entries = _accepted_log(game, script)
    model = new_room(room.code, room.public, game, GAMES)
    for entry in entries:
        fold(model, record_decoder.decode(entry.payload))
    return room, entries, model.match


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(GAMES)), script=script)
def test_a_replay_that_changes_the_state_in_place_ends_exactly_where_the_live_room_did(
    game, script
):
    """ "Replaying the log rebuilds the state exactly": a restart folds each room's log on
    one state changed in place, not on a copy per move as the live room does, and ends with
    the same match and the same snapshot bytes as folding on copies."""
    room, entries, live_match = _live_fold(game, script)
    replayed, seq = replay(LiveRoom(room, None, entries), GAMES)
    on_copies, copies_seq = _fold_log(LiveRoom(room, None, entries), GAMES, in_place=False)
    assert replayed is not None and on_copies is not None
    assert seq == copies_seq == len(entries)
    assert replayed.match == live_match
    assert snapshot_of(replayed) == snapshot_of(on_copies)


def test_a_record_refused_while_replaying_in_place_is_folded_again_on_copies(caplog):
    """A record the rules refuse on replay (only if they changed under a stored log) "leaves
    the caller's state untouched" on a copy, but may leave a state changed in place half
    done: the room is then folded again on copies, so it ends as if the record was never
    there, and the refusal is logged."""
    pitacor = GAMES["pitacor"]
    script = [MatchStarted(0, "p0", 7)]
    for player in PLAYERS[:4]:
        script += [GameMove(0, player, {"type": "choose_target", "index": 1})]
        script += [GameMove(0, player, {"type": "give_clue", "text": "ocean"})]
    for player in PLAYERS[:4]:
        script += [GameMove(0, player, {"type": "select_cell", "cell": "H15"})]
    room, entries = _accepted_log("pitacor", script)
    moves = [(e, record_decoder.decode(e.payload)) for e in entries]
    poisoned = next(e for e, r in moves if isinstance(r, GameMove) and "cell" in r.action)

    def half_then_refuse(state, seat, action, now, **options):
        """Pitacor's ``apply``, except that the poisoned record is refused after the real
        handler has changed the state it was given (the copy, or the state itself)."""
        new, events = pitacor.apply(state, seat, action, now, **options)
        if now == poisoned.at:
            raise RuleError("rules.changed", "Not any more.")
        return new, events

    changed = types.ModuleType(pitacor.__name__)
    changed.__dict__.update(vars(pitacor))
    changed.apply = half_then_refuse
    games = {**GAMES, "pitacor": changed}
    without = [e for e in entries if e is not poisoned]
    expected, _ = replay(LiveRoom(room, None, without), GAMES)

    with pytest.raises(_RefusedInPlace):  # in place alone, the half-done change would stay
        _fold_log(LiveRoom(room, None, entries), games, in_place=True)
    replayed, seq = replay(LiveRoom(room, None, entries), games)
    assert seq == len(entries)
    assert replayed is not None and expected is not None
    assert replayed.match == expected.match
    assert f"record {poisoned.seq} no longer applies" in caplog.text


def test_a_game_whose_apply_cannot_change_in_place_replays_on_copies():
    """A game may write its own ``apply`` without ``in_place`` (the contract's is optional):
    its rooms replay on copies, as they play live, and end where the live room did."""
    pitacor = GAMES["pitacor"]
    calls: list[float] = []

    def by_hand(state, seat, action, now, *, judge_text=True):
        calls.append(now)
        return pitacor.apply(state, seat, action, now, judge_text=judge_text)

    handmade = types.ModuleType(pitacor.__name__)
    handmade.__dict__.update(vars(pitacor))
    handmade.apply = by_hand
    script = [MatchStarted(0, "p0", 3), *[GameMove(0, p, {"type": "timeout"}) for p in PLAYERS]]
    script += [GameMove(0, None, {"type": "timeout"})] * 6
    room, entries, live_match = _live_fold("pitacor", script)
    replayed, _ = replay(LiveRoom(room, None, entries), {**GAMES, "pitacor": handmade})
    assert replayed is not None and replayed.match == live_match
    assert len(calls) >= len(entries) - 5  # the game was asked (4 joins and the start aside)


def test_a_snapshot_from_another_version_is_not_used_the_whole_log_is(tmp_path):
    """A snapshot this code did not write (another version, a game whose state changed) may
    not decode to what replay gives: it is ignored and the room folds its whole log."""

    async def go() -> None:
        room, entries = _accepted_log("pitacor", [Chatted(0, "p0", "hi")])  # 4 joins, 1 line
        async with SQLiteStore(tmp_path / "s.sqlite3") as store:
            await store.create_room(room.code, room.game, public=False, created_at=1000.0)
            await store.append(room.code, entries)
            model, _ = replay(LiveRoom(room, None, entries[:2]), GAMES)
            snap = msgspec.msgpack.decode(snapshot_of(model))
            snap["fingerprint"] = "written-by-0.0.1"
            await store.save_snapshot(room.code, 2, msgspec.msgpack.encode(snap))
            (live,) = await store.load_live_rooms()
            assert live.snapshot is not None and len(live.entries) == 3
            assert replay(live, GAMES) == (None, 0)  # cannot use it alone
            model, seq, from_seq = await replay_room(store, live, GAMES)
            whole, _ = replay(LiveRoom(room, None, entries), GAMES)
            assert seq == 5 and model == whole and from_seq == 0

    run(go)


class _Peer:
    def __init__(self, player: str) -> None:
        self.player = player
        self.got: list = []

    def send(self, message) -> None:
        self.got.append(message)


@pytest.mark.parametrize("every", [1, 10])
def test_a_room_saves_a_snapshot_every_so_many_records_and_a_restart_folds_only_the_tail(
    tmp_path, monkeypatch, every
):
    """The snapshot-taking point: a live room saves its model every ``SNAPSHOT_EVERY``
    records, the store hands replay only the records after the latest, and the room a
    restart brings back equals the one that folding its whole log gives. With a snapshot
    after every record, each is taken while the next message is already waiting: none may
    hold a change its seq does not count (the chat would come back with a line twice)."""
    monkeypatch.setattr(commit, "SNAPSHOT_EVERY", every)
    latest = 25 // every * every

    async def go() -> None:
        path = tmp_path / "rooms.sqlite3"
        async with SQLiteStore(path) as store:
            manager = RoomManager(store, GAMES)
            await manager.start()
            room = await manager.create("pitacor", public=False)
            peer = _Peer("p0")
            await room.attach(peer, "Ana", 1)
            for n in range(24):
                room.submit(peer, Chat(100 + n, text=f"line {n}"))
            for _ in range(500):
                if room.commits.seq >= 25 and not room.inbox.busy:
                    break
                await asyncio.sleep(0.01)
            for _ in range(100):  # the snapshot is saved in the background
                live = await store.load_live_room(room.code)
                if live is not None and live.snapshot is not None and live.snapshot.seq == latest:
                    break
                await asyncio.sleep(0.01)
            code, model_before = room.code, room.model
            await room.stop()  # as a crash leaves it: no snapshot at shutdown (see below)
            manager._housekeeping.cancel()
        async with SQLiteStore(path) as store:
            (live,) = await store.load_live_rooms()
            assert live.snapshot is not None and live.snapshot.seq == latest
            assert [e.seq for e in live.entries] == list(range(latest + 1, live.last_seq + 1))
            whole = await store.load_live_room(code, snapshot=False)
            assert whole is not None and whole.entries[0].seq == 1
            manager = RoomManager(store, GAMES)
            assert await manager.start() == 1
            restored = manager.get(code)
            assert restored is not None
            assert restored.model == replay(whole, GAMES)[0]
            assert restored.model.chat == model_before.chat
            await manager.shutdown()

    run(go)


def test_a_server_that_stops_saves_every_rooms_snapshot_so_its_restart_folds_nothing(tmp_path):
    """A planned restart (SIGTERM, an upgrade) folds no record: ``RoomManager.shutdown``
    saves each room's snapshot at its last seq, and the restarted room equals the old one."""

    async def go() -> None:
        path = tmp_path / "rooms.sqlite3"
        async with SQLiteStore(path) as store:
            manager = RoomManager(store, GAMES)
            await manager.start()
            room = await manager.create("haiclue", public=True)
            peer = _Peer("p0")
            await room.attach(peer, "Ana", 1)
            for n in range(5):
                room.submit(peer, Chat(100 + n, text=f"line {n}"))
            for _ in range(500):
                if room.commits.seq >= 6 and not room.inbox.busy:
                    break
                await asyncio.sleep(0.01)
            code, before = room.code, room.model
            await manager.shutdown()
        async with SQLiteStore(path) as store:
            (live,) = await store.load_live_rooms()
            assert live.snapshot is not None and live.snapshot.seq == 6
            assert live.entries == []
            manager = RoomManager(store, GAMES)
            await manager.start()
            restored = manager.get(code)
            assert restored is not None and restored.commits.seq == 6
            assert snapshot_of(restored.model) == snapshot_of(before)
            assert restored.model.chat == before.chat
            await manager.shutdown()
            (again,) = await store.load_live_rooms()
            assert again.snapshot == live.snapshot  # nothing new: no second write

    run(go)


def test_the_restart_benchmark_runs_and_reports_both_restarts():
    """benchmarks/restart.py stays runnable (tiny here; its numbers are in
    benchmarks/README.md)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/restart.py",
            "--rooms",
            "3",
            "--records",
            "150",
            "--after-snapshot",
            "20",
            "--compare",
            "2",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert "restart with snapshots: 3 rooms back in" in done.stdout
    assert "60 records after the snapshots" in done.stdout
    assert "restart from whole logs: 2 rooms back in" in done.stdout


def test_a_snapshot_holds_the_state_at_its_seq_even_when_the_next_change_is_folded_at_once(
    tmp_path,
):
    """The next change may be folded (its save under way) before a snapshot's save runs:
    the snapshot is encoded when it is taken, so it is the state after its own seq, and one
    asked for while a change is not yet saved is not taken at all."""

    async def go() -> None:
        async with SQLiteStore(tmp_path / "race.sqlite3") as store:
            manager = RoomManager(store, GAMES)
            await manager.start()
            room = await manager.create("pitacor", public=False)
            peer = _Peer("p0")
            await room.attach(peer, "Ana", 1)
            commits = room.commits
            at = room.model.last_activity + 1
            commits._snapshot()  # at seq 1, saved in the background
            change = commits.begin(Chatted(at, "p0", "after the snapshot"), None)
            await commits.save_snapshot()  # the model is ahead of the log: not taken
            await commits.finish(change)
            for _ in range(100):
                live = await store.load_live_room(room.code)
                if live is not None and live.snapshot is not None:
                    break
                await asyncio.sleep(0.01)
            assert live.snapshot.seq == 1 and [e.seq for e in live.entries] == [2]
            model, seq = replay(live, GAMES)
            assert seq == 2 and [line["text"] for line in model.chat] == ["after the snapshot"]
            await manager.shutdown()

    run(go)
