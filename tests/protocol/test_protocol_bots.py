"""Computer players (docs/protocol.md, "Computer players" and "play for them"): ``add_bot``,
``remove_bot``, ``stand_in`` and ``end_stand_in``, the seats they show and their refusals.
Raw frames only, on the shared server, whose bots never move (the suite checks the protocol,
not their play: see conftest)."""

from __future__ import annotations

import pytest
from raw_client import Clients, room_of, run


def _bots(held) -> list[dict]:
    return [s for s in held.room["seats"] if s["bot"]]


@pytest.mark.covers("add_bot", "remove_bot", "bot.not_a_bot")
def test_the_host_seats_and_removes_computer_players(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "pitacor", "Ana", "Bo")
            assert ana.picture.room["bots"] is True  # the lobby shows "Add computer player"
            start = len(bo.frames)
            assert await ana.ok("add_bot", level="beginner", language="es") is None
            assert await ana.ok("add_bot") is None  # "good" by default
            held = await bo.push(lambda held: len(_bots(held)) == 2, start)
            first, second = _bots(held)
            assert (first["level"], second["level"]) == ("beginner", "good")
            names = [s["nickname"] for s in held.room["seats"]]
            assert len({n.casefold() for n in names}) == len(names)  # a name nobody has
            for bot in (first, second):
                assert bot["id"].startswith("bot-") and bot["online"] is True
                assert bot["spectator"] is False and bot["host"] is False
                assert bot["stand_in"] is None
            assert sorted(s["colour"] for s in held.room["seats"]) == [0, 1, 2, 3]
            await ana.ok("start_match")  # two people and a bot: Pitacor's three
            await ana.push(lambda held: held.view is not None)
            _, (cy,) = await room_of(clients, "pitacor", "Cy")
            await cy.ok("add_bot")
            bot = (await cy.push(lambda held: len(_bots(held)) == 1)).room["seats"][1]
            await cy.refused("remove_bot", "bot.not_a_bot", player=cy.player)
            await cy.refused("remove_bot", "bot.not_a_bot", player="bot-000000000000")
            start = len(cy.frames)
            assert await cy.ok("remove_bot", player=bot["id"]) is None
            await cy.push(lambda held: not _bots(held), start)

    run(go())


@pytest.mark.covers("add_bot", "bot.no_bots", "bot.level", "bot.language", "room.full")
def test_add_bot_refusals(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana,) = await room_of(clients, "tiny", "Ana")
            assert ana.picture.room["bots"] is False
            error = await ana.refused("add_bot", "bot.no_bots")
            assert error["params"] == {"game": "tiny"}
            _, (bo,) = await room_of(clients, "pitacor", "Bo")
            await bo.refused("add_bot", "bot.level", level="expert")
            await bo.refused("add_bot", "bot.language", language="fr")
            for _ in range(9):  # Pitacor seats ten
                await bo.ok("add_bot", language="pl")
            await bo.refused("add_bot", "room.full")
            held = await bo.push(lambda held: len(held.room["seats"]) == 10)
            assert len(_bots(held)) == 9

    run(go())


@pytest.mark.covers("choose_game", "add_bot")
def test_choosing_a_game_without_computer_players_sends_the_bots_away(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "pitacor", "Ana", "Bo")
            await ana.ok("add_bot")
            await bo.push(lambda held: len(_bots(held)) == 1)
            await ana.ok("choose_game", game="tiny")
            held = await bo.push(lambda held: held.room["game"] == "tiny")
            assert not _bots(held) and held.room["bots"] is False
            assert [s["nickname"] for s in held.room["seats"]] == ["Ana", "Bo"]

    run(go())


@pytest.mark.covers(
    "stand_in",
    "end_stand_in",
    "room.no_match",
    "room.host_only",
    "bot.not_a_player",
    "bot.player_here",
    "bot.already_standing_in",
    "bot.not_standing_in",
    "bot.level",
    "bot.language",
)
def test_the_host_hands_a_dropped_seat_to_a_computer_player_and_takes_it_back(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo, cy) = await room_of(clients, "pitacor", "Ana", "Bo", "Cy")
            await ana.ok("add_bot")
            bot = _bots(await ana.push(lambda held: len(_bots(held)) == 1))[0]
            for kind, fields in [("stand_in", {"player": bo.player}), ("end_stand_in", {})]:
                await ana.refused(kind, "room.no_match", **{"player": bo.player, **fields})
            await ana.ok("start_match")
            await cy.push(lambda held: held.view is not None)
            await ana.refused("stand_in", "bot.player_here", player=bo.player)
            await ana.refused("stand_in", "bot.not_a_player", player=bot["id"])
            await ana.refused("stand_in", "bot.not_a_player", player="nobody")
            await bo.close()
            await cy.push(lambda held: not held.seat(bo.player)["online"])  # the grace ran out
            await ana.refused("end_stand_in", "bot.not_standing_in", player=bo.player)
            await cy.refused("stand_in", "room.host_only", player=bo.player)
            await ana.refused("stand_in", "bot.level", player=bo.player, level="expert")
            await ana.refused("stand_in", "bot.language", player=bo.player, language="fr")
            start = len(cy.frames)
            data = await ana.ok("stand_in", player=bo.player, level="good", language="en")
            assert data is None
            held = await cy.push(lambda held: held.seat(bo.player)["stand_in"] == "good", start)
            assert held.seat(bo.player)["online"] is False  # the player is still away
            await ana.refused("stand_in", "bot.already_standing_in", player=bo.player)
            await cy.refused("end_stand_in", "room.host_only", player=bo.player)
            assert await ana.ok("end_stand_in", player=bo.player) is None
            held = await cy.push(lambda held: held.seat(bo.player)["stand_in"] is None, start)
            assert held.seat(bo.player)["online"] is False  # waits for its player again
            await ana.ok("stand_in", player=bo.player)  # and may be handed over again
            await cy.push(lambda held: held.seat(bo.player)["stand_in"] == "good")
            start = len(cy.frames)
            back = await clients.hello("bo back", token=bo.token)
            await back.ok("join_room", code=code, nickname="Bo")  # "takes it back at once"
            held = await cy.push(lambda held: held.seat(bo.player)["stand_in"] is None, start)
            assert held.seat(bo.player)["online"] is True

    run(go())


@pytest.mark.covers("stand_in", "bot.no_bots")
def test_no_stand_in_in_a_game_without_computer_players(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.ok("start_match")
            start = len(ana.frames)
            await bo.close()
            await ana.push(lambda held: not held.seat(bo.player)["online"], start)
            error = await ana.refused("stand_in", "bot.no_bots", player=bo.player)
            assert error["params"] == {"game": "tiny"}

    run(go())
