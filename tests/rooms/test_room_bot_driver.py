"""The bot driver on its own: what it asks a bot, when it sends the answer, and when it drops
it. A small stand-in room folds what the driver submits (the real room's path is tested over
WebSockets in tests/server/test_server_bots.py); the runner is scripted, so each test decides
what the bot answers and when."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.protocol import Ack, Act, Error
from tertulia.rooms import model, records, room_data
from tertulia.rooms.bot_driver import BotDriver

DELAY = (0.05, 0.05)


class LittleRoom:
    """What the driver uses of a room: its model, its connections, ``submit``."""

    def __init__(self, people: tuple[str, ...] = ("Ana",)) -> None:
        self.model = _pitacor_with_ana_giving(people)
        self.peers = {"ana's tab"}
        self.closed = False
        self.code = self.model.code
        self.submitted: list[tuple[str, dict]] = []
        self.driver: BotDriver | None = None

    @property
    def game(self) -> Any:
        return self.model.game

    def submit(self, peer, message: Act) -> None:
        self.submitted.append((peer.player, message.action))
        try:
            self.change(records.GameMove(at=time.time(), seat=peer.player, action=message.action))
        except RuleError as error:
            peer.send(Error(message.id, error.code, error.message))
            return
        peer.send(Ack(message.id))

    def change(self, record: records.Record) -> None:
        model.fold(self.model, record)
        if self.driver is not None:
            self.driver.poke()  # as the room does after every change it tells


def _pitacor_with_ana_giving(people: tuple[str, ...]) -> room_data.RoomModel:
    for seed in range(100):
        room = room_data.new_room("BQTR", False, "pitacor", GAMES)
        for name in people:
            joined = records.Joined(at=1, player=name.lower(), nickname=name, played=["pitacor"])
            model.fold(room, joined)
        for n in (1, 2):
            model.fold(room, records.BotAdded(2, "ana", f"bot-{n}", f"Bot {n}", "good", "en"))
        model.fold(room, records.MatchStarted(at=3, by="ana", seed=seed))
        if room.match.round.giver == "ana":
            return room
    raise AssertionError("no seed makes Ana the first giver")


class Scripted:
    """A runner whose bot answers with ``answer(seat, view, call)``; every call is kept."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.calls: list[tuple[str, dict, int]] = []

    async def decide(self, game, view, *, language, level, seed):
        seat = view["you"]["seat"]
        self.calls.append((seat, view, seed))
        result = self.answer(seat, view, len(self.calls))
        return await result if asyncio.iscoroutine(result) else result


def _drive(room: LittleRoom, runner: Scripted) -> BotDriver:
    room.driver = BotDriver(room, runner, DELAY)  # type: ignore[arg-type]
    return room.driver


async def _settle(driver: BotDriver, timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while driver.playing:
        assert time.monotonic() < end, "the bots never settled"
        await asyncio.sleep(0.01)


def _give_clue(room: LittleRoom) -> None:
    room.change(records.GameMove(at=4, seat="ana", action={"type": "choose_target", "index": 0}))
    room.change(records.GameMove(at=5, seat="ana", action={"type": "give_clue", "text": "ocean"}))


def test_each_bot_seat_is_asked_with_its_own_view():
    async def go():
        room = LittleRoom()
        runner = Scripted(lambda seat, view, n: None)
        _drive(room, runner).poke()
        await _settle(room.driver)
        assert sorted(seat for seat, _, _ in runner.calls) == ["bot-1", "bot-2"]
        for seat, view, _ in runner.calls:
            assert view == room.game.view(room.model.match, seat)
        assert room.submitted == []  # the giver is Ana: the bots had nothing to do

    asyncio.run(go())


def test_a_bot_moves_after_its_delay_through_the_room():
    async def go():
        room = LittleRoom()
        _give_clue(room)
        cell = {"bot-1": "A1", "bot-2": "P30"}

        def answer(seat, view, n):
            if view["you"]["to_do"] is None or view["selection"] is not None:
                return None
            return {"type": "select_cell", "cell": cell[seat]}

        began = time.monotonic()
        _drive(room, Scripted(answer)).poke()
        await _settle(room.driver)
        assert sorted(room.submitted) == [
            ("bot-1", {"type": "select_cell", "cell": "A1"}),
            ("bot-2", {"type": "select_cell", "cell": "P30"}),
        ]
        assert time.monotonic() - began >= DELAY[0]
        assert room.model.match.round.selections == {"bot-1": "A1", "bot-2": "P30"}

    asyncio.run(go())


def test_a_decision_on_a_view_that_moved_on_is_dropped_and_asked_again():
    async def go():
        room = LittleRoom()
        moved = asyncio.Event()

        async def answer(seat, view, n):
            if seat == "bot-1" and n <= 2:  # the first look, while Ana is still choosing
                await moved.wait()
                return {"type": "select_cell", "cell": "A1"}  # stale by now
            return None

        runner = Scripted(answer)
        _drive(room, runner).poke()
        await asyncio.sleep(0.01)
        _give_clue(room)  # everyone's view changes while bot-1 thinks
        moved.set()
        await _settle(room.driver)
        assert room.submitted == []
        firsts = [v for s, v, _ in runner.calls if s == "bot-1"]
        assert firsts[0]["phase"] != firsts[-1]["phase"]  # asked again on the new view

    asyncio.run(go())


def test_a_refused_move_is_asked_again_with_a_new_seed():
    async def go():
        room = LittleRoom()
        _give_clue(room)

        def answer(seat, view, n):
            if seat != "bot-1" or view["selection"] is not None:
                return None
            tries = sum(1 for s, _, _ in runner.calls if s == "bot-1")
            return {"type": "select_cell", "cell": "Z99" if tries == 1 else "B2"}

        runner = Scripted(answer)
        _drive(room, runner).poke()
        await _settle(room.driver)
        assert [a["cell"] for s, a in room.submitted if s == "bot-1"] == ["Z99", "B2"]
        seeds = [seed for s, _, seed in runner.calls if s == "bot-1"]
        assert len(set(seeds)) == len(seeds)
        assert room.model.match.round.selections == {"bot-1": "B2"}

    asyncio.run(go())


def test_bots_wait_while_nobody_is_connected():
    async def go():
        room = LittleRoom()
        room.peers = set()
        runner = Scripted(lambda seat, view, n: None)
        _drive(room, runner).poke()
        await asyncio.sleep(0.1)
        assert runner.calls == []
        room.peers = {"ana's tab"}  # someone comes in: the room pokes its bots
        room.driver.poke()
        await _settle(room.driver)
        assert {s for s, _, _ in runner.calls} == {"bot-1", "bot-2"}

    asyncio.run(go())


@pytest.mark.parametrize("level", ["good", "beginner"])
def test_a_player_who_comes_back_mid_delay_keeps_their_move(level):
    """The bot playing for Bo thought of a move; Bo came back before it was sent: the seat
    is Bo's again, and the bot sends nothing."""

    async def go():
        room = LittleRoom(("Ana", "Bo"))
        room.change(records.Presence(at=3.5, player="bo", online=False))
        room.change(records.StandIn(at=3.6, by="ana", player="bo", level=level, language="en"))
        _give_clue(room)
        asked = asyncio.Event()

        async def answer(seat, view, n):
            if seat == "bo":
                asked.set()
                return {"type": "select_cell", "cell": "C3"}
            return None

        _drive(room, Scripted(answer)).poke()
        await asked.wait()
        room.change(records.Presence(at=6, player="bo", online=True))  # Bo is back
        await _settle(room.driver)
        assert ("bo", {"type": "select_cell", "cell": "C3"}) not in room.submitted

    asyncio.run(go())


@pytest.mark.parametrize("level", ["beginner", "good"])
def test_a_stand_in_plays_at_the_hosts_level_and_the_points_stay_the_players(level):
    """Issue 32, "in the room": a bot standing in for a dropped player is asked at the level
    the host chose, for that player's seat, and what it scores is the player's, on top of
    what they had."""

    async def go():
        room = LittleRoom(people=("Ana", "Bo"))
        _member(room, "bo").score = 7  # points Bo made before dropping out
        room.change(records.Presence(at=4, player="bo", online=False))
        room.change(records.StandIn(at=5, by="ana", player="bo", level=level, language="en"))
        _give_clue(room)
        target = room.model.match.round.target
        levels: dict[str, str] = {}

        class Recording(Scripted):
            async def decide(self, game, view, *, language, level, seed):
                levels[view["you"]["seat"]] = level.value
                return await super().decide(game, view, language=language, level=level, seed=seed)

        def answer(seat, view, n):
            if seat != "bo" or view["you"]["to_do"] != "place_marker":
                return None
            return (
                {"type": "confirm"}
                if view["selection"]
                else {"type": "select_cell", "cell": target}
            )

        _drive(room, Recording(answer)).poke()
        await _settle(room.driver)
        assert levels["bo"] == level and levels["bot-1"] == "good"
        assert ("bo", {"type": "select_cell", "cell": target}) in room.submitted
        free = [c for c in ("A1", "A3") if c != target]
        for seat, cell in zip(("bot-1", "bot-2"), free, strict=False):
            for action in ({"type": "select_cell", "cell": cell}, {"type": "confirm"}):
                room.change(records.GameMove(at=7, seat=seat, action=action))
        room.change(records.GameMove(at=8, seat="ana", action={"type": "pass_clue"}))
        assert room.model.match.round.points["bo"] == 3  # the bot's marker, Bo's points
        assert _member(room, "bo").score == 7 + 3

    asyncio.run(go())


def _member(room: LittleRoom, player: str):
    return next(m for m in room.model.match.members if m.id == player)
