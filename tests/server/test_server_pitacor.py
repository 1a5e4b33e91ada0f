"""Pitacor played through the server by three real WebSocket clients."""

from __future__ import annotations

import json
import urllib.request

from server_harness import run

from tertulia.client import Client


async def _table(server, public: bool = False, **settings):
    clients = [await Client.connect(server.ws, keep_frames=True) for _ in range(3)]
    code = await clients[0].create_room("pitacor", "Ana", public=public)
    for client, name in zip(clients[1:], ["Bo", "Cy"], strict=True):
        await client.join_room(code, name)
    host = clients[0]
    if settings:
        await host.request("update_settings", settings=settings)
    await host.request("start_match")
    for client in clients:
        await client.wait_for(lambda p: p["view"] is not None)
    return clients, code


def _by_id(clients):
    return {c.player: c for c in clients}


CLUES = ["ocean", "lemon", "forest", "sunset", "ember", "lagoon", "moss", "cherry", "denim"]


async def _play_round(clients) -> dict:
    """The giver picks candidate 0 and clues; guessers aim at and beside it; the giver passes."""
    by_id = _by_id(clients)
    giver = by_id[clients[0].view["giver"]]
    await giver.wait_for(lambda p: p["view"]["you"]["to_do"] == "choose_target")
    await giver.act({"type": "choose_target", "index": 0})
    target = giver.view["target"]
    await giver.act({"type": "give_clue", "text": CLUES[giver.view["round"] - 1]})
    row, col = target[0], int(target[1:])
    spots = [f"{row}{c}" for c in (col, col - 1, col + 1) if 1 <= c <= 30]
    for seat, cell in zip(giver.view["guessers"], spots, strict=False):
        await by_id[seat].act({"type": "select_cell", "cell": cell})
        await by_id[seat].act({"type": "confirm"})
    await giver.act({"type": "pass_clue"})
    return await giver.wait_for(lambda p: p["view"]["phase"] in ("reveal", "ended"))


def test_a_full_match_to_a_winner_through_the_server(server):
    async def go():
        clients, code = await _table(server, public=True, goal=5)
        push = await _play_round(clients)
        while push["view"]["phase"] != "ended":
            next_giver = _by_id(clients)[push["view"]["next_giver"]]
            await next_giver.act({"type": "next_round"})
            await clients[0].wait_for(lambda p: p["view"]["phase"] == "choose")
            push = await _play_round(clients)
        ranking = push["view"]["ranking"]
        assert ranking[0]["winner"] and ranking[0]["score"] >= 5
        assert push["room"]["status"] == "ended"
        await clients[0].request("rematch")
        lobby = await clients[1].wait_for(lambda p: p["room"]["status"] == "lobby")
        assert lobby["room"]["settings"]["goal"] == 5 and lobby["view"] is None
        with urllib.request.urlopen(f"{server.base}/api/rooms") as response:
            recent = json.load(response)["recent"]
        assert recent[0]["room"] == code and recent[0]["game"] == "pitacor"
        assert {p["name"] for p in recent[0]["players"]} == {"Ana", "Bo", "Cy"}
        colours = {p["name"]: p["colour"] for p in recent[0]["players"]}
        assert colours == {"Ana": 0, "Bo": 1, "Cy": 2}

    run(go())


def test_guessers_never_receive_the_target_before_the_reveal(server):
    """Checked on the bytes each guesser's socket actually received."""

    async def go():
        clients, _ = await _table(server)
        by_id = _by_id(clients)
        giver = by_id[clients[0].view["giver"]]
        await giver.act({"type": "choose_target", "index": 1})
        target, candidates = giver.view["target"], [c["cell"] for c in giver.view["candidates"]]
        await giver.act({"type": "give_clue", "text": "ocean"})
        far = iter(c for c in ("A1", "P30", "A30", "P1") if c not in candidates)
        for seat in giver.view["guessers"]:
            await by_id[seat].act({"type": "select_cell", "cell": next(far)})
            await by_id[seat].act({"type": "confirm"})
        guessers = [c for c in clients if c is not giver]
        for guesser in guessers:
            blob = b"".join(guesser.frames)
            for cell in candidates:
                assert f'"{cell}"'.encode() not in blob
        assert f'"{target}"'.encode() in b"".join(giver.frames)
        await giver.act({"type": "pass_clue"})
        for guesser in guessers:
            push = await guesser.wait_for(lambda p: p["view"]["phase"] == "reveal")
            assert push["view"]["target"] == target

    run(go())


def test_the_clue_giver_cannot_chat_until_the_reveal(server):
    async def go():
        clients, _ = await _table(server)
        giver = _by_id(clients)[clients[0].view["giver"]]
        assert giver.view["you"]["may_chat"] is False
        try:
            await giver.say("it's blue!")
        except Exception as error:
            assert getattr(error, "code", "") == "chat.not_now"
        else:
            raise AssertionError("the giver could chat")

    run(go())


def test_check_answers_why_a_clue_is_refused_without_changing_anything(server):
    """The clue box's live "why not": the server's own rules, as a dry run."""

    async def go():
        clients, _ = await _table(server)
        giver = _by_id(clients)[clients[0].view["giver"]]
        await giver.act({"type": "choose_target", "index": 0})
        version = giver.latest["version"]
        try:
            await giver.request("check", action={"type": "give_clue", "text": "reddish"})
        except Exception as error:
            assert error.code == "clue.color_name" and error.params["word"] == "reddish"
        else:
            raise AssertionError("reddish was allowed")
        assert await giver.request("check", action={"type": "give_clue", "text": "ocean"}) is None
        await giver.request("ping")
        assert giver.latest["version"] == version and giver.view["clues"] == []

    run(go())
