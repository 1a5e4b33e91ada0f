"""Bad input over a real socket: a stable code and a human sentence, the room untouched,
the connection kept."""

from __future__ import annotations

import asyncio
import functools
import json
import time
import urllib.request

import pytest
import websockets
from server_harness import HandClock, run

from tertulia.client import Client, ClientError
from tertulia.rooms.limits import TokenBucket
from tertulia.server import session as session_module
from tertulia.server.session import FLOOD_STRIKES, MESSAGE_BURST


async def _in_room(server):
    ana = await Client.connect(server.ws)
    bo = await Client.connect(server.ws)
    code = await ana.create_room("tiny", "Ana")
    await bo.join_room(code, "Bo")
    await ana.request("start_match")
    await ana.wait_for(lambda p: p["view"] is not None and len(p["room"]["seats"]) == 2)
    return ana, bo


async def _raw_error(client: Client, frame) -> dict:
    before = len(client.notices)
    await client.send_raw(frame)
    await client.request("ping")  # the answer to the bad frame came before this one
    assert len(client.notices) == before + 1
    return client.notices[-1]


@pytest.mark.parametrize(
    ("frame", "code", "re"),
    [
        ("this is not json", "message.malformed", None),
        ('{"type": "dance", "id": 5}', "message.malformed", 5),
        ('{"type": "chat", "id": 6, "text": 42}', "message.malformed", 6),
        ('{"type": "chat", "id": "seven", "text": "hi"}', "message.malformed", None),
        ('{"type": "chat", "text": "no id"}', "message.malformed", None),
        ("[1, 2, 3]", "message.malformed", None),
    ],
)
def test_malformed_messages_get_an_error_and_the_connection_stays(server, frame, code, re):
    async def go():
        ana, _ = await _in_room(server)
        version = ana.latest["version"]
        error = await _raw_error(ana, frame)
        assert error["code"] == code and error["re"] == re and error["message"]
        assert ana.latest["version"] == version  # nothing changed
        await ana.request("list_rooms")  # and the connection works

    run(go())


def test_deeply_nested_json_is_malformed_not_a_crash(server):
    async def go():
        ana, _ = await _in_room(server)
        error = await _raw_error(ana, "[" * 30_000 + "]" * 30_000)
        assert error["code"] in ("message.malformed", "frame.too_large")
        error = await _raw_error(ana, "[" * 20_000)
        assert error["code"] == "message.malformed"

    run(go())


def test_a_room_is_not_created_for_an_impossible_nickname(server):
    async def go():
        async with await Client.connect(server.ws) as ana:
            with pytest.raises(ClientError) as error:
                await ana.create_room("tiny", "")
            assert error.value.code == "nickname.length"
            assert server.state.manager.rooms == {}

    run(go())


def test_oversized_frames_are_refused(server):
    async def go():
        ana, _ = await _in_room(server)
        big = json.dumps({"type": "chat", "id": 9, "text": "x" * (70 * 1024)})
        error = await _raw_error(ana, big)
        assert error["code"] == "frame.too_large" and error["params"]["max"] == 64 * 1024
        # The limit is in bytes: 20,000 four-byte characters are 80 KB on the wire.
        wide = json.dumps({"type": "chat", "id": 10, "text": "🎨" * 20_000}, ensure_ascii=False)
        assert len(wide) < 64 * 1024 < len(wide.encode())
        error = await _raw_error(ana, wide)
        assert error["code"] == "frame.too_large"

    run(go())


def test_a_burst_past_the_rate_limit_is_answered_once_and_the_connection_is_kept(
    server, monkeypatch
):
    """Refusing a frame is work as well: garbage counts against the same limit. Past it, only
    the first refusal is answered ("refusals past the limit are not each answered"); a burst
    that stops within the grace keeps its connection.

    The connection's buckets read a clock the test moves: however long the burst takes to
    arrive, no token comes back in the middle of it, and the refill is one step of the clock."""
    clock = HandClock()
    monkeypatch.setattr(session_module, "TokenBucket", functools.partial(TokenBucket, clock=clock))
    sent = MESSAGE_BURST + FLOOD_STRIKES - 5
    answered = MESSAGE_BURST - 1  # the hello took one
    dropped = sent - answered  # fewer than FLOOD_STRIKES: within the grace

    async def go():
        ana = await Client.connect(server.ws)
        for _ in range(sent):
            await ana.send_raw("this is not json")
        # Only the first dropped frame is answered; the server counts every one it dropped.
        await _until(lambda: _metrics(server).get(RATE_LIMITED, 0) >= dropped)
        clock.now += 1.0  # the bucket refills
        await ana.request("ping")  # answered after everything sent before it
        codes = [n["code"] for n in ana.notices]
        assert codes.count("rate.limited") == 1
        assert codes.count("message.malformed") == answered
        assert _metrics(server)[RATE_LIMITED] == dropped

    run(go())


RATE_LIMITED = 'tertulia_errors_total{code="rate.limited"}'


async def _until(condition, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` (a blocking check, run off the event loop) holds."""
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(condition):
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.02)


def test_a_connection_that_goes_on_sending_past_its_limit_is_closed_with_policy(server):
    """ "A connection that goes on sending past its rate limit is closed (close code 1008)",
    at once once its grace of dropped frames is spent, and its address is kept out a while.

    "At once" is counted in frames, not seconds (a loaded machine is slow): the server drops
    the grace's frames, and the one after them is the last it reads of the 10,000 sent."""

    async def go():
        # Its reply to the server's close cannot get out (the server reads nothing more, and
        # this client's own frames fill the socket): it gives up on it after a second, not
        # websockets' ten (the address's penalty is ten). It keeps reading however many
        # answers it has not taken yet (max_queue=None): with websockets' 16 its reader
        # stopped reading the socket once 16 answers waited, so the server's writes, and the
        # close frame behind them, could not get out (seen once in a fresh clone's run).
        socket = await websockets.connect(server.ws, close_timeout=1, max_queue=None)
        await socket.send(json.dumps({"type": "hello", "id": 1, "token": None}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for n in range(10_000):
                await socket.send(json.dumps({"type": "ping", "id": n + 2}))
                if n % 20 == 0:
                    # A flooder that still reads: the close frame is taken in while it
                    # sends. (Sending without a pause never lets the socket's reader run: on
                    # a loaded machine the server's one-second closing handshake ran out and
                    # it aborted the connection, its close frame unread.)
                    await asyncio.sleep(0)
            while True:  # the close comes after the answers given before it
                await asyncio.wait_for(socket.recv(), 20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        counted = _metrics(server)
        # Every frame dropped past the limit counts as rate.limited (the grace), and the one
        # that finds the grace spent as rate.flooding: once, so nothing was read after it.
        assert counted['tertulia_errors_total{code="rate.flooding"}'] == 1
        dropped = counted['tertulia_errors_total{code="rate.limited"}']
        answered = counted['tertulia_messages_total{type="ping"}']
        assert dropped >= FLOOD_STRIKES and answered >= MESSAGE_BURST - 1  # the hello took one
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(server.ws)  # the same address, right away
        assert refused.value.response.status_code == 429
        assert int(refused.value.response.headers["Retry-After"]) >= 1

    run(go())


def _metrics(server) -> dict[str, float]:
    """The server's Prometheus counters, by series (``name{label="value"}``)."""
    text = urllib.request.urlopen(f"{server.base}/metrics", timeout=10).read().decode()
    lines = (line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    return {series: float(value) for series, value in lines}


def test_a_game_action_that_is_not_the_games_is_refused(server):
    async def go():
        ana, bo = await _in_room(server)
        version = ana.latest["version"]
        for action, code in [
            ({"type": "fly"}, "action.malformed"),
            ({"type": "add", "amount": "two"}, "action.malformed"),
            ({"type": "add", "amount": 7}, None),
        ]:
            player = ana if ana.latest["view"]["turn"] == ana.player else bo
            with pytest.raises(ClientError) as error:
                await player.act(action)
            assert error.value.code == (code or "tiny.amount")
        await ana.request("ping")
        assert ana.latest["version"] == version

    run(go())


def test_out_of_turn_is_refused_and_changes_nothing(server):
    async def go():
        ana, bo = await _in_room(server)
        waiting = bo if ana.latest["view"]["turn"] == ana.player else ana
        version = ana.latest["version"]
        with pytest.raises(ClientError) as error:
            await waiting.act({"type": "add", "amount": 1})
        assert error.value.code == "action.not_your_turn"
        assert ana.latest["version"] == version

    run(go())


def test_actions_for_a_room_you_are_not_in(server):
    async def go():
        await _in_room(server)
        async with await Client.connect(server.ws) as stranger:
            for kind, fields in [
                ("act", {"action": {"type": "add", "amount": 1}}),
                ("chat", {"text": "hi"}),
                ("start_match", {}),
            ]:
                with pytest.raises(ClientError) as error:
                    await stranger.request(kind, **fields)
                assert error.value.code == "room.not_in"

    run(go())


def test_a_room_action_as_a_system_action_is_refused(server):
    """A player cannot send the room's own actions (a timeout, a leave for someone else)."""

    async def go():
        ana, bo = await _in_room(server)
        with pytest.raises(ClientError) as error:
            await ana.act({"type": "leave", "player": bo.player})
        assert error.value.code == "action.room_only"

    run(go())


def test_anything_before_hello_is_refused(server):
    async def go():
        async with websockets.connect(server.ws) as socket:
            await socket.send('{"type": "list_rooms", "id": 1}')
            answer = json.loads(await socket.recv())
            assert answer["code"] == "session.hello_first" and answer["re"] == 1

    run(go())


def test_a_foreign_origin_is_turned_away(server):
    async def go():
        with pytest.raises(websockets.InvalidStatus):
            await Client.connect(server.ws, origin="https://evil.example")
        ok = await Client.connect(server.ws, origin=server.base)
        await ok.close()

    run(go())


def test_no_stack_trace_ever_reaches_a_client(server):
    async def go():
        async with await Client.connect(server.ws, keep_frames=True) as ana:
            for frame in ["{", '{"type":"act","id":1,"action":{"type":"add"}}', "\x00" * 10]:
                await ana.send_raw(frame)
            await ana.request("ping")
            blob = b"".join(ana.frames)
            assert b"Traceback" not in blob and b'File "' not in blob

    run(go())


@pytest.mark.parametrize(
    ("frame", "re"),
    [
        ('{"type": "chat", "id": 41, "text": "hi"}', 41),
        (b'{"id":7,"type":"ping"}', 7),
        ('{"type": "chat", "text": "' + "x" * 400 + '", "id": 9}', None),  # too far: not parsed
        ("not json at all", None),
    ],
)
def test_a_rate_limited_frame_is_answered_by_its_id_without_being_parsed(frame, re):
    from tertulia.server.session import _quick_id

    assert _quick_id(frame) == re
