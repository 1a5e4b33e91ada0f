"""Patches give exactly the whole picture (docs/protocol.md: "Applying them gives exactly the
picture a room push would carry, key order included").

Each connection applies every ``patch`` to the picture it holds (RFC 6902, written in this
suite: ``json_patch``), as an outside client would; at each checkpoint every connection
asks for the whole picture again (``sync``) and the two must be the same, at the same
version. Through joins, settings, the start, game moves, drops and returns, a quick
reconnection, leaving and removal, spectators, a rematch, a move to another room and back,
and a whole Pitacor round (whose views hold lists that grow and change).
"""

from __future__ import annotations

import pytest
from raw_client import Clients, Raw, room_of, run, same_picture


async def _checkpoint(*raws: Raw) -> None:
    """Every connection's patched picture is the whole one ``sync`` sends, and every patch it
    got fitted the picture it held."""
    for raw in raws:
        assert not raw.ignored, f"{raw.name}: patches that did not fit: {raw.ignored}"
        held, fresh = await raw.sync()
        try:
            same_picture(held, fresh)
        except AssertionError as error:
            raise AssertionError(f"{raw.name} at version {held.version}: {error}") from None


async def _move(players: list[Raw], amount: int = 1) -> None:
    """Whoever's turn it is in tiny adds ``amount``; until everyone has the change."""
    host = players[0]
    version = host.picture.version
    turn = host.picture.view["turn"]
    mover = next(p for p in players if p.player == turn)
    await mover.ok("act", action={"type": "add", "amount": amount})
    for raw in players:
        await raw.push(lambda held: held.version > version)


async def _dropped(player: Raw, *watchers: Raw) -> None:
    """``player`` closes its connection, and the room says it dropped (the grace ran out)."""
    starts = [len(w.frames) for w in watchers]
    await player.close()
    for watcher, start in zip(watchers, starts, strict=True):
        await watcher.push(lambda held: not held.seat(player.player)["online"], start)


@pytest.mark.covers("patch", "sync", "join_room", "join_room.resume", "act", "start_match")
def test_patches_through_joins_settings_moves_drops_and_returns(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await _checkpoint(ana, bo)
            await ana.ok("update_settings", settings={"target": 40, "turn_seconds": 0})
            await ana.ok("chat", text="hello")
            cy = await clients.hello("cy")
            await cy.ok("join_room", code=code, nickname="Cy")
            await ana.ok("reorder", order=[cy.player, ana.player, bo.player])
            await ana.push(lambda held: held.room["seats"][0]["id"] == cy.player)
            await _checkpoint(ana, bo, cy)
            await ana.ok("start_match")  # the view goes from null to the game's
            for raw in (ana, bo, cy):
                await raw.push(lambda held: held.view is not None)
            await _checkpoint(ana, bo, cy)
            for amount in (1, 2, 3, 1):
                await _move([ana, bo, cy], amount)
            await _checkpoint(ana, bo, cy)
            await _dropped(bo, ana, cy)
            await _checkpoint(ana, cy)
            await _move([ana, cy], 2)
            start = len(ana.frames)
            back = await clients.hello("bo back", token=bo.token)
            await back.ok("join_room", code=code, nickname="Bo", resume=True)
            await ana.push(lambda held: held.seat(bo.player)["online"], start)
            await _checkpoint(ana, back, cy)
            dee = await clients.hello("dee")  # mid-match: a spectator
            await dee.ok("join_room", code=code, nickname="Dee")
            await ana.push(lambda held: held.has_seat(dee.player))
            await _move([ana, back, cy, dee], 3)
            await _checkpoint(ana, back, cy, dee)

    run(go())


@pytest.mark.covers("patch", "sync", "join_room.resume")
def test_patches_through_a_reconnection_within_the_drop_grace(shared, address):
    """Bo's connection closes and he is back before the grace runs out (a phone's network
    coming and going), while the game moves on: nobody's picture may keep what the
    patches said meanwhile if the whole picture says otherwise."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo, cy) = await room_of(clients, "tiny", "Ana", "Bo", "Cy")
            await ana.ok("update_settings", settings={"target": 40, "turn_seconds": 0})
            await ana.ok("start_match")
            for raw in (ana, bo, cy):
                await raw.push(lambda held: held.view is not None)
            turn = ana.picture.view["turn"]
            if turn == bo.player:
                await _move([ana, bo, cy])
            await bo.close()
            await _move([ana, cy])  # a change while Bo is away, within his grace
            back = await clients.hello("bo back", token=bo.token)
            await back.ok("join_room", code=code, nickname="Bo", resume=True)
            await _checkpoint(ana, back, cy)  # right away: the next change would hide it
            await _move([ana, back, cy])
            await _checkpoint(ana, back, cy)

    run(go())


@pytest.mark.covers("patch", "sync", "leave_room", "kick")
def test_patches_through_leaving_and_removal(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _code, (ana, bo, cy) = await room_of(clients, "tiny", "Ana", "Bo", "Cy")
            start = len(ana.frames)
            await bo.ok("leave_room")
            await ana.push(lambda held: not held.has_seat(bo.player), start)
            await _checkpoint(ana, cy)
            start = len(ana.frames)
            await ana.ok("kick", player=cy.player)
            await ana.push(lambda held: not held.has_seat(cy.player), start)
            await _checkpoint(ana)

    run(go())


@pytest.mark.covers("patch", "sync", "rematch", "create_room", "join_room")
def test_patches_through_the_end_a_rematch_and_a_move_to_another_room(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.ok("update_settings", settings={"target": 3, "turn_seconds": 0})
            await ana.ok("start_match")
            await bo.push(lambda held: held.view is not None)
            while ana.picture.room["status"] == "playing":
                await _move([ana, bo], 3)
            await _checkpoint(ana, bo)  # the podium
            start = len(bo.frames)
            await ana.ok("rematch")  # back in the lobby: the view becomes null
            await bo.push(lambda held: held.view is None, start)
            await _checkpoint(ana, bo)
            await bo.ok("create_room", game="tiny", nickname="Bo")
            await _checkpoint(bo)
            await bo.ok("join_room", code=code, nickname="Bo")
            await ana.ok("set_nickname", nickname="Ann")
            await bo.push(lambda held: held.seat(ana.player)["nickname"] == "Ann")
            await _checkpoint(ana, bo)

    run(go())


def _phase(held) -> str | None:
    return held.view["phase"] if held.view is not None else None


@pytest.mark.covers("patch", "sync", "act")
def test_patches_through_a_pitacor_round(shared, address):
    """Pitacor's views change in many places at once: clues and markers lists grow, the
    board's selection comes and goes, a round is filed into the history."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            _, players = await room_of(clients, "pitacor", "Ana", "Bo", "Cy")
            ana = players[0]
            await ana.ok("start_match")
            for raw in players:
                await raw.push(lambda held: held.view is not None)
            giver = next(p for p in players if p.player == ana.picture.view["giver"])
            guessers = [p for p in players if p is not giver]
            await _checkpoint(*players)

            async def everyone_at(phase: str) -> None:
                for raw in players:
                    await raw.push(lambda held: _phase(held) == phase)

            await giver.ok("act", action={"type": "choose_target", "index": 1})
            await everyone_at("clue1")
            await giver.ok("act", action={"type": "give_clue", "text": "ocean"})
            await everyone_at("guess1")
            await _checkpoint(*players)
            for guesser, cell in zip(guessers, ("H12", "J3"), strict=True):
                await guesser.ok("act", action={"type": "select_cell", "cell": cell})
                await _checkpoint(*players)
                await guesser.ok("act", action={"type": "confirm"})
            await everyone_at("clue2")
            await _checkpoint(*players)
            await giver.ok("act", action={"type": "give_clue", "text": "sky"})
            await everyone_at("guess2")
            for guesser, cell in zip(guessers, ("C5", "D7"), strict=True):
                await guesser.ok("act", action={"type": "select_cell", "cell": cell})
                await guesser.ok("act", action={"type": "confirm"})
            await everyone_at("reveal")
            await _checkpoint(*players)
            starter = next(p for p in players if p.player == ana.picture.view["next_giver"])
            await starter.ok("act", action={"type": "next_round"})
            await everyone_at("choose")
            await _checkpoint(*players)

    run(go())
