"""Four things players noticed in the browser, in Chromium against the real server.

1. "Ana won the match!" at the top of the podium follows a language change like every other
   text on the page (players saw it keep the language it was announced in), in Haiclue and
   in Pitacor, each with its own winners' sentence.
2. In Pitacor's recap image the cell names are drawn in a face that tells "O1" from "01".
3. Haiclue's recap uses a laptop's width (rounds side by side), and still fits a 360-px phone.
4. The host's "Stop playing for Bo" sits in the card it ends: a 44×44 target, reached with the
   keyboard, named in the page's language.

Screenshots (light and dark, 360×640 and 1280×800) go to ``test-artifacts/polish-*``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_actions import (
    LAPTOP,
    PHONE,
    a_match_where_bo_dropped,
    create_room,
    no_horizontal_scroll,
    play_now,
    set_nickname,
    settled,
)
from haiclue_steps import play_until_the_end, screen
from pitacor_steps import play_until_the_podium, start_with_two_bots
from playwright.sync_api import expect

# What every canvas of the page draws from now on: each fillText's text and font.
SPY_ON_TEXT = """() => {
    window.drawnTexts = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.drawnTexts.push({ text: String(text), font: this.font });
        return fillText.call(this, text, ...rest);
    };
}"""

# A Pitacor cell's name: a row letter, then a column from 1 to 30.
CELL_NAME = re.compile(r"\b[A-P](?:30|[12][0-9]|[1-9])\b")


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick bots, and a player who goes
    counts as dropped after a second (as in test_e2e_bots)."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")
    monkeypatch.setenv("TERTULIA_DROP_GRACE", "1")


def snaps(page, artifacts: Path, name: str, sizes=(LAPTOP, PHONE)) -> None:
    """Full-page screenshots in the light and the dark theme at each size; at 360 px
    nothing may scroll the page sideways."""
    for size in sizes:
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            settled(page)  # transitions (≤ 300 ms) settle
            if size["width"] <= 400:
                assert no_horizontal_scroll(page), f"{name}: the page scrolls sideways"
            shot = f"polish-{name}-{size['width']}x{size['height']}-{scheme}.png"
            page.screenshot(path=artifacts / shot, full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(LAPTOP)


def winners_of(page) -> tuple[str, bool]:
    """The winners' names the status line gives in English, and whether there is one."""
    status = page.locator("#status-line")
    expect(status).to_have_text(re.compile(r".+ won the match( together)?!$"))
    said = re.fullmatch(r"(.+) won the match( together)?!", status.inner_text())
    return said.group(1), said.group(2) is None


def box(locator) -> dict[str, float]:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }"
    )


# --------------------------------------------------------------------------- Haiclue


def test_haiclue_winners_line_follows_the_language_and_the_recap_uses_a_laptops_width(
    player, artifacts
):
    """Play now: Ana and two computer players, a whole game. On the podium the line at the
    top changes language with the page; the recap spreads its rounds over the laptop's width
    and keeps them one under the other, inside the screen, on a phone."""
    page = player(viewport=LAPTOP)
    set_nickname(page, "Ana")
    play_now(page, "haiclue")
    screen(page).wait_for()
    play_until_the_end(page)
    names, one = winners_of(page)
    status = page.locator("#status-line")
    page.locator("#language").select_option("pl")
    expect(status).to_have_text(f"{names} wygrywa mecz!" if one else f"{names} wygrywają razem!")
    page.locator("#language").select_option("pt-BR")
    expect(status).to_have_text(
        f"{names} venceu a partida!" if one else f"{names} venceram a partida juntos!"
    )
    page.locator("#language").select_option("en")
    expect(status).to_have_text(
        f"{names} won the match!" if one else f"{names} won the match together!"
    )

    # 1280×800: the recap takes the game's whole width (no empty side column beside it), and
    # its rounds stand side by side.
    recap = page.locator("#hc-recap")
    expect(recap).to_be_visible()
    rounds = recap.locator(".hc-recap-round")
    assert rounds.count() >= 2
    area = box(page.locator("#game-area"))
    wide = box(recap)
    assert wide["width"] >= 0.9 * area["width"], f"the recap is a column: {wide} in {area}"
    first, second = box(rounds.nth(0)), box(rounds.nth(1))
    assert abs(first["top"] - second["top"]) < 1 and second["left"] > first["right"], (
        f"rounds 1 and 2 are not side by side: {first} {second}"
    )
    # 360×640: one round under the other, every one inside the screen.
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page), "the recap scrolls the phone sideways"
    lefts = {round(box(rounds.nth(i))["left"]) for i in range(rounds.count())}
    assert len(lefts) == 1, f"rounds side by side on a phone: {lefts}"
    for i in range(rounds.count()):
        assert box(rounds.nth(i))["right"] <= PHONE["width"], f"round {i + 1} runs off the phone"
    page.set_viewport_size(LAPTOP)
    recap.scroll_into_view_if_needed()
    snaps(page, artifacts, "haiclue-recap")


# --------------------------------------------------------------------------- Pitacor


def test_pitacor_winners_line_follows_the_language_and_the_image_draws_cells_in_a_clear_face(
    player, artifacts
):
    """Ana and two computer players, to 3 points. On the podium the line at the top changes
    language with the page. The recap's cell names (in the page and in the image it saves)
    are in the monospace face whose O and 0, I and 1 differ; no sentence of the image says a
    cell in the sans-serif face."""
    page = player(viewport=LAPTOP)
    create_room(page, "Ana")
    page.locator("#choose-game").select_option("pitacor")
    start_with_two_bots(page, goal=3, reveal_seconds=0)
    play_until_the_podium(page)
    names, one = winners_of(page)
    page.locator("#language").select_option("es")
    expect(page.locator("#status-line")).to_have_text(
        f"¡{names} ganó la partida!" if one else f"¡{names} ganaron la partida juntos!"
    )
    page.locator("#language").select_option("en")
    expect(page.locator("#status-line")).to_have_text(re.compile(r" won the match"))

    recap = page.locator("#pitacor-history-card")
    expect(recap).to_have_attribute("open", "")
    targets = recap.locator(".pc-history-cell").all_inner_texts()
    assert targets and all(CELL_NAME.fullmatch(cell) for cell in targets), targets
    page.evaluate(SPY_ON_TEXT)
    with page.expect_download() as download:
        page.locator("#pitacor-recap-download").click()
    assert download.value.suggested_filename.endswith(".png")
    download.value.save_as(artifacts / "polish-pitacor-recap-image.png")
    drawn = page.evaluate("window.drawnTexts")
    mono = [d["text"] for d in drawn if "DejaVu Sans Mono" in d["font"]]
    for cell in targets:
        assert cell in mono, f"the image does not draw {cell} in the coordinates' face"
    said_in_sans = [d["text"] for d in drawn if "DejaVu Sans Mono" not in d["font"]]
    stray = [text for text in said_in_sans if CELL_NAME.search(text)]
    assert not stray, f"cells drawn in the sans-serif face: {stray}"
    # In the page: the coordinates' face, with its zero slashed where the face can.
    for selector in (".pc-history-cell", ".pc-recap-cell"):
        look = recap.locator(selector).first.evaluate(
            "el => { const s = getComputedStyle(el);"
            " return {family: s.fontFamily, numeric: s.fontVariantNumeric}; }"
        )
        assert "DejaVu Sans Mono" in look["family"], (selector, look)
        assert look["numeric"] == "slashed-zero", (selector, look)

    recap.scroll_into_view_if_needed()
    snaps(page, artifacts, "pitacor-recap")


# --------------------------------------------------------------------------- stand-ins


def test_stop_playing_for_bo_is_in_its_card_a_44px_target_reached_by_keyboard(player, artifacts):
    """The host hands Bo's seat to a computer player. "Stop playing for Bo" is inside the card
    that says so, at least 44×44 px, named in Portuguese once the page is, and Tab reaches it:
    Enter ends the stand-in."""
    ana, _bo, _code = a_match_where_bo_dropped(player)
    ana.locator(".stand-in-button").click()
    card = ana.locator(".stand-in.is-playing")
    expect(card).to_have_count(1)
    stop = card.locator("button.stand-in-end")
    expect(stop).to_have_accessible_name("Stop playing for Bo")
    snaps(ana, artifacts, "stand-in")

    for size in (PHONE, LAPTOP):
        ana.set_viewport_size(size)
        target, around = box(stop), box(card)
        assert target["width"] >= 44 and target["height"] >= 44, (size, target)
        inside = (
            around["left"] <= target["left"]
            and target["right"] <= around["right"]
            and around["top"] <= target["top"]
            and target["bottom"] <= around["bottom"]
        )
        assert inside, f"{size}: the button is outside its card: {target} {around}"
    expect(ana.locator("#stand-ins > *")).to_have_count(1)  # no row of its own beside the card

    ana.locator("#language").select_option("pt-BR")
    expect(stop).to_have_accessible_name("Parar de jogar por Bo")
    # From the language menu, Tab goes through the page to it.
    ana.locator("#language").focus()
    for _ in range(30):
        ana.keyboard.press("Tab")
        if stop.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reaches “Parar de jogar por Bo”")
    ana.keyboard.press("Enter")
    expect(card).to_have_count(0)
    expect(ana.locator(".stand-in-button")).to_have_text("Jogar por Bo")
