"""permessage-deflate as a browser negotiates it: the server answers with its small window
(memory per connection, benchmarks/README.md "Memory") and pushes still arrive whole."""

from __future__ import annotations

import json

from server_harness import run
from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

from tertulia.server.websocket import WINDOW_BITS

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
