"""Pintó through the server: drawings larger than the default frame cap, sent once as blobs."""

from __future__ import annotations

from server_harness import run

from tertulia.client import Client


def test_a_large_drawing_is_accepted_and_reaches_everyone_once(server):
    async def go():
        clients = [await Client.connect(server.ws) for _ in range(3)]
        code = await clients[0].create_room("pinto", "Lucas")
        for client, name in zip(clients[1:], ["Ana", "Nico"], strict=True):
            await client.join_room(code, name)
        await clients[0].request("start_match")
        artist, other, third = clients
        await other.wait_for(lambda p: p["view"] is not None)
        await artist.act({"type": "set_title", "text": "spiral"})
        points = [v for i in range(12_000) for v in (i % 1000, (i * 7) % 1000)]
        strokes = [{"colour": "#1d1d1f", "size": 5, "points": points}]
        await artist.act({"type": "reveal_drawing", "strokes": strokes})  # ~100 KB frame
        push = await other.wait_for(lambda p: artist.player in p["view"]["drawings"])
        key = push["view"]["drawings"][artist.player]["blob"]
        assert other.blobs[key][0]["points"] == points
        assert push["view"]["my_title"] is None and "spiral" not in str(push["view"])
        await third.act({"type": "set_title", "text": "wave"})
        later = await other.wait_for(lambda p: p["version"] > push["version"])
        assert later["blobs"] is None  # the drawing is not sent again

    run(go())
