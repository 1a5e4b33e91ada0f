"""What a Haiclue player does in the browser, for the e2e tests: only through the page.

The screen marks its state on ``#haiclue`` (data-phase, data-round, data-side, data-todo,
data-reading) so the tests can wait for a step without guessing at timings.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from e2e_actions import create_room, join_room

if TYPE_CHECKING:
    from playwright.sync_api import Page

COLOURS = ("red", "yellow", "green", "blue")
MATCH_SECONDS = 90  # a game with quick bots takes well under a minute; the give-up point


def expect():
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def set_setting(host: Page, field: str, value: int, *, advanced: bool = False) -> None:
    """The host types a new value in the lobby's settings form."""
    if advanced:
        details = host.locator("details.advanced")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
    box = host.locator(f"#setting-{field}")
    box.fill(str(value))
    box.press("Enter")


def start_haiclue(
    player: Callable[..., Page],
    names: Sequence[str],
    *,
    settings: dict[str, int] | None = None,
    viewports: Sequence[dict[str, int] | None] | None = None,
) -> list[Page]:
    """The first name creates a room, chooses Haiclue and the settings; the others join;
    the host starts. Returns the pages in seat order, each showing the Haiclue screen."""
    viewports = list(viewports or [None] * len(names))
    pages = [player(viewport=v) for v in viewports]
    host = pages[0]
    code = create_room(host, names[0])
    host.locator("#choose-game").select_option("haiclue")
    expect()(host.locator("[data-field=deck]")).to_be_attached()
    for page, name in zip(pages[1:], names[1:], strict=True):
        join_room(page, name, code)
    advanced = {"min_clue_tiles", "reveal_seconds"}
    for field, value in (settings or {}).items():
        set_setting(host, field, value, advanced=field in advanced)
        # Applied once another player's read-only form shows it.
        expect()(pages[1].locator(f"[data-field={field}] dd")).to_have_text(str(value))
    host.locator("#start-match").click()
    for page in pages:
        page.locator("#haiclue").wait_for()
    return pages


def screen(page: Page):
    return page.locator("#haiclue")


def wait_for(
    page: Page, *, phase: str, round: int | None = None, reading: int | None = None
) -> None:
    root = screen(page)
    expect()(root).to_have_attribute("data-phase", phase)
    if round is not None:
        expect()(root).to_have_attribute("data-round", str(round))
    if reading is not None:
        expect()(root).to_have_attribute("data-reading", str(reading))


def my_id(page: Page) -> str:
    return page.locator("#hc-players li.is-me").get_attribute("data-player")


def seat_ids(page: Page) -> list[str]:
    rows = page.locator("#hc-players li")
    return [rows.nth(i).get_attribute("data-player") for i in range(rows.count())]


def rack(page: Page) -> list[str]:
    return page.locator("#hc-rack .hc-tile").all_inner_texts()


def clue(page: Page) -> list[str]:
    return page.locator("#hc-clue-row .hc-clue-item .hc-tile").all_inner_texts()


def my_card(page: Page) -> str:
    """This player's secret card, as their own screen highlights it."""
    return page.locator(".hc-target.is-my-card").get_attribute("data-colour")


def target_words(page: Page) -> list[str]:
    return page.locator("#hc-targets .hc-target-word").all_inner_texts()


def build_clue(page: Page, tiles: int = 2) -> list[str]:
    """Tap the first `tiles` rack tiles, send, confirm; returns the clue sent."""
    for i in range(tiles):
        page.locator("#hc-rack .hc-tile").nth(i).click()
    words = clue(page)
    page.locator("#hc-submit").click()
    page.locator("#hc-confirm").click()
    # The builder goes (the last clue in starts the reading at once).
    expect()(page.locator(".hc-builder")).to_be_hidden()
    return words


def guess(page: Page, colour: str) -> None:
    page.locator(f".hc-guess[data-colour={colour}]").click()
    # The guess buttons go (a guess is final; the last one starts the reveal at once).
    expect()(page.locator(".hc-guess")).to_have_count(0)


def ready(page: Page) -> None:
    page.locator("#hc-ready").click()
    # Pressed, or already gone (the last player ready moves the game on).
    expect()(page.locator("#hc-ready:enabled")).to_have_count(0)


def reading_author(page: Page) -> str:
    return page.locator("#hc-read-clue").get_attribute("data-author")


def countdown_shown(page: Page) -> bool:
    clock = page.locator("#hc-clock")
    return clock.is_visible() and bool(re.fullmatch(r"\d+:\d\d", clock.inner_text()))


def do_what_the_screen_asks(page: Page, rng: random.Random) -> None:
    """One step of whatever the screen asks of this person now (nothing if nothing). A step
    the screen takes away meanwhile (its clock ran out, the phase moved on) is given up
    after a few seconds: the next look at the screen asks again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    todo = screen(page).get_attribute("data-todo")
    try:
        if todo == "build_clue" and page.locator("#hc-rack .hc-tile:not(.used)").count() >= 2:
            for _ in range(2):
                page.locator("#hc-rack .hc-tile:not(.used)").first.click(timeout=3000)
            page.locator("#hc-submit").click(timeout=3000)
            page.locator("#hc-confirm").click(timeout=3000)
        elif todo == "guess" and page.locator(".hc-guess").count():
            buttons = page.locator(".hc-guess")
            buttons.nth(rng.randrange(buttons.count())).click(timeout=3000)
        elif todo == "ready" and page.locator("#hc-ready:enabled").count():
            page.locator("#hc-ready").click(timeout=3000)
    except PlaywrightTimeout:
        return


def play_until_the_end(page: Page) -> None:
    """Whatever the screen asks of this person, do it, until the game ends (a game with quick
    computer players: TERTULIA_BOT_DELAY)."""
    root = screen(page)
    deadline = time.monotonic() + MATCH_SECONDS
    rng = random.Random(4)
    while root.get_attribute("data-phase") != "ended":
        assert time.monotonic() < deadline, "the Haiclue game did not end"
        do_what_the_screen_asks(page, rng)
        page.wait_for_timeout(100)
