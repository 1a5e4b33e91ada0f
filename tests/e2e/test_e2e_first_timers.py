"""Issue 29 on a person's own page: a first-timer is taught (the rules card before the first
round, never the first giver, one line of what to do at each new step until done once); the
pace with computer players ("Ready" moves on before the reveal clock); the games a browser
has played are remembered and sent; the public rooms' buttons say what coming in does.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from e2e_actions import LAPTOP, create_room, set_nickname
from haiclue_steps import set_setting as haiclue_setting
from pitacor_steps import CLUES, do_what_the_screen_asks, start_with_two_bots
from playwright.sync_api import expect

TIP = "#status-tip"


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick computer players."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")


def test_a_first_timer_from_play_now_reads_the_card_first_and_is_not_the_first_giver(player):
    page = player(viewport=LAPTOP)
    sent: list[dict] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(str(p)))),
    )
    page.reload()
    set_nickname(page, "Ana")
    page.locator("#quick-pitacor").click()
    # The rules card, before any room or clock.
    expect(page.locator("#howto-title")).to_have_text("How to play Pitacor")
    assert not any(m["type"] == "create_room" for m in sent)
    page.locator("#howto-close").click()
    page.locator("#pitacor-board .pc-cell").first.wait_for()
    create = next(m for m in sent if m["type"] == "create_room")
    assert create["played"] == []  # new to every game
    # A computer player gives first; the first-timer guesses, taught how.
    status = page.locator("#status-line")
    expect(status).to_have_text(re.compile(r"^Your turn: place your marker"), timeout=20_000)
    expect(page.locator("#pitacor-giver")).to_be_hidden()
    expect(page.locator(TIP)).to_have_text(re.compile(r"^Tip: tap the board"))
    expect(page.locator("#howto-offer")).to_have_count(0)  # the card was read already
    cells = page.locator("#pitacor-board .pc-cell:not(.taken)")
    cells.nth(200).click()
    page.locator("#pitacor-confirm").click()
    expect(page.locator(TIP)).to_be_hidden()
    # Done once: the next time it is this step, no line (kept in this browser).
    learned = page.evaluate("JSON.parse(localStorage.getItem('tertulia.learned.pitacor'))")
    assert learned == ["place_marker"]


def test_ready_moves_a_match_with_computer_players_on_before_the_reveal_clock(player):
    """A two-minute reveal clock: once the person has pressed Ready (the computer players
    say so as soon as they have looked), the next round starts at once. (A goal of 15 cannot
    be reached by the second reveal, and the person starts at most one of the first two
    rounds after a reveal: one of them is theirs to say Ready at.)"""
    page = player(viewport=LAPTOP)
    create_room(page, "Ana")
    start_with_two_bots(page, reveal_seconds=120, goal=15)
    round_line = page.locator("#pitacor-round")
    readies = 0
    deadline = time.monotonic() + 120
    words, rng = iter(CLUES), random.Random(3)
    while readies == 0:
        assert time.monotonic() < deadline, "the match did not end"
        if page.locator("#pitacor-ready").is_visible():
            before = round_line.inner_text()
            pressed = time.monotonic()
            page.locator("#pitacor-ready").click()
            expect(round_line).not_to_have_text(before, timeout=15_000)
            assert time.monotonic() - pressed < 15, "Ready waited for the clock"
            readies += 1
        else:
            do_what_the_screen_asks(page, words, rng)
        page.wait_for_timeout(150)


def test_haiclues_ready_moves_on_with_computer_players(player):
    """Haiclue's reveal waits for everyone here ("reveal_seconds" at its longest): the
    computer players are ready at once, so the person's Ready moves the game on."""
    page = player(viewport=LAPTOP)
    create_room(page, "Ana")
    page.locator("#choose-game").select_option("haiclue")
    expect(page.locator("[data-field=deck]")).to_be_attached()
    page.locator("#add-bot").click()
    page.locator("#add-bot").click()
    expect(page.locator("#seats li.is-bot")).to_have_count(2)
    haiclue_setting(page, "reveal_seconds", 60, advanced=True)
    page.locator("#start-match").click()
    root = page.locator("#haiclue")
    expect(root).to_have_attribute("data-todo", "build_clue")
    expect(page.locator(TIP)).to_be_visible()  # a first-timer's line for building
    for _ in range(2):
        page.locator("#hc-rack .hc-tile:not(.used)").first.click()
    page.locator("#hc-submit").click()
    page.locator("#hc-confirm").click()
    expect(root).to_have_attribute("data-todo", re.compile("^(guess|ready)$"), timeout=30_000)
    if root.get_attribute("data-todo") == "guess":
        page.locator(".hc-guess").first.click()
    expect(root).to_have_attribute("data-todo", "ready")
    reading = root.get_attribute("data-reading")
    pressed = time.monotonic()
    page.locator("#hc-ready").click()
    expect(root).not_to_have_attribute("data-reading", reading, timeout=15_000)
    assert time.monotonic() - pressed < 15


def test_the_public_rooms_buttons_say_what_coming_in_does(player):
    """ "Join" a lobby, "Join next round" of a running Pitacor, "Watch" a running Haiclue."""
    lobby, pitacor, haiclue = player(), player(), player()
    create_room(lobby, "Ana", public=True)
    for page, game in ((pitacor, "pitacor"), (haiclue, "haiclue")):
        page.locator("#game").select_option(game)
        code = create_room(page, "Host", public=True)
        page.locator("#add-bot").click()
        page.locator("#add-bot").click()
        expect(page.locator("#seats li.is-bot")).to_have_count(2)
        page.locator("#start-match").click()
        page.locator("#game-area .game-screen").wait_for()
        page.code = code  # type: ignore[attr-defined]
    visitor = player()
    rows = visitor.locator("#public-rooms .room-row")
    expect(rows).to_have_count(3, timeout=15_000)

    def button(code: str):
        return visitor.locator("#public-rooms .room-row", has_text=code).locator("button")

    expect(button(pitacor.code)).to_have_text("Join next round")  # type: ignore[attr-defined]
    expect(button(pitacor.code)).to_have_attribute(  # type: ignore[attr-defined]
        "aria-label",
        f"Join next round in room {pitacor.code}",  # type: ignore[attr-defined]
    )
    expect(button(haiclue.code)).to_have_text("Watch")  # type: ignore[attr-defined]
    lobby_code = lobby.url.rsplit("/", 1)[1]
    expect(button(lobby_code)).to_have_text("Join")
