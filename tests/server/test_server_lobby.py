"""Rooms over a real WebSocket: create, join, lobby, host, chat — "never silence"."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
from server_harness import run

from tertulia.client import Client, ClientError
from tertulia.rooms.codes import ALPHABET


async def _pair(server, game: str = "tiny", public: bool = False):
    ana = await Client.connect(server.ws)
    bo = await Client.connect(server.ws)
    code = await ana.create_room(game, "Ana", public=public)
    await bo.join_room(code, "Bo")
    await ana.wait_for(lambda push: len(push["room"]["seats"]) == 2)
    return ana, bo, code


def test_hello_gives_a_public_id_and_a_secret_token(server):
    async def go():
        async with await Client.connect(server.ws) as first:
            assert first.player and first.token and first.player not in first.token
            async with await Client.connect(server.ws, token=first.token) as again:
                assert again.player == first.player and again.token == first.token

    run(go())


def test_welcome_names_the_room_where_one_has_a_seat(server):
    """A page opened afresh (the home page, another tab) can offer "Back to the room"."""

    async def go():
        ana, bo, code = await _pair(server)
        assert ana.seated_room is None  # said hello before having a seat
        async with await Client.connect(server.ws, token=bo.token) as bo_again:
            assert bo_again.seated_room == code
        async with await Client.connect(server.ws, token=bo.token) as bo_home:  # a home tab
            assert await bo_home.request("list_rooms") == {"seated": code}
            await bo.request("leave_room")
            assert await bo_home.request("list_rooms") == {"seated": None}
        async with await Client.connect(server.ws, token=bo.token) as bo_again:
            assert bo_again.seated_room is None

    run(go())


def test_create_and_join_by_code_both_see_each_other(server):
    async def go():
        ana, bo, code = await _pair(server)
        assert 4 <= len(code) <= 6 and set(code) <= set(ALPHABET)
        push = await bo.wait_for(lambda p: len(p["room"]["seats"]) == 2)
        names = [s["nickname"] for s in push["room"]["seats"]]
        assert names == ["Ana", "Bo"] and push["room"]["host"] == ana.player
        told = await ana.wait_for(lambda p: len(p["room"]["seats"]) == 2)
        assert sorted(told["room"]["online"]) == sorted([ana.player, bo.player])
        await ana.close()
        await bo.close()

    run(go())


def test_join_by_code_is_case_and_space_insensitive(server):
    async def go():
        ana = await Client.connect(server.ws)
        code = await ana.create_room("tiny", "Ana")
        bo = await Client.connect(server.ws)
        await bo.join_room(f" {code.lower()[:2]} {code.lower()[2:]} ", "Bo")
        assert bo.latest["room"]["code"] == code

    run(go())


def test_unknown_room_is_a_clear_error(server):
    async def go():
        async with await Client.connect(server.ws) as ana:
            with pytest.raises(ClientError) as error:
                await ana.join_room("QQQQQ", "Ana")
            assert error.value.code == "room.unknown"

    run(go())


def test_chat_reaches_everyone_in_the_room(server):
    async def go():
        ana, bo, _ = await _pair(server)
        await ana.say("  hello   there ")
        for _ in range(50):
            if bo.chat:
                break
            await asyncio.sleep(0.02)
        assert [(line["nickname"], line["text"]) for line in bo.chat] == [("Ana", "hello there")]

    run(go())


def test_chat_has_a_per_connection_rate_limit(server):
    async def go():
        ana, _, _ = await _pair(server)
        codes = []
        for i in range(8):
            try:
                await ana.say(f"line {i}")
                codes.append("ok")
            except ClientError as error:
                codes.append(error.code)
        assert codes[:5] == ["ok"] * 5 and "chat.too_fast" in codes[5:]

    run(go())


def test_the_game_gates_chat(server):
    """The tiny game's rule: the player whose turn it is may not chat."""

    async def go():
        ana, bo, _ = await _pair(server)
        await ana.request("start_match")
        push = await ana.wait_for(lambda p: p["view"] is not None)
        first = ana if push["view"]["turn"] == ana.player else bo
        with pytest.raises(ClientError) as error:
            await first.say("psst")
        assert error.value.code == "chat.not_now"

    run(go())


def test_host_changes_a_setting_and_the_other_sees_it(server):
    async def go():
        ana, bo, _ = await _pair(server)
        await ana.request("update_settings", settings={"target": 20})
        push = await bo.wait_for(lambda p: p["room"]["settings"]["target"] == 20)
        assert push["room"]["settings"]["turn_seconds"] == 30
        await ana.request("restore_defaults")
        await bo.wait_for(lambda p: p["room"]["settings"]["target"] == 10)

    run(go())


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"target": 999}, "settings.invalid"),
        ({"target": "ten"}, "settings.invalid"),
        ({"colour": 1}, "settings.unknown"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(server, settings, code):
    async def go():
        ana, _, _ = await _pair(server)
        version = ana.latest["version"]
        with pytest.raises(ClientError) as error:
            await ana.request("update_settings", settings=settings)
        assert error.value.code == code
        await ana.request("ping")
        assert ana.latest["version"] == version and ana.latest["room"]["settings"]["target"] == 10

    run(go())


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("update_settings", {"settings": {"target": 12}}),
        ("restore_defaults", {}),
        ("start_match", {}),
        ("choose_game", {"game": "pitacor"}),
        ("kick", {"player": "x"}),
        ("reorder", {"order": []}),
    ],
)
def test_host_actions_from_a_non_host_are_refused(server, kind, fields):
    async def go():
        _, bo, _ = await _pair(server)
        version = bo.latest["version"]
        with pytest.raises(ClientError) as error:
            await bo.request(kind, **fields)
        assert error.value.code == "room.host_only"
        await bo.request("ping")
        assert bo.latest["version"] == version

    run(go())


def test_host_reorders_kicks_and_chooses_the_game(server):
    async def go():
        ana, bo, code = await _pair(server)
        cy = await Client.connect(server.ws)
        await cy.join_room(code, "Cy")
        await ana.wait_for(lambda p: len(p["room"]["seats"]) == 3)
        await ana.request("reorder", order=[cy.player, ana.player, bo.player])
        push = await bo.wait_for(lambda p: p["room"]["seats"][0]["id"] == cy.player)
        assert [s["nickname"] for s in push["room"]["seats"]] == ["Cy", "Ana", "Bo"]
        await ana.request("kick", player=bo.player)
        await ana.wait_for(lambda p: len(p["room"]["seats"]) == 2)
        for _ in range(50):
            if bo.notices:
                break
            await asyncio.sleep(0.02)
        assert bo.notices[0]["code"] == "room.kicked"
        await ana.request("choose_game", game="pitacor")
        push = await cy.wait_for(lambda p: p["room"]["game"] == "pitacor")
        assert push["room"]["settings"]["goal"] == 25 and push["room"]["min_players"] == 3

    run(go())


def test_a_removed_player_stays_out_and_a_resume_only_takes_back_a_seat_one_has(server):
    """A kicked player's phone reconnecting (or opening the link again) does not sit them down
    again; a tab resuming after its player left in another tab is told it has no seat."""

    async def go():
        ana, bo, code = await _pair(server)
        await ana.request("kick", player=bo.player)
        for resume, code_expected in [(True, "room.no_seat"), (False, "room.removed")]:
            with pytest.raises(ClientError) as refused:
                await bo.join_room(code, "Bo", resume=resume)
            assert refused.value.code == code_expected
        cy = await Client.connect(server.ws)
        await cy.join_room(code, "Cy")
        cy_other_tab = await Client.connect(server.ws, token=cy.token)
        await cy_other_tab.join_room(code, "Cy", resume=True)  # still seated: fine
        await cy.request("leave_room")
        with pytest.raises(ClientError) as refused:
            await cy_other_tab.join_room(code, "Cy", resume=True)
        assert refused.value.code == "room.no_seat"
        assert [s["nickname"] for s in ana.latest["room"]["seats"]] == ["Ana"]

    run(go())


def test_recent_matches_show_public_rooms_only_with_each_players_colour(server):
    """A private room's code and players are for those who were there: its finished match is
    not listed on everyone's home page; a public one is, each player in their seat colour
    (also one who left, whose leaving ended the tiny game)."""

    async def finish(public: bool) -> str:
        ana, bo = await Client.connect(server.ws), await Client.connect(server.ws)
        code = await ana.create_room("tiny", "Ana", public=public)
        await bo.join_room(code, "Bo")
        await ana.request("start_match")
        await bo.request("leave_room")  # the tiny game: the one left wins
        await ana.wait_for(lambda p: p["room"]["status"] == "ended")
        return code

    async def recent() -> list[dict]:
        for _ in range(50):  # kept in the background, right after the match ends
            with urllib.request.urlopen(f"{server.base}/api/rooms") as response:
                listed = json.load(response)["recent"]
            if listed:
                return listed
            await asyncio.sleep(0.02)
        return []

    async def go():
        await finish(public=False)
        public_code = await finish(public=True)
        listed = await recent()
        assert [m["room"] for m in listed] == [public_code]
        assert {p["name"]: p["colour"] for p in listed[0]["players"]} == {"Ana": 0, "Bo": 1}

    run(go())


def test_host_hand_over_when_the_host_leaves(server):
    async def go():
        ana, bo, _ = await _pair(server)
        await ana.request("leave_room")
        push = await bo.wait_for(lambda p: len(p["room"]["seats"]) == 1)
        assert push["room"]["host"] == bo.player

    run(go())


@pytest.mark.parametrize(
    ("nickname", "code"),
    [
        ("", "nickname.length"),
        ("x" * 21, "nickname.length"),
        ("ana", "nickname.taken"),
        ("bad\x00name", "nickname.characters"),
    ],
)
def test_nicknames_1_to_20_characters_unique_in_the_room(server, nickname, code):
    async def go():
        ana = await Client.connect(server.ws)
        room = await ana.create_room("tiny", "Ana")
        bo = await Client.connect(server.ws)
        with pytest.raises(ClientError) as error:
            await bo.join_room(room, nickname)
        assert error.value.code == code

    run(go())


def test_public_rooms_are_listed_with_game_players_and_status(server):
    def listed() -> dict[str, dict]:
        with urllib.request.urlopen(f"{server.base}/api/rooms") as response:
            return {r["code"]: r for r in json.load(response)["rooms"]}

    async def go():
        ana, bo, code = await _pair(server, public=True)
        await Client.connect(server.ws)  # someone else looks at the home page
        await ana.create_room("tiny", "Ana", public=False)  # a private room is never listed
        rooms = listed()
        assert list(rooms) == [code]
        assert rooms[code]["game"] == "tiny" and rooms[code]["players"] == 2
        assert rooms[code]["status"] == "lobby"
        await bo.close()  # nobody is there any more: nobody to play with
        for _ in range(50):
            if code not in listed():
                break
            await asyncio.sleep(0.02)
        assert listed() == {}

    run(go())


def test_a_public_room_refuses_switching_off_what_it_always_keeps_on(server):
    """Pitacor's profanity filter is "Always on in public rooms": the setting cannot say
    otherwise there (the screen and the room's settings agree); in a private room it can."""

    async def go():
        ana, _bo, _ = await _pair(server, game="pitacor", public=True)
        with pytest.raises(ClientError) as refused:
            await ana.request("update_settings", settings={"ban_profanity": False})
        assert refused.value.code == "settings.public_forced"
        assert ana.latest["room"]["settings"]["ban_profanity"] is True
        cy, _dy, _ = await _pair(server, game="pitacor")
        await cy.request("update_settings", settings={"ban_profanity": False})
        await cy.wait_for(lambda push: push["room"]["settings"]["ban_profanity"] is False)

    run(go())


def test_public_rooms_refuse_profane_nicknames(server):
    async def go():
        ana = await Client.connect(server.ws)
        with pytest.raises(ClientError) as error:
            await ana.create_room("tiny", "shit", public=True)
        assert error.value.code == "nickname.profanity"
        # Refused before the room was made: no empty room is left behind.
        assert server.app.state.tertulia.manager.rooms == {}
        code = await ana.create_room("tiny", "Ana", public=True)
        bo = await Client.connect(server.ws)
        with pytest.raises(ClientError) as error:
            await bo.join_room(code, "Shit!")
        assert error.value.code == "nickname.profanity"
        with pytest.raises(ClientError) as error:
            await ana.say("what a piece of shit")
        assert error.value.code == "chat.profanity"
        assert [s["nickname"] for s in ana.latest["room"]["seats"]] == ["Ana"]

    run(go())
