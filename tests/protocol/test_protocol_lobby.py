"""The host's messages (docs/protocol.md: "Host only, in the lobby"): choosing the game, its
settings, the order, removing someone, starting and the rematch, with the lobby rules'
refusals (``room.host_only``, ``room.not_in_lobby``, ``room.no_match``, ``room.not_ended``),
the host's input's and the seats'. Raw frames only, on the shared server, playing the tiny
example game (2–3 players; the first to reach the target wins)."""

from __future__ import annotations

import pytest
from raw_client import Clients, room_of, run

HOST_ONLY = [
    ("choose_game", {"game": "pitacor"}),
    ("update_settings", {"settings": {"target": 5}}),
    ("restore_defaults", {}),
    ("reorder", {"order": []}),
    ("kick", {"player": "someone"}),
    ("add_bot", {"level": "good", "language": "en"}),
    ("remove_bot", {"player": "bot-000000000000"}),
    ("start_match", {}),
    ("rematch", {}),
]


async def _play_to_the_end(players) -> None:
    """Add 3 on each turn until someone reaches the target (3 by the caller's settings)."""
    host = players[0]
    while host.picture.room["status"] == "playing":
        turn = host.picture.view["turn"]
        player = next(p for p in players if p.player == turn)
        version = host.picture.version
        await player.ok("act", action={"type": "add", "amount": 3})
        await host.push(lambda held, version=version: held.version > version)


@pytest.mark.covers("room.host_only", *(kind for kind, _ in HOST_ONLY))
def test_only_the_host_may_run_the_lobby(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            version = ana.picture.version
            for kind, fields in HOST_ONLY:
                await bo.refused(kind, "room.host_only", **fields)
            _, fresh = await ana.sync()
            assert fresh.version == version  # nothing changed

    run(go())


@pytest.mark.covers("choose_game", "room.unknown_game")
def test_choose_game_switches_the_game_and_its_default_settings(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.ok("update_settings", settings={"target": 5})
            start = len(bo.frames)
            assert await ana.ok("choose_game", game="pitacor") is None
            held = await bo.push(lambda held: held.room["game"] == "pitacor", start)
            room = held.room
            assert (room["min_players"], room["max_players"], room["bots"]) == (3, 10, True)
            assert room["settings"]["goal"] == 25 and "target" not in room["settings"]
            await ana.refused("choose_game", "room.unknown_game", game="chess")
            await ana.ok("choose_game", game="tiny")
            held = await bo.push(lambda held: held.room["game"] == "tiny", start)
            assert held.room["settings"] == {"target": 10, "turn_seconds": 30}

    run(go())


@pytest.mark.covers("update_settings", "restore_defaults", "settings.unknown", "settings.invalid")
def test_update_settings_changes_the_fields_named_and_restore_defaults_all(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            start = len(bo.frames)
            assert await ana.ok("update_settings", settings={"target": 5}) is None
            held = await bo.push(lambda held: held.room["settings"]["target"] == 5, start)
            assert held.room["settings"] == {"target": 5, "turn_seconds": 30}
            error = await ana.refused("update_settings", "settings.unknown", settings={"goal": 3})
            assert error["params"] == {"field": "goal"}
            for wrong in ({"target": 1}, {"target": "five"}, {"turn_seconds": -1}):
                await ana.refused("update_settings", "settings.invalid", settings=wrong)
            assert await ana.ok("restore_defaults") is None
            held = await bo.push(lambda held: held.room["settings"]["target"] == 10, start)
            assert held.room["settings"] == {"target": 10, "turn_seconds": 30}

    run(go())


@pytest.mark.covers("update_settings", "settings.public_forced")
def test_a_public_room_keeps_what_its_game_fixes_there(shared, address):
    """Pitacor's profanity filter stays on in a public room."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana,) = await room_of(clients, "pitacor", "Ana", public=True)
            error = await ana.refused(
                "update_settings", "settings.public_forced", settings={"ban_profanity": False}
            )
            assert error["params"] == {"field": "ban_profanity"}
            await ana.ok("update_settings", settings={"ban_profanity": True, "goal": 10})
            _, (bo,) = await room_of(clients, "pitacor", "Bo")  # a private room may
            await bo.ok("update_settings", settings={"ban_profanity": False})

    run(go())


@pytest.mark.covers("reorder", "room.bad_order")
def test_reorder_sets_the_seats_order_which_must_name_everyone_once(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo, cy) = await room_of(clients, "tiny", "Ana", "Bo", "Cy")
            order = [cy.player, ana.player, bo.player]
            start = len(bo.frames)
            assert await ana.ok("reorder", order=order) is None
            held = await bo.push(lambda held: [s["id"] for s in held.room["seats"]] == order, start)
            assert held.room["host"] == ana.player
            for wrong in (
                [cy.player, ana.player],
                [cy.player, ana.player, bo.player, bo.player],
                [cy.player, ana.player, "nobody"],
            ):
                await ana.refused("reorder", "room.bad_order", order=wrong)

    run(go())


@pytest.mark.covers(
    "kick", "room.kicked", "notice", "room.removed", "room.kick_self", "room.no_seat"
)
def test_kick_removes_a_player_who_is_told_and_barred_from_the_room(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo, cy) = await room_of(clients, "tiny", "Ana", "Bo", "Cy")
            start = len(cy.frames)
            assert await ana.ok("kick", player=bo.player) is None
            notice = await bo.wait_for(lambda f: f["type"] == "notice")
            assert notice["code"] == "room.kicked" and notice["params"] == {}
            await cy.push(lambda held: not held.has_seat(bo.player), start)
            await bo.refused("join_room", "room.removed", code=code, nickname="Bo")
            await bo.refused("join_room", "room.no_seat", code=code, nickname="Bo", resume=True)
            again = await clients.hello("bo again", token=bo.token)
            await again.refused("join_room", "room.removed", code=code, nickname="Bob")
            await ana.refused("kick", "room.kick_self", player=ana.player)
            # A cleared browser is a stranger: in again, and the host may remove them again.
            fresh = await clients.hello("bo, a stranger now")
            await fresh.ok("join_room", code=code, nickname="Bo")

    run(go())


@pytest.mark.covers("start_match", "match.player_count", "room.not_in_lobby")
def test_start_match_starts_the_game_for_everyone(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (alone,) = await room_of(clients, "tiny", "Alone")
            error = await alone.refused("start_match", "match.player_count")
            assert error["params"] == {"min": 2, "max": 3, "count": 1}
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            start = len(bo.frames)
            assert await ana.ok("start_match") is None
            held = await bo.push(lambda held: held.room["status"] == "playing", start)
            assert held.view is not None and held.view["game"] == "tiny"
            assert held.view["secret"] is not None  # the seat's own view
            for kind, fields in [
                ("start_match", {}),
                ("choose_game", {"game": "pitacor"}),
                ("update_settings", {"settings": {"target": 5}}),
                ("restore_defaults", {}),
                ("reorder", {"order": [bo.player, ana.player]}),
                ("add_bot", {}),
                ("remove_bot", {"player": "bot-000000000000"}),
            ]:
                await ana.refused(kind, "room.not_in_lobby", **fields)

    run(go())


@pytest.mark.covers("rematch", "room.not_ended", "room.no_match", "patch")
def test_rematch_after_the_end_returns_everyone_to_the_lobby_with_the_same_settings(
    shared, address
):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.refused("rematch", "room.not_ended")
            await ana.refused("act", "room.no_match", action={"type": "add", "amount": 1})
            await ana.refused("check", "room.no_match", action={"type": "add", "amount": 1})
            await ana.ok("update_settings", settings={"target": 3, "turn_seconds": 0})
            await ana.ok("start_match")
            await ana.push(lambda held: held.view is not None)
            await ana.refused("rematch", "room.not_ended")
            await _play_to_the_end([ana, bo])
            assert ana.picture.room["status"] == "ended"
            assert ana.picture.view["winner"] in (ana.player, bo.player)  # the podium
            start = len(bo.frames)
            assert await ana.ok("rematch") is None
            held = await bo.push(lambda held: held.room["status"] == "lobby", start)
            assert held.view is None  # "the view becomes null back in the lobby"
            assert held.room["settings"] == {"target": 3, "turn_seconds": 0}
            patch = next(f for f in bo.frames[start:] if f["type"] == "patch")
            assert {"op": "replace", "path": "", "value": None} in patch["view"]

    run(go())


@pytest.mark.covers("start_match", "action.not_a_player")
def test_a_newcomer_past_the_games_seats_watches(shared, address):
    """Tiny seats three and refuses late joiners: a fourth in the lobby, or anyone during a
    match, joins as a spectator, whose game actions are not a player's."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, _bo, _cy, dee) = await room_of(clients, "tiny", "Ana", "Bo", "Cy", "Dee")
            assert ana.picture.seat(dee.player)["spectator"] is True
            await ana.ok("start_match")
            eve = await clients.hello("eve")
            await eve.ok("join_room", code=code, nickname="Eve")
            held = await eve.push(lambda held: held.view is not None)
            assert held.seat(eve.player)["spectator"] is True
            assert held.view["secret"] is None  # a spectator's view
            error = await eve.refused(
                "act", "action.not_a_player", action={"type": "add", "amount": 1}
            )
            assert error["message"]

    run(go())
