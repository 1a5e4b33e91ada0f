"""Finished matches are kept and come back newest first."""

from __future__ import annotations

import msgspec
import pytest
from store_testing import StoreOpener, run

from tertulia.store import FinishedMatch


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
