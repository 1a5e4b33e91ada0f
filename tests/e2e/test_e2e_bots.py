"""Computer players in Chromium: one person plays a whole Pitacor match and a whole Haiclue
game with bots, only through the page (issue 18.8). The bots wait a few hundredths of a
second (``TERTULIA_BOT_DELAY``, read by the server the ``server`` fixture starts)."""

from __future__ import annotations

import pytest
from e2e_actions import (
    PHONE,
    a_match_where_bo_dropped,
    create_room,
    no_horizontal_scroll,
    play_now,
    set_nickname,
)
from haiclue_steps import expect, play_until_the_end, rack, screen
from pitacor_steps import play_until_the_podium, set_setting


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server (autouse fixtures come first): quick
    bots, and a player who goes counts as dropped after a second, not five."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")
    monkeypatch.setenv("TERTULIA_DROP_GRACE", "1")


def _bot_avatars(page, within: str):
    return page.locator(f"{within} .avatar.is-bot[aria-label='computer player']")


# ---------------------------------------------------------------------------- Pitacor


def test_one_person_plays_a_whole_pitacor_match_with_bots_on_a_phone(player, artifacts):
    page = player(viewport=PHONE)
    create_room(page, "Ana")
    # Pintó first: it says it has no computer players, and offers none.
    page.locator("#choose-game").select_option("pinto")
    expect()(page.locator("#no-bots")).to_have_text(
        "Pintó has no computer players: drawing is for people."
    )
    expect()(page.locator("#add-bot")).to_be_hidden()
    page.locator("#choose-game").select_option("pitacor")
    expect()(page.locator("#add-bot")).to_be_visible()
    page.locator("#add-bot").click()
    page.locator("#bot-level").select_option("beginner")
    page.locator("#add-bot").click()
    page.locator("#add-bot").click()
    expect()(page.locator("#seats li.is-bot")).to_have_count(3)
    expect()(_bot_avatars(page, "#seats")).to_have_count(3)
    expect()(page.locator("#seats li.is-bot .pill.bot").first).to_have_text("Computer · Good")
    expect()(page.locator("#seats li.is-bot .pill.bot").nth(1)).to_have_text("Computer · Beginner")
    page.locator("#seats li.is-bot .remove-bot").last.click()  # one bot too many
    expect()(page.locator("#seats li.is-bot")).to_have_count(2)
    names = page.locator("#seats li.is-bot .name").all_inner_texts()
    assert len(set(names)) == 2 and "Ana" not in names
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "bots-lobby-phone.png"), full_page=True)
    set_setting(page, "goal", 3)
    set_setting(page, "reveal_seconds", 0)
    expect()(page.locator("#start-match")).to_be_enabled()  # bots count towards the three
    page.locator("#start-match").click()
    page.locator("#pitacor-board .pc-cell").first.wait_for()
    play_until_the_podium(page)
    # The podium marks the bots as computer players.
    expect()(_bot_avatars(page, "#pitacor-podium")).to_have_count(2)
    page.screenshot(path=str(artifacts / "bots-pitacor-podium-phone.png"), full_page=True)


# ---------------------------------------------------------------------------- Haiclue


def test_one_person_plays_a_whole_haiclue_game_from_play_now(player, artifacts):
    """The home page's "Play now with computer players": a room of one's own with bots, the
    game started at once."""
    page = player()
    set_nickname(page, "Ana")
    play_now(page, "haiclue")
    screen(page).wait_for()
    assert rack(page)  # our own tiles: the game began without a lobby to press through
    expect()(_bot_avatars(page, "#hc-players")).to_have_count(2)
    play_until_the_end(page)
    expect()(_bot_avatars(page, "#haiclue")).not_to_have_count(0)
    page.screenshot(path=str(artifacts / "bots-haiclue-end.png"), full_page=True)


# ---------------------------------------------------------------------------- leavers


def test_the_host_lets_a_bot_play_for_a_player_who_dropped_and_they_take_it_back(player, server):
    ana, bo, code = a_match_where_bo_dropped(player)
    offer = ana.locator(".stand-in-button")
    expect()(offer).to_have_text("Play for Bo")
    offer.click()
    playing = ana.locator(".stand-in.is-playing")
    # The card's sentence (the host's "Stop playing for Bo" is in the card too).
    expect()(playing.locator("p").first).to_have_text(
        "A computer player plays for Bo until they come back."
    )
    expect()(ana.locator(".stand-in-button")).to_have_count(0)
    bo.goto(f"{server.url}/r/{code}")  # back, with the same browser: the same seat
    bo.locator("#pitacor-board .pc-cell").first.wait_for()
    expect()(ana.locator(".stand-in.is-playing")).to_have_count(0)
    expect()(bo.locator(".stand-in")).to_have_count(0)
