"""What a Pitacor player does in the browser, for the e2e tests: only through the page."""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from e2e_actions import create_room, join_room, no_horizontal_scroll, settled
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Page

ROWS = "ABCDEFGHIJKLMNOP"
MATCH_SECONDS = 90  # a match with quick bots takes well under a minute; the give-up point


def parse(cell: str) -> tuple[int, int]:
    return ROWS.index(cell[0]), int(cell[1:]) - 1


def name(row: int, col: int) -> str:
    return f"{ROWS[row]}{col + 1}"


def ring_cell(target: str, ring: int, cols: int, rows: int, skip: tuple[str, ...] = ()) -> str:
    """A cell exactly `ring` rings from `target` (1: a neighbour), inside the board."""
    r, c = parse(target)
    for dr in range(-ring, ring + 1):
        for dc in range(-ring, ring + 1):
            if max(abs(dr), abs(dc)) != ring:
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and name(rr, cc) not in skip:
                return name(rr, cc)
    raise AssertionError(f"no cell {ring} rings from {target}")


def far_cell(target: str, cols: int, rows: int, skip: tuple[str, ...] = ()) -> str:
    """A cell at least 3 rings from `target`: it scores nothing."""
    r, c = parse(target)
    for rr in (rows - 1 - r if r < rows / 2 else 0, 0, rows - 1):
        for cc in (cols - 1 - c if c < cols / 2 else 0, 0, cols - 1):
            candidate = name(rr, cc)
            if max(abs(rr - r), abs(cc - c)) >= 3 and candidate not in skip:
                return candidate
    raise AssertionError(f"no far cell from {target}")


# --------------------------------------------------------------------------- recording


@dataclass
class Wire:
    """Every WebSocket frame a page received (attach before the page connects)."""

    frames: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        def on_socket(ws) -> None:
            ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

        page.on("websocket", on_socket)
        page.reload()  # the page connected before we listened: connect again

    def mentions(self, text: str) -> bool:
        return any(text in frame for frame in self.frames)


def assert_secret(page: Page, wire: Wire, cell: str, who: str) -> None:
    """Neither the page nor what it received holds `cell` in quotes."""
    quoted = f'"{cell}"'
    assert quoted not in page.content(), f"{who}'s page shows the target {cell}"
    assert not wire.mentions(quoted), f"{who} received the target {cell} over the WebSocket"


# --------------------------------------------------------------------------- lobby


def set_setting(host: Page, field: str, value: object) -> None:
    """Change a lobby setting as the host does it (opening "advanced" when needed)."""
    control = host.locator(f"#setting-{field}")
    if not control.is_visible():
        host.locator("details.advanced summary").click()
    if isinstance(value, bool):
        control.set_checked(value)
    elif control.evaluate("el => el.tagName") == "SELECT":
        control.select_option(str(value))
    else:
        control.fill(str(value))
        control.press("Enter")


def start_match(pages: list[Page], nicknames: list[str], **settings: object) -> str:
    """The first page creates a room, the others join, the host sets `settings` and starts."""
    host = pages[0]
    code = create_room(host, nicknames[0])
    for page, nickname in zip(pages[1:], nicknames[1:], strict=True):
        join_room(page, nickname, code)
    for key, value in settings.items():
        set_setting(host, key, value)
    # The settings and the start go over the host's one connection, in order: no wait needed.
    host.locator("#start-match").click()
    for page in pages:
        page.locator("#pitacor-board .pc-cell").first.wait_for()
    return code


# --------------------------------------------------------------------------- the round


def find_giver(pages: list[Page], timeout: float = 10.0) -> int:
    """The index of the page that shows the clue giver's panel."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if page.locator("#pitacor-giver").is_visible():
                return i
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody is giving clues")


def choose_target(giver: Page, index: int = 0) -> str:
    giver.locator(f"#pitacor-candidate-{index}").click()
    target = giver.locator("#pitacor-my-target .pc-cell-name")
    target.wait_for()
    return target.inner_text().strip()


def give_clue(giver: Page, text: str) -> None:
    giver.locator("#pitacor-clue").fill(text)
    giver.locator("#pitacor-give").click()
    giver.locator("#pitacor-clues .pc-clue-text", has_text=text).wait_for()


def cell(page: Page, coordinate: str):
    cols = int(
        page.locator("#pitacor-board").evaluate(
            "el => getComputedStyle(el).getPropertyValue('--cols')"
        )
    )
    r, c = parse(coordinate)
    return page.locator("#pitacor-board .pc-cell").nth(r * cols + c)


def zoom_in_at(page: Page, coordinate: str) -> None:
    """On a phone: tap the whole board where `coordinate` is; it zooms in around it."""
    spot = cell(page, coordinate)
    zoomed = page.locator(".pc-board-wrap.zoomed")
    for _ in range(3):  # a tap while the page lays itself out again (a new size) may miss
        settled(page)
        # In the middle of the screen: not under the sticky status bar.
        spot.evaluate("el => el.scrollIntoView({block: 'center', inline: 'center'})")
        box = spot.bounding_box()
        assert box, f"{coordinate} is not on the page"
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        with contextlib.suppress(PlaywrightTimeout):
            zoomed.wait_for(timeout=4000)
            return
    zoomed.wait_for()


def zoomable(page: Page) -> bool:
    """A phone's whole board (its cells take no taps until it zooms in)."""
    return bool(page.viewport_size and page.viewport_size["width"] < 700) and (
        page.locator(".pc-board-wrap.zoomed").count() == 0
    )


def select(page: Page, coordinate: str) -> None:
    """Tap the cell (on a phone: tap the board there, then the cell zoomed in)."""
    if zoomable(page):
        zoom_in_at(page, coordinate)
    cell(page, coordinate).click()
    page.locator("#pitacor-picked", has_text=coordinate).wait_for()


def place(page: Page, coordinate: str) -> None:
    """Select a cell, then confirm it."""
    select(page, coordinate)
    page.locator("#pitacor-confirm").click()
    # The marker lands on this player's board (the panel may already be gone: the step ended).
    cell(page, coordinate).locator(".pc-marker.mine").wait_for()


def whose_turn(pages: list[Page], timeout: float = 10.0) -> int:
    """Turns mode: the page whose status line says it is their turn to place a marker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if page.locator("#status-line").inner_text().startswith("Your turn: place"):
                return i
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's turn to place a marker")


def snap(page: Page, artifacts: Path, name_: str, *, full: bool = True) -> None:
    """A screenshot of this step; on a phone, also check there is no sideways scrolling."""
    settled(page)  # transitions (≤ 300 ms) settle
    if page.viewport_size and page.viewport_size["width"] <= 400:
        wide = page.evaluate(
            """() => [...document.querySelectorAll('body *')]
                .filter(el => el.getBoundingClientRect().right > innerWidth + 0.5)
                .slice(0, 5).map(el => el.tagName + '.' + el.className)"""
        )
        assert no_horizontal_scroll(page), f"{name_}: the page scrolls sideways at 360 px: {wide}"
    page.screenshot(path=artifacts / f"pitacor-{name_}.png", full_page=full)


def join_playing_room(page: Page, nickname: str, code: str) -> None:
    """Join by code while a match is running: the game screen shows, not the lobby."""
    page.locator("#nickname").fill(nickname)
    page.locator("#room-code").fill(code.lower())
    page.locator("#join-room").click()
    page.locator("#pitacor-board .pc-cell").first.wait_for()


def board_colours(page: Page) -> dict[str, object]:
    """What the board draws: each cell's hex text (Ultra Hard) and its distinct backgrounds."""
    return page.locator("#pitacor-board").evaluate(
        """board => {
            const cells = [...board.querySelectorAll('.pc-cell')];
            return {
                count: cells.length,
                hexes: cells.map(c => (c.querySelector('.pc-hex')?.textContent || '')),
                backgrounds: new Set(cells.map(c => getComputedStyle(c).backgroundColor)).size,
            };
        }"""
    )


def place_by_keyboard(page: Page, coordinate: str) -> None:
    """Reach the cell by its accessible name, step off and back with the arrow keys, then
    Enter selects and Enter again confirms."""
    target = page.get_by_role("gridcell", name=coordinate, exact=True)
    target.focus()
    away, back = (
        ("ArrowLeft", "ArrowRight") if parse(coordinate)[1] > 0 else ("ArrowRight", "ArrowLeft")
    )
    page.keyboard.press(away)
    page.keyboard.press(back)
    page.keyboard.press("Enter")
    page.locator("#pitacor-picked", has_text=coordinate).wait_for()
    page.keyboard.press("Enter")
    cell(page, coordinate).locator(".pc-marker.mine").wait_for()


def start_with_two_bots(host: Page, **settings: object) -> None:
    """The host of a Pitacor lobby seats two computer players, sets ``settings`` (the lobby's
    fields: ``goal=3``…) and starts; returns once the board shows."""
    host.locator("#add-bot").click()
    host.locator("#add-bot").click()
    expect(host.locator("#seats li.is-bot")).to_have_count(2)
    for name, value in settings.items():
        set_setting(host, name, value)
    host.locator("#start-match").click()
    host.locator("#pitacor-board .pc-cell").first.wait_for()


# A clue once used is refused for the rest of the match ("Give clue" stays disabled): a person
# who gives twice says something else the second time.
CLUES = ("tide", "meadow", "ember", "lagoon", "pumpkin", "glacier", "velvet", "harbour")


def do_what_the_screen_asks(page: Page, clues: Iterator[str], rng: random.Random) -> None:
    """The one thing the Pitacor screen asks of this person now, if any: choose a target,
    give a clue (the next of ``clues``) or pass, go on after a reveal, place a marker (on a
    phone, a tap to zoom first) and confirm it."""
    if page.locator("#pitacor-candidate-0").is_visible():
        page.locator("#pitacor-candidate-0").click()
    elif page.locator("#pitacor-pass").is_visible():
        page.locator("#pitacor-pass").click()
    elif page.locator("#pitacor-clue").is_visible():
        page.locator("#pitacor-clue").fill(next(clues))
        page.locator("#pitacor-give").click()
    elif page.locator("#pitacor-next").is_visible():
        page.locator("#pitacor-next").click()
    elif page.locator("#pitacor-guess").is_visible():
        cells = page.locator("#pitacor-board .pc-cell")
        spot = cells.nth(rng.randrange(cells.count()))
        try:
            if zoomable(page):  # a phone: the first tap zooms in around the spot
                box = spot.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.locator(".pc-board-wrap.zoomed").wait_for(timeout=3000)
                settled(page)
            spot.click(timeout=3000)
        except PlaywrightTimeout:
            return  # the board moved under the tap (a round ended, a slow zoom): look again
        confirm = page.locator("#pitacor-confirm")
        if confirm.is_visible() and confirm.is_enabled():
            # A computer player may take that cell meanwhile, and the button goes: the next
            # look at the screen asks again.
            with contextlib.suppress(PlaywrightTimeout):
                confirm.click(timeout=3000)


def play_until_the_podium(page: Page) -> None:
    """Whatever the screen asks of this person, do it, until the podium shows (a match with
    quick computer players: TERTULIA_BOT_DELAY)."""
    rng, clues = random.Random(3), iter(CLUES)
    deadline = time.monotonic() + MATCH_SECONDS
    while not page.locator("#pitacor-podium").is_visible():
        assert time.monotonic() < deadline, "the Pitacor match did not end"
        do_what_the_screen_asks(page, clues, rng)
        page.wait_for_timeout(150)
