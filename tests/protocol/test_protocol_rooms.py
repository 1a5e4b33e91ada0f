"""Rooms as a client meets them (docs/protocol.md, "Client → server"): opening, joining,
resuming, leaving, moving between rooms, nicknames, chat, ``sync``, the ``room`` push and
the ``patch`` push, and the refusals of each. Raw frames only, on the shared server."""

from __future__ import annotations

import http.client
import json

import pytest
from raw_client import Clients, room_of, run

TINY_DEFAULTS = {"target": 10, "turn_seconds": 30}


def _http_get(server, path: str, address: str) -> tuple[int, dict]:
    """GET ``path`` from loopback ``address`` (its per-address limits are the WebSocket's)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, source_address=(address, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


@pytest.mark.covers("create_room", "room")
def test_create_room_sends_the_whole_picture_and_acks_with_the_code(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            data = await ana.ok("create_room", game="tiny", nickname="Ana", public=False)
            assert set(data) == {"room"}
            code = data["room"]
            push = ana.first(lambda f: f["type"] == "room")
            assert push is not None and "re" not in push
            assert push["room"] == {
                "code": code,
                "public": False,
                "game": "tiny",
                "status": "lobby",
                "host": ana.player,
                "min_players": 2,
                "max_players": 3,
                "settings": TINY_DEFAULTS,
                "seats": [
                    {
                        "id": ana.player,
                        "nickname": "Ana",
                        "spectator": False,
                        "online": True,
                        "host": True,
                        "colour": 0,
                        "bot": False,
                        "level": None,
                        "stand_in": None,
                        "hide_name": False,
                    }
                ],
                "bots": False,
                "former_colours": {},
                "online": [ana.player],
                "votes": {"allowed": False, "running": None},
                "match_page": None,
            }
            assert push["view"] is None  # "view is null in the lobby"
            assert push["blobs"] is None  # tiny has no blobs
            assert isinstance(push["version"], int)

    run(go())


@pytest.mark.covers("create_room", "join_room", "room.unknown_game", "nickname.length")
def test_a_refused_create_room_or_join_room_leaves_the_connection_where_it_was(shared, address):
    """ "A refused join_room (or create_room) changes nothing: a connection that was in a
    room stays in it." """

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.refused("create_room", "room.unknown_game", game="chess", nickname="Ana")
            error = await ana.refused("create_room", "nickname.length", game="tiny", nickname="")
            assert error["params"] == {"max": 20}
            await ana.refused("create_room", "nickname.length", game="tiny", nickname="x" * 21)
            await ana.refused("join_room", "room.unknown", code="ZZZZZ", nickname="Ana")
            other, (cy,) = await room_of(clients, "tiny", "Cy")
            await ana.refused("join_room", "nickname.taken", code=other, nickname="CY")
            start = len(ana.frames)
            await bo.ok("set_nickname", nickname="Bob")  # Ana is still in the first room
            held = await ana.push(lambda held: held.seat(bo.player)["nickname"] == "Bob", start)
            assert held.code == code
            assert await ana.ok("list_rooms") == {"seated": code}
            assert not cy.picture.has_seat(ana.player)

    run(go())


@pytest.mark.covers("room", "leave_room")
def test_former_colours_name_who_left_during_the_match_until_the_next_one(shared, address):
    """A player who leaves mid-match keeps their colour in ``former_colours`` (the scores
    still name them) and gets it again on coming back if it is still free; the next match
    clears it."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, _, cy) = await room_of(clients, "tiny", "Ana", "Bo", "Cy")
            colour = ana.picture.seat(cy.player)["colour"]
            await ana.ok("start_match")
            start = len(ana.frames)
            await cy.ok("leave_room")  # tiny: the match ends when a player leaves
            held = await ana.push(lambda held: not held.has_seat(cy.player), start)
            assert held.room["former_colours"] == {cy.player: colour}
            start = len(ana.frames)
            await cy.ok("join_room", code=code, nickname="Cy")
            held = await ana.push(lambda held: held.has_seat(cy.player), start)
            assert held.seat(cy.player)["colour"] == colour
            assert held.room["former_colours"] == {}

    run(go())


@pytest.mark.covers("join_room", "patch", "room")
def test_join_room_gives_the_joiner_the_whole_picture_and_the_others_a_patch(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana,) = await room_of(clients, "tiny", "Ana")
            version = ana.picture.version
            bo = await clients.hello("bo")
            start = len(ana.frames)
            data = await bo.ok("join_room", code=code, nickname="Bo")
            assert data == {"room": code}
            whole = bo.first(lambda f: f["type"] in ("room", "patch"))
            assert whole["type"] == "room", "the first push in a room is whole"
            assert [s["nickname"] for s in whole["room"]["seats"]] == ["Ana", "Bo"]
            assert whole["room"]["seats"][1]["colour"] == 1  # the lowest nobody had
            assert whole["room"]["seats"][1]["host"] is False
            assert sorted(whole["room"]["online"]) == sorted([ana.player, bo.player])
            patch = await ana.wait_for(lambda f: f["type"] == "patch", start)
            assert patch["code"] == code and patch["base"] == version
            assert patch["version"] == version + 1 == whole["version"]  # one change, one more
            assert patch["view"] == []  # "[] when nothing changed there" (no match yet)
            assert ana.picture.room == whole["room"]

    run(go())


@pytest.mark.covers("join_room", "room.unknown", "rate.room_codes")
def test_unknown_codes_are_limited_per_address_shared_with_the_http_lookup(
    shared, address, another_address
):
    """Each code that is not a live room costs one of 10 tries (join_room, a resume that gets
    room.no_seat, GET /api/rooms/CODE alike); with none left, every lookup of a room where
    one has no seat is refused, live or not; going back to one's own seat is not limited."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            elsewhere = Clients(shared.ws, another_address)
            async with elsewhere:
                code, (_host,) = await room_of(elsewhere, "tiny", "Host")
                code2, (_host2,) = await room_of(elsewhere, "tiny", "Host")
                ana = await clients.hello("ana")
                await ana.ok("join_room", code=code, nickname="Ana")  # a live room: free
                status, body = _http_get(shared, "/api/rooms/ZZZZ2", address)
                assert (status, body["error"]) == (404, "room.unknown")
                status, body = _http_get(shared, f"/api/rooms/{code2}", address)
                assert (status, body) == (200, {"code": code2, "game": "tiny"})
                await ana.refused(
                    "join_room", "room.no_seat", code="ZZZZ3", nickname="A", resume=True
                )
                for n in range(8):
                    error = await ana.refused(
                        "join_room", "room.unknown", code=f"QQQ{n}", nickname="A"
                    )
                    assert error["params"] == {"code": f"QQQ{n}"}
                # Ten tries spent: a live room is refused too, by code and over HTTP.
                await ana.refused("join_room", "rate.room_codes", code=code2, nickname="Ana")
                await ana.refused("join_room", "rate.room_codes", code="QQQX", nickname="Ana")
                status, body = _http_get(shared, f"/api/rooms/{code2}", address)
                assert (status, body["error"]) == (429, "rate.room_codes")
                # One's own seat is never limited, nor is another address.
                await ana.ok("join_room", code=code, nickname="Ana")
                await ana.ok("join_room", code=code, nickname="Ana", resume=True)
                status, _ = _http_get(shared, f"/api/rooms/{code2}", another_address)
                assert status == 200

    run(go())


@pytest.mark.covers("join_room", "join_room.resume", "room.no_seat")
def test_a_resume_takes_back_the_seat_one_has_and_only_that(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (_ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            colour = bo.picture.seat(bo.player)["colour"]
            tab = await clients.hello("bo's other tab", token=bo.token)
            data = await tab.ok("join_room", code=code, nickname="ignored", resume=True)
            assert data == {"room": code}
            whole = tab.first(lambda f: f["type"] == "room")
            assert whole is not None, "the first push after a resume is whole"
            mine = next(s for s in whole["room"]["seats"] if s["id"] == bo.player)
            assert (mine["nickname"], mine["colour"]) == ("Bo", colour)
            await bo.ok("leave_room")  # in one tab: the seat is given up for good
            left = await tab.refused(
                "join_room", "room.no_seat", code=code, nickname="Bo", resume=True
            )
            # ... and a room that does not exist answers exactly so.
            gone = await tab.refused(
                "join_room", "room.no_seat", code="ZZZZZ", nickname="Bo", resume=True
            )
            assert left["message"] == gone["message"]
            assert left["params"] == {"code": code} and gone["params"] == {"code": "ZZZZZ"}
            stranger = await clients.hello("stranger")
            await stranger.refused(
                "join_room", "room.no_seat", code=code, nickname="S", resume=True
            )

    run(go())


@pytest.mark.covers("leave_room", "room.not_in")
def test_leave_room_gives_the_seat_up_and_room_messages_then_are_not_in_a_room(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            start = len(ana.frames)
            assert await bo.ok("leave_room") is None
            await ana.push(lambda held: not held.has_seat(bo.player), start)
            after = len(bo.frames)
            await ana.ok("set_nickname", nickname="Ann")
            await bo.settle()
            assert not [f for f in bo.frames[after:] if f["type"] in ("room", "patch")]
            # Every room message of Bo's is now one "from a connection that is in no room".
            answers = {}
            for kind, fields in [
                ("chat", {"text": "hi"}),
                ("sync", {}),
                ("leave_room", {}),
                ("set_nickname", {"nickname": "Bo"}),
                ("act", {"action": {"type": "add", "amount": 1}}),
                ("check", {"action": {"type": "add", "amount": 1}}),
                ("start_match", {}),
            ]:
                answers[kind] = (await bo.request(kind, **fields)).get("code")
            stranger = await clients.hello("stranger")
            await stranger.refused("check", "room.not_in", action={"type": "add", "amount": 1})
            await stranger.refused("add_bot", "room.not_in")
            assert set(answers.values()) == {"room.not_in"}, answers

    run(go())


@pytest.mark.covers("create_room", "join_room")
def test_a_connection_moves_to_the_room_it_opens_and_keeps_its_seat_in_the_last(shared, address):
    """ "it stops receiving the previous room's pushes, but keeps its seat there"; a late
    patch of the last room may still come, named by its code, and is ignored."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            first, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            second = (await ana.ok("create_room", game="tiny", nickname="Ana"))["room"]
            assert ana.picture.code == second
            moved = len(ana.frames)
            await bo.ok("set_nickname", nickname="Bob")
            held = await bo.push(lambda held: held.seat(bo.player)["nickname"] == "Bob")
            assert held.seat(ana.player)["nickname"] == "Ana"  # her seat is kept
            await ana.settle()
            late = [f for f in ana.frames[moved:] if f["type"] in ("room", "patch")]
            assert all(f["type"] == "patch" and f["code"] == first for f in late)
            assert ana.picture.code == second
            await ana.ok("join_room", code=first, nickname="Ana")  # and she goes back
            assert ana.picture.code == first
            assert ana.picture.seat(bo.player)["nickname"] == "Bob"

    run(go())


@pytest.mark.covers("sync", "room")
def test_sync_sends_the_whole_picture_then_the_ack(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _code, (ana, _bo) = await room_of(clients, "tiny", "Ana", "Bo")
            held = ana.picture
            start = len(ana.frames)
            msg_id = ana.next_id()
            await ana.send({"type": "sync", "id": msg_id})
            ack = await ana.answer(msg_id)
            push, answer = ana.frames[start:]
            assert push["type"] == "room" and "re" not in push and answer is ack
            assert ack["data"] is None
            assert push["version"] == held.version
            assert push["room"] == held.room and push["view"] == held.view
            assert push["chat"] is None  # the recent chat comes with a join or a resume only

    run(go())


@pytest.mark.covers("set_nickname")
def test_set_nickname_changes_the_seats_nickname_for_everyone(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            start = len(bo.frames)
            assert await ana.ok("set_nickname", nickname="  Ana   M ") is None
            held = await bo.push(lambda held: held.seat(ana.player)["nickname"] == "Ana M", start)
            assert held.code == code

    run(go())


@pytest.mark.covers(
    "set_nickname",
    "nickname.length",
    "nickname.characters",
    "nickname.taken",
    "nickname.looks_alike",
)
@pytest.mark.parametrize(
    ("nickname", "code", "params"),
    [
        ("", "nickname.length", {"max": 20}),
        ("   ", "nickname.length", {"max": 20}),
        ("x" * 21, "nickname.length", {"max": 20}),
        ("Bo\u200bb", "nickname.characters", {}),  # a zero-width space
        ("\u3164", "nickname.characters", {}),  # a name that shows nothing
        ("BO", "nickname.taken", {}),  # the same name in another case
        ("Вo", "nickname.looks_alike", {"name": "Bo"}),  # a Cyrillic В
        ("Ｂｏ", "nickname.looks_alike", {"name": "Bo"}),  # fullwidth letters
    ],
)
def test_a_nickname_the_room_refuses(shared, address, nickname, code, params):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, _bo) = await room_of(clients, "tiny", "Ana", "Bo")
            version = ana.picture.version
            error = await ana.refused("set_nickname", code, nickname=nickname)
            assert error["params"] == params
            await ana.ok("sync")
            assert ana.picture.version == version  # "An error never changes anything"
            joiner = await clients.hello("joiner")
            await joiner.refused("join_room", code, code=ana.picture.code, nickname=nickname)

    run(go())


@pytest.mark.covers("nickname.mixed_scripts", "nickname.profanity", "create_room")
def test_nicknames_refused_even_in_an_empty_room(shared, address):
    """A word in two scripts is refused everywhere; profanity in public rooms only."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            await ana.refused("create_room", "nickname.mixed_scripts", game="tiny", nickname="Bоb")
            await ana.refused(
                "create_room", "nickname.profanity", game="tiny", nickname="shit", public=True
            )
            code = (await ana.ok("create_room", game="tiny", nickname="shit"))["room"]
            assert ana.picture.code == code  # a private room lets it be
            public = (await ana.ok("create_room", game="tiny", nickname="Ana", public=True))["room"]
            await ana.refused("set_nickname", "nickname.profanity", nickname="fuck")
            await ana.refused("set_nickname", "nickname.mixed_scripts", nickname="Аna Ана")
            assert ana.picture.code == public

    run(go())


@pytest.mark.covers("chat")
def test_chat_reaches_everyone_as_a_chat_push_and_a_joiner_gets_the_recent_lines(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            start = len(bo.frames)
            assert await ana.ok("chat", text="  good   luck! ") is None
            line = (await bo.wait_for(lambda f: f["type"] == "chat", start))["line"]
            assert line["player"] == ana.player and line["nickname"] == "Ana"
            assert line["text"] == "good luck!"
            assert line["at"] >= ana.welcome["now"]
            assert ana.first(lambda f: f["type"] == "chat") == {"type": "chat", "line": line}
            cy = await clients.hello("cy")
            await cy.ok("join_room", code=code, nickname="Cy")
            # "chat holds the recent chat ... on the push that follows a join or resume"
            whole = cy.first(lambda f: f["type"] == "room")
            assert whole["chat"] == [line], f"the push after a join: chat {whole['chat']}"

    run(go())


@pytest.mark.covers("chat", "bidi")
def test_bidirectional_controls_are_removed_from_what_a_client_writes(shared, address):
    """Sent as characters or as JSON escapes, from a chat line and from a nickname."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            _code, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.send(
                f'{{"type": "chat", "id": {ana.next_id()}, "text": "abc\\u202Edef\u2066!"}}'
            )
            line = await bo.wait_for(lambda f: f["type"] == "chat")
            assert line["line"]["text"] == "abcdef!"
            await ana.ok("set_nickname", nickname="\u202eAnita")
            held = await bo.push(lambda held: held.seat(ana.player)["nickname"] != "Ana")
            assert held.seat(ana.player)["nickname"] == "Anita"

    run(go())


@pytest.mark.covers("chat.empty", "chat.too_long", "chat.too_fast", "chat.profanity")
def test_chat_refusals(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo")
            await ana.refused("chat", "chat.empty", text=" \n ")
            error = await ana.refused("chat", "chat.too_long", text="x" * 301)
            assert error["params"] == {"max": 300}
            await bo.ok("chat", text="x" * 300)
            await bo.ok("chat", text="shit")  # a private room lets it be
            answers = [await ana.request("chat", text=f"line {n}") for n in range(8)]
            codes = [a.get("code") for a in answers]
            assert "chat.too_fast" in codes, codes  # the page gives no number: some line
            _, (cy,) = await room_of(clients, "tiny", "Cy", public=True)
            await cy.refused("chat", "chat.profanity", text="oh shit")

    run(go())


@pytest.mark.covers("join_room", "room.too_many_tabs")
def test_one_player_may_be_in_a_room_from_four_tabs_and_a_resume_from_four_more(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana,) = await room_of(clients, "tiny", "Ana")
            for _ in range(3):
                tab = await clients.hello(token=ana.token)
                await tab.ok("join_room", code=code, nickname="Ana")
            fifth = await clients.hello(token=ana.token)
            error = await fifth.refused(
                "join_room", "room.too_many_tabs", code=code, nickname="Ana"
            )
            assert error["params"] == {"max": 4}
            for _ in range(4):  # its own old sockets may not be known dead yet
                tab = await clients.hello(token=ana.token)
                await tab.ok("join_room", code=code, nickname="Ana", resume=True)
            ninth = await clients.hello(token=ana.token)
            await ninth.refused(
                "join_room", "room.too_many_tabs", code=code, nickname="A", resume=True
            )

    run(go())


@pytest.mark.covers("join_room", "room.crowded")
def test_a_room_takes_64_connections(shared, address, another_address):
    async def go():
        async with (
            Clients(shared.ws, address) as here,
            Clients(shared.ws, another_address) as there,
        ):
            code, (host,) = await room_of(here, "tiny", "Host")
            players = [host]
            for n in range(1, 16):  # 16 players (the first three play, the rest watch)
                clients = here if n < 8 else there
                raw = await clients.hello(f"p{n}")
                await raw.ok("join_room", code=code, nickname=f"P{n}")
                players.append(raw)
            for raw in players:  # four tabs each: 64 connections
                for _ in range(3):
                    clients = here if raw in here.opened else there
                    tab = await clients.hello(token=raw.token)
                    await tab.ok("join_room", code=code, nickname="x")
            late = await there.hello("late")
            error = await late.refused("join_room", "room.crowded", code=code, nickname="Late")
            assert error["params"] == {"max": 64}

    run(go())
