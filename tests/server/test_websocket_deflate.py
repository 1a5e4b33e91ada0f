"""permessage-deflate as a browser negotiates it: the server answers with its small window
(memory per connection, benchmarks/README.md "Memory") and pushes still arrive whole; small
messages come uncompressed, written straight to the socket, and mix with compressed ones."""

from __future__ import annotations

import json

from server_harness import run
from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Opcode

from tertulia.server.outlet import DIRECT_BYTES
from tertulia.server.websocket import WINDOW_BITS, text_frame

# What Chromium offers: permessage-deflate with client_max_window_bits and no value.
BROWSER_OFFER = ClientPerMessageDeflateFactory(client_max_window_bits=True)


def test_a_browsers_deflate_offer_is_taken_with_the_servers_small_window(server):
    async def go():
        async with connect(server.ws, extensions=[BROWSER_OFFER], compression=None) as ws:
            answer = ws.response.headers["Sec-WebSocket-Extensions"]
            assert answer.startswith("permessage-deflate")
            assert f"server_max_window_bits={WINDOW_BITS}" in answer
            assert "client_no_context_takeover" in answer
            # The session runs on after the handshake's headers were let go.
            await ws.send(json.dumps({"type": "hello", "id": 1}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome"
            create = {"type": "create_room", "id": 2, "game": "tiny", "nickname": "Ana"}
            await ws.send(json.dumps(create))
            pushes = [json.loads(await ws.recv()) for _ in range(2)]
            assert "room" in {p["type"] for p in pushes}

    run(go())


class Watching(ClientPerMessageDeflateFactory):
    """A browser's offer whose extension notes, for each text message it gets, whether it came
    compressed (RSV1) and its size once inflated."""

    def __init__(self) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen: list[tuple[bool, int]] = []

    def process_response_params(self, params, accepted):
        extension = super().process_response_params(params, accepted)
        decode = extension.decode

        def watched(frame, *, max_size=None):
            inflated = decode(frame, max_size=max_size)
            if frame.opcode is Opcode.TEXT:
                self.seen.append((frame.rsv1, len(inflated.data)))
            return inflated

        extension.decode = watched  # type: ignore[method-assign]
        return extension


def test_small_messages_come_uncompressed_and_large_ones_compressed_in_one_stream(server):
    """A push's patch and an ack skip the compressor; a whole picture is compressed against
    the connection's history, which must not count the uncompressed ones in between — if it
    did, the picture asked for last would not inflate to what was sent."""

    async def go():
        watching = Watching()
        async with (
            connect(server.ws, extensions=[watching], compression=None) as ana,
            connect(server.ws) as bo,
        ):
            got: list[dict] = []

            async def ask(ws, message, answers):
                await ws.send(json.dumps(message))
                replies = [json.loads(await ws.recv()) for _ in range(answers)]
                if ws is ana:
                    got.extend(replies)
                return replies

            await ask(ana, {"type": "hello", "id": 1}, 2)
            created = await ask(
                ana, {"type": "create_room", "id": 2, "game": "pitacor", "nickname": "Ana"}, 2
            )
            code = next(m["room"]["code"] for m in created if m["type"] == "room")
            await ask(bo, {"type": "hello", "id": 1}, 2)
            await ask(bo, {"type": "join_room", "id": 2, "code": code, "nickname": "Bo"}, 2)
            got.append(json.loads(await ana.recv()))  # Bo came in: a patch
            synced = await ask(ana, {"type": "sync", "id": 3}, 2)

        assert [m["type"] for m in got] == [
            *("welcome", "ack"),  # hello
            *("room", "ack"),  # create_room
            "patch",  # Bo came in
            *("room", "ack"),  # sync
        ]
        whole = next(m for m in synced if m["type"] == "room")
        assert [seat["nickname"] for seat in whole["room"]["seats"]] == ["Ana", "Bo"]
        assert len(watching.seen) == len(got)
        for compressed, size in watching.seen:
            assert compressed == (size > DIRECT_BYTES)
        assert {compressed for compressed, _ in watching.seen} == {True, False}

    run(go())


def test_a_frame_written_straight_carries_its_length_in_each_of_the_three_sizes():
    for size in (0, 125, 126, 65535, 65536):
        frame = text_frame(b"x" * size)
        assert frame[0] == 0x81  # final, text, not compressed (RSV1 clear)
        if size < 126:
            assert frame[1] == size and len(frame) == 2 + size
        elif size < 65536:
            assert frame[1] == 126 and int.from_bytes(frame[2:4], "big") == size
        else:
            assert frame[1] == 127 and int.from_bytes(frame[2:10], "big") == size
