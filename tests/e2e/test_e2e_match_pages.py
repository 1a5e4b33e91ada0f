"""Issue 31 in Chromium, the match's side: "A page for every finished match" (`/m/<id>`),
reached from the podium, the recap and "Your matches" on the home page, with its replay
"at the pace the reader chooses", on a phone and a laptop; axe on the new page and on home.
Computer players make the match short (``TERTULIA_BOT_DELAY``)."""

from __future__ import annotations

import json
import re
import time

import pinto_steps as pinto
import pytest
from a11y import Audit
from e2e_actions import LAPTOP, PHONE, create_room, no_horizontal_scroll, play_now, set_nickname
from haiclue_steps import play_until_the_end
from haiclue_steps import screen as haiclue_screen
from pitacor_steps import play_until_the_podium, start_with_two_bots
from playwright.sync_api import Page, expect

MATCH_URL = re.compile(r"/m/([A-Za-z0-9_-]{16})$")

# Every text the page paints on a canvas, to read the recap image's words back.
RECORD_CANVAS_TEXT = """
window.__painted = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  window.__painted.push(String(text));
  return fillText.call(this, text, ...rest);
};
"""


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick computer players."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")


def finish_a_pitacor_match_with_bots(page: Page, *, public: bool = False) -> str:
    """Ana's room (private unless ``public``), two computer players, a goal of 3: played to
    the podium. Returns the match page's id, as the podium links to it."""
    create_room(page, "Ana", public=public)
    start_with_two_bots(page, goal=3, reveal_seconds=0)
    play_until_the_podium(page)
    link = page.locator("#match-page-link")
    expect(link).to_be_visible()
    found = MATCH_URL.search(link.get_attribute("href") or "")
    assert found, link.get_attribute("href")
    return found[1]


def test_a_finished_match_from_your_matches_to_its_replay_on_a_phone(player, server, artifacts):
    """Issue 31.3–4: "a Chromium test finishes a match, closes the room, and opens the page
    and the replay from "Your matches" on a phone"; "The podium and the recap link to it; the
    download image carries the address"; private pages are "not listed, `noindex`"."""
    page = player(viewport=PHONE)
    page.add_init_script(RECORD_CANVAS_TEXT)
    page.reload()
    match_id = finish_a_pitacor_match_with_bots(page)
    page.screenshot(path=str(artifacts / "match-podium-link-phone.png"))
    # The recap links to the page too, and its image carries the page's address.
    recap_link = page.locator("#pitacor-recap-page")
    expect(recap_link).to_have_attribute("href", f"/m/{match_id}")
    history = page.locator("#pitacor-history-card")
    if history.get_attribute("open") is None:
        history.locator("summary").click()
    page.evaluate("window.__painted = []")
    with page.expect_download():
        page.locator("#pitacor-recap-download").click()
    painted = page.evaluate("window.__painted")
    assert f"{server.url}/m/{match_id}" in painted, painted[-5:]

    # Ana leaves: nobody is left in the room (housekeeping closes it later); the match stays.
    page.locator("#leave-room").click()
    page.locator("dialog.confirm button.danger").click()
    page.wait_for_url(f"{server.url}/")
    mine = page.locator("#my-matches")
    expect(mine.locator(".my-match")).to_have_count(1)
    expect(page.locator("#my-matches-title")).to_have_text("Your matches")
    expect(page.locator("#recent-title")).to_have_text("Recent public matches")
    # A private match is not listed among the public ones.
    expect(page.locator(f"#recent-matches a[href='/m/{match_id}']")).to_have_count(0)
    row = mine.locator(".my-match").first
    expect(row.locator(".my-match-head")).to_contain_text("Pitacor")
    expect(row.locator(".my-match-result")).to_contain_text(re.compile(r"You won|Place \d of 3"))
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "match-your-matches-phone.png"), full_page=True)
    row.locator("a.my-match-link").click()

    page.wait_for_url(re.compile(f"/m/{match_id}$"))
    expect(page.locator("#match-scores li")).to_have_count(3)
    expect(page.locator("#match-title")).to_have_text("Pitacor match")
    # Private: noindex, and no player's name in the document's title.
    expect(page.locator("meta[name=robots]")).to_have_attribute("content", "noindex")
    assert "Ana" not in page.title()
    places = page.locator("#match-scores .match-place").all_inner_texts()
    assert places == sorted(places)  # podium order
    # The replay opens on the end: the podium with the recap.
    position = page.locator("#replay-position")
    expect(position).to_contain_text("The end")
    page.locator("#match-replay #pitacor-podium").wait_for()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "match-page-phone.png"), full_page=True)

    # Step by step from the start: the giver's clue appears when it was given.
    page.locator("#replay-start").click()
    expect(position).to_contain_text("step 0 of")
    expect(page.locator("#replay-prev")).to_be_disabled()
    clues = page.locator("#match-replay #pitacor-clues")
    steps = int(re.search(r"of (\d+)", position.inner_text())[1])
    assert steps >= 3
    page.locator("#replay-next").click()
    expect(position).to_contain_text(f"Step 1 of {steps}")
    page.locator("#replay-next").click()
    expect(position).to_contain_text(f"Step 2 of {steps}")
    page.locator("#replay-prev").click()
    expect(position).to_contain_text(f"Step 1 of {steps}")
    page.keyboard.press("ArrowRight")  # the focus is on a step button: the arrows step too
    expect(position).to_contain_text(f"Step 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_contain_text(f"Step 1 of {steps}")
    # Played at the quickest pace, it runs to the end by itself, clue and all.
    page.locator("#replay-pace").select_option("1")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(clues).not_to_be_empty(timeout=steps * 1_500)
    expect(position).to_contain_text("The end", timeout=steps * 1_500)
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    assert no_horizontal_scroll(page)


def test_a_dead_match_link_says_the_match_is_not_kept(player, server):
    """Issue 31.3: the page "is removed with the match after `--keep-days`": a link to a
    match that is not kept says so in plain words; and "a guessed id is refused like a room
    code", in the rate limit's words."""
    page = player(viewport=PHONE)
    page.goto(f"{server.url}/m/AAAAAAAAAAAAAAAA")
    expect(page.locator("#match-problem .problem")).to_have_text(
        "This match is not kept (any more). Finished matches are kept for a while, then "
        "removed; check the link."
    )
    expect(page.locator("meta[name=robots]")).to_have_attribute("content", "noindex")
    # Guessing ids is refused like guessing room codes, and the page says so.
    statuses = page.evaluate(
        """async () => {
            const seen = [];
            for (let i = 0; i < 15 && !seen.includes(429); i++) {
                seen.push((await fetch(`/api/matches/BBBBBBBBBBBBBBB${i % 10}`)).status);
            }
            return seen;
        }"""
    )
    assert statuses[-1] == 429, statuses
    page.reload()
    expect(page.locator("#match-problem .problem")).to_have_text(
        "Too many room codes tried; wait a minute and try again."
    )


def test_the_match_page_and_home_pass_axe_on_a_phone_and_a_laptop(player, server, artifacts):
    """Issue 31.3: "Pages follow the existing languages, phone and laptop" — and no counted
    axe violation on the new page nor on home with "Your matches"."""
    page = player(viewport=LAPTOP)
    match_id = finish_a_pitacor_match_with_bots(page)
    audit = Audit()
    page.locator("#match-page-link").click()  # from the podium, as a player goes
    page.wait_for_url(re.compile(f"/m/{match_id}$"))
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.goto(f"{server.url}/m/{match_id}")
        page.locator("#match-replay #pitacor-podium").wait_for()
        audit.run(page, "match page")
        page.screenshot(path=str(artifacts / f"match-page-{size['width']}.png"), full_page=True)
        page.locator("#replay-start").click()
        expect(page.locator("#replay-position")).to_contain_text("step 0")
        audit.run(page, "match page replay")
        page.goto(f"{server.url}/")
        page.locator("#my-matches .my-match").first.wait_for()
        audit.run(page, "home")
    audit.check()
    # The page follows the reader's language.
    page.goto(f"{server.url}/m/{match_id}")
    page.locator("#language").select_option("pl")
    expect(page.locator("#match-title")).to_have_text("Mecz: Pitacor")
    expect(page.locator("#replay-position")).to_contain_text("Koniec")
    expect(page.locator("#match-scores-title")).to_have_text("Wyniki końcowe")
    assert "Zakończony mecz" in page.title()


def test_a_player_who_hid_their_name_is_a_removed_player_on_the_page(player, server):
    """Issue 31.3: "a player who was removed does not appear by name if they asked to hide
    it (say what you chose)": the page words them "A removed player", in the scores and in
    every step of the replay (the JSON gives ``name: null`` and a placeholder nickname in the
    views; here the real page's JSON, with Ana hidden as the server would hide her)."""
    page = player()
    match_id = finish_a_pitacor_match_with_bots(page)
    page.locator("#match-page-link").click()
    page.locator("#match-replay #pitacor-podium").wait_for()
    match = page.evaluate(f"fetch('/api/matches/{match_id}').then(r => r.json())")
    for seat in match["players"]:
        if seat["name"] == "Ana":
            seat.update(name=None, hidden=True)
    body = json.dumps(match).replace('"nickname": "Ana"', '"nickname": "?1"')
    assert '"?1"' in body
    page.route(
        f"**/api/matches/{match_id}",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    page.reload()
    page.locator("#match-replay #pitacor-podium").wait_for()
    expect(page.locator("#match-scores .is-hidden .name")).to_have_text("A removed player")
    expect(page.locator("#match-replay #pitacor-podium")).to_contain_text("A removed player")
    for at in ("#replay-end", "#replay-start"):
        if page.locator(at).is_enabled():
            page.locator(at).click()
        replay = page.locator("#match-replay")
        expect(replay).not_to_contain_text("?1")
        expect(replay).not_to_contain_text("Ana")
    expect(page.locator("#match-page")).not_to_contain_text("Ana")


def test_a_haiclue_game_replays_round_by_round(player, artifacts):
    """Issue 31.3: "a step-by-step replay (round by round, with the clues, markers and
    guesses in the order they happened)" — a Haiclue game with computer players, its page
    opened from the podium, its rounds chosen one by one."""
    page = player()
    set_nickname(page, "Ana")
    play_now(page, "haiclue")
    haiclue_screen(page).wait_for()
    play_until_the_end(page)
    page.locator("#match-page-link").click()
    replay = page.locator("#match-replay #haiclue")
    expect(replay).to_have_attribute("data-phase", "ended")
    expect(page.locator("#match-scores li")).to_have_count(3)
    position = page.locator("#replay-position")
    page.locator("#replay-start").click()
    expect(position).to_contain_text("step 0 of")
    expect(replay).not_to_have_attribute("data-phase", "ended")
    rounds = page.locator("#replay-round option").all_inner_texts()
    assert len(rounds) >= 2, rounds  # each player gives clues in a cycle
    for number in range(1, len(rounds) + 1):
        page.locator("#replay-round").select_option(str(number))
        expect(position).to_contain_text(
            "step 0 of" if number == 1 else f"round {number} ·", ignore_case=True
        )
    page.locator("#replay-next").click()
    page.screenshot(path=str(artifacts / "match-replay-haiclue.png"), full_page=True)
    page.locator("#replay-end").click()
    expect(replay).to_have_attribute("data-phase", "ended")
    expect(page.locator("#match-replay .recap-download")).to_be_visible()


def test_a_pinto_match_page_shows_its_drawings_in_the_album_and_the_replay(player):
    """Issue 31.3: the recap "(… Pintó album — only what reveals showed, as on the podium)":
    three people draw one round; the page's album and its replay draw every drawing (a
    drawing is a blob of the page's JSON)."""
    pages = [player() for _ in range(3)]
    pinto.start_pinto(
        pages, ["Ana", "Bo", "Cy"], settings={"rounds": 1, "first_artist": "first_seat"}
    )
    for page, title in zip(pages, ("lighthouse", "umbrella", "volcano"), strict=True):
        pinto.wait_for(page, phase="create", todo="write_title")
        pinto.write_title(page, title)
        pinto.draw(page)
        pinto.reveal(page)
    for page in pages:
        pinto.finish_with_blanks(page)
    ana = pages[0]
    deadline = time.monotonic() + 120  # a give-up point: the loop polls the page
    while pinto.screen(ana).get_attribute("data-phase") != "ended":
        assert time.monotonic() < deadline, "the Pintó match did not end"
        for page in pages:
            if page.locator("#pn-accept").is_visible():
                pinto.accept_marks(page)
        ana.wait_for_timeout(100)
    ana.locator("#match-page-link").click()
    replay = ana.locator("#match-replay #pinto")
    expect(replay).to_have_attribute("data-phase", "ended")
    album = ana.locator("#match-replay #pn-recap .pn-album canvas.pn-art")
    expect(album).to_have_count(3)
    expect(ana.locator("#match-replay .pn-art-missing")).to_have_count(0)
    ana.locator("#replay-prev").click()  # the judging of the last drawing
    expect(replay).not_to_have_attribute("data-phase", "ended")
    expect(ana.locator("#match-replay .pn-art-missing")).to_have_count(0)


def test_a_public_match_is_listed_and_its_page_may_be_indexed(player, server):
    """Issue 31.3–4: "Private matches' pages are reachable only through the link (not
    listed, `noindex`)" — a public one is listed under "Recent matches", which "says it shows
    public ones", and its page has no noindex (nor players' names in its title)."""
    page = player()
    match_id = finish_a_pitacor_match_with_bots(page, public=True)
    page.locator("#match-page-link").click()
    page.locator("#match-replay #pitacor-podium").wait_for()
    expect(page.locator("#match-private")).to_have_count(0)
    expect(page.locator("meta[name=robots]")).to_have_count(0)
    assert "Ana" not in page.title()
    page.goto(f"{server.url}/")
    expect(page.locator("#recent-title")).to_have_text("Recent public matches")
    listed = page.locator(f"#recent-matches a.recent-link[href='/m/{match_id}']")
    expect(listed).to_have_text("See the match")
    listed.click()
    page.wait_for_url(re.compile(f"/m/{match_id}$"))
    expect(page.locator("#match-scores li")).to_have_count(3)
    # In the dark theme too, nothing axe counts.
    page.emulate_media(color_scheme="dark")
    page.reload()
    page.locator("#match-replay #pitacor-podium").wait_for()
    audit = Audit()
    audit.run(page, "public match page")
    audit.check()
