"""Match pages and "Your matches" (docs/protocol.md, "Match pages and Your matches"): a
finished match's id in the podium's picture, ``my_matches`` (a player's own, private ones
too), ``/api/matches/{id}`` and ``/m/{id}`` with ``noindex`` for a private match, and a
guessed id refused like a room code. Raw frames and plain HTTP only, on the shared server."""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
from json_patch import apply
from raw_client import Clients, room_of, run


def _http(server, path: str, address: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from loopback ``address`` (its per-address limits are the WebSocket's):
    the status, the headers (by lower-case name) and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, source_address=(address, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, response.read()
    finally:
        connection.close()


async def _finished_match(clients, public: bool = False):
    """A tiny match of Ana and Bo played to its end; (ana, bo, the podium's picture)."""
    _, (ana, bo) = await room_of(clients, "tiny", "Ana", "Bo", public=public)
    await ana.ok("update_settings", settings={"target": 3, "turn_seconds": 0})
    await ana.ok("start_match")
    held = await bo.push(lambda held: held.view is not None)
    assert held.room["match_page"] is None  # named once the match has ended
    mover = ana if held.view["turn"] == ana.player else bo
    await mover.ok("act", action={"type": "add", "amount": 3})
    podium = await ana.push(lambda held: held.room["status"] == "ended")
    return ana, bo, podium


async def _listed(raw, page_id: str) -> list[dict]:
    """``my_matches`` once the match is kept (it is, as it ends: a moment after the podium)."""
    for _ in range(50):
        matches = (await raw.ok("my_matches"))["matches"]
        if any(m["id"] == page_id for m in matches):
            return matches
        await asyncio.sleep(0.1)
    raise AssertionError("the match is not in my_matches")


@pytest.mark.covers("my_matches", "message.malformed")
def test_my_matches_lists_a_players_own_finished_matches_with_their_result(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana, bo, podium = await _finished_match(clients)
            page_id = podium.room["match_page"]
            assert isinstance(page_id, str) and len(page_id) == 16
            (mine,) = await _listed(ana, page_id)
            assert set(mine) == {
                "id",
                "game",
                "started_at",
                "ended_at",
                "extra",
                "players",
                "you",
            }
            assert mine["game"] == "tiny" and mine["extra"]["public"] is False
            assert mine["started_at"] < mine["ended_at"]
            winner = next(p for p in mine["players"] if p["winner"])
            assert mine["you"]["winner"] == (winner["id"] == ana.player)
            (theirs,) = await _listed(bo, page_id)
            assert theirs["you"]["winner"] == (winner["id"] == bo.player)
            stranger = await clients.hello("a stranger")
            assert (await stranger.ok("my_matches"))["matches"] == []  # never another's
            older = await ana.ok("my_matches", before=mine["ended_at"])
            assert older["matches"] == []
            await ana.refused("my_matches", "message.malformed", limit=0)
            await ana.refused("my_matches", "message.malformed", limit=51)

    run(go())


@pytest.mark.covers("match.unknown")
def test_a_match_page_is_json_and_a_shell_that_a_private_match_keeps_out_of_search(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana, _, podium = await _finished_match(clients)
            page_id = podium.room["match_page"]
            await _listed(ana, page_id)
            status, headers, body = _http(shared, f"/api/matches/{page_id}", address)
            assert status == 200 and headers["x-robots-tag"] == "noindex"
            assert headers["content-type"].startswith("application/json")
            page = json.loads(body)
            assert set(page) == {
                "id",
                "game",
                "public",
                "reason",
                "started_at",
                "ended_at",
                "duration",
                "players",
                "settings",
                "recap",
                "replay",
                "blobs",
            }
            assert (page["id"], page["game"], page["public"]) == (page_id, "tiny", False)
            assert page["settings"] == {"target": 3, "turn_seconds": 0}
            view = page["replay"]["start"]
            for step in page["replay"]["steps"]:
                assert set(step) == {"at", "t", "round", "events", "view"}
                view = apply(view, step["view"])
            assert view == page["recap"] and view["secret"] is None  # a spectator's
            assert page["recap"]["counter"] == 3
            status, headers, shell = _http(shared, f"/m/{page_id}", address)
            assert status == 200 and headers["x-robots-tag"] == "noindex"
            assert headers["content-type"].startswith("text/html") and b"<html" in shell

    run(go())


def test_a_public_matchs_page_may_be_indexed_and_is_listed_with_its_id(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            ana, _, podium = await _finished_match(clients, public=True)
            page_id = podium.room["match_page"]
            await _listed(ana, page_id)
            status, headers, _ = _http(shared, f"/m/{page_id}", address)
            assert status == 200 and "x-robots-tag" not in headers
            status, headers, body = _http(shared, f"/api/matches/{page_id}", address)
            assert status == 200 and json.loads(body)["public"] is True
            assert "x-robots-tag" not in headers
            status, _, body = _http(shared, "/api/rooms", address)
            assert page_id in [m["id"] for m in json.loads(body)["recent"]]

    run(go())


@pytest.mark.covers("rate.room_codes")
def test_a_guessed_match_id_is_refused_like_a_room_code(shared, address):
    """Each id that is no kept match costs one of the address's misses (shared with room
    codes), asked of the JSON or of the shell; with none left, every id is refused, the real
    ones too."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            ana, _, podium = await _finished_match(clients)
            page_id = podium.room["match_page"]
            await _listed(ana, page_id)
            status, headers, _ = _http(shared, f"/m/{'n' * 16}", address)  # a dead link
            assert status == 200 and headers["x-robots-tag"] == "noindex"  # (one miss)
            for n in range(9):
                status, headers, body = _http(shared, f"/api/matches/{n:016d}", address)
                assert status == 404 and json.loads(body)["error"] == "match.unknown"
            status, _, body = _http(shared, f"/api/matches/{page_id}", address)
            assert status == 429 and json.loads(body)["error"] == "rate.room_codes"
            await ana.refused("join_room", "rate.room_codes", code="QQQQQ", nickname="Ana")
            # The shell is served all the same, said noindex without a lookup.
            status, headers, _ = _http(shared, f"/m/{page_id}", address)
            assert status == 200 and headers["x-robots-tag"] == "noindex"

    run(go())
