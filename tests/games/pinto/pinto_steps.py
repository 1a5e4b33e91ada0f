"""What a Pintó player does in the browser, for the e2e tests: only through the page.

The screen marks its state on ``#pinto`` (data-phase, data-round, data-todo, data-artist,
data-judged) so the tests can wait for a step without guessing at timings. Drawing goes
through real pointer input: ``page.mouse`` over the canvas, or touch events sent the way a
phone's touchscreen sends them (Chrome DevTools Protocol ``Input.dispatchTouchEvent``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from e2e_actions import create_room, join_room

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Page

# A stroke is a list of (x, y) points in canvas units (0..1000).
Stroke = Sequence[tuple[int, int]]

ZIGZAG: list[Stroke] = [
    [(150, 200), (300, 160), (450, 240), (600, 180), (800, 260)],
    [(200, 700), (320, 520), (500, 800), (700, 500), (820, 760)],
    [(500, 350), (520, 420), (480, 480), (540, 560)],
]


def expect():
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def set_setting(host: Page, field: str, value: str | int, *, advanced: bool = False) -> None:
    """The host changes one field of the lobby's settings form."""
    if advanced:
        details = host.locator("details.advanced")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
    box = host.locator(f"#setting-{field}")
    if box.evaluate("el => el.tagName") == "SELECT":
        box.select_option(str(value))
    else:
        box.fill(str(value))
        box.press("Enter")


def start_pinto(
    pages: Sequence[Page], names: Sequence[str], *, settings: dict[str, str | int] | None = None
) -> None:
    """The first page creates a room and chooses Pintó and the settings; the others join;
    the host starts. Every page then shows the Pintó screen."""
    host = pages[0]
    code = create_room(host, names[0])
    host.locator("#choose-game").select_option("pinto")
    expect()(host.locator("[data-field=drawing_seconds]")).to_be_attached()
    for page, name in zip(pages[1:], names[1:], strict=True):
        join_room(page, name, code)
    for field, value in (settings or {}).items():
        set_setting(host, field, value, advanced=field == "judging_seconds")
        # Applied once another player's read-only form shows it.
        if isinstance(value, int):
            expect()(pages[1].locator(f"[data-field={field}] dd")).to_have_text(str(value))
    host.locator("#start-match").click()
    for page in pages:
        page.locator("#pinto").wait_for()


def screen(page: Page):
    return page.locator("#pinto")


def wait_for(
    page: Page,
    *,
    phase: str,
    round: int | None = None,
    todo: str | None = None,
    judged: int | None = None,
) -> None:
    root = screen(page)
    expect()(root).to_have_attribute("data-phase", phase)
    if round is not None:
        expect()(root).to_have_attribute("data-round", str(round))
    if todo is not None:
        expect()(root).to_have_attribute("data-todo", todo)
    if judged is not None:
        expect()(root).to_have_attribute("data-judged", str(judged))


def my_id(page: Page) -> str:
    return page.locator("#pn-players li.is-me").get_attribute("data-player")


def category(page: Page) -> str:
    return page.locator("#pn-category").inner_text()


def write_title(page: Page, text: str) -> None:
    page.locator("#pn-title").fill(text)
    page.locator("#pn-title-save").click()
    expect()(screen(page)).to_have_attribute("data-todo", "draw")


def pick(page: Page, *, colour: str | None = None, size: int | None = None) -> None:
    if colour:
        page.locator(f"#pn-colour-{colour}").click()
    if size:
        page.locator(f"#pn-size-{size}").click()


def to_screen(page: Page, x: int, y: int) -> tuple[float, float]:
    box = page.locator("#pn-pad").bounding_box()
    assert box, "the canvas is not on the page"
    return box["x"] + box["width"] * x / 1000, box["y"] + box["height"] * y / 1000


def draw(page: Page, strokes: Sequence[Stroke] = ZIGZAG) -> None:
    """Draw with the mouse: real pointerdown / pointermove / pointerup over the canvas."""
    page.locator("#pn-pad").scroll_into_view_if_needed()
    for stroke in strokes:
        page.mouse.move(*to_screen(page, *stroke[0]))
        page.mouse.down()
        for point in stroke[1:]:
            page.mouse.move(*to_screen(page, *point), steps=6)
        page.mouse.up()


def touch_draw(page: Page, cdp: CDPSession, strokes: Sequence[Stroke] = ZIGZAG) -> None:
    """Draw with a finger: touchStart / touchMove / touchEnd as a touchscreen sends them."""
    for stroke in strokes:
        points = [to_screen(page, *p) for p in stroke]
        x, y = points[0]
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for i in range(1, 7):
                x, y = x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * i / 6
                cdp.send(
                    "Input.dispatchTouchEvent",
                    {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
                )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def inked_pixels(page: Page) -> int:
    """How many pixels of the drawing pad are not paper white (a blank pad has none)."""
    return page.evaluate(
        """() => {
            const c = document.getElementById('pn-pad');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < d.length; i += 4) {
                if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) n++;
            }
            return n;
        }"""
    )


def reveal(page: Page) -> None:
    page.locator("#pn-reveal").click()
    dialog = page.locator("dialog.confirm")
    expect()(dialog).to_contain_text("can't change it")
    dialog.locator("button[value=yes]").click()
    expect()(page.locator("#pn-mine .pn-art")).to_be_visible()


def interpret(page: Page, artist: str, text: str) -> None:
    """Type in the box of `artist`'s drawing and press Enter (it saves)."""
    box = page.locator(f"#pn-guess-{artist}")
    box.fill(text)
    box.press("Enter")
    state = page.locator(f"#pn-guess-state-{artist}")
    expect()(state).to_have_attribute("data-state", "saved")


def finish_with_blanks(page: Page) -> None:
    page.locator("#pn-finish").click()
    dialog = page.locator("dialog.confirm")
    expect()(dialog).to_contain_text("blank")
    dialog.locator("button[value=yes]").click()


def dispute(page: Page, seat: str) -> None:
    """Dispute the mark on ``seat``'s interpretation of the drawing being judged."""
    row = page.locator(f"#pn-interps li[data-seat='{seat}']")
    row.locator(".pn-dispute").click()
    expect()(row).to_have_attribute("data-dispute", re.compile("open|decided"))


def vote(page: Page, seat: str, right: bool) -> None:
    """Vote on the disputed mark of ``seat``'s interpretation."""
    row = page.locator(f"#pn-interps li[data-seat='{seat}']")
    expect()(screen(page)).to_have_attribute("data-todo", "vote")
    row.locator(".pn-vote-right" if right else ".pn-vote-wrong").click()
    expect()(row.locator(".pn-vote-buttons")).to_be_hidden()


def accept_marks(page: Page) -> None:
    """ "The marks are fair": this player has nothing (more) to dispute. The last one to
    accept sees the next drawing (or the round's end) instead."""
    judged = screen(page).get_attribute("data-judged")
    page.locator("#pn-accept").click()
    page.wait_for_function(
        """judged => {
            const button = document.getElementById('pn-accept');
            const root = document.getElementById('pinto');
            return !button || button.hidden || button.closest('[hidden]') !== null
                || root.dataset.judged !== judged || root.dataset.phase !== 'judge';
        }""",
        arg=judged,
    )


def status(page: Page) -> str:
    return page.locator("#status-line").inner_text()


def open_touch_phone(browser, url: str, errors: list[str]) -> tuple[Page, CDPSession]:
    """A phone: 360×640, a touchscreen, mobile viewport rules."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.goto(url + "/")
    return page, context.new_cdp_session(page)


def seat_pages(pages: Sequence[Page]) -> dict[str, Page]:
    return {my_id(page): page for page in pages}


def scores(page: Page) -> dict[str, int]:
    rows = page.locator("#pn-podium li")
    return {
        rows.nth(i).get_attribute("data-player"): int(rows.nth(i).locator(".score").inner_text())
        for i in range(rows.count())
    }
