"""The limits a client meets (docs/protocol.md: "Rate limit", "Connections per address",
opening rooms): ``rate.limited`` and the close 1008 of a flooding connection, handshakes
refused with HTTP 429, ``rate.rooms``, ``room.too_many_rooms`` and
``room.too_many_on_network``. Raw frames only; each test from a loopback address of its own
(the limits are per address), on the shared server with the default limits, or on a server
of its own with lower ones where the default would take long to reach."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json

import pytest
import websockets
from protocol_servers import protocol_server
from raw_client import Clients, run

from tertulia.server.guard import Limits


async def _handshake(server, address: str) -> tuple[int, dict, dict]:
    """Open a WebSocket from ``address`` and close it: 101, or the refusal's status, headers
    and JSON body."""
    try:
        socket = await websockets.connect(server.ws, local_addr=(address, 0), proxy=None)
    except websockets.InvalidStatus as refused:
        response = refused.response
        headers = {"Retry-After": response.headers.get("Retry-After")}
        return response.status_code, headers, json.loads(response.body or b"{}")
    await socket.close()
    return 101, {}, {}


def _refused_with(status: int, headers: dict, body: dict, reason: str) -> None:
    assert status == 429, (status, body)
    assert body == {"error": f"connection.{reason}"}
    assert headers["Retry-After"] is not None and int(headers["Retry-After"]) >= 1


@pytest.mark.covers("rate.limited")
def test_past_the_rate_limit_the_first_frame_dropped_is_answered_and_the_rest_are_not(
    shared, address
):
    """A burst of 30 frames, then 15 a second; frames past it are dropped: the first with
    rate.limited (its id in re), the ones after it unanswered until one is let through again.
    45 frames at once are past the burst (the hello took one) yet within the grace of 20
    dropped frames, so the connection stays."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            ids = [ana.next_id() for _ in range(45)]
            await asyncio.gather(*(ana.send({"type": "ping", "id": i}) for i in ids))
            await asyncio.sleep(0.3)  # a token comes back every 1/15 s: let a few come back
            await ana.settle()  # answered after everything before it
            answers = {f["re"]: f for f in ana.frames if f.get("re") in ids}
            kinds = [answers[i].get("code", "ack") if i in answers else None for i in ids]
            assert "rate.limited" in kinds, kinds
            answered = "ack"
            for kind in kinds:  # after a rate.limited, silence until something is let through
                if kind == "rate.limited":
                    assert answered == "ack", f"rate.limited twice without a frame let in: {kinds}"
                elif kind is None:
                    assert answered in ("rate.limited", None), f"a frame unanswered: {kinds}"
                answered = kind
            ana.unanswered(*(i for i in ids if i not in answers))
            assert ana.close_code is None  # within the grace: the connection stays

    run(go())


@pytest.mark.covers("rate.limited", "close.1008", "connection.flooding")
def test_a_connection_that_floods_is_closed_1008_and_its_address_kept_out(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana = await clients.hello("ana")
            ids = [ana.next_id() for _ in range(3000)]
            with contextlib.suppress(websockets.ConnectionClosed):
                for msg_id in ids:
                    await ana.send({"type": "ping", "id": msg_id})
            assert await ana.closed() == 1008
            ana.unanswered(*ids)
            answered = [f for f in ana.frames if f.get("re") in ids]
            assert [f.get("code") for f in answered].count("rate.limited") >= 1
            # "Its address may then open no new WebSocket for 10 s".
            _refused_with(*await _handshake(shared, address), "flooding")

    run(go())


@pytest.mark.covers("connection.connecting_too_fast", "http.429")
def test_an_address_opens_40_websockets_at_once_then_two_a_second(shared, address):
    async def go():
        opened = 0
        while (answer := await _handshake(shared, address))[0] == 101:
            opened += 1
            assert opened < 60, "no handshake refused"
        assert opened >= 40
        _refused_with(*answer, "connecting_too_fast")

    run(go())


@pytest.fixture(scope="module")
def tight(tmp_path_factory):
    """A server that lets an address hold 3 WebSockets and open 2 live rooms."""
    limits = dataclasses.replace(Limits(), connections_per_address=3, rooms_per_address=2)
    db = tmp_path_factory.mktemp("tight") / "tertulia.sqlite3"
    with protocol_server(db, limits=limits) as server:
        yield server


@pytest.mark.covers("connection.too_many_connections", "http.429")
def test_an_address_holds_a_capped_number_of_websockets(tight, address):
    async def go():
        async with Clients(tight.ws, address) as clients:
            held = [await clients.hello(str(n)) for n in range(3)]
            _refused_with(*await _handshake(tight, address), "too_many_connections")
            await held[0].close()
            for _ in range(100):  # until the server has seen it go
                if (await _handshake(tight, address))[0] == 101:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("a closed WebSocket never freed its place")

    run(go())


@pytest.mark.covers("create_room", "room.too_many_on_network")
def test_an_address_may_have_a_capped_number_of_live_rooms(tight, address):
    async def go():
        async with Clients(tight.ws, address) as clients:
            for name in ("Ana", "Bo"):
                raw = await clients.hello(name)
                await raw.ok("create_room", game="tiny", nickname=name)
            cy = await clients.hello("cy")
            error = await cy.refused(
                "create_room", "room.too_many_on_network", game="tiny", nickname="Cy"
            )
            assert error["params"] == {"max": 2}

    run(go())


@pytest.mark.covers("create_room", "room.too_many_rooms", "rate.rooms")
def test_rooms_opened_are_capped_per_player_and_paced_per_address(shared, address):
    """One player may have 5 live rooms they opened (room.too_many_rooms); one address may
    open 20 in a row, then one every 30 s (rate.rooms, with the seconds to wait)."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            players = [await clients.hello(f"p{n}") for n in range(5)]
            for raw in players[:4]:
                for _ in range(5):
                    await raw.ok("create_room", game="tiny", nickname="Host")
            error = await players[0].refused(
                "create_room", "room.too_many_rooms", game="tiny", nickname="Host"
            )
            assert error["params"] == {"max": 5}
            error = await players[4].refused(
                "create_room", "rate.rooms", game="tiny", nickname="Host"
            )
            assert set(error["params"]) == {"seconds"} and 1 <= error["params"]["seconds"] <= 30

    run(go())
