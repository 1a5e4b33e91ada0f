"""A connection's messages are answered in the order they were sent, each to its end before
the next: most of them right where they are read (``server/frames.py``), one that has to wait
(a hello, a join) holding the ones behind it. The same through plain ASGI, where the protocol
cannot hand messages over by a call."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_harness import ThreadServer, games_with_tiny, run
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from tertulia.server.frames import Frames


async def answers_to(ws, ids: set[int]) -> list[dict]:
    """Every message up to the answers (ack or error) to all of ``ids``, in arrival order."""
    got, waiting = [], set(ids)
    while waiting:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        got.append(message)
        if message.get("type") in ("ack", "error") and message.get("re") in waiting:
            waiting.discard(message["re"])
    return got


def answered_ids(messages: list[dict]) -> list[tuple[str, int]]:
    return [(m["type"], m["re"]) for m in messages if m.get("type") in ("ack", "error")]


async def send_back_to_back(ws, *messages: dict) -> None:
    for message in messages:
        await ws.send(json.dumps(message))


@pytest.fixture(params=["direct", "asgi"])
def either_server(request, tmp_path):
    """Ours as it runs (messages handed over by a call), and uvicorn's own sans-I/O protocol
    (every message through the ASGI receive)."""
    options = {} if request.param == "direct" else {"ws": "websockets-sansio"}
    with ThreadServer(tmp_path / "t.sqlite3", games_with_tiny(), uvicorn_options=options) as server:
        server.by_call = request.param == "direct"
        yield server


def takes_messages_by_call(server) -> list[bool]:
    """For each open WebSocket of ``server``: does its protocol hand messages over by a call?"""
    protocols = [
        c
        for c in list(server.server.server_state.connections)
        if isinstance(c, WebSocketsSansIOProtocol)
    ]
    return [getattr(c, "frame_handler", None) is not None for c in protocols]


def test_messages_sent_back_to_back_are_answered_in_order_a_waiting_one_holding_the_rest(
    either_server,
):
    """Each message is answered after the one sent before it: the room list (which waits
    for the store) before the room is created, the chat line in the room made before it."""

    async def go():
        async with connect(either_server.ws) as ws:
            await send_back_to_back(
                ws,
                {"type": "hello", "id": 1},
                {"type": "list_rooms", "id": 2},  # (it asks the store: it waits)
                {"type": "create_room", "id": 3, "game": "tiny", "nickname": "Ana"},
                {"type": "chat", "id": 4, "text": "hola"},
                {"type": "ping", "id": 5},
            )
            got = await answers_to(ws, {1, 2, 3, 4, 5})
            answers = answered_ids(got)
            # The chat line is acknowledged once it is durable, so the ping behind it may be
            # answered first; everything before it, in order. No "say hello first", no
            # "you are not in a room": each waited for the one before.
            assert answers[:3] == [("ack", 1), ("ack", 2), ("ack", 3)], got
            assert sorted(answers[3:]) == [("ack", 4), ("ack", 5)], got
            assert got[0]["type"] == "welcome"
            # (and each path is the one named: a direct path that fell back would pass too)
            assert takes_messages_by_call(either_server) == [either_server.by_call]

    run(go())


def test_a_message_after_the_wait_is_read_again_at_once(either_server):
    """Once a waiting message is answered the connection reads on: the next message, sent
    only after that answer, is answered too (reading was paused, then resumed)."""

    async def go():
        async with connect(either_server.ws) as ws:
            await send_back_to_back(ws, {"type": "hello", "id": 1})
            await answers_to(ws, {1})
            for msg_id in range(2, 6):
                await send_back_to_back(ws, {"type": "list_rooms", "id": msg_id})
                answers = answered_ids(await answers_to(ws, {msg_id}))
                assert answers == [("ack", msg_id)]

    run(go())


def test_a_message_that_is_not_utf8_closes_the_connection_as_invalid(either_server):
    """A text frame whose bytes are not UTF-8 is a broken client: closed with 1007."""

    async def go():
        async with connect(either_server.ws) as ws:
            await send_back_to_back(ws, {"type": "hello", "id": 1})
            await answers_to(ws, {1})
            # websockets checks text it sends; a raw frame goes around that.
            ws.protocol.send_frame(Frame(Opcode.TEXT, b'{"type": "ping", "id": 2, "x": "\xff"}'))
            ws.send_data()
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert ws.protocol.close_rcvd.code == 1007

    run(go())


# ---------------------------------------------------------------- Frames on its own


class FakeReading:
    def __init__(self) -> None:
        self.paused = False
        self.pauses = 0

    def hold_reading(self) -> None:
        self.paused, self.pauses = True, self.pauses + 1

    def go_on_reading(self) -> None:
        self.paused = False


class Answering:
    """Answers "now:…" at once and "wait:…" when the test lets it go."""

    def __init__(self) -> None:
        self.answered: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    def __call__(self, frame):
        if frame.startswith("wait:"):
            self.gates[frame] = asyncio.Event()
            return self._wait(frame)
        self.answered.append(frame)
        return None

    async def _wait(self, frame: str) -> None:
        await self.gates[frame].wait()
        self.answered.append(frame)


def test_frames_answer_at_once_until_one_waits_then_queue_behind_it_with_reading_paused():
    async def go():
        answer, reading = Answering(), FakeReading()
        frames = Frames(answer, lambda: False, reading)
        frames.take("now:1")
        assert answer.answered == ["now:1"] and not reading.paused
        frames.take("wait:2")
        frames.take("now:3")
        frames.take("wait:4")
        frames.take("now:5")
        assert answer.answered == ["now:1"] and reading.paused
        answer.gates["wait:2"].set()
        await asyncio.sleep(0)
        while "wait:4" not in answer.gates:
            await asyncio.sleep(0)
        assert answer.answered == ["now:1", "wait:2", "now:3"] and reading.paused
        answer.gates["wait:4"].set()
        await frames.finish()
        assert answer.answered == ["now:1", "wait:2", "now:3", "wait:4", "now:5"]
        assert not reading.paused and reading.pauses == 1
        frames.take("now:6")  # after the end: nothing more is read
        assert answer.answered[-1] == "now:5"

    asyncio.run(go())


def test_frames_read_nothing_more_once_stop_after_says_so():
    """A flooder being closed: the messages behind it are dropped, reading stays paused."""

    async def go():
        answer, reading = Answering(), FakeReading()
        stop = {"now": False}
        frames = Frames(answer, lambda: stop["now"], reading)
        frames.take("wait:1")
        frames.take("now:2")
        frames.take("now:3")
        stop["now"] = True
        answer.gates["wait:1"].set()
        await frames.finish()
        assert answer.answered == ["wait:1"]
        assert reading.paused
        frames.take("now:4")
        assert answer.answered == ["wait:1"]

    asyncio.run(go())


def test_frames_stopped_drop_the_work_under_way():
    """A connection whose end was not waited for (its app cancelled, a server shutting
    down): the message under way is cancelled, and nothing behind it or after it runs."""

    async def go():
        answer, reading = Answering(), FakeReading()
        frames = Frames(answer, lambda: False, reading)
        frames.take("wait:1")
        frames.take("now:2")
        frames.stop()
        answer.gates["wait:1"].set()
        for _ in range(5):
            await asyncio.sleep(0)
        frames.take("now:3")
        assert answer.answered == []

    asyncio.run(go())


def test_a_failure_in_waiting_work_is_logged_and_the_connection_reads_no_more(caplog):
    async def go():
        answer, reading = Answering(), FakeReading()

        async def broken() -> None:
            raise ValueError("a bug")

        frames = Frames(lambda f: broken() if f == "broken" else answer(f), lambda: False, reading)
        frames.take("broken")
        frames.take("now:2")
        await frames.finish()
        frames.take("now:3")
        assert answer.answered == [] and reading.paused

    asyncio.run(go())
    assert any("failed" in r.getMessage() for r in caplog.records)
