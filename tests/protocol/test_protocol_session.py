"""The conversation before any room (docs/protocol.md, "Rules of the conversation"):
``hello`` and ``welcome``, ``ping``, ``list_rooms``, and what the server does with frames it
cannot or will not read. Raw frames only."""

from __future__ import annotations

import json

import pytest
import websockets
from raw_client import Clients, Raw, room_of, run


@pytest.mark.covers("hello", "welcome", "ack")
def test_hello_is_answered_by_a_welcome_then_an_ack(shared, address):
    """The welcome gives a public id, a secret token and the server's clock; the same token
    on another connection is the same player, and a token the server never gave is not
    taken as it is."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.open("ana")
            msg_id = ana.next_id()
            await ana.send({"type": "hello", "id": msg_id, "token": None})
            answer = await ana.answer(msg_id)
            assert answer == {"type": "ack", "re": msg_id, "data": None}
            welcome, ack = ana.frames
            assert welcome["type"] == "welcome" and ack is answer
            assert welcome["player"] and welcome["token"] and welcome["room"] is None
            assert welcome["player"] not in welcome["token"]
            again = await clients.hello("ana again", token=welcome["token"])
            assert again.player == welcome["player"] and again.token == welcome["token"]
            stranger = await clients.hello("stranger", token="made-up")
            assert stranger.player != welcome["player"] and stranger.token != "made-up"

    run(go())


@pytest.mark.covers("welcome")
def test_welcome_names_the_room_where_one_has_a_seat(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana,) = await room_of(clients, "tiny", "Ana")
            later = await clients.hello("ana later", token=ana.token)
            assert later.welcome["room"] == code
            await ana.ok("leave_room")
            gone = await clients.hello("ana gone", token=ana.token)
            assert gone.welcome["room"] is None

    run(go())


@pytest.mark.covers("session.hello_first")
@pytest.mark.parametrize(
    "message",
    [
        {"type": "list_rooms"},
        {"type": "ping"},
        {"type": "create_room", "game": "tiny", "nickname": "Ana"},
        {"type": "join_room", "code": "KF7QX", "nickname": "Ana"},
        {"type": "chat", "text": "hi"},
    ],
)
def test_anything_before_hello_is_refused_hello_first(shared, address, message):
    async def go():
        async with Clients(shared.ws, address) as clients:
            raw = await clients.open()
            msg_id = raw.next_id()
            await raw.send({**message, "id": msg_id})
            error = await raw.answer(msg_id)
            assert error["type"] == "error" and error["code"] == "session.hello_first"
            await raw.hello()  # the connection stays, and hello still works

    run(go())


@pytest.mark.covers("session.identity_changed")
def test_a_second_hello_with_another_token_is_refused(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            bo = await clients.hello("bo")
            await ana.refused("hello", "session.identity_changed", token=bo.token)
            again = await ana.request("hello", token=ana.token)  # the same one: fine
            assert again["type"] == "ack"
            assert await ana.ok("ping")

    run(go())


@pytest.mark.covers("ping")
def test_ping_is_answered_with_the_servers_clock(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            data = await ana.ok("ping")
            assert set(data) == {"now"} and isinstance(data["now"], float)
            assert data["now"] >= ana.welcome["now"]

    run(go())


@pytest.mark.covers("list_rooms", "rooms")
def test_list_rooms_is_a_rooms_push_then_an_ack_saying_where_one_is_seated(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana,) = await room_of(clients, "tiny", "Ana", public=True)
            start = len(ana.frames)
            msg_id = ana.next_id()
            await ana.send({"type": "list_rooms", "id": msg_id})
            ack = await ana.answer(msg_id)
            rooms, answer = ana.frames[start:]
            assert rooms["type"] == "rooms" and answer is ack
            assert ack["data"] == {"seated": code}
            mine = next(r for r in rooms["rooms"] if r["code"] == code)
            assert mine == {
                "code": code,
                "game": "tiny",
                "status": "lobby",
                "players": 1,
                "max_players": 3,
                "online": 1,
                "host": "Ana",
                "joining": "play",
            }
            stranger = await clients.hello("stranger")
            assert await stranger.ok("list_rooms") == {"seated": None}

    run(go())


@pytest.mark.covers("message.malformed")
@pytest.mark.parametrize(
    ("frame", "re"),
    [
        ("this is not json", None),
        ('{"type": "dance", "id": 1005}', 1005),  # an unknown type
        ('{"type": "chat", "id": 1006, "text": 42}', 1006),  # a field of the wrong type
        ('{"type": "chat", "id": 1007}', 1007),  # a field missing
        ('{"type": "chat", "id": "seven", "text": "hi"}', None),
        ("[1, 2, 3]", None),
    ],
)
def test_a_malformed_frame_is_refused_and_the_connection_stays(shared, address, frame, re):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            start = len(ana.frames)
            await ana.send(frame)
            await ana.settle()
            error = ana.frames[start]
            assert error["type"] == "error" and error["code"] == "message.malformed"
            assert error["re"] == re
            assert len(ana.frames) == start + 2  # that error, and the ping's ack

    run(go())


@pytest.mark.covers("frame.too_large")
def test_a_frame_over_the_rooms_limit_is_refused_and_the_connection_stays(shared, address):
    """64 KiB of UTF-8 by default: counted in bytes, so 20,000 four-byte characters (80 KB)
    are too many although they are fewer than 64 Ki characters."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            _code, (ana,) = await room_of(clients, "tiny", "Ana")
            for text in ("x" * (70 * 1024), "🎨" * 20_000):
                msg_id, start = ana.next_id(), len(ana.frames)
                frame = json.dumps({"type": "chat", "id": msg_id, "text": text}, ensure_ascii=False)
                assert len(frame.encode()) > 64 * 1024
                await ana.send(frame)
                await ana.settle()
                (error, _) = ana.frames[start:]
                assert error["type"] == "error" and error["code"] == "frame.too_large"
                assert error["params"] == {"max": 64 * 1024}
                # "The server answers every client message with exactly one ack or one error
                # whose re is that id": the id is the frame's first field.
                assert error["re"] == msg_id, f"frame.too_large answers re={error['re']}"
            await ana.ok("chat", text="still here")

    run(go())


@pytest.mark.covers("close.1009")
def test_a_frame_over_one_mebibyte_closes_the_connection_1009(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            await ana.send(json.dumps({"type": "chat", "id": 99, "text": "x" * (1 << 20)}))
            assert await ana.closed() == 1009
            ana.unanswered(99)
            assert not [f for f in ana.frames if f.get("re") == 99]  # not read at all

    run(go())


@pytest.mark.covers("origin.403")
def test_a_websocket_from_a_foreign_origin_is_refused_403(shared, address):
    """Our own origin (the loopback names at the server's port) and no origin at all (not a
    browser page) are let in; anything else never gets a WebSocket."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            for origin in (
                "https://evil.example",
                f"http://127.0.0.1:{shared.port + 1}",  # the port is part of the origin
                f"https://127.0.0.1:{shared.port}",  # and so is the scheme
            ):
                with pytest.raises(websockets.InvalidStatus) as refused:
                    await Raw.open(shared.ws, address=address, origin=origin)
                assert refused.value.response.status_code == 403
            for origin in (shared.base, f"http://localhost:{shared.port}", None):
                raw = await clients.open(origin=origin)
                await raw.hello()

    run(go())
