"""Three players in Chromium play Pitacor through nginx (round robin, no sticky sessions) in
front of three ``tertulia serve`` nodes on Redis and PostgreSQL; the node owning the room is
killed (SIGKILL) mid-round, and the match goes on to its end.

Issue 16.7: "a Chromium test where three players play a room through the proxy, the node
owning it is killed mid-round, and the match goes on to its end". What a player would notice
is what is asserted: every page comes back by itself (through the proxy, to another node) in
its own seat, with the clue and the marker acknowledged before the kill, the round's clock
running again, and the reveal scores that marker.

Only the browser acts: the pages connect, reconnect and rejoin with the client's own code.
The test drives Debian's Chromium as the browser tests do (tests/e2e/conftest.py); without
it the test fails (`make test` installs it, and Playwright with the test extra).
"""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster_testing import Node, cluster, nginx_in_front
from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "pitacor"))

from pitacor_steps import (
    choose_target,
    far_cell,
    find_giver,
    give_clue,
    place,
    ring_cell,
    start_match,
)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [  # as tests/e2e/conftest.py launches it
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
CLASSIC = (30, 16)
NAMES = ["Ana", "Bo", "Cy"]

if not CHROMIUM.exists():  # `make test` installs it: a missing browser is a failure, not a skip
    pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium", pytrace=False)


class Tab:
    """One player's browser context and page, with every WebSocket frame it received."""

    def __init__(self, browser, url: str, errors: list[str]) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.frames: list[tuple[float, str]] = []
        self.page.on("pageerror", lambda error: errors.append(f"{self.page.url}: {error}"))
        self.page.on("websocket", self._listen)
        self.page.goto(url + "/")

    def _listen(self, socket) -> None:
        socket.on("framereceived", lambda data: self.frames.append((time.monotonic(), str(data))))

    def said_since(self, moment: float, text: str) -> int:
        """How many frames received after ``moment`` hold ``text``."""
        return sum(1 for at, data in self.frames if at > moment and text in data)

    def room_pushes_since(self, moment: float) -> int:
        return self.said_since(moment, '"type":"room"')


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _owner(nodes: list[Node]) -> Node:
    """The node that owns the one room there is (its ``/healthz`` counts its rooms)."""
    owners = []
    for node in nodes:
        with urllib.request.urlopen(f"{node.base}/healthz", timeout=5) as response:
            if json.load(response)["rooms"]:
                owners.append(node)
    assert len(owners) == 1, f"{len(owners)} nodes say they own the room"
    return owners[0]


def _until(page, check, what: str, timeout: float = 20.0) -> None:
    """Until ``check()``; waiting in ``page`` (Playwright hands its events over only while
    one of its calls runs: a plain sleep would never see a frame arrive)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never {what}")
        page.wait_for_timeout(100)


def test_a_pitacor_match_through_nginx_survives_the_owner_being_killed(browser, tmp_path) -> None:
    from server_harness import free_port

    port = free_port()
    site = f"http://127.0.0.1:{port}"
    # The pages' origin is the proxy's: every node must accept it as its own.
    with (
        cluster(tmp_path, count=3, env={"TERTULIA_PUBLIC_URL": site}) as nodes,
        nginx_in_front(tmp_path, nodes, port=port),
    ):
        errors: list[str] = []
        tabs = [Tab(browser, site, errors) for _ in NAMES]
        pages = [tab.page for tab in tabs]
        try:
            # Goal 2: the neighbour's 2 points below end the match on the spot.
            start_match(pages, NAMES, goal=2)
            g = find_giver(pages)
            giver = pages[g]
            first, second = [i for i in range(3) if i != g]
            target = choose_target(giver, 0)
            give_clue(giver, "ocean")
            near = ring_cell(target, 1, *CLASSIC)
            place(pages[first], near)  # acknowledged: the marker is on its own board
            for page in pages:
                expect(page.locator("#pitacor-board .pc-marker")).to_have_count(1)

            # ------------------------------------------------------------ mid-round: kill
            owner = _owner(nodes)
            owner.kill()
            killed_at = time.monotonic()
            # Every page gets the room afresh from its new owner: the page whose socket died
            # with the node after reconnecting through the proxy, the others relayed.
            for tab, name in zip(tabs, NAMES, strict=True):
                _until(tab.page, lambda tab=tab: tab.room_pushes_since(killed_at), f"{name} back")
            back_after = time.monotonic() - killed_at
            # The host's socket was on the owner (a room is opened where it is asked for):
            # that page came back through the proxy with a new connection, by itself.
            assert tabs[0].said_since(killed_at, '"type":"welcome"'), "the host never reconnected"
            survivors = [node for node in nodes if node is not owner]
            assert _owner(survivors) in survivors
            for page, name in zip(pages, NAMES, strict=True):
                expect(page.locator("#scoreboard .score-row.is-me")).to_contain_text(name)
                expect(page.locator("#pitacor-clues")).to_contain_text("ocean")
                expect(page.locator("#pitacor-board .pc-marker")).to_have_count(1)
            expect(pages[first].locator("#pitacor-board .pc-marker.mine")).to_have_count(1)
            # The guess clock runs again (the restart grace may have lengthened it).
            clock = pages[second].locator("#pitacor-clock")
            expect(clock).to_be_visible()
            expect(clock).to_contain_text(re.compile(r"Guess\s*\d+:\d\d"))
            shown = clock.inner_text()
            expect(clock).not_to_have_text(shown, timeout=5_000)

            # ------------------------------------------------------------ on to the end
            place(pages[second], far_cell(target, *CLASSIC))
            expect(giver.locator("#pitacor-pass")).to_be_visible()
            giver.locator("#pitacor-pass").click()
            for page in pages:
                expect(page.locator("#pitacor-reveal-target")).to_contain_text(target)
                expect(page.locator("#pitacor-podium")).to_be_visible()
                expect(page.locator("#status-line")).to_have_text(f"{NAMES[first]} won the match!")
            # The marker placed before the kill is the one the reveal scores.
            scored = giver.locator("#pitacor-points li", has_text=NAMES[first])
            expect(scored.locator(".pc-round-points")).to_have_text("+2")
            assert back_after <= 15, f"the pages were back only after {back_after:.1f} s"
        finally:
            for tab in tabs:
                tab.context.close()
        assert not errors, "script errors in the pages:\n" + "\n".join(errors)
