"""Finished matches are kept and come back newest first."""

from __future__ import annotations

import msgspec
import pytest
from store_testing import StoreOpener, entries, entry, run

from tertulia.store import FinishedMatch, MatchLog
from tertulia.store.errors import MatchExists


def _match(room: str, game: str, ended_at: float) -> FinishedMatch:
    return FinishedMatch(
        room=room,
        game=game,
        ended_at=ended_at,
        started_at=ended_at - 600,
        players=[{"id": "p1", "name": "Zoë", "score": 12}, {"id": "p2", "name": "Łukasz"}],
        extra={"rounds": 3},
    )


def test_recent_matches_are_newest_first_and_survive_reopening(open_store: StoreOpener) -> None:
    async def write() -> None:
        async with open_store() as store:
            await store.record_finished_match(_match("AAAA", "pitacor", 200.0))
            await store.record_finished_match(_match("BBBB", "pinto", 300.0))
            await store.record_finished_match(_match("CCCC", "pitacor", 100.0))
            await store.record_finished_match(_match("DDDD", "haiclue", 300.0))  # a tie

    async def read() -> None:
        async with open_store() as store:
            recent = await store.recent_matches(10)
            # Newest first; on equal end times the one recorded later comes first.
            assert [m.room for m in recent] == ["DDDD", "BBBB", "AAAA", "CCCC"]
            assert recent[2] == _match("AAAA", "pitacor", 200.0)  # every field kept
            assert [m.room for m in await store.recent_matches(2)] == ["DDDD", "BBBB"]
            pitacor = await store.recent_matches(10, game="pitacor")
            assert [m.room for m in pitacor] == ["AAAA", "CCCC"]
            assert await store.recent_matches(0) == []
            with pytest.raises(ValueError):
                await store.recent_matches(-1)

    run(write)
    run(read)


def test_a_match_with_unencodable_players_fails_only_its_caller(open_store: StoreOpener) -> None:
    async def body() -> None:
        async with open_store() as store:
            bad = FinishedMatch("AAAA", "pitacor", 1.0, players=[{"who": object()}])
            with pytest.raises(TypeError):
                await store.record_finished_match(bad)
            assert await store.recent_matches() == []
            assert store.stats.failed_batches == 0

    run(body)


def test_public_only_keeps_the_matches_marked_public(open_store: StoreOpener) -> None:
    async def go() -> None:
        async with open_store() as store:
            marked = [("AAAA", True, 1.0), ("BBBB", False, 2.0), ("CCCC", True, 3.0)]
            for room, public, at in marked:
                match = _match(room, "pitacor", at)
                await store.record_finished_match(
                    FinishedMatch(**{**msgspec.structs.asdict(match), "extra": {"public": public}})
                )
            await store.record_finished_match(_match("DDDD", "pitacor", 4.0))  # not marked
            public = await store.recent_matches(10, public_only=True)
            assert [m.room for m in public] == ["CCCC", "AAAA"]
            assert [m.room for m in await store.recent_matches(1, public_only=True)] == ["CCCC"]

    run(go)


# ---------------------------------------------------------------------------- match pages


def _kept(room: str, public_id: str, ended_at: float, players: list[str]) -> FinishedMatch:
    return FinishedMatch(
        room=room,
        game="pitacor",
        ended_at=ended_at,
        started_at=ended_at - 60,
        players=[{"id": p, "name": p.upper(), "score": 1} for p in players]
        + [{"id": "bot-1", "name": "Nova", "score": 0, "bot": True}],
        extra={"public": False},
        public_id=public_id,
    )


def test_a_finished_match_keeps_its_records_but_its_chat_beyond_its_room(
    open_store: StoreOpener,
) -> None:
    """ "A RecordMatch copies the match's log rows (first..last seq) in the same transaction":
    the page folds them long after the room closed and its log went; the lines left out
    (its chat) are not kept."""

    async def go() -> None:
        async with open_store() as store:
            await store.create_room("ROOM", "pitacor", public=False, created_at=1.0)
            await store.append("ROOM", entries(1, 10))
            log = MatchLog(first_seq=3, last_seq=8, opening=b'{"opening":1}', skip=[5])
            await store.record_finished_match(_kept("ROOM", "A" * 16, 100.0, ["p1"]), log)
            await store.append("ROOM", entries(11, 12))
            await store.close_room("ROOM", "idle")
        async with open_store() as store:
            kept = await store.load_match("A" * 16)
            assert kept is not None
            assert kept.match == _kept("ROOM", "A" * 16, 100.0, ["p1"])
            assert kept.opening == b'{"opening":1}'
            assert kept.entries == [entry(seq) for seq in (3, 4, 6, 7, 8)]
            assert await store.load_match("B" * 16) is None
            (recent,) = await store.recent_matches(10)
            assert recent.public_id == "A" * 16
            # A match without a page (or recorded before pages) keeps no records.
            await store.record_finished_match(_match("OLD", "pitacor", 50.0))
            assert (await store.recent_matches(10))[-1].public_id is None

    run(go)


def test_a_players_matches_are_theirs_newest_first_and_never_a_bots(
    open_store: StoreOpener,
) -> None:
    async def go() -> None:
        async with open_store() as store:
            for n, (at, players) in enumerate(
                [(10.0, ["ana", "bo"]), (30.0, ["bo"]), (20.0, ["ana", "cy"]), (40.0, ["cy"])]
            ):
                await store.record_finished_match(_kept("R", f"{n:016d}", at, players))
            ana = await store.matches_of("ana")
            assert [m.public_id for m in ana] == [f"{2:016d}", f"{0:016d}"]
            assert [m.ended_at for m in await store.matches_of("bo")] == [30.0, 10.0]
            assert [m.ended_at for m in await store.matches_of("bo", 1)] == [30.0]
            assert [m.ended_at for m in await store.matches_of("bo", before=30.0)] == [10.0]
            assert await store.matches_of("bot-1") == []  # a computer player has no list
            assert await store.matches_of("nobody") == []
            with pytest.raises(ValueError):
                await store.matches_of("ana", -1)

    run(go)


def test_a_page_id_another_match_has_is_refused_and_keeps_nothing(
    open_store: StoreOpener,
) -> None:
    async def go() -> None:
        async with open_store() as store:
            await store.create_room("ROOM", "pitacor", public=False, created_at=1.0)
            await store.append("ROOM", entries(1, 4))
            log = MatchLog(1, 4, b"{}")
            await store.record_finished_match(_kept("ROOM", "C" * 16, 10.0, ["ana"]), log)
            with pytest.raises(MatchExists):
                await store.record_finished_match(_kept("ROOM", "C" * 16, 20.0, ["bo"]), log)
            kept = await store.load_match("C" * 16)
            assert kept is not None and kept.match.ended_at == 10.0 and len(kept.entries) == 4
            assert await store.matches_of("bo") == []
            with pytest.raises(ValueError):
                await store.record_finished_match(
                    _kept("ROOM", "D" * 16, 10.0, []), MatchLog(4, 2, b"{}")
                )

    run(go)


def test_retention_removes_a_match_with_its_records_and_players(open_store: StoreOpener) -> None:
    async def go() -> None:
        async with open_store() as store:
            await store.create_room("ROOM", "pitacor", public=False, created_at=1.0)
            await store.append("ROOM", entries(1, 30))
            await store.record_finished_match(
                _kept("ROOM", "E" * 16, 100.0, ["ana"]), MatchLog(1, 30, b"{}")
            )
            await store.record_finished_match(
                _kept("ROOM", "F" * 16, 900.0, ["ana"]), MatchLog(2, 3, b"{}")
            )
            calls = []
            while removed := await store.remove_older_than(500.0, limit=7):
                calls.append(removed)
            assert sum(calls) == 30 + 1  # its records and its row (its players uncounted)
            assert await store.load_match("E" * 16) is None
            assert [m.public_id for m in await store.matches_of("ana")] == ["F" * 16]
            kept = await store.load_match("F" * 16)
            assert kept is not None and [e.seq for e in kept.entries] == [2, 3]

    run(go)
