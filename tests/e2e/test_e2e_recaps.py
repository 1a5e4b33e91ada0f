"""The match recap on the podium screen (issue 19, item 9), in Chromium against the real server.

A short match of each game, played only through the page; at the end every player's podium
screen shows every round of it — Pitacor: the target, the clues and every marker on a small
board; Haiclue: each round's targets, clues as read, cards and who guessed what; Pintó: an
album of every drawing with its title and readings — and "Download image" saves a PNG of it.
Screenshots (laptop light, phone dark) and the images go to ``test-artifacts/recap-*``.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

from e2e_actions import LAPTOP, PHONE, no_horizontal_scroll, settled
from haiclue_steps import build_clue, my_card, reading_author, ready, start_haiclue
from haiclue_steps import guess as haiclue_guess
from haiclue_steps import my_id as haiclue_id
from haiclue_steps import wait_for as haiclue_wait
from pinto_steps import accept_marks, draw, interpret, reveal, start_pinto, write_title
from pinto_steps import my_id as pinto_id
from pinto_steps import screen as pinto_screen
from pinto_steps import wait_for as pinto_wait
from pitacor_steps import choose_target, far_cell, find_giver, give_clue, place, ring_cell
from pitacor_steps import start_match as start_pitacor
from playwright.sync_api import expect

CLASSIC = (30, 16)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
UNTIMED = {"clue_seconds": 0, "guess_seconds": 0, "reveal_seconds": 0}


def download_png(page, button: str, game: str, artifacts: Path) -> tuple[int, int]:
    """Click the recap's download button; the file is a real PNG named after the game and the
    day, and not a blank one. Returns its width and height (from its IHDR chunk)."""
    with page.expect_download() as info:
        page.locator(button).click()
    download = info.value
    assert re.fullmatch(rf"tertulia-{game}-\d{{4}}-\d\d-\d\d\.png", download.suggested_filename)
    saved = artifacts / f"recap-{game}-image.png"
    download.save_as(saved)
    data = saved.read_bytes()
    assert data[:8] == PNG_SIGNATURE, "the download is not a PNG"
    assert len(data) > 20_000, f"a {len(data)}-byte PNG: the recap was not painted"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1080 and height > 400, (width, height)
    return width, height


def snap(page, artifacts: Path, name: str) -> None:
    """A full-page screenshot; at 360 px, nothing may scroll the page sideways."""
    settled(page)  # transitions settle
    if page.viewport_size["width"] <= 400:
        assert no_horizontal_scroll(page), f"{name}: the page scrolls sideways"
    page.screenshot(path=artifacts / f"recap-{name}.png", full_page=True)


def dark(page) -> None:
    page.emulate_media(color_scheme="dark")


# What every canvas of the page draws from now on: each fillText's text, and whether it is on
# the image itself (the recap is painted twice: first on a 10-px scratch canvas, to measure).
SPY_ON_TEXT = """() => {
    window.drawnTexts = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.drawnTexts.push({ text: String(text), image: this.canvas.height > 10 });
        return fillText.call(this, text, ...rest);
    };
}"""


# --------------------------------------------------------------------------- Pitacor


def test_pitacor_recap_shows_every_round_on_a_small_board_and_downloads(player, artifacts):
    """Round 1: two clues, every guesser two markers far off. Round 2: a guess on the target
    and a pass: the guesser crosses the goal ("Right away") before the giver's points are
    added, so they never are. The podium shows both rounds; the recap counts as it did."""
    pages = [player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)]
    dark(pages[1])
    names = ["Ana", "Bo", "Cy"]
    start_pitacor(pages, names, goal=3)
    played = []

    g = find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    target = choose_target(giver, 0)
    give_clue(giver, "ocean")
    first = [far_cell(target, *CLASSIC)]
    first.append(far_cell(target, *CLASSIC, skip=tuple(first)))
    for page, cell in zip(guessers, first, strict=True):
        place(page, cell)
    give_clue(giver, "forest floor")
    second = [ring_cell(target, 3, *CLASSIC, skip=tuple(first))]
    second.append(ring_cell(target, 4, *CLASSIC, skip=tuple(first + second)))
    for page, cell in zip(guessers, second, strict=True):
        place(page, cell)
    played.append((names[g], target, ["ocean", "forest floor"], first + second))
    next_button = next(p for p in pages if p.locator("#pitacor-next").is_visible())
    next_button.locator("#pitacor-next").click()

    g2 = find_giver(pages)
    giver2, guessers2 = pages[g2], [p for i, p in enumerate(pages) if i != g2]
    target2 = choose_target(giver2, 1)
    give_clue(giver2, "meadow")
    near, far = target2, far_cell(target2, *CLASSIC)
    place(guessers2[0], near)
    place(guessers2[1], far)
    giver2.locator("#pitacor-pass").click()
    played.append((names[g2], target2, ["meadow"], [near, far]))

    for page in pages:
        expect(page.locator("#pitacor-podium")).to_be_visible()
        recap = page.locator("#pitacor-history-card")
        expect(recap).to_have_attribute("open", "")
        expect(recap).to_have_class(re.compile(r"\brecap\b"))
        expect(recap.locator("summary")).to_have_text("Match recap: 2 rounds")
        rounds = recap.locator("li.recap-round")
        expect(rounds).to_have_count(2)
        for number, (giver_name, cell, clues, markers) in enumerate(played, start=1):
            row = recap.locator(f"li.recap-round[data-round='{number}']")
            expect(row.locator(".pc-history-head")).to_contain_text(giver_name)
            expect(row.locator(".pc-history-cell")).to_have_text(cell)
            expect(row.locator(".pc-history-clue")).to_have_text(clues)
            # Every marker on the round's small board (its words say each one) and in its
            # legend, under the player who put it there.
            board = row.locator("canvas.pc-mini-board")
            expect(board).to_be_visible()
            label = board.get_attribute("aria-label")
            assert f"the target was {cell}" in label, label
            for marker in markers:
                assert f"{marker}" in label, (marker, label)
            expect(row.locator(".pc-recap-markers .pc-recap-cell")).to_have_count(len(markers))
            expect(row.locator(".pc-recap-markers")).to_contain_text(markers[0])
    # The small board is painted: its target cell is ringed in black and white, not blank.
    painted = (
        pages[0]
        .locator("li.recap-round[data-round='2'] canvas.pc-mini-board")
        .evaluate(
            """c => {
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const seen = new Set();
            for (let i = 0; i < d.length; i += 4 * 97) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
            return seen.size;
        }"""
        )
    )
    assert painted > 50, f"the small board has {painted} colours: not painted"
    pages[0].locator("#pitacor-history-card").scroll_into_view_if_needed()
    snap(pages[0], artifacts, "pitacor-1280x800-light")
    pages[1].locator("#pitacor-history-card").scroll_into_view_if_needed()
    snap(pages[1], artifacts, "pitacor-360x640-dark")
    # Issue 30: every number in the recap is what the podium counted. In round 2 the guess on
    # the target crossed the goal before the giver was added ("Right away"): the giver's
    # points in that round were never counted, and the recap must not count them either.
    podium = pages[1].locator("#pitacor-podium .score").all_inner_texts()
    total = sum(int(score) for score in podium)
    listed = pages[1].locator("#pitacor-history-card .pc-history-points .score").all_inner_texts()
    assert sum(int(p.lstrip("+")) for p in listed) == total, (listed, podium)
    pages[1].evaluate(SPY_ON_TEXT)
    download_png(pages[1], "#pitacor-recap-download", "pitacor", artifacts)
    drawn = [d["text"] for d in pages[1].evaluate("window.drawnTexts") if d["image"]]
    pluses = [int(text[1:]) for text in drawn if re.fullmatch(r"\+\d+", text)]
    assert sum(pluses) == total, f"the image adds up to {sum(pluses)}, the podium {total}"
    # In another language the recap says it all in that language, the boards' words too.
    pages[1].locator("#language").select_option("pl")
    recap = pages[1].locator("#pitacor-history-card")
    expect(recap.locator("summary")).to_have_text("Podsumowanie meczu: 2 rundy")
    expect(recap.locator("#pitacor-recap-download")).to_have_text("Pobierz obraz")
    board = recap.locator("li.recap-round[data-round='1'] canvas.pc-mini-board")
    expect(board).to_have_attribute("aria-label", re.compile(f"^Runda 1: celem było {target};"))


# --------------------------------------------------------------------------- Haiclue


def test_haiclue_recap_shows_every_rounds_clues_cards_and_guesses_and_downloads(player, artifacts):
    """The co-op game of two: 4 rounds × 2 clues. The recap has each round's side, its four
    targets, each clue as read with its author's card and the other player's guess."""
    ana, bo = pages = start_haiclue(
        player, ["Ana", "Bo"], settings=UNTIMED, viewports=[LAPTOP, PHONE]
    )
    dark(bo)
    ids = [haiclue_id(page) for page in pages]
    played: dict[int, dict[str, tuple[list[str], str, str]]] = {}
    for round_no in range(1, 5):
        cards = {}
        for page, me in zip(pages, ids, strict=True):
            haiclue_wait(page, phase="build", round=round_no)
            cards[me] = my_card(page)
        clues = {
            me: build_clue(page, tiles=2 + round_no % 2)
            for page, me in zip(pages, ids, strict=True)
        }
        played[round_no] = {}
        for reading in range(2):
            for page in pages:
                haiclue_wait(page, phase="guess", reading=reading)
            author = reading_author(ana)
            guesser = bo if author == ids[0] else ana
            # Right on even readings, wrong on odd ones: both marks show in the recap.
            colour = (
                cards[author]
                if reading == 0
                else next(c for c in ("red", "yellow", "green", "blue") if c != cards[author])
            )
            haiclue_guess(guesser, colour)
            played[round_no][author] = (clues[author], cards[author], colour)
            for page in pages:
                haiclue_wait(page, phase="reveal", reading=reading)
            for page in pages:
                ready(page)

    for page in pages:
        haiclue_wait(page, phase="ended")
        recap = page.locator("#hc-recap")
        expect(recap).to_be_visible()
        expect(recap.locator(".hc-recap-round")).to_have_count(4)
        for round_no, clues in played.items():
            row = recap.locator(f".hc-recap-round[data-round='{round_no}']")
            side = "white" if round_no % 2 else "black"
            expect(row).to_have_attribute("data-side", side)
            expect(row.locator(".hc-recap-targets li")).to_have_count(4)
            expect(row.locator(".hc-recap-clue")).to_have_count(2)
            for author, (words, card, guessed) in clues.items():
                clue = row.locator(f".hc-recap-clue[data-author='{author}']")
                expect(clue).to_have_attribute("data-card", card)
                expect(clue.locator(".hc-recap-words .hc-tile")).to_have_text(words)
                pick = clue.locator(".hc-recap-guesses li")
                expect(pick).to_have_count(1)
                expect(pick).to_have_attribute("data-colour", guessed)
                expect(pick).to_have_class(re.compile("right" if guessed == card else "wrong"))
        # The recap replaces "last round" beside it: one list of the match, not two.
        expect(page.locator("#hc-history")).to_be_hidden()
    ana.locator("#hc-recap").scroll_into_view_if_needed()
    snap(ana, artifacts, "haiclue-1280x800-light")
    snap(bo, artifacts, "haiclue-360x640-dark")
    download_png(ana, "#hc-recap-download", "haiclue", artifacts)


# --------------------------------------------------------------------------- Pintó

TITLES = ["lighthouse", "octopus", "volcano"]


def test_pinto_album_shows_every_drawing_with_its_title_and_readings_and_downloads(
    player, artifacts
):
    """One round of three: each draws and reveals; the readings are one right, one wrong;
    every drawing is judged. The album at the end has all three."""
    pages = [player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)]
    dark(pages[1])
    start_pinto(pages, ["Ana", "Bo", "Cy"], settings={"rounds": 1})
    ids = [pinto_id(page) for page in pages]
    for page in pages:
        pinto_wait(page, phase="create", round=1, todo="write_title")
    for seat, page in enumerate(pages):
        write_title(page, TITLES[seat])
        draw(page)
        reveal(page)
    # Reader g reads the next artist's drawing right and the other one wrong.
    readings = {}
    for g, page in enumerate(pages):
        for a in range(3):
            if a == g:
                continue
            text = TITLES[a] if a == (g + 1) % 3 else "qwerty"
            interpret(page, ids[a], text)
            readings[(g, a)] = text
    for k in range(3):
        pinto_wait(pages[0], phase="judge", judged=k)
        for page in pages:
            accept_marks(page)
    for page in pages:
        pinto_wait(page, phase="ended")

    for page in pages:
        album = page.locator("#pn-final #pn-recap")
        expect(album).to_be_visible()
        expect(album.locator(".pn-past-round")).to_have_count(1)
        items = album.locator(".pn-album-item")
        expect(items).to_have_count(3)
        for a, title in enumerate(TITLES):
            item = album.locator(f".pn-album-item[data-artist='{ids[a]}']")
            expect(item.locator(".pn-result-title")).to_have_text(title)
            expect(item.locator(".pn-readings li")).to_have_count(2)
            for g in range(3):
                if g == a:
                    continue
                reading = item.locator(f".pn-readings li[data-seat='{ids[g]}']")
                expect(reading).to_contain_text(readings[(g, a)])
                right = readings[(g, a)] == title
                expect(reading).to_have_class(re.compile("right" if right else "wrong"))
        # The drawings themselves are painted (not the "didn't reach your page" frame).
        expect(album.locator(".pn-art-frame.missing")).to_have_count(0)
    assert pinto_screen(pages[0]).get_attribute("data-phase") == "ended"
    pages[0].locator("#pn-recap").scroll_into_view_if_needed()
    snap(pages[0], artifacts, "pinto-1280x800-light")
    snap(pages[1], artifacts, "pinto-360x640-dark")
    download_png(pages[2], "#pn-recap-download", "pinto", artifacts)
