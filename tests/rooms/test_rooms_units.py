"""Room codes, identity, rate limits and the room fold, without a network."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia.games.base import RuleError
from tertulia.rooms import model, room_data, views
from tertulia.rooms import records as rec
from tertulia.rooms.codes import ALPHABET, new_code, normalize_code
from tertulia.rooms.identity import Identity
from tertulia.rooms.limits import TokenBucket
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.rooms.replay import replay
from tertulia.store import LiveRoom, LogEntry, RoomRecord
from tertulia.store.sqlite import SQLiteStore


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
    return room_data.new_room("ABCD", False, TINY, games_with_tiny())


def test_a_refused_record_changes_nothing():
    room = _room()
    model.fold(room, rec.Joined(at=1, player="a", nickname="Ana"))
    model.fold(room, rec.Joined(at=2, player="b", nickname="Bo"))
    before = views.lobby_view(room)
    for record in [
        rec.SettingsChanged(at=3, by="b", settings={"target": 20}),  # not the host
        rec.SettingsChanged(at=3, by="a", settings={"target": 1}),  # out of bounds
        rec.Reordered(at=3, by="a", order=["a"]),
        rec.Joined(at=3, player="c", nickname="ana"),  # nickname taken
        rec.GameMove(at=3, seat="a", action={"type": "add", "amount": 1}),  # no match
        rec.Kicked(at=3, by="a", player="a"),
    ]:
        with pytest.raises(RuleError):
            model.fold(room, record)
        assert views.lobby_view(room) == before


def test_each_newcomer_takes_the_lowest_colour_nobody_present_has():
    """UI.md: "Player identity = colour + initial + shape": in a room, a colour of one's own."""
    room = _room()
    for i, who in enumerate("abc"):
        model.fold(room, rec.Joined(at=i, player=who, nickname=who.upper()))
    assert [s["colour"] for s in views.lobby_view(room)["seats"]] == [0, 1, 2]
    model.fold(room, rec.Left(at=5, player="b"))
    model.fold(room, rec.Joined(at=6, player="d", nickname="D"))
    seats = {s["id"]: s["colour"] for s in views.lobby_view(room)["seats"]}
    assert seats == {"a": 0, "c": 2, "d": 1}


def test_a_player_who_leaves_mid_match_keeps_their_colour_until_the_next_match():
    """ "Player identity = colour + initial + shape": someone who left is still drawn as they were
    on the scores that name them (on every device, also one that joined later), gets their colour
    back on returning if it is free, and the next match starts with a clean slate."""
    room = room_data.new_room("ABCD", False, "pitacor", games_with_tiny())  # latecomers play
    for i, who in enumerate("abce"):  # four: one leaving does not end the match
        model.fold(room, rec.Joined(at=i, player=who, nickname=who.upper()))
    model.fold(room, rec.MatchStarted(at=3, by="a", seed=1))
    model.fold(room, rec.Left(at=4, player="b"))
    assert views.lobby_view(room)["former_colours"] == {"b": 1}
    model.fold(room, rec.Joined(at=5, player="b", nickname="B"))  # colour 1 still free
    assert room.seat("b").colour == 1
    assert views.lobby_view(room)["former_colours"] == {}
    model.fold(room, rec.Left(at=6, player="b"))
    model.fold(room, rec.Joined(at=7, player="d", nickname="D"))  # takes the lowest free: 1
    model.fold(room, rec.Joined(at=8, player="b", nickname="B"))
    assert {s.player: s.colour for s in room.seats} == {"a": 0, "c": 2, "e": 3, "d": 1, "b": 4}
    model.fold(room, rec.Left(at=9, player="d"))
    assert room.status is room_data.Status.PLAYING
    assert views.lobby_view(room)["former_colours"] == {"d": 1}


def test_the_next_match_and_spectators_leave_no_former_colours():
    """The rematch clears them (the next match names only those here); a spectator who leaves
    is named on no scoreboard, so nothing is kept for them (it would grow all match long)."""
    room = _room()  # the tiny game: leaving hands the win over, latecomers watch
    for i, who in enumerate("ab"):
        model.fold(room, rec.Joined(at=i, player=who, nickname=who.upper()))
    model.fold(room, rec.MatchStarted(at=3, by="a", seed=1))
    model.fold(room, rec.Joined(at=4, player="c", nickname="C"))
    model.fold(room, rec.Left(at=5, player="c"))
    assert views.lobby_view(room)["former_colours"] == {}
    model.fold(room, rec.Left(at=6, player="b"))
    assert room.status is room_data.Status.ENDED
    assert views.lobby_view(room)["former_colours"] == {"b": 1}
    model.fold(room, rec.Rematched(at=7, by="a"))
    assert views.lobby_view(room)["former_colours"] == {}


def test_public_rooms_refuse_profanity_behind_punctuation_or_across_words():
    """ "nicknames ... profanity-filtered in public rooms", and chat there too: a mark after a
    word or a listed phrase of several words is caught; a private room is left alone."""
    public = room_data.new_room("ABCD", True, TINY, games_with_tiny())
    model.fold(public, rec.Joined(at=1, player="a", nickname="Ana"))
    with pytest.raises(RuleError) as refused:
        model.check_new(public, rec.Joined(at=2, player="b", nickname="Fuck!"))
    assert refused.value.code == "nickname.profanity"
    for line in ["(shit)", "what a piece of shit"]:
        with pytest.raises(RuleError) as refused:
            model.check_new(public, rec.Chatted(at=3, player="a", text=line))
        assert refused.value.code == "chat.profanity"
    private = _room()
    model.check_new(private, rec.Joined(at=1, player="a", nickname="Fuck!"))
    model.check_new(private, rec.Chatted(at=2, player="a", text="(shit)"))


def test_a_log_a_stricter_word_list_would_refuse_still_rebuilds_the_same_room():
    """Replay trusts what was saved: the profanity lists grow between versions (this one
    started catching "Fuck!" behind its mark), and a room saved before must come back whole,
    with the player and everything they did after."""
    public = room_data.new_room("ABCD", True, TINY, games_with_tiny())
    for record in [
        rec.Joined(at=1, player="a", nickname="Ana"),
        rec.Joined(at=2, player="b", nickname="Fuck!"),  # accepted by an older version
        rec.Chatted(at=3, player="b", text="(shit)"),
    ]:
        model.fold(public, record)
    assert [s.nickname for s in public.seats] == ["Ana", "Fuck!"]
    assert [line["text"] for line in public.chat] == ["(shit)"]


def test_host_passed_and_seated_are_ordinary_records():
    """The room's own decisions (who hosts after the host grace, who takes a freed seat) are
    records like any other: replay repeats them, and they change nothing when they no longer
    fit (a spectator cannot host a running match; a seat is taken only in the lobby)."""
    room = _room()  # the tiny game: at most 3 players
    for i, who in enumerate("abcd"):
        model.fold(room, rec.Joined(at=i, player=who, nickname=who.upper()))
    assert room.seat("d").spectator
    with pytest.raises(RuleError):  # no free seat yet
        model.fold(room, rec.Seated(at=5, player="d"))
    model.fold(room, rec.Left(at=6, player="b"))
    assert room.seat("d").spectator  # the fold itself seats nobody: the room decides, and logs it
    model.fold(room, rec.Seated(at=7, player="d"))
    assert [s.player for s in room.players()] == ["a", "c", "d"]
    with pytest.raises(RuleError):  # asked twice: nothing more to record
        model.fold(room, rec.Seated(at=7, player="d"))
    model.fold(room, rec.HostPassed(at=8, host="c"))
    assert room.host == "c"
    model.fold(room, rec.MatchStarted(at=9, by="c", seed=1))
    model.fold(room, rec.Joined(at=10, player="e", nickname="E"))  # watches the match
    with pytest.raises(RuleError) as refused:
        model.fold(room, rec.HostPassed(at=11, host="e"))
    assert refused.value.code == "room.not_a_player" and room.host == "c"
    with pytest.raises(RuleError):
        model.fold(room, rec.Seated(at=12, player="e"))


def test_a_log_from_before_host_passing_replays_as_it_was_played():
    """A host whose phone locked for a while and who then started the match (a log an older
    version wrote): presence records alone never move hosting, so the match is still theirs."""
    room = _room()
    for record in [
        rec.Joined(at=1, player="a", nickname="A"),
        rec.Joined(at=2, player="b", nickname="B"),
        rec.Presence(at=3, player="a", online=False),
        rec.Presence(at=4, player="a", online=True),
        rec.MatchStarted(at=5, by="a", seed=1),
        rec.Kicked(at=6, by="a", player="b"),
        rec.Joined(at=7, player="b", nickname="B"),  # before kicks kept anyone out
    ]:
        model.fold(room, record)
    assert room.host == "a" and room.seat("b") is not None


def test_replay_does_not_judge_saved_text_again():
    """A Pintó title a public room accepted under an older word list ("cat_shit" was let
    through before the filter looked behind punctuation) must replay, or the drawing loses
    its title and the round goes another way."""
    records = [
        rec.Joined(at=1, player="a", nickname="Ana"),
        rec.Joined(at=2, player="b", nickname="Bo"),
        rec.Joined(at=3, player="c", nickname="Cy"),
        rec.MatchStarted(at=4, by="a", seed=1),
        rec.GameMove(at=5, seat="b", action={"type": "set_title", "text": "cat_shit"}),
    ]
    room = room_data.new_room("ABCD", True, "pinto", games_with_tiny())
    for record in records[:4]:
        model.fold(room, record)
    with pytest.raises(RuleError) as refused:  # judged live
        model.fold(room, records[4])
    assert refused.value.code == "title.profanity"
    log = [LogEntry(i + 1, r.at, rec.record_encoder.encode(r)) for i, r in enumerate(records)]
    live = LiveRoom(RoomRecord("ABCD", "pinto", True, 0.0), None, log)
    rebuilt, seq = replay(live, games_with_tiny())
    assert seq == 5
    assert views.game_view(rebuilt, "b")["my_title"] == "cat_shit"


def test_replay_does_not_judge_a_saved_pitacor_clue_again():
    """The same for a clue: folded live, a public room's Pitacor refuses it; replayed from the
    log it stands, and the round goes on to the guesses as it did."""
    room = room_data.new_room("ABCD", True, "pitacor", games_with_tiny())
    records: list[rec.Record] = [
        rec.Joined(at=1, player="a", nickname="Ana"),
        rec.Joined(at=2, player="b", nickname="Bo"),
        rec.Joined(at=3, player="c", nickname="Cy"),
        rec.MatchStarted(at=4, by="a", seed=1),
    ]
    for record in records:
        model.fold(room, record)
    giver = room.match.round.giver
    records.append(rec.GameMove(at=5, seat=giver, action={"type": "choose_target", "index": 0}))
    model.fold(room, records[-1])
    records.append(rec.GameMove(at=6, seat=giver, action={"type": "give_clue", "text": "shit"}))
    with pytest.raises(RuleError) as refused:  # judged live
        model.fold(room, records[-1])
    assert refused.value.code == "clue.profanity"
    rebuilt = room_data.new_room("ABCD", True, "pitacor", games_with_tiny())
    for record in records:
        model.fold(
            rebuilt,
            rec.record_decoder.decode(rec.record_encoder.encode(record)),
            replaying=True,
        )
    assert views.game_view(rebuilt, "a")["clues"] == ["shit"]


def test_leaving_the_lobby_leaves_no_colour_behind():
    """Nothing names a player who left the lobby, so nothing is kept for them."""
    room = _room()
    model.fold(room, rec.Joined(at=1, player="a", nickname="A"))
    model.fold(room, rec.Joined(at=2, player="b", nickname="B"))
    model.fold(room, rec.Left(at=3, player="b"))
    assert views.lobby_view(room)["former_colours"] == {}


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(
    st.lists(
        st.sampled_from(["join", "add", "chat", "drop", "back", "settings", "leave", "extend"]),
        max_size=30,
    )
)
def test_replaying_the_records_rebuilds_the_same_room(steps):
    """Live folding and replay are one code path: accepted records, refolded, give the same room
    (colours included); and no two people in the room ever share a colour."""
    room, accepted = _room(), []
    people = ["a", "b", "c"]
    for i, step in enumerate(steps):
        who = people[i % 3]
        record = {
            "join": rec.Joined(at=i, player=who, nickname=who.upper()),
            "add": rec.GameMove(at=i, seat=who, action={"type": "add", "amount": 1 + i % 3}),
            "chat": rec.Chatted(at=i, player=who, text=f"hi {i}"),
            "drop": rec.Presence(at=i, player=who, online=False),
            "back": rec.Presence(at=i, player=who, online=True),
            "settings": rec.SettingsChanged(at=i, by=who, settings={"target": 5}),
            "leave": rec.Left(at=i, player=who),
            # The live room's restart grace (Room._give_restart_grace): a record like any other.
            "extend": rec.GameMove(at=i, seat=None, action={"type": "extend", "until": i + 40}),
        }[step]
        if step == "add" and room.status is room_data.Status.LOBBY and len(room.players()) >= 2:
            record = rec.MatchStarted(at=i, by=room.host or who, seed=i)
        try:
            model.fold(room, record)
            accepted.append(rec.record_encoder.encode(record))
        except RuleError:
            pass
        colours = [s.colour for s in room.seats]
        assert len(set(colours)) == len(colours)  # nobody present shares a colour
    again = _room()
    for raw in accepted:
        model.fold(again, rec.record_decoder.decode(raw))
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


def _room_at_the_podium():
    """A tiny-game room where Ana (host) and Bo have just finished a match."""
    room = _room()
    for at, (player, name) in enumerate([("a", "Ana"), ("b", "Bo")]):
        model.fold(room, rec.Joined(at=at, player=player, nickname=name))
    model.fold(room, rec.MatchStarted(at=3, by="a", seed=1))
    while room.status is room_data.Status.PLAYING:
        turn = views.game_view(room, "a")["turn"]
        model.fold(room, rec.GameMove(at=4, seat=turn, action={"type": "add", "amount": 3}))
    return room


def test_when_every_player_leaves_the_podium_a_waiting_spectator_hosts_the_rematch():
    """ "host hand-over when the host leaves": with no player left, someone who came to watch
    the podium becomes host, so the room is not stuck without anyone to call the rematch."""
    room = _room_at_the_podium()
    model.fold(room, rec.Joined(at=5, player="c", nickname="Cy"))
    model.fold(room, rec.Joined(at=6, player="d", nickname="Di"))
    assert room.seat("c").spectator and room.host == "a"
    model.fold(room, rec.Left(at=7, player="a"))
    assert room.host == "b"  # a player first
    model.fold(room, rec.Left(at=8, player="b"))
    assert room.host == "c"  # then the spectator who waited longest
    model.fold(room, rec.Rematched(at=9, by="c"))
    assert not room.seat("c").spectator and not room.seat("d").spectator
    model.fold(room, rec.Left(at=10, player="c"))
    model.fold(room, rec.Left(at=11, player="d"))
    assert room.host is None
    model.fold(room, rec.Joined(at=12, player="e", nickname="Ed"))
    assert room.host == "e"  # an empty room's next visitor hosts


def test_during_a_match_only_a_player_hosts():
    room = _room()
    for at, (player, name) in enumerate([("a", "Ana"), ("b", "Bo"), ("c", "Cy")]):
        model.fold(room, rec.Joined(at=at, player=player, nickname=name))
    model.fold(room, rec.MatchStarted(at=4, by="a", seed=1))
    model.fold(room, rec.Joined(at=5, player="s", nickname="Sam"))
    if room.seat("s").spectator:  # the tiny game seats at most three
        model.fold(room, rec.Left(at=6, player="a"))
        assert room.host in ("b", "c")


def test_someone_who_joins_during_the_podium_waits_as_a_spectator_and_may_leave():
    room = _room_at_the_podium()
    model.fold(room, rec.Joined(at=5, player="c", nickname="Cy"))
    assert room.seat("c").spectator
    model.fold(room, rec.Left(at=6, player="c"))  # no game to tell: the match is over
    model.fold(room, rec.Joined(at=7, player="d", nickname="Di"))
    model.fold(room, rec.Rematched(at=8, by="a"))
    assert not room.seat("d").spectator  # promoted for the rematch


class _Peer:
    """A connection as a room sees it: it keeps what it is sent."""

    def __init__(self, player):
        self.player, self.chat_bucket, self.sent_blobs = player, TokenBucket(9, 9), set()
        self.got = []

    def send(self, message):
        self.got.append(message)


def test_a_room_whose_saves_and_rebuild_fail_refuses_every_change(tmp_path):
    """Memory must never run ahead of the log: with the store gone, nothing is accepted."""
    from tertulia.protocol import Chat, ChatLine, Error

    async def go():
        store, manager, room, ana = await _tiny_room(tmp_path / "gone.sqlite3", ("a", "Ana"))
        await store.close()  # the disk goes away
        for message_id in (2, 3):
            room.submit(ana, Chat(id=message_id, text="hello"))
            await asyncio.sleep(0.05)
        errors = [m for m in ana.got if isinstance(m, Error)]
        assert [e.code for e in errors] == ["server.store", "server.store"]
        assert room.broken and not any(isinstance(m, ChatLine) for m in ana.got)
        with pytest.raises(RuleError) as refused:  # nobody gets to see the unsaved state
            await room.attach(_Peer("b"), "Bo", 4)
        assert refused.value.code == "server.store"
        await manager.shutdown()

    asyncio.run(go())


def test_an_idle_room_starts_a_change_at_once_but_tells_nobody_before_it_is_saved(tmp_path):
    """ "Persist, then broadcast": a message to an idle room is folded and its save started
    before ``submit`` returns (no turn of the event loop in between), yet no connection hears
    of it until the store says it is durable; a busy room queues the next one behind it."""
    from tertulia.protocol import Ack, Chat, ChatLine

    async def go():
        store, manager, room, ana = await _tiny_room(tmp_path / "eager.sqlite3", ("a", "Ana"))
        # What the store has said is durable, as it says it (its callback, before the room's).
        durable: list[int] = []
        append = store.start_append

        def start_append(code, entries, on_durable=None):
            seqs = [e.seq for e in (entries if isinstance(entries, list) else [entries])]

            def told(error):
                if error is None:
                    durable.extend(seqs)
                if on_durable is not None:
                    on_durable(error)

            return append(code, entries, told)

        store.start_append = start_append
        heard: list[tuple[str, list[int]]] = []  # each line Ana is told, with what was durable
        send = ana.send
        ana.send = lambda m: (
            heard.append((m.line["text"], list(durable))) if isinstance(m, ChatLine) else None,
            send(m),
        )
        ana.got.clear()
        seq = room.seq
        room.submit(ana, Chat(id=2, text="first"))
        assert [line["text"] for line in room.model.chat] == ["first"]  # folded already
        assert ana.got == []  # nothing told while its save has only started
        room.submit(ana, Chat(id=3, text="second"))  # the room is busy: this one waits
        assert [line["text"] for line in room.model.chat] == ["first"]
        for _ in range(200):
            await asyncio.sleep(0.01)
            if sum(isinstance(m, Ack) for m in ana.got) == 2:
                break
        lines = [m.line["text"] for m in ana.got if isinstance(m, ChatLine)]
        assert lines == ["first", "second"] and room.seq == seq + 2
        assert [m.re for m in ana.got if isinstance(m, Ack)] == [2, 3]
        # Told only once saved (the second submit may tell the first if it is durable by then).
        assert [(text, seq + n in was) for n, (text, was) in enumerate(heard, 1)] == [
            ("first", True),
            ("second", True),
        ]
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


async def _answer(peer, message_id, timeout=5.0):
    """The ack or error that answers ``message_id``."""
    from tertulia.protocol import Ack, Error

    for _ in range(int(timeout / 0.01)):
        for m in peer.got:
            if isinstance(m, (Ack, Error)) and m.re == message_id:
                return m
        await asyncio.sleep(0.01)
    raise AssertionError(f"no answer to {message_id}")


async def _tiny_room(db, *seated):
    """A started store and manager, and a tiny-game room where ``seated`` (player id,
    nickname) sit, each on a connection of their own."""
    store = SQLiteStore(db)
    manager = RoomManager(store, games_with_tiny())
    await manager.start()
    room = await manager.create(TINY, public=False)
    peers = []
    for message_id, (player, nickname) in enumerate(seated, 1):
        peers.append(_Peer(player))
        await room.attach(peers[-1], nickname, message_id)
    return store, manager, room, *peers


async def _tiny_room_of_two(db):
    """A started store and manager, and a tiny-game room where Ana and Bo sit."""
    return await _tiny_room(db, ("a", "Ana"), ("b", "Bo"))


async def _tiny_match_of_two(db):
    """``_tiny_room_of_two`` with the match started; also the peer whose turn it is."""
    from tertulia.protocol import StartMatch

    store, manager, room, ana, bo = await _tiny_room_of_two(db)
    room.submit(ana, StartMatch(id=3))
    await _answer(ana, 3)
    mover = ana if views.game_view(room.model, "a")["turn"] == "a" else bo
    return store, manager, room, ana, bo, mover


async def _logged(store, code):
    live = {r.room.code: r for r in await store.load_live_rooms()}[code]
    return live.last_seq


def test_a_bug_in_a_game_is_answered_plainly_and_the_room_goes_back_to_its_log(
    tmp_path, monkeypatch
):
    """Memory never runs ahead of the log: after a game's bug the room is rebuilt from the
    store, the sender gets "server.error", and the next move is played normally."""
    import tiny_game

    from tertulia.protocol import Act, Error

    async def go():
        store, manager, room, _ana, _bo, mover = await _tiny_match_of_two(tmp_path / "bug.sqlite3")
        real_apply = tiny_game.apply

        def broken(state, seat, action, now):
            if not isinstance(action, tiny_game.Add):  # replay must still work
                return real_apply(state, seat, action, now)
            state.counter = 99  # half-applied damage, then the crash
            raise ZeroDivisionError("a bug")

        monkeypatch.setattr(tiny_game, "apply", broken)
        room.submit(mover, Act(id=4, action={"type": "add", "amount": 2}))
        answer = await _answer(mover, 4)
        assert isinstance(answer, Error) and answer.code == "server.error"
        assert room.model.match.counter != 99  # rebuilt: the damage is gone
        assert room.seq == await _logged(store, room.code)
        monkeypatch.setattr(tiny_game, "apply", real_apply)
        room.submit(mover, Act(id=5, action={"type": "add", "amount": 2}))
        assert not isinstance(await _answer(mover, 5), Error)
        assert room.model.match.counter == 2 and room.seq == await _logged(store, room.code)
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_a_saved_move_whose_pushes_fail_to_build_is_acknowledged_and_everyone_is_told(
    tmp_path, monkeypatch
):
    """An error says "nothing was changed" (docs/protocol.md): a move that is saved must never
    be answered with one, even when our own view code fails while the disk writes. The move
    stands, its sender gets the ack, and every seat gets an update built afresh."""
    import tiny_game

    from tertulia.protocol import Ack, Act, Error, RoomUpdate

    async def go():
        store, manager, room, ana, bo, mover = await _tiny_match_of_two(tmp_path / "views.sqlite3")
        real_view = tiny_game.view
        calls = []

        def fails_once(state, seat):
            calls.append(seat)
            if len(calls) == 1:
                raise ZeroDivisionError("a bug in a view")
            return real_view(state, seat)

        monkeypatch.setattr(tiny_game, "view", fails_once)
        for peer in (ana, bo):
            peer.got.clear()
        room.submit(mover, Act(id=4, action={"type": "add", "amount": 2}))
        answer = await _answer(mover, 4)
        assert isinstance(answer, Ack) and not any(isinstance(m, Error) for m in mover.got)
        assert room.model.match.counter == 2 and room.seq == await _logged(store, room.code)
        for peer in (ana, bo):
            update = next(m for m in peer.got if isinstance(m, RoomUpdate))
            assert update.version == room.version
            sent = msgspec.json.decode(update.view)  # pushes carry their parts encoded
            assert sent == msgspec.json.decode(
                msgspec.json.encode(real_view(room.model.match, peer.player))
            )
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_a_move_the_store_could_not_save_is_refused_and_forgotten(tmp_path, monkeypatch):
    """ "Nothing acknowledged is ever lost" has a twin: nothing unsaved is ever shown. A failed
    save answers "server.store", the room forgets the move (rebuilt from the log) and goes on."""
    from tertulia.protocol import Chat, ChatLine, Error
    from tertulia.store import CommitFailed

    async def go():
        store, manager, room, ana, bo = await _tiny_room_of_two(tmp_path / "fail.sqlite3")
        real_start_append = store.start_append

        def failing(code, entries, on_durable=None):
            error = CommitFailed("disk full (simulated)")
            failed = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_soon(on_durable, error)  # as the real store does
            failed.set_exception(error)
            return failed

        def without_callback(code, entries, on_durable=None):
            return real_start_append(code, entries)  # a store need not call back

        monkeypatch.setattr(store, "start_append", failing)
        room.submit(ana, Chat(id=3, text="lost"))
        answer = await _answer(ana, 3)
        assert isinstance(answer, Error) and answer.code == "server.store"
        assert list(room.model.chat) == [] and not any(isinstance(m, ChatLine) for m in bo.got)
        monkeypatch.setattr(store, "start_append", without_callback)
        room.submit(ana, Chat(id=4, text="kept"))
        assert not isinstance(await _answer(ana, 4), Error)
        assert [m.line["text"] for m in bo.got if isinstance(m, ChatLine)] == ["kept"]
        assert room.seq == await _logged(store, room.code)
        await manager.shutdown()
        await store.close()

    asyncio.run(go())


def test_a_room_caps_the_tabs_of_one_player_and_its_connections(tmp_path):
    """Every connection gets every push: one browser must not multiply a room's work by
    opening it in a hundred tabs, and a room takes a bounded number of connections."""
    from tertulia.rooms.config import RoomConfig

    async def go():
        store = SQLiteStore(tmp_path / "caps.sqlite3")
        config = ManagerConfig(room=RoomConfig(max_tabs_per_player=2, max_connections=3))
        manager = RoomManager(store, games_with_tiny(), config)
        await manager.start()
        room = await manager.create(TINY, public=False)
        first, second, third = _Peer("a"), _Peer("a"), _Peer("a")
        await room.attach(first, "Ana", 1)
        await room.attach(second, "Ana", 2)  # the same seat in a second tab
        with pytest.raises(RuleError) as refused:
            await room.attach(third, "Ana", 3)
        assert refused.value.code == "room.too_many_tabs" and refused.value.params == {"max": 2}
        # A tab coming back by itself may have old sockets the server does not know are dead
        # yet: its resume goes past the cap (a little).
        await room.attach(third, "Ana", 3, resume=True)
        room.detach(third)
        await room.attach(_Peer("b"), "Bo", 4)
        with pytest.raises(RuleError) as refused:
            await room.attach(_Peer("c"), "Cy", 5)
        assert refused.value.code == "room.crowded"
        assert room.model.seat("c") is None  # refused before anything was recorded
        room.detach(first)
        await room.attach(_Peer("c"), "Cy", 6)  # a place came free
        assert room.model.seat("c") is not None
        await manager.shutdown()
        await store.close()

    asyncio.run(go())
