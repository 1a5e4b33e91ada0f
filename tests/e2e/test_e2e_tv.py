"""Issue 29, the shared screen ("Show on a TV"): /tv/CODE opened beside the players, through a
whole match of each game, every frame it receives read back and checked for secrets; the
seats' reactions floating on it; its sounds waiting for the browser's permission (a click);
and screenshots at 1920×1080 in the four languages (test-artifacts/tv/), to be looked at.
"""

from __future__ import annotations

import random
import re

import haiclue_steps as haiclue
import pinto_steps as pinto
import pitacor_steps as pitacor
import pytest
from a11y import SETTLED, Audit
from e2e_actions import LAPTOP, PHONE, create_room, join_room
from playwright.sync_api import expect
from screen_frames import ScreenFrames

TV = {"width": 1920, "height": 1080}
LANGUAGES = ("en", "pt-BR", "es", "pl")

# Counts what the page does with sound instead of listening: every AudioContext made and
# every oscillator started (its pitch).
RECORD_AUDIO = """
window.__contexts = 0;
window.__tones = [];
const Original = window.AudioContext;
window.AudioContext = class extends Original {
  constructor(...args) { super(...args); window.__contexts += 1; }
};
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones.push(this.frequency.value);
  return start.apply(this, args);
};
"""


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick computer players."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")


@pytest.fixture
def shots(artifacts):
    folder = artifacts / "tv"
    folder.mkdir(exist_ok=True)
    return folder


def open_tv(player, server, code: str, frames: ScreenFrames, *, start: bool = True):
    """The room's shared screen at 1920×1080, its frames recorded from the first."""
    tv = player(viewport=TV)
    tv.add_init_script(RECORD_AUDIO)
    frames.attach(tv)
    tv.goto(f"{server.url}/tv/{code}")
    if start:
        tv.locator("#tv-start").click()  # the one click: sound (and full screen)
        expect(tv.locator("#tv-start")).to_be_hidden()
    return tv


def shoot(tv, folder, name: str, audit: Audit | None = None) -> None:
    """The screen as it is, in the four languages (and axe's rules, in English)."""
    tv.wait_for_function(SETTLED, timeout=5_000)
    if audit is not None:
        audit.run(tv, f"tv-{name}")
    for lang in LANGUAGES:
        tv.locator("#language").select_option(lang)
        tv.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        tv.screenshot(path=folder / f"tv-{name}-{lang}.png", animations="disabled")
    tv.locator("#language").select_option("en")


def no_secret_in_frames(frames: ScreenFrames) -> None:
    assert frames.check_no_seat_secrets() > 3, "the screen received no pictures"


# --------------------------------------------------------------------------- Pitacor


def test_a_shared_screen_through_a_pitacor_match_shows_no_secret_and_the_seats_reactions(
    player, server, shots
):
    """Three people (one on a phone), hidden markers: the screen shows the lobby's code, then
    the board and the clue, the reveal and the podium; the four candidates, the target and
    the hidden markers never reach it before the reveal. Two seats' reactions float on it."""
    ana, bo, cy = player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    for name, value in (("markers", "hidden"), ("goal", 3), ("reveal_seconds", 0)):
        pitacor.set_setting(ana, name, value)
    expect(bo.locator("[data-field=goal] dd")).to_have_text("3")
    # The lobby links the screen (a new tab) and its QR code.
    expect(ana.locator("#open-tv")).to_have_attribute("href", f"/tv/{code}")
    frames = ScreenFrames()
    tv = open_tv(player, server, code, frames, start=False)
    audit = Audit()
    expect(tv.locator("#tv-code")).to_contain_text(code)
    expect(tv.locator("#tv-seats li")).to_have_count(3)
    expect(tv.locator("#tv-lobby .tv-qr")).to_have_attribute("src", f"/r/{code}/qr.svg")
    expect(tv.locator("#tv-start")).to_be_visible()
    assert tv.evaluate("window.__contexts") == 0  # no audio before the browser allows it
    ana.locator("#start-match").click()
    pages = [ana, bo, cy]
    for page in pages:
        page.locator("#pitacor-board .pc-cell").first.wait_for()
    tv.locator("#pitacor-board .pc-cell").first.wait_for()
    # The room reads cells off the screen aloud: its board has coordinates along the edges,
    # where a player's shows them only when asked (a phone's board is too narrow).
    expect(tv.locator("#pitacor-board .pc-edge-col").first).to_be_visible()
    expect(tv.locator("#pitacor-board .pc-edge-row").last).to_have_text("P")
    expect(bo.locator("#pitacor-board .pc-edge-col").first).to_be_hidden()

    g = pitacor.find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    giver.locator("#pitacor-candidate-3").wait_for()
    candidates = giver.locator("#pitacor-candidates .pc-cell-name").all_inner_texts()
    target = pitacor.choose_target(giver, 0)
    pitacor.give_clue(giver, "ocean")
    expect(tv.locator("#pitacor-clues")).to_contain_text("ocean")
    # A clue landed before anyone clicked on the screen: nothing was made to play it.
    assert tv.evaluate("window.__contexts") == 0
    tv.locator("#tv-start").click()
    expect(tv.locator("#tv-start")).to_be_hidden()
    shoot(tv, shots, "pitacor-clue", audit)
    markers = [pitacor.far_cell(target, 30, 16), pitacor.ring_cell(target, 1, 30, 16)]
    pitacor.place(guessers[0], markers[0])
    # The screen heard the marker land (sounds are on by default there), now that it may.
    tv.wait_for_function("window.__tones.length > 0")
    pitacor.place(guessers[1], markers[1])
    giver.locator("#pitacor-pass").click()
    expect(tv.locator("#pitacor-podium")).to_be_visible()

    # Reactions from two seats, one on a phone, float on the screen with their names.
    bo.locator("#reaction-toggle").click()
    bo.locator("#reaction-row [data-kind=laugh]").click()
    cy.locator("#reaction-row [data-kind=clap]").click()
    bubbles = tv.locator("#reaction-layer .reaction-bubble")
    expect(bubbles.filter(has_text="Bo")).to_have_count(1)
    expect(bubbles.filter(has_text="Cy")).to_have_count(1)
    expect(tv.locator("#reaction-layer [data-kind=laugh]")).to_contain_text("😂")
    expect(ana.locator("#reaction-layer .reaction-bubble")).to_have_count(2)  # the seats too
    # Said once for both, politely (not one announcement per reaction).
    expect(tv.locator("#reaction-live")).to_have_text(
        re.compile(r"Bo: laughter; Cy: applause|Cy: applause; Bo: laughter")
    )
    # A burst past the limit is refused quietly, in place. The note shows for 2.5 s: on a busy
    # machine seven clicks may take longer, so what it said is recorded as it changes.
    cy.evaluate(
        """() => {
            const note = document.getElementById("reaction-note");
            window.__notes = [];
            new MutationObserver(() => window.__notes.push(note.textContent)).observe(
                note, {childList: true, characterData: true, subtree: true});
        }"""
    )
    for _ in range(7):
        cy.locator("#reaction-row [data-kind=fire]").click()
    cy.wait_for_function("window.__notes.includes('Slow down a little.')")
    shoot(tv, shots, "pitacor-podium", audit)
    # Seated to the end of a match: this browser has played Pitacor, and says so on its way
    # back into a room (the automatic rejoin included); the screen has played nothing.
    assert ana.evaluate("localStorage.getItem('tertulia.played')") == '["pitacor"]'
    sent: list[str] = []
    ana.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(str(p))))
    ana.reload()
    ana.locator("#pitacor-podium").wait_for()
    assert any('"join_room"' in m and '"played":["pitacor"]' in m.replace(" ", "") for m in sent)

    # Before the reveal: not one candidate, not the target, not a hidden marker.
    reveal = frames.first('"round.revealed"')
    assert reveal is not None, "the screen never saw the reveal"
    for cell in [*candidates, *markers]:
        first = frames.first(f'"{cell}"')
        assert first is None or first >= reveal, f"{cell} reached the screen before the reveal"
    assert frames.first(f'"{target}"') >= reveal
    no_secret_in_frames(frames)
    audit.check()


def test_the_screen_starts_big_in_its_lobby_and_remembers_its_sound(player, server, shots):
    """The lobby at 1920×1080 and 1280×720 (the same stage, scaled), in four languages; the
    screen's sound switch (on by default there) and volume are remembered."""
    ana = player(viewport=LAPTOP)
    code = create_room(ana, "Ana")
    ana.locator("#add-bot").click()
    ana.locator("#add-bot").click()
    expect(ana.locator("#seats li.is-bot")).to_have_count(2)
    frames = ScreenFrames()
    tv = open_tv(player, server, code, frames)
    expect(tv.locator("#tv-seats li")).to_have_count(3)
    audit = Audit()
    shoot(tv, shots, "lobby", audit)
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.wait_for_function(
        "() => getComputedStyle(document.getElementById('tv')).getPropertyValue('--tv-zoom') !== ''"
    )
    code_box = tv.locator("#tv-code").bounding_box()
    assert code_box and code_box["y"] + code_box["height"] <= 720, "the code is below a 720p screen"
    tv.screenshot(path=shots / "tv-lobby-en-1280x720.png")
    tv.set_viewport_size(TV)
    sound = tv.locator("#sound-toggle")
    expect(sound).to_have_attribute("aria-pressed", "true")  # on by default on a screen
    sound.click()
    tv.locator("#tv-volume").evaluate(
        "el => { el.value = '40'; el.dispatchEvent(new Event('input')); }"
    )
    tv.reload()
    expect(tv.locator("#tv-seats li")).to_have_count(3)
    expect(tv.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    expect(tv.locator("#tv-volume")).to_have_value("40")
    # A player's own page keeps its own switch: off (a seat's default).
    expect(ana.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    audit.check()


# --------------------------------------------------------------------------- Haiclue


def test_a_shared_screen_through_a_haiclue_game_shows_no_card_rack_or_draft(player, server, shots):
    """Two people (a team game: four rounds, two clues each): the screen shows the four
    targets, who has built, each clue read in turn and its reveal, never a card, a rack or a
    clue still being built."""
    pages = haiclue.start_haiclue(player, ["Ana", "Bo"], settings={"reveal_seconds": 0})
    ana = pages[0]
    code = ana.url.rsplit("/", 1)[1]
    frames = ScreenFrames()
    tv = open_tv(player, server, code, frames)
    tv.locator("#haiclue").wait_for()
    audit = Audit()
    haiclue.wait_for(tv, phase="build")
    first_rack = set(haiclue.rack(ana)) - set(haiclue.target_words(ana))
    # A draft kept while building (the server has it) is the builder's alone.
    ana.locator("#hc-rack .hc-tile").nth(0).click()
    shoot(tv, shots, "haiclue-build", audit)
    shot = {"guess": False, "reveal": False}
    rng = random.Random(5)
    while haiclue.screen(tv).get_attribute("data-phase") != "ended":
        for page in pages:
            haiclue.do_what_the_screen_asks(page, rng)
        phase = haiclue.screen(tv).get_attribute("data-phase")
        if phase in shot and not shot[phase]:
            shot[phase] = True
            shoot(tv, shots, f"haiclue-{phase}", audit)
        tv.wait_for_timeout(100)
    expect(tv.locator("#hc-recap")).to_be_visible()
    shoot(tv, shots, "haiclue-end", audit)
    no_secret_in_frames(frames)
    audit.check()
    # Ana's first rack: no word of it reached the screen before it was played or shown.
    early = frames.words_shown(until=frames.first('"clue.read"'))
    assert not first_rack & early, f"Ana's tiles reached the screen early: {first_rack & early}"


# --------------------------------------------------------------------------- Pintó


def test_a_shared_screen_through_a_pinto_match_never_shows_a_title_before_its_turn(
    player, server, shots
):
    """Three people, one round: the screen shows the drawings being interpreted, the marks
    and the album; a title reaches it only when its drawing comes up to be judged."""
    pages = [player(viewport=LAPTOP), player(viewport=PHONE), player(viewport=LAPTOP)]
    pinto.start_pinto(pages, ["Ana", "Bo", "Cy"], settings={"rounds": 1})
    code = pages[0].url.rsplit("/", 1)[1]
    frames = ScreenFrames()
    tv = open_tv(player, server, code, frames)
    pinto.wait_for(tv, phase="create")
    audit = Audit()
    titles = ["lighthouse", "octopus", "volcano"]
    for page, title in zip(pages, titles, strict=True):
        pinto.write_title(page, title)
        pinto.draw(page)
        pinto.reveal(page)
    ids = [pinto.my_id(page) for page in pages]
    guesses = {0: ["octopus", "mountain"], 1: ["lighthouse", "volcano"], 2: ["tower", "squid"]}
    for i, page in enumerate(pages):
        others = [ids[j] for j in range(3) if j != i]
        for artist, text in zip(others, guesses[i], strict=True):
            pinto.interpret(page, artist, text)
    for k in range(3):
        pinto.wait_for(tv, phase="judge", judged=k)
        if k == 0:
            expect(tv.locator("#pn-title-reveal")).to_be_visible()
            shoot(tv, shots, "pinto-judge", audit)
        for page in pages:
            pinto.accept_marks(page)
    pinto.wait_for(tv, phase="ended")
    shoot(tv, shots, "pinto-album", audit)
    no_secret_in_frames(frames)
    audit.check()
    for artist, title in zip(ids, titles, strict=True):
        first = frames.first(f'"{title}"')
        up = frames.first_picture(
            lambda p, a=artist: ((p["view"] or {}).get("judging") or {}).get("artist") == a
        )
        assert first is not None and up is not None and first >= up, f"{title} came early"
