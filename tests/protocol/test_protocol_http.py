"""The HTTP side of the protocol (docs/protocol.md, "HTTP"), where it says what a client
reads: the public rooms and recent matches (``/api/rooms`` and the ``rooms`` push), health,
and the metrics' refusals (``metrics.local_only``, ``metrics.token``)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import protocol_shapes
import pytest
from protocol_servers import protocol_server
from raw_client import Clients, run

from tertulia.server.addresses import parse_networks


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    """The status and the JSON body (``{}`` for a body that is not JSON: the metrics)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as refused:
        status, body = refused.code, refused.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, {}


@pytest.fixture
def alone(tmp_path):
    """A server of the test's own: recent matches are every client's to see, and a test
    that reads the list must not fail for another one's match."""
    with protocol_server(tmp_path / "tertulia.sqlite3") as server:
        yield server


@pytest.mark.covers("rooms", "list_rooms")
def test_recent_matches_of_public_rooms_are_listed_with_each_players_colour(alone, address):
    async def go():
        async with Clients(alone.ws, address) as clients:
            ana = await clients.hello("ana")
            code = (await ana.ok("create_room", game="tiny", nickname="Ana", public=True))["room"]
            bo = await clients.hello("bo")
            await bo.ok("join_room", code=code, nickname="Bo")
            await ana.ok("update_settings", settings={"target": 3, "turn_seconds": 0})
            await ana.ok("start_match")
            held = await bo.push(lambda held: held.view is not None)
            mover = ana if held.view["turn"] == ana.player else bo
            await mover.ok("act", action={"type": "add", "amount": 3})
            await ana.push(lambda held: held.room["status"] == "ended")
            for _ in range(100):  # the match is kept for the list as it ends
                start = len(ana.frames)
                await ana.ok("list_rooms")
                rooms = ana.first(lambda f: f["type"] == "rooms", start)
                recent = [m for m in rooms["recent"] if m.get("room") == code]
                if recent:
                    break
                await asyncio.sleep(0.1)  # (well inside the connection's rate limit)
            else:
                raise AssertionError("the finished public match is not listed")
            (match,) = recent
            assert match["game"] == "tiny" and isinstance(match["ended_at"], float)
            players = {p["id"]: p for p in match["players"]}
            assert players[mover.player]["winner"] is True and players[mover.player]["place"] == 1
            assert {p["colour"] for p in players.values()} == {0, 1}
            status, body = _get(f"{alone.base}/api/rooms")
            assert status == 200
            assert not protocol_shapes.problems({"type": "rooms", **body})
            assert code in [m["room"] for m in body["recent"]]

    run(go())


@pytest.mark.covers("http.healthz")
def test_health_says_ok_with_the_rooms_and_connections(shared):
    status, body = _get(f"{shared.base}/healthz")
    assert status == 200
    assert set(body) == {"status", "version", "rooms", "connections"}, body
    assert body["status"] == "ok"


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory):
    """A server behind a reverse proxy on this machine, which it trusts."""
    db = tmp_path_factory.mktemp("proxied") / "tertulia.sqlite3"
    with protocol_server(db, trusted_proxies=parse_networks("127.0.0.1")) as server:
        yield server


@pytest.mark.covers("metrics.local_only")
def test_metrics_answer_this_machine_only_without_a_token(behind_a_proxy):
    assert _get(f"{behind_a_proxy.base}/metrics")[0] == 200  # from this machine
    status, body = _get(f"{behind_a_proxy.base}/metrics", {"X-Forwarded-For": "203.0.113.9"})
    assert status == 403 and body["error"] == "metrics.local_only"


@pytest.fixture(scope="module")
def with_a_metrics_token(tmp_path_factory):
    db = tmp_path_factory.mktemp("token") / "tertulia.sqlite3"
    with protocol_server(db, metrics_token="s3cret") as server:
        yield server


@pytest.mark.covers("metrics.token")
def test_metrics_ask_for_the_token_when_there_is_one(with_a_metrics_token):
    url = f"{with_a_metrics_token.base}/metrics"
    status, body = _get(url)
    assert status == 401 and body["error"] == "metrics.token"
    assert _get(url, {"Authorization": "Bearer s3cret"})[0] == 200
