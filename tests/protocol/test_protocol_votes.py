"""Votes to remove a player (docs/protocol.md, "Votes to remove"): ``vote_remove``,
``vote``, ``allow_votes`` and ``hide_name`` with every refusal, the vote in the picture, the
notice of the removed and their identity's and address's bar. Raw frames only, on the shared
server (a vote runs its 30 s there: the tests decide every vote before its clock; the clock
itself is tests/rooms/test_room_votes.py's)."""

from __future__ import annotations

import pytest
from raw_client import Clients, room_of, run


def _events(raw, kind: str, start: int = 0) -> list[dict]:
    return [
        event
        for frame in raw.frames[start:]
        if frame["type"] in ("room", "patch")
        for event in frame["events"]
        if event["kind"] == kind
    ]


@pytest.mark.covers("vote_remove", "vote", "room.voted_out", "notice")
def test_a_majority_of_the_others_votes_a_player_out_who_may_not_come_back(
    shared, address, another_address
):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo, cy, di) = await room_of(
                clients, "pitacor", "Ana", "Bo", "Cy", "Di", public=True
            )
            assert ana.picture.room["votes"] == {"allowed": True, "running": None}
            start = len(ana.frames)
            assert await cy.ok("vote_remove", player=bo.player, reason="spoiling") is None
            held = await ana.push(lambda held: held.room["votes"]["running"] is not None, start)
            running = held.room["votes"]["running"]
            assert {k: running[k] for k in ("by", "player", "reason", "voted")} == {
                "by": cy.player,
                "player": bo.player,
                "reason": "spoiling",
                "voted": [],
            }
            assert running["voters"] == [ana.player, di.player]
            assert isinstance(running["deadline"], float) and running["vote"] >= 1
            (started,) = _events(ana, "removal.started", start)
            assert started["player"] == bo.player and started["by"] == cy.player
            assert await ana.ok("vote", yes=True) is None
            held = await di.push(lambda held: held.room["votes"]["running"]["voted"])
            assert held.room["votes"]["running"]["voted"] == [ana.player]  # who, never how
            assert await di.ok("vote", yes=True) is None
            notice = await bo.wait_for(lambda f: f["type"] == "notice")
            assert notice["code"] == "room.voted_out" and notice["params"] == {"minutes": 60}
            held = await ana.push(lambda held: not held.has_seat(bo.player), start)
            assert held.room["votes"]["running"] is None
            (ended,) = _events(ana, "removal.ended", start)
            assert (ended["result"], ended["yes"], ended["no"], ended["voters"]) == (
                "removed",
                2,
                0,
                2,
            )
            # Their identity may not come back, nor a new player from their address.
            error = await bo.refused("join_room", "room.voted_out", code=code, nickname="Bo")
            assert error["params"] == {"minutes": 60}
            fresh = await clients.hello("a new browser, same address")
            error = await fresh.refused("join_room", "room.voted_out", code=code, nickname="B0")
            assert error["params"] == {"minutes": 15}
            # Those seated there keep their seats; another address is welcome.
            await cy.ok("sync")
        async with Clients(shared.ws, another_address) as clients:
            elsewhere = await clients.hello("elsewhere")
            await elsewhere.ok("join_room", code=code, nickname="Eve")

    run(go())


@pytest.mark.covers(
    "allow_votes",
    "removal.not_allowed",
    "removal.not_a_player",
    "removal.bad_target",
    "removal.reason",
    "removal.too_few",
    "settings.public_forced",
)
def test_who_may_start_a_vote_against_whom(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo, cy, di) = await room_of(clients, "tiny", "Ana", "Bo", "Cy", "Di")
            assert di.picture.seat(di.player)["spectator"]  # tiny seats three
            assert ana.picture.room["votes"]["allowed"] is False  # a private room
            await bo.refused("vote_remove", "removal.not_allowed", player=cy.player, reason="away")
            await bo.refused("allow_votes", "room.host_only", allow=True)
            start = len(bo.frames)
            assert await ana.ok("allow_votes", allow=True) is None
            await bo.push(lambda held: held.room["votes"]["allowed"], start)
            await di.refused("vote_remove", "removal.not_a_player", player=cy.player, reason="away")
            await bo.refused("vote_remove", "removal.bad_target", player=bo.player, reason="away")
            await bo.refused("vote_remove", "removal.bad_target", player="nobody", reason="away")
            error = await bo.refused(
                "vote_remove", "removal.reason", player=cy.player, reason="ugly"
            )
            assert error["params"] == {"reason": "ugly"}
            await cy.ok("leave_room")  # Ana, Bo and Di (who now plays): one to decide
            await ana.ok("leave_room")
            await bo.push(lambda held: len(held.room["seats"]) == 2)
            await bo.refused("vote_remove", "removal.too_few", player=di.player, reason="away")
            _, (eve,) = await room_of(clients, "pitacor", "Eve", public=True)
            error = await eve.refused("allow_votes", "settings.public_forced", allow=False)
            assert error["params"] == {"field": "votes"}

    run(go())


@pytest.mark.covers(
    "removal.running",
    "removal.none",
    "removal.not_voter",
    "removal.already_voted",
    "removal.cooldown",
    "removal.recently_kept",
    "removal.retaliation",
    "room.kick_during_vote",
)
def test_one_vote_at_a_time_each_votes_once_and_no_vote_back_at_its_starter(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo, cy, di, _) = await room_of(
                clients, "pitacor", "Ana", "Bo", "Cy", "Di", "Ed", public=True
            )
            await cy.refused("vote", "removal.none", yes=True)
            start = len(ana.frames)
            assert await bo.ok("vote_remove", player=ana.player, reason="away") is None
            await ana.refused("kick", "room.kick_during_vote", player=bo.player)
            await cy.refused("vote_remove", "removal.running", player=di.player, reason="away")
            await ana.refused("vote", "removal.not_voter", yes=False)  # the target
            await bo.refused("vote", "removal.not_voter", yes=True)  # the starter
            assert await cy.ok("vote", yes=False) is None
            await cy.refused("vote", "removal.already_voted", yes=True)
            assert await di.ok("vote", yes=False) is None
            await ana.push(lambda held: held.room["votes"]["running"] is None, start)
            (ended,) = _events(ana, "removal.ended", start)
            assert (ended["result"], ended["yes"], ended["no"]) == ("kept", 0, 2)
            for raw, target, code in (
                (bo, cy, "removal.cooldown"),
                (cy, ana, "removal.recently_kept"),
                (ana, bo, "removal.retaliation"),
            ):
                error = await raw.refused("vote_remove", code, player=target.player, reason="away")
                assert 1 <= error["params"]["seconds"] <= 120
            assert await ana.ok("kick", player=di.player) is None  # the vote is over

    run(go())


@pytest.mark.covers("hide_name")
def test_hide_name_is_a_players_own_choice_shown_with_their_seat(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            assert ana.picture.seat(bo.player)["hide_name"] is False
            start = len(ana.frames)
            assert await bo.ok("hide_name", hide=True) is None
            await ana.push(lambda held: held.seat(bo.player)["hide_name"], start)
            assert await bo.ok("hide_name", hide=False) is None
            await ana.push(lambda held: not held.seat(bo.player)["hide_name"], start)

    run(go())
