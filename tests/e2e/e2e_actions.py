"""What a player does in the browser, for the e2e tests: create, join, read the lobby."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOM_URL = re.compile(r"/r/[A-Z0-9]{4,6}$")
# The page's WebSocket, for ``page.route_web_socket``: /ws, or /ws?room=CODE from a room.
SOCKET = re.compile(r"/ws(\?room=[A-Z0-9]+)?$")
PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1280, "height": 800}


def set_nickname(page: Page, nickname: str) -> None:
    page.locator("#nickname").fill(nickname)


def create_room(page: Page, nickname: str, *, public: bool = False) -> str:
    """Create a room from the home page; returns its code once the lobby shows it."""
    set_nickname(page, nickname)
    page.locator("#game option").first.wait_for(state="attached")
    if public:
        page.locator("#visibility-public").check()
    page.locator("#create-room").click()
    page.wait_for_url(ROOM_URL)
    page.locator("#seats").wait_for()
    return page.url.rsplit("/", 1)[1]


def join_room(page: Page, nickname: str, code: str) -> None:
    """Join by typing the code on the home page (lower case: codes are case-insensitive)."""
    set_nickname(page, nickname)
    page.locator("#room-code").fill(code.lower())
    page.locator("#join-room").click()
    page.wait_for_url(re.compile(f"/r/{code}$"))
    page.locator("#seats").wait_for()


def play_now(page: Page, game: str) -> None:
    """The home page's "Play now" with computer players; a browser new to the game is shown
    its rules card first (issue 29), which this person closes."""
    page.locator(f"#quick-{game}").click()
    page.locator("#howto-close").click()


def seat_names(page: Page) -> list[str]:
    return page.locator("#seats li .name").all_inner_texts()


def my_seat(page: Page) -> tuple[str | None, int]:
    """This tab's player id and seat index, as the lobby shows them."""
    seats = page.locator("#seats li")
    ids = [seats.nth(i).get_attribute("data-player") for i in range(seats.count())]
    mine = page.locator("#seats li.is-me").get_attribute("data-player")
    return mine, ids.index(mine)


def settled(page: Page, timeout: float = 15_000) -> None:
    """Wait until the page's animations and transitions have run to their end (a screenshot,
    a click, then sees where things stop): the page's own clock, not a fixed wait, so a busy
    machine only makes it later. Endless ones (a pulse, a spinner) never end: not waited."""
    page.wait_for_function(
        """() => document.getAnimations().every((a) =>
            a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity)""",
        timeout=timeout,
    )


def until(check: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Poll ``check`` (which reads the page) until it holds: for what no locator can say, such
    as a canvas's pixels. Fails, naming ``what``, after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.05)


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def a_match_where_bo_dropped(player) -> tuple[Page, Page, str]:
    """Ana hosts a Pitacor room with Bo (on a phone) and a computer player, starts the
    match, and Bo's phone leaves the room: the host may now hand his seat to a bot. Returns
    (ana, bo, code)."""
    ana, bo = player(), player(viewport=PHONE)
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    ana.locator("#add-bot").click()
    ana.locator("#seats li.is-bot").wait_for()
    ana.locator("#start-match").click()
    bo.locator("#pitacor-board .pc-cell").first.wait_for()
    bo.goto("about:blank")  # Bo's phone loses the room
    return ana, bo, code
