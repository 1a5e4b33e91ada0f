"""What the screens review of issue 19 found and fixed, in Chromium against the real server.

A host in a Pitacor lobby on a 360-px phone adds computer players and switches to pt-BR: each
bot's mark says its level in Portuguese ("Computador · Bom", not "· Good") and the mark stays
beside the name instead of running on under the ↑ button; with too few players the host's note
suggests a computer player. On a laptop the language menu shows "Português (Brasil)" whole.
"""

from __future__ import annotations

import re

import haiclue_steps as haiclue
import pinto_steps as pinto
import pitacor_steps as pitacor
import pytest
from e2e_actions import LAPTOP, PHONE, create_room, join_room, no_horizontal_scroll, set_nickname
from playwright.sync_api import expect
from screens import Looker

# The widest part of a seat's mark and the left of its first host button, per bot row.
PILL_AND_CONTROLS = """() => [...document.querySelectorAll('#seats li.is-bot')].map(li => ({
    pill: li.querySelector('.pill.bot').getBoundingClientRect().right,
    controls: li.querySelector('.seat-controls').getBoundingClientRect().left,
}))"""

# The language menu's inner width against its chosen option's text in the menu's own font.
MENU_FITS = """() => {
    const select = document.getElementById('language');
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.style.whiteSpace = 'nowrap';
    probe.textContent = select.selectedOptions[0].textContent;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const style = getComputedStyle(select);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const room = select.clientWidth - padding;
    return { text, room };
}"""


def test_bot_marks_follow_the_language_and_fit_a_phone_and_the_menu_fits_a_laptop(player):
    page = player(viewport=PHONE)
    page.locator("#game").select_option("pitacor")
    create_room(page, "Ana")
    note = page.locator("#start-note")
    expect(note).to_have_text(
        "2 more players needed (at least 3): invite friends or add computer players."
    )
    page.locator("#add-bot").click()
    expect(note).to_have_text(
        "One more player needed (at least 3): invite a friend or add a computer player."
    )
    page.locator("#add-bot").click()
    pills = page.locator("#seats li.is-bot .pill.bot")
    expect(pills).to_have_count(2)
    expect(pills.first).to_have_text("Computer · Good")

    page.locator("#language").select_option("pt-BR")
    expect(pills).to_have_text(["Computador · Bom", "Computador · Bom"])
    expect(page.locator("#start-note")).to_have_text("Todo mundo aqui? Comece quando quiser.")
    for row in page.evaluate(PILL_AND_CONTROLS):
        assert row["pill"] <= row["controls"], f"the bot's mark runs under its buttons: {row}"
    assert no_horizontal_scroll(page)
    # And in Spanish, the level is Spanish.
    page.locator("#language").select_option("es")
    expect(pills.first).to_have_text("Computadora · Bueno")

    page.locator("#language").select_option("pt-BR")
    page.set_viewport_size(LAPTOP)
    expect(page.locator("#language option:checked")).to_have_text("Português (Brasil)")
    fit = page.evaluate(MENU_FITS)
    assert fit["text"] <= fit["room"], f"'Português (Brasil)' is cut in the menu: {fit}"


# --------------------------------------------------------------------------- issue 30
# Every screen at 360×640 and 1280×800, light and dark: axe-core finds nothing critical,
# serious or moderate, and screenshots in the four languages go to test-artifacts/screens/.


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick computer players."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")


@pytest.fixture
def look(artifacts):
    folder = artifacts / "screens"
    folder.mkdir(exist_ok=True)
    looker = Looker(folder)
    yield looker
    minor = [v for v in looker.audit.found if v not in looker.audit.counted()]
    print(f"\nlooking at the screens took {looker.seconds:.1f} s; axe, minor: {len(minor)}")
    for v in minor:
        print(f"  {v['screen']}: {v['rule']} ×{v['nodes']}")


def below_the_fold(page, selector: str) -> float:
    """How far the bottom of `selector` is below a 1280×800 screen's fold (≤ 0: above it),
    the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.locator(selector).evaluate(
        "el => el.getBoundingClientRect().bottom - window.innerHeight"
    )


def status_lines(page) -> float:
    """The sticky status bar's height in lines of its text."""
    return page.locator("#status-line").evaluate(
        "el => { const s = getComputedStyle(el);"
        " const inner = el.getBoundingClientRect().height - parseFloat(s.paddingTop)"
        " - parseFloat(s.paddingBottom); return inner / parseFloat(s.lineHeight); }"
    )


def test_home_how_to_and_lobby_pass_axe(player, look):
    page = player(viewport=LAPTOP)
    # Issue 30: the home page says what Tertulia is, "Create room" is above a laptop's fold,
    # and the recent matches say they are the public ones.
    expect(page.locator("h1")).to_have_text("Tertulia: party games with friends")
    expect(page.locator(".home-intro-text")).to_contain_text("each on your own phone or laptop")
    assert below_the_fold(page, "#create-room") <= 0, "Create room is below the fold"
    expect(page.locator("#recent-title")).to_have_text("Recent public matches")
    expect(page.locator("#recent-matches")).to_contain_text("private rooms are not listed")
    look(page, "home")
    set_nickname(page, "Ana")
    page.locator("#home-howto").click()
    page.locator("#howto .howto-step").first.wait_for()
    look(page, "howto", full=False)
    page.locator("#howto-close").click()
    create_room(page, "Ana")
    look(page, "lobby-pitacor")
    look.done()


def test_every_pitacor_screen_passes_axe(player, look):
    """Three people through the page: a lobby, every step of a round for the giver and a
    guesser, the reveal, then a round that ends the match (podium and recap)."""
    pages = [player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)]
    ana, bo, cy = pages
    code = create_room(ana, "Ana")
    join_room(bo, "Bernadette", code)
    join_room(cy, "Cy", code)
    pitacor.set_setting(ana, "goal", 3)
    pitacor.set_setting(ana, "reveal_seconds", 120)
    expect(bo.locator("[data-field=goal] dd")).to_have_text("3")
    # The host's "Invite friends" (code, link) and "Start the match" above a laptop's fold,
    # under the first-time rules offer, with three players (the invite started below it).
    expect(ana.locator("#howto-offer")).to_be_visible()
    for selector in ("#copy-link", "#start-match"):
        assert below_the_fold(ana, selector) <= 0, f"{selector} is below the fold"
    look(ana, "pitacor-lobby-host")
    look(bo, "pitacor-lobby-guest")
    ana.locator("#start-match").click()
    for page in pages:
        page.locator("#pitacor-board .pc-cell").first.wait_for()

    g = pitacor.find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    look(giver, "pitacor-choose-giver")
    look(guessers[0], "pitacor-choose-guesser")
    target = pitacor.choose_target(giver, 0)
    look(giver, "pitacor-clue1-giver")
    pitacor.give_clue(giver, "ocean")
    far = pitacor.far_cell(target, 30, 16)
    pitacor.select(guessers[0], far)
    look(guessers[0], "pitacor-guess1-selected")
    # Issue 30: a player's own name whole beside "You" and what they are doing, at 360 px.
    for page in pages:
        page.set_viewport_size(PHONE)
        mine = page.locator("#scoreboard li.is-me .name")
        cut = mine.evaluate("el => el.scrollWidth > el.clientWidth")
        assert not cut, f"{mine.inner_text()} is cut in the scores at 360 px"
    bo.set_viewport_size(PHONE)
    ana.set_viewport_size(LAPTOP)
    cy.set_viewport_size(LAPTOP)
    guessers[0].locator("#pitacor-confirm").click()
    # A phone's zoomed board, with the first marker on it.
    second, size_before = guessers[1], guessers[1].viewport_size
    second.set_viewport_size(PHONE)
    pitacor.select(second, pitacor.far_cell(target, 30, 16, skip=(far,)))
    look(second, "pitacor-guess1-zoomed", sizes=(PHONE,))
    second.locator("#pitacor-confirm").click()
    second.set_viewport_size(size_before)
    expect(giver.locator("#pitacor-pass")).to_be_visible()
    look(giver, "pitacor-clue2-giver")
    for size in (PHONE, LAPTOP):  # issue 30: "Pass" was 40 px tall on a laptop
        giver.set_viewport_size(size)
        height = giver.locator("#pitacor-pass").evaluate("el => el.offsetHeight")
        assert height >= 44, f"Pass is {height} px tall at {size}"
    pitacor.give_clue(giver, "forest floor")
    look(guessers[0], "pitacor-guess2")
    for page, ring in zip(guessers, (3, 4), strict=True):
        pitacor.place(page, pitacor.ring_cell(target, ring, 30, 16))
    expect(giver.locator("#pitacor-inset")).to_be_visible()
    look(guessers[0], "pitacor-reveal")
    look(giver, "pitacor-reveal-giver")
    # The reveal's zones and markers, zoomed on a phone.
    size_before = giver.viewport_size
    giver.set_viewport_size(PHONE)
    pitacor.zoom_in_at(giver, target)
    look(giver, "pitacor-reveal-zoomed", sizes=(PHONE,))
    giver.set_viewport_size(size_before)
    next(p for p in pages if p.locator("#pitacor-next").is_visible()).locator(
        "#pitacor-next"
    ).click()

    g = pitacor.find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    target = pitacor.choose_target(giver, 1)
    pitacor.give_clue(giver, "meadow")
    pitacor.place(guessers[0], target)
    pitacor.place(guessers[1], pitacor.far_cell(target, 30, 16))
    giver.locator("#pitacor-pass").click()
    for page in pages:
        expect(page.locator("#pitacor-podium")).to_be_visible()
    look(bo, "pitacor-podium")
    look.done()


def test_every_haiclue_screen_passes_axe(player, look):
    """Ana and two quick computer players: the game waits for Ana at each of her steps."""
    page = player(viewport=LAPTOP)
    create_room(page, "Ana")
    page.locator("#choose-game").select_option("haiclue")
    expect(page.locator("[data-field=deck]")).to_be_attached()
    page.locator("#add-bot").click()
    page.locator("#add-bot").click()
    expect(page.locator("#seats li.is-bot")).to_have_count(2)
    look(page, "haiclue-lobby-host")
    page.locator("#start-match").click()
    root = haiclue.screen(page)
    root.wait_for()
    expect(root).to_have_attribute("data-todo", "build_clue")
    look(page, "haiclue-build")
    page.locator("#hc-rack .hc-tile").nth(0).click()
    page.locator("#hc-rack .hc-tile").nth(1).click()
    page.locator("#hc-submit").click()
    expect(page.locator("#hc-confirm")).to_be_visible()
    look(page, "haiclue-build-confirm")
    page.locator("#hc-confirm").click()
    seen = set()
    while len(seen) < 2:
        expect(root).to_have_attribute("data-todo", re.compile("guess|ready"))
        todo = root.get_attribute("data-todo")
        if todo not in seen:
            look(page, f"haiclue-{todo}")
            seen.add(todo)
        if todo == "guess":
            page.locator(".hc-guess").first.click()
        else:
            page.locator("#hc-ready").click()
        expect(root).not_to_have_attribute("data-todo", todo)
    haiclue.play_until_the_end(page)
    expect(page.locator("#hc-recap")).to_be_visible()
    look(page, "haiclue-end")
    look.done()


def test_every_pinto_screen_passes_axe(player, look):
    """Three people, one round: a title, a drawing, interpreting, judging with a dispute and
    a vote, then the final scores and the album."""
    pages = [player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)]
    ana, bo, cy = pages
    code = create_room(ana, "Ana")
    ana.locator("#choose-game").select_option("pinto")
    expect(ana.locator("[data-field=drawing_seconds]")).to_be_attached()
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    pinto.set_setting(ana, "rounds", 1)
    expect(bo.locator("[data-field=rounds] dd")).to_have_text("1")
    # The words' language said once: the host's control, the guest's line.
    expect(ana.locator("#setting-language")).to_be_visible()
    expect(ana.locator("#room-language")).to_have_count(0)
    expect(bo.locator("#room-language")).to_have_count(1)
    expect(bo.locator("[data-field=language]")).to_have_count(0)
    look(ana, "pinto-lobby-host")
    look(bo, "pinto-lobby-guest")
    ana.locator("#start-match").click()
    for page in pages:
        pinto.wait_for(page, phase="create", todo="write_title")
    look(bo, "pinto-title")
    titles = ["lighthouse", "octopus", "volcano"]
    for page, title in zip(pages, titles, strict=True):
        pinto.write_title(page, title)
        pinto.draw(page)
    look(bo, "pinto-draw")
    for page in pages:
        pinto.reveal(page)
    ids = [pinto.my_id(page) for page in pages]
    pinto.interpret(ana, ids[1], "octopus")
    look(bo, "pinto-interpret")
    pinto.interpret(ana, ids[2], "mountain")
    pinto.interpret(bo, ids[0], "lighthouse")
    pinto.interpret(bo, ids[2], "volcano")
    pinto.interpret(cy, ids[0], "tower")
    pinto.interpret(cy, ids[1], "squid")
    for k in range(3):
        pinto.wait_for(ana, phase="judge", judged=k)
        artist = pinto.screen(ana).get_attribute("data-artist")
        seat = ids.index(artist)
        if k == 0:
            pinto.wait_for(pages[seat], phase="judge", todo="check_marks", judged=k)
            look(pages[seat], "pinto-judge-artist")
            look(bo if seat != 1 else cy, "pinto-judge-watcher")
            # The sticky status, two lines at most on a phone, in every language (it wrapped to
            # three while judging).
            for page in (pages[seat], bo if seat != 1 else cy):
                page.set_viewport_size(PHONE)
                for lang in ("en", "pt-BR", "es", "pl"):
                    page.locator("#language").select_option(lang)
                    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
                    lines = status_lines(page)
                    assert lines <= 2.1, f"the status is {lines:.1f} lines in {lang} while judging"
                page.locator("#language").select_option("en")
            wrong = next(i for i in range(3) if i != seat)
            pinto.dispute(pages[seat], ids[wrong])
            voter = pages[3 - seat - wrong]
            pinto.wait_for(voter, phase="judge", todo="vote")
            look(voter, "pinto-judge-vote")
            pinto.vote(voter, ids[wrong], True)
        for page in pages:
            pinto.accept_marks(page)
    for page in pages:
        pinto.wait_for(page, phase="ended")
    look(bo, "pinto-end")
    look.done()


def test_a_haiclue_round_by_keyboard_lands_on_each_new_steps_first_control(player):
    """Issue 30: focus dropped to the page's body when a step changed (eight Tabs back to the
    cards). With the keyboard alone, each new step starts on its first control, and the
    screen reader's last line follows a language switch."""
    page = player(viewport=LAPTOP)
    create_room(page, "Ana")
    page.locator("#choose-game").select_option("haiclue")
    expect(page.locator("[data-field=deck]")).to_be_attached()
    page.locator("#add-bot").click()
    page.locator("#add-bot").click()
    expect(page.locator("#seats li.is-bot")).to_have_count(2)
    # The announcer's last line ("Bot joined the room.") is said again in the language
    # switched to, not left in the old one.
    bot = page.locator("#seats li.is-bot .name").last.inner_text()
    announcer = page.locator("#announcer")
    expect(announcer).to_have_text(f"{bot} joined the room.")
    page.locator("#language").select_option("pl")
    expect(announcer).to_have_text(f"{bot} dołącza do pokoju.")
    page.locator("#language").select_option("en")
    expect(announcer).to_have_text(f"{bot} joined the room.")
    page.locator("#start-match").focus()
    page.keyboard.press("Enter")
    root = haiclue.screen(page)
    expect(root).to_have_attribute("data-todo", "build_clue")
    for _ in range(2):
        page.locator("#hc-rack .hc-tile:not(.used)").first.focus()
        page.keyboard.press("Enter")
    page.locator("#hc-submit").focus()
    page.keyboard.press("Enter")
    page.locator("#hc-confirm").focus()
    page.keyboard.press("Enter")
    steps = 0
    while steps < 3:
        # (The computer players' first clue waits for their word model to load.)
        expect(root).to_have_attribute("data-todo", re.compile("^(guess|ready)$"), timeout=30_000)
        todo = root.get_attribute("data-todo")
        want = ".hc-guess" if todo == "guess" else "#hc-ready"
        page.wait_for_function(
            "sel => document.activeElement && document.activeElement.matches(sel)", arg=want
        )
        page.keyboard.press("Enter")  # on whatever has the focus: no click, no focus()
        expect(root).not_to_have_attribute("data-todo", todo)
        steps += 1
