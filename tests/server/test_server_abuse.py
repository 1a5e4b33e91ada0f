"""One bad client must not hurt anyone else: connections per address, clients that stop
reading, probing for rooms, opening rooms, proxies, origins, and a refused join that changes
nothing. Real servers over loopback; each simulated client has its own loopback address
(all of 127.0.0.0/8 is this machine)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import os
import socket
import stat
import time
import urllib.error
import urllib.request
from pathlib import Path

import loud_game
import pytest
import websockets
from server_harness import HandClock, ThreadServer, games_with_tiny, run

from tertulia.client import Client, ClientError
from tertulia.rooms.identity import Identity
from tertulia.server import app as app_module
from tertulia.server.addresses import parse_networks
from tertulia.server.guard import Guard, Limits


def _server(tmp_path: Path, **config) -> ThreadServer:
    games = {**games_with_tiny(), loud_game.NAME: loud_game}
    config.setdefault("drop_grace_seconds", 0.3)
    return ThreadServer(tmp_path / "tertulia.sqlite3", games, **config)


def _limits(**changes) -> Limits:
    return dataclasses.replace(Limits(), **changes)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as refused:
        body = refused.read()
        try:
            return refused.code, json.loads(body)
        except ValueError:
            return refused.code, {"text": body.decode()}


def _from(address: str) -> dict:
    """Connect options for a client on loopback address ``address``."""
    return {"local_addr": (address, 0)}


async def _handshake_status(url: str, **options) -> int:
    """101 if the WebSocket opened, else the HTTP status that refused it."""
    try:
        socket_ = await websockets.connect(url, **options)
    except websockets.InvalidStatus as refused:
        return refused.response.status_code
    await socket_.close()
    return 101


# ---------------------------------------------------------------------------- connections


def test_connections_per_address_are_capped_before_any_session_is_made(tmp_path):
    """ "Connections per client address are capped": the handshake is refused (429) before
    the room or game does any work; another address is not affected; a closed one frees a
    place."""
    with _server(tmp_path, limits=_limits(connections_per_address=2)) as server:

        async def go():
            first = await Client.connect(server.ws, **_from("127.0.0.2"))
            second = await Client.connect(server.ws, **_from("127.0.0.2"))
            assert await _handshake_status(server.ws, **_from("127.0.0.2")) == 429
            assert len(server.state.sessions) == 2  # the refused one never got a session
            other = await Client.connect(server.ws, **_from("127.0.0.3"))
            await first.close()
            await asyncio.sleep(0.1)
            third = await Client.connect(server.ws, **_from("127.0.0.2"))
            for client in (second, other, third):
                await client.close()

        run(go())
        text = urllib.request.urlopen(f"{server.base}/metrics").read().decode()
        assert 'tertulia_connections_refused_total{reason="too_many_connections"} 1.0' in text


def test_new_connections_per_address_are_rate_limited(tmp_path, monkeypatch):
    """ "new connections per address are rate-limited": a burst, then a few a second. The
    limits read a clock the test moves, so however slow a handshake is, no token comes back
    until the test says a moment passed."""
    clock = HandClock()
    monkeypatch.setattr(app_module, "Guard", functools.partial(Guard, clock=clock))
    limits = _limits(connect_burst=3, connect_rate=2.0)
    with _server(tmp_path, limits=limits) as server:

        async def go():
            statuses = [await _handshake_status(server.ws, **_from("127.0.0.4")) for _ in range(5)]
            assert statuses == [101, 101, 101, 429, 429]
            assert await _handshake_status(server.ws, **_from("127.0.0.5")) == 101
            clock.now += 0.5  # at 2 a second: one more
            assert await _handshake_status(server.ws, **_from("127.0.0.4")) == 101
            assert await _handshake_status(server.ws, **_from("127.0.0.4")) == 429

        run(go())


async def _a_reader_about_to_stop(server: ThreadServer, code: str):
    """Bo, seated in ``code`` over a socket with a tiny receive window, who will read nothing
    more; and the port he connects from."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", server.port))
    raw.setblocking(False)
    port = raw.getsockname()[1]
    bo = await websockets.connect(server.ws, sock=raw, max_queue=1, compression=None, max_size=None)
    await bo.send(json.dumps({"type": "hello", "id": 1, "token": None}))
    join = {"type": "join_room", "id": 2, "code": code, "nickname": "Bo"}
    await bo.send(json.dumps(join))
    while json.loads(await bo.recv()).get("re") != 2:
        pass
    return bo, port


def test_a_client_that_stops_reading_is_cut_off_and_the_others_play_on(tmp_path, monkeypatch):
    """ "A client that stops reading is really closed (abort the transport), not only after
    its queued backlog drains": here it reads nothing, with a tiny receive window, while the
    room keeps pushing large views."""
    import tertulia.server.outlet as outlet

    monkeypatch.setattr(outlet, "STALL_SECONDS", 0.5)
    with _server(tmp_path) as server:

        async def go():
            ana = await Client.connect(server.ws)
            code = await ana.create_room(loud_game.NAME, "Ana")
            bo, _ = await _a_reader_about_to_stop(server, code)
            await ana.request("start_match")
            assert len(server.state.sessions) == 2
            # From here Bo reads nothing. Ana shouts; every push to Bo is ~300 KB.
            for _ in range(20):
                await ana.act({"type": "shout"})
            deadline = time.monotonic() + 5
            while len(server.state.sessions) > 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert len(server.state.sessions) == 1, "the stuck client is still connected"
            await ana.act({"type": "shout"})  # Ana's game goes on
            assert ana.latest["view"]["shouts"] == 21
            await ana.close()
            bo.transport.abort()

        run(go())
        text = urllib.request.urlopen(f"{server.base}/metrics").read().decode()
        assert 'tertulia_connections_cut_total{reason="stopped_reading"} 1.0' in text


def test_a_client_that_stops_reading_small_pushes_is_cut_off_too(tmp_path, monkeypatch):
    """The same with pushes small enough to be written straight to the socket, past the ASGI
    send (``Outlet``'s ``write_now``): once the socket's buffer is full the writes go the
    ASGI way again, wait, and the client is cut off as before, not buffered without end."""
    import tertulia.server.outlet as outlet
    import tertulia.server.session as session
    from tertulia.server.websocket import TertuliaWebSocket

    monkeypatch.setattr(outlet, "STALL_SECONDS", 0.5)
    monkeypatch.setattr(loud_game, "ECHO_BYTES", 200)  # each push ~300 B: under DIRECT_BYTES
    monkeypatch.setattr(session, "MESSAGE_BURST", 100_000)  # Ana may shout as fast as she can
    straight: dict[int, int] = {}  # messages written straight, by the client's port
    write = TertuliaWebSocket.write_uncompressed

    def counted(protocol: TertuliaWebSocket, data: bytes) -> bool:
        written = write(protocol, data)
        if written:
            port = protocol.transport.get_extra_info("peername")[1]
            straight[port] = straight.get(port, 0) + 1
        return written

    monkeypatch.setattr(TertuliaWebSocket, "write_uncompressed", counted)
    with _server(tmp_path) as server:

        async def go():
            ana = await Client.connect(server.ws)
            code = await ana.create_room(loud_game.NAME, "Ana")
            bo, bos_port = await _a_reader_about_to_stop(server, code)
            await ana.request("start_match")
            # From here Bo reads nothing, and Ana shouts until the server gives up on Bo.
            shouts = 0
            while len(server.state.sessions) > 1 and shouts < 20_000:
                await ana.act({"type": "shout"})
                shouts += 1
            assert len(server.state.sessions) == 1, "the stuck client is still connected"
            # Bo's pushes did go straight to the socket, until it was full.
            assert straight.get(bos_port, 0) > 100
            await ana.close()
            bo.transport.abort()

        run(go())
        text = urllib.request.urlopen(f"{server.base}/metrics").read().decode()
        assert 'tertulia_connections_cut_total{reason="stopped_reading"} 1.0' in text


# ---------------------------------------------------------------------------- proxies


def test_forwarded_addresses_are_believed_only_from_trusted_proxies(tmp_path):
    """ "--trusted-proxies: only then is X-Forwarded-For believed; otherwise the socket's peer
    address counts. Every per-address limit uses that one address." Two clients behind one
    trusted proxy each get their own connection cap; without the proxy trusted, the header
    is ignored and both count as the proxy."""

    async def two_behind_one_proxy(server) -> list[int]:
        statuses = []
        for client in ("203.0.113.5", "203.0.113.6"):
            headers = {"X-Forwarded-For": client}
            statuses.append(
                await _handshake_status(server.ws, additional_headers=headers, **_from("127.0.0.9"))
            )
        return statuses

    limits = _limits(connections_per_address=1)
    with _server(tmp_path, limits=limits, trusted_proxies=parse_networks("127.0.0.9")) as server:
        assert run(two_behind_one_proxy(server)) == [101, 101]
    with _server(tmp_path / "x", limits=limits) as server:

        async def held():
            holder = await Client.connect(server.ws, **_from("127.0.0.9"))
            statuses = await two_behind_one_proxy(server)
            await holder.close()
            return statuses

        assert run(held()) == [429, 429]


def test_room_code_misses_behind_a_proxy_count_for_the_forwarded_client(tmp_path):
    limits = _limits(code_misses_burst=2, code_misses_rate=0.01)
    with _server(tmp_path, limits=limits, trusted_proxies=parse_networks("127.0.0.1")) as server:
        one, two = {"X-Forwarded-For": "198.51.100.1"}, {"X-Forwarded-For": "198.51.100.2"}
        assert [_get(f"{server.base}/api/rooms/QQQQ", one)[0] for _ in range(3)] == [404, 404, 429]
        assert _get(f"{server.base}/api/rooms/QQQQ", two)[0] == 404


# ---------------------------------------------------------------------------- origins


def test_the_origin_is_checked_against_our_own_address_never_the_host_header(tmp_path):
    """ "Origin. Checked against --public-url and the allowed origins, scheme included, never
    against the request's own Host header"."""
    with _server(tmp_path, public_url="https://play.example.org") as server:

        async def go():
            async def status(origin: str, host: str | None = None) -> int:
                headers = {"Host": host} if host else {}
                try:
                    client = await Client.connect(server.ws, origin=origin, headers=headers)
                except websockets.InvalidStatus as refused:
                    return refused.response.status_code
                await client.close()
                return 101

            assert await status("https://play.example.org") == 101
            assert await status("http://play.example.org") == 403  # the scheme counts
            assert await status("https://evil.example", host="evil.example") == 403
            assert await status(f"http://127.0.0.1:{server.port}") == 403

        run(go())


def test_without_a_public_url_the_servers_own_loopback_names_are_its_origins(tmp_path):
    with _server(tmp_path) as server:

        async def go():
            for origin, expected in [
                (f"http://127.0.0.1:{server.port}", True),
                (f"http://localhost:{server.port}", True),
                (f"http://localhost:{server.port + 1}", False),
                ("null", False),
            ]:
                try:
                    client = await Client.connect(server.ws, origin=origin)
                except websockets.InvalidStatus:
                    assert not expected, origin
                else:
                    assert expected, origin
                    await client.close()

        run(go())


# ---------------------------------------------------------------------------- rooms


def test_a_refused_join_leaves_the_connection_in_the_room_it_was_in(server):
    """ "A refused join_room (nickname taken, room full, …) leaves the connection in the room
    it was in; today it is detached and later marked offline"."""

    async def go():
        ana = await Client.connect(server.ws)
        bo = await Client.connect(server.ws)
        first = await ana.create_room("tiny", "Ana")
        await bo.join_room(first, "Bo")
        cy = await Client.connect(server.ws)
        second = await cy.create_room("tiny", "Cy")
        with pytest.raises(ClientError) as taken:
            await ana.join_room(second, "Cy")
        assert taken.value.code == "nickname.taken"
        await asyncio.sleep(0.6)  # longer than the drop grace
        await bo.say("still there?")
        lines = await ana.wait_for(lambda push: True) and ana.chat
        await ana.say("yes")  # a room message: she is still in the first room
        assert any(line["text"] == "still there?" for line in lines)
        seats = {s["nickname"]: s for s in bo.latest["room"]["seats"]}
        assert seats["Ana"]["online"]
        for client in (ana, bo, cy):
            await client.close()

    run(go())


def test_a_resume_into_a_room_without_your_seat_looks_like_a_room_that_does_not_exist(
    server,
):
    """ "to a stranger a room without their seat and a room that does not exist should not be
    told apart by resume probing"."""

    async def go():
        ana = await Client.connect(server.ws)
        live = await ana.create_room("tiny", "Ana")
        dead = next(c for c in ("QQQQQ", "QQQQR") if c != live)
        answers = []
        async with await Client.connect(server.ws) as eve:
            for code in (live, dead):
                with pytest.raises(ClientError) as refused:
                    await eve.join_room(code, "Eve", resume=True)
                error = refused.value
                answers.append((error.code, error.message, sorted(error.params)))
        assert answers[0] == answers[1] == ("room.no_seat", answers[0][1], ["code"])
        await ana.join_room(live, "Ana", resume=True)  # one's own seat: welcome back
        await ana.close()

    run(go())


def test_join_room_and_the_room_lookup_share_one_limit_on_unknown_codes(tmp_path):
    """ "join_room (with or without resume) and GET /api/rooms/CODE share one per-address limit
    on unknown codes". Once it is spent, a live room is refused too (a hit must not show),
    but one's own seat is not."""
    limits = _limits(code_misses_burst=3, code_misses_rate=0.01)
    with _server(tmp_path, limits=limits) as server:

        async def go():
            ana = await Client.connect(server.ws, **_from("127.0.0.20"))
            live = await ana.create_room("tiny", "Ana")
            eve = await Client.connect(server.ws, **_from("127.0.0.21"))
            with pytest.raises(ClientError):
                await eve.join_room("QQQQQ", "Eve")
            with pytest.raises(ClientError):
                await eve.join_room(live, "Eve", resume=True)
            url = f"http://127.0.0.1:{server.port}/api/rooms/QQQQR"
            # urllib cannot pick a source address; this miss counts for 127.0.0.1.
            assert _get(url)[0] == 404
            status = await asyncio.to_thread(_lookup_from, "127.0.0.21", server.port, "QQQQR")
            assert status == 404
            status = await asyncio.to_thread(_lookup_from, "127.0.0.21", server.port, live)
            assert status == 429
            with pytest.raises(ClientError) as spent:
                await eve.join_room(live, "Eve")
            assert spent.value.code == "rate.room_codes" and spent.value.message
            await ana.join_room(live, "Ana", resume=True)  # another address: not affected
            for client in (ana, eve):
                await client.close()

        run(go())


def _lookup_from(address: str, port: int, code: str) -> int:
    """GET /api/rooms/CODE from a given loopback address; returns the status."""
    with socket.create_connection(("127.0.0.1", port), source_address=(address, 0)) as s:
        s.sendall(
            f"GET /api/rooms/{code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
        )
        head = s.recv(64).decode()
    return int(head.split()[1])


def test_rooms_opened_are_capped_per_player_and_per_address(tmp_path):
    """ "Room creation per address and per identity is capped (live rooms at once, and a
    rate), with a clear error"; a closed room gives its place back."""
    limits = _limits(rooms_per_player=2, rooms_per_address=3, room_burst_per_address=10)
    with _server(tmp_path, limits=limits) as server:

        async def go():
            ana = await Client.connect(server.ws, **_from("127.0.0.30"))
            await ana.create_room("tiny", "Ana")
            second = await ana.create_room("tiny", "Ana")
            with pytest.raises(ClientError) as mine:
                await ana.create_room("tiny", "Ana")
            assert mine.value.code == "room.too_many_rooms" and mine.value.params == {"max": 2}
            assert ana.latest["room"]["code"] == second  # the refusal changed nothing
            bo = await Client.connect(server.ws, **_from("127.0.0.30"))
            await bo.create_room("tiny", "Bo")
            with pytest.raises(ClientError) as network:
                await bo.create_room("tiny", "Bo")
            assert network.value.code == "room.too_many_on_network"
            assert network.value.params == {"max": 3}
            manager = server.state.manager
            await server.call(manager.close(manager.rooms[second], "test"))
            await ana.create_room("tiny", "Ana")  # the closed room's place
            for client in (ana, bo):
                await client.close()

        run(go())


def test_opening_rooms_too_fast_is_refused_with_how_long_to_wait(tmp_path):
    limits = _limits(room_burst_per_address=2, room_rate_per_address=0.1)
    with _server(tmp_path, limits=limits) as server:

        async def go():
            clients = [await Client.connect(server.ws, **_from("127.0.0.31")) for _ in range(3)]
            await clients[0].create_room("tiny", "Ana")
            await clients[1].create_room("tiny", "Bo")
            with pytest.raises(ClientError) as fast:
                await clients[2].create_room("tiny", "Cy")
            assert fast.value.code == "rate.rooms" and fast.value.params["seconds"] >= 1
            assert len(server.state.manager.rooms) == 2
            for client in clients:
                await client.close()

        run(go())


# ---------------------------------------------------------------------------- smaller items


def test_the_identity_key_is_never_readable_by_others_even_if_we_die_right_after_creating_it(
    tmp_path, monkeypatch
):
    """ "The identity key file is created with mode 0600 from the first byte": not written,
    then restricted (a crash or a reader between the two would see it)."""
    path = tmp_path / "k" / "tertulia.sqlite3.key"

    def crash(*args, **kwargs):
        raise OSError("killed right here")

    monkeypatch.setattr(Path, "chmod", crash)
    monkeypatch.setattr(os, "chmod", crash)
    old = os.umask(0o022)
    try:
        Identity.from_file(path)
    except OSError:
        pass
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = path.read_bytes()
    assert len(key) == 32 and Identity.from_file(path).player_id("x" * 40)
    assert path.read_bytes() == key  # a second start keeps it


def test_metrics_answer_this_machine_or_whoever_has_the_token(tmp_path):
    """ "/metrics can be restricted (a token or a separate listen address; document the
    default)": by default only clients on this machine; with a token, only with it."""
    proxy = parse_networks("127.0.0.1")
    with _server(tmp_path, trusted_proxies=proxy) as server:
        assert urllib.request.urlopen(f"{server.base}/metrics").status == 200
        far = {"X-Forwarded-For": "203.0.113.7"}  # a public client behind our proxy
        status, body = _get(f"{server.base}/metrics", far)
        assert status == 403 and body["error"] == "metrics.local_only"
    with _server(tmp_path / "t", metrics_token="s3cret-token") as server:
        status, body = _get(f"{server.base}/metrics")
        assert status == 401 and body["error"] == "metrics.token"
        assert _get(f"{server.base}/metrics", {"Authorization": "Bearer wrong"})[0] == 401
        request = urllib.request.Request(
            f"{server.base}/metrics", headers={"Authorization": "Bearer s3cret-token"}
        )
        assert b"tertulia_rooms" in urllib.request.urlopen(request).read()


def test_a_kicked_player_who_clears_their_storage_comes_back_as_a_stranger(server):
    """What a kick means (docs/protocol.md): it bars that browser's identity from the room. A
    player who clears their storage is a new identity, with no seat, points or colour of
    the old one; the host can remove them again. Addresses are not barred: a family or a
    school shares one."""

    async def go():
        ana = await Client.connect(server.ws)
        code = await ana.create_room("tiny", "Ana")
        bo = await Client.connect(server.ws)
        await bo.join_room(code, "Bo")
        old_id, old_token = bo.player, bo.token
        await ana.request("kick", player=old_id)
        await bo.close()
        async with await Client.connect(server.ws, token=old_token) as same:
            with pytest.raises(ClientError) as barred:
                await same.join_room(code, "Bo")
            assert barred.value.code == "room.removed"
        async with await Client.connect(server.ws) as fresh:  # storage cleared: a new token
            await fresh.join_room(code, "Bo")
            assert fresh.player != old_id
            await ana.request("kick", player=fresh.player)
        await ana.close()

    run(go())


def test_trusted_proxies_come_from_a_flag_or_the_environment_and_bad_ones_are_named(capsys):
    from tertulia.cli import main
    from tertulia.server.config import Config

    config = Config.from_env({"TERTULIA_TRUSTED_PROXIES": "10.0.0.0/8, ::1"})
    assert [str(n) for n in config.trusted_proxies] == ["10.0.0.0/8", "::1/128"]
    config = Config.from_env({"TERTULIA_MAX_CONNECTIONS_PER_ADDRESS": "5"})
    assert config.limits.connections_per_address == 5
    assert main(["serve", "--trusted-proxies", "10.0.0.0/8 the-proxy"]) == 2
    assert "the-proxy" in capsys.readouterr().err
