"""Pintó's automatic marks are in the log: the server writes the judge's mark into each
interpretation it accepts (whatever the client sent), and the room's log replays to the
marks players were shown even with another judge (one of a later version)."""

from __future__ import annotations

from unittest import mock

from server_harness import run

from tertulia.client import Client
from tertulia.games import GAMES
from tertulia.games.pinto import judging
from tertulia.games.pinto.judging import Mark
from tertulia.rooms.records import GameMove, record_decoder
from tertulia.rooms.replay import replay

DOT = [{"colour": "#1d1d1f", "size": 5, "points": [10, 10, 500, 500]}]


def test_the_marks_players_were_shown_are_logged_and_replayed_whatever_the_judge(server):
    async def go():
        clients = [await Client.connect(server.ws) for _ in range(3)]
        code = await clients[0].create_room("pinto", "Lucas")
        for client, name in zip(clients[1:], ["Ana", "Nico"], strict=True):
            await client.join_room(code, name)
        await clients[0].request("start_match")
        titles = ["mouse", "cat", "boats"]
        for client, title in zip(clients, titles, strict=True):
            await client.wait_for(lambda p: p["view"] is not None)
            await client.act({"type": "set_title", "text": title})
            await client.act({"type": "reveal_drawing", "strokes": DOT})
        lucas, ana, nico = (c.player for c in clients)
        forged = {"right": False, "reason": "different"}  # a client's mark counts for nothing
        readings = {
            (1, lucas): {"text": "mice", "mark": forged},
            (1, nico): {"text": "boat"},
            (2, lucas): {"text": "rat"},
            (2, ana): {"text": "cat"},
            (0, ana): {"text": "kitty"},
            (0, nico): {"text": ""},
        }
        for (reader, artist), fields in readings.items():
            await clients[reader].act({"type": "interpret", "artist": artist, **fields})
        push = await clients[0].wait_for(lambda p: p["view"]["phase"] == "judge")
        shown = push["view"]["judging"]
        live = await server.call(server.state.store.load_live_room(code, snapshot=False))
        moves = [record_decoder.decode(e.payload) for e in live.entries]
        logged = {
            (m.seat, m.action["artist"]): m.action["mark"]
            for m in moves
            if isinstance(m, GameMove) and m.action["type"] == "interpret"
        }
        assert logged[(ana, lucas)] == {"right": True, "reason": "number"}
        assert logged[(nico, lucas)] == {"right": False, "reason": "different"}
        assert logged[(lucas, nico)] == {"right": False, "reason": "blank"}
        artist = shown["artist"]
        assert shown["marks"] == {seat: logged[(seat, artist)] for seat in shown["order"]}
        with mock.patch.object(judging, "premark", lambda *a, **k: Mark(True, "other")):
            model, _ = replay(live, GAMES)
        judgement = model.match.judgements[-1]
        marks = {s: {"right": m.right, "reason": m.reason} for s, m in judgement.marks.items()}
        assert judgement.artist == artist and marks == shown["marks"]

    run(go())
