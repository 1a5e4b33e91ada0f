"""Decisions run off the event loop (point 6: "a bot decision must never block the event
loop")."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from bot_helpers import players

from tertulia.bots import base
from tertulia.bots.base import DecisionRunner, Level
from tertulia.games import pitacor


def _view() -> dict:
    state = pitacor.start(pitacor.Settings(), players(3), 4, 1000.0)
    return pitacor.view(state, state.round.giver)


def test_a_decision_from_the_runner_is_the_bots_own() -> None:
    view = _view()
    runner = DecisionRunner(ThreadPoolExecutor(max_workers=1))
    got = asyncio.run(runner.decide("pitacor", view, language="en", level=Level.GOOD, seed=9))
    direct = base.bot_for("pitacor")(view, language="en", level=Level.GOOD, rng=random.Random(9))
    assert got == direct


def test_the_loop_keeps_running_while_a_worker_process_decides() -> None:
    """The default worker is a process: the loop ticks while the bot thinks."""

    async def scenario() -> tuple[dict, int]:
        runner = DecisionRunner()
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        try:
            action = await runner.decide(
                "pitacor", _view(), language="pl", level=Level.GOOD, seed=1
            )
        finally:
            task.cancel()
            runner.close()
        return action, ticks

    action, ticks = asyncio.run(scenario())
    assert action["type"] == "choose_target"
    assert ticks > 5  # the worker's start and its decision took many loop turns


def test_no_bot_for_pinto() -> None:
    """ "Pintó says it has no computer players (drawing is for people)." """
    with pytest.raises(KeyError):
        base.bot_for("pinto")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        base.check_language("fr")
