"""Pitacor on a 360×640 touch phone (issue 30): any cell in at most two taps, each on a target
of at least 44 × 44 CSS px, without pinch-zoom; the keyboard's grid still works.

The whole board's cells are ~10 px on a phone, so the board is one target: a tap zooms in at
once around the spot, cells 46 px wide, and a tap on a cell there selects it. The sample is
the four corners, a cell on each edge and a few inside; each is tapped through the page, with
a real touchscreen, where a person would tap it, and the page must say that cell is chosen.
"""

from __future__ import annotations

import re

import pytest
from e2e_actions import create_room, no_horizontal_scroll
from pitacor_steps import cell, set_setting
from playwright.sync_api import expect

SAMPLE = ["A1", "A30", "P1", "P30", "A14", "P17", "H1", "I30", "B2", "O29", "H15", "E23", "L6"]
PHONE = {"width": 360, "height": 640}


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")


def box(locator) -> dict[str, float]:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }"
    )


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["left"] + b["width"] / 2, b["top"] + b["height"] / 2


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["left"] >= outer["left"] - 0.5
        and inner["right"] <= outer["right"] + 0.5
        and inner["top"] >= outer["top"] - 0.5
        and inner["bottom"] <= outer["bottom"] + 0.5
    )


def a_guesser_on_a_touch_phone(browser, server, errors: list[str]):
    """Ana, on a touch phone, with two quick computer players; returns her page once she
    may place a marker (a computer player gives the clue; if it is Ana's turn to give, she
    chooses, gives one and passes, and the next round is theirs)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    create_room(page, "Ana")
    page.locator("#add-bot").click()
    page.locator("#add-bot").click()
    expect(page.locator("#seats li.is-bot")).to_have_count(2)
    for field in ("clue_seconds", "guess_seconds", "reveal_seconds"):
        set_setting(page, field, 0)  # no clock: the test takes the time it takes
    page.locator("#start-match").click()
    page.locator("#pitacor-board .pc-cell").first.wait_for()
    status = page.locator("#status-line")
    expect(status).to_have_text(re.compile(r"^Your turn: (choose|place)"))
    if status.inner_text().startswith("Your turn: choose"):
        page.locator("#pitacor-candidate-0").click()
        page.locator("#pitacor-clue").fill("ocean")
        page.locator("#pitacor-give").click()
        page.locator("#pitacor-pass").click()
        expect(status).to_have_text(re.compile(r"^Your turn: place"), timeout=20_000)
    return page


def test_any_cell_in_two_taps_of_44_px_on_a_phone_and_the_keyboard_still_works(
    browser, server, artifacts
):
    errors: list[str] = []
    page = a_guesser_on_a_touch_phone(browser, server, errors)
    try:
        board = page.locator("#pitacor-board")
        viewport = page.locator("#pitacor-board-viewport")
        whole = page.locator("#pitacor-whole-board")
        expect(page.locator("#pitacor-zoom-hint")).to_be_visible()
        taken = set(page.locator("#pitacor-board .pc-cell.taken .pc-coord").all_inner_texts())
        for name in [c for c in SAMPLE if c not in taken]:
            if whole.is_visible():
                whole.tap()
                expect(page.locator(".pc-board-wrap.zoomed")).to_have_count(0)
            # Tap 1: the whole board, where the cell is. The board is the target there.
            board.scroll_into_view_if_needed()
            target = box(board)
            assert target["width"] >= 44 and target["height"] >= 44, target
            page.touchscreen.tap(*centre(box(cell(page, name))))
            expect(page.locator(".pc-board-wrap.zoomed")).to_have_count(1)
            # Tap 2: the cell, now at least 44 × 44 and in sight without panning.
            spot = cell(page, name)
            at = box(spot)
            assert at["width"] >= 44 and at["height"] >= 44, f"{name} zoomed is {at}"
            window = box(viewport)
            assert inside(at, window), f"{name} is out of the zoomed window: {at} {window}"
            assert at["top"] >= 0 and at["bottom"] <= PHONE["height"], f"{name} off screen"
            page.touchscreen.tap(*centre(at))
            expect(page.locator("#pitacor-picked")).to_have_text(f"Selected: {name}")
            expect(spot).to_have_attribute("aria-selected", "true")
            if name == "H15":
                page.screenshot(path=artifacts / "pitacor-phone-zoomed-360x640.png")
            assert no_horizontal_scroll(page), f"the page scrolls sideways after {name}"
        # Every control of the zoom is a finger's size; the arrows pan the window.
        for control in [whole, *page.locator(".pc-pan").all()]:
            size = box(control)
            assert size["width"] >= 44 and size["height"] >= 44, size
        before = viewport.evaluate("el => el.scrollLeft")
        page.locator(f".pc-pan[data-pan={'left' if before > 0 else 'right'}]").tap()
        expect(viewport).not_to_have_js_property("scrollLeft", before)
        # The keyboard's grid: arrows move, Enter selects (and zooms there), Enter confirms.
        whole.tap()
        free = next(c for c in ("C3", "C4", "D3", "D4") if c not in taken)
        page.get_by_role("gridcell", name=free, exact=True).focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        expect(page.locator("#pitacor-picked")).to_have_text(f"Selected: {free}")
        expect(page.locator(".pc-board-wrap.zoomed")).to_have_count(1)
        page.keyboard.press("Enter")
        cell(page, free).locator(".pc-marker.mine").wait_for()
    finally:
        page.context.close()
    assert not errors, errors
