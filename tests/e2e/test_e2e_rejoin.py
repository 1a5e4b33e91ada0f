"""A rejoin after a reconnection that the server answers "not yet": the room is moving
between cluster nodes (``room.moved``, ``server.busy``). The page asks again a little later
and stays in its seat, instead of leaving the room as it would on a real refusal. The
refusals are made by rewriting the server's answers on the page's WebSocket (Playwright's
route), so the test needs no cluster; tests/cluster/test_cluster_browser.py kills a real one.
"""

from __future__ import annotations

import json

import pytest
from e2e_actions import SOCKET, create_room, join_room
from playwright.sync_api import expect


def _refusing_rejoins(page, code: str, times: int) -> list[str]:
    """From now on, the page's new sockets go through a route that answers its next
    ``times`` resuming ``join_room`` requests with ``code`` itself; returns what it refused."""
    refused: list[str] = []
    resuming: set[int] = set()

    def route(ws) -> None:
        server = ws.connect_to_server()

        def from_page(message) -> None:
            frame = json.loads(message)
            resume = frame.get("type") == "join_room" and frame.get("resume")
            if resume and len(refused) < times:
                resuming.add(frame["id"])
                refused.append(frame["code"])
                ws.send(json.dumps({
                    "type": "error", "re": frame["id"], "code": code,
                    "message": "The room moved to another server; try again.",
                    "params": {},
                }))  # fmt: skip
                return
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    page.route_web_socket(SOCKET, route)
    return refused


@pytest.mark.parametrize("refusal", ["room.moved", "server.busy"])
def test_a_rejoin_the_server_says_to_try_again_is_tried_again_and_keeps_the_seat(player, refusal):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    refused = _refusing_rejoins(bo, refusal, times=2)
    bo.context.set_offline(True)  # the socket goes; the next one goes through the route
    expect(bo.locator("#connection-banner")).to_have_text("Reconnecting…", timeout=5_000)
    bo.context.set_offline(False)
    expect(bo.locator("#connection-banner")).to_be_hidden(timeout=20_000)
    # Back in the room, and live: a line Ana writes reaches Bo (pushes come only once joined).
    ana.locator("#chat-input").fill("still here?")
    ana.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-log .chat-text")).to_have_text(["still here?"])
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    expect(bo).to_have_url(f"{bo.url.split('/r/')[0]}/r/{code}")
    assert refused == [code, code]  # refused twice, asked a third time, and back in
