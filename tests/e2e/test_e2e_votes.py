"""Issue 31 in Chromium, the room's side: "Vote to remove" (start, ballots, result, the
removed player refused on rejoin), the private room's host allowing votes, "Mute for me",
and the host's level for a computer player who plays for someone who dropped (issue 32.6)."""

from __future__ import annotations

import json
import re

import pytest
from a11y import Audit
from e2e_actions import PHONE, a_match_where_bo_dropped, create_room, join_room
from playwright.sync_api import expect


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """Before the ``server`` fixture starts the server: quick computer players, and a player
    who goes counts as dropped after a second."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")
    monkeypatch.setenv("TERTULIA_DROP_GRACE", "1")


def test_the_players_vote_someone_out_who_may_not_come_back(player, server, artifacts):
    """Issue 31.1: "any seated player may start a vote against another player, with a reason
    from a short list; the seated players other than the two decide by majority within a
    short clock; a removed player's browser identity … may not rejoin that room"."""
    ana, bo, cy = player(), player(viewport=PHONE), player(viewport=PHONE)
    code = create_room(ana, "Ana", public=True)
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    # A public room always has votes: its lobby says so, with no switch to turn them off.
    expect(ana.locator("#votes-public-note")).to_have_text(
        "In a public room the players may always vote to remove someone."
    )
    expect(ana.locator("#allow-votes")).to_be_hidden()

    ana.locator("#vote-start summary").click()
    expect(ana.locator("#vote-reason option")).to_have_text(
        ["spoiling the game", "offensive behaviour", "cheating", "away from the game"]
    )
    bo_id = bo.locator("#seats li.is-me").get_attribute("data-player")
    ana.locator("#vote-player").select_option(bo_id)
    ana.locator("#vote-reason").select_option("spoiling")
    ana.locator("#vote-begin").click()

    # Everyone sees the vote and its clock; only Cy (neither the starter nor the target)
    # votes; Bo may hide his name should he be removed.
    for page in (ana, bo, cy):
        expect(page.locator("#vote-question")).to_have_text(
            "Ana asks to remove Bo: spoiling the game."
        )
        expect(page.locator("#vote-clock")).to_have_text(re.compile(r"^0:(30|[12]\d)$"))
    for page in (ana, bo):
        expect(page.locator("#vote-ballot")).to_be_hidden()
    expect(bo.locator("#vote-about-you")).to_be_visible()
    bo.locator("#hide-name").check()
    expect(cy.locator("#vote-progress")).to_have_text("Voted: 0 of 1")
    cy.screenshot(path=str(artifacts / "vote-running-phone.png"), full_page=True)
    audit = Audit()
    audit.run(cy, "a running vote, a voter")
    audit.run(bo, "a running vote, its target")
    cy.locator("#vote-yes").click()
    audit.check()

    # The result, for everyone still here; Bo is sent home with the reason.
    for page in (ana, cy):
        expect(page.locator("#vote-result-text")).to_have_text(
            "The players removed Bo (1 yes, 0 no)."
        )
        expect(page.locator("#seats li")).to_have_count(2)
    bo.wait_for_url(f"{server.url}/")
    expect(bo.locator(".flash p")).to_have_text(
        "The players voted you out of the room. You may come back in 60 min."
    )
    # Back by the link: refused, in plain words.
    bo.goto(f"{server.url}/r/{code}")
    expect(bo.locator(".problem")).to_have_text(
        "The players voted you out of this room; you may come back in 60 min."
    )

    # Refusals in plain words, next to the button: Ana waits before her next vote; and with
    # Bo gone, nobody is left to decide a vote of Cy's against Ana.
    ana.locator("#vote-start summary").click()
    ana.locator("#vote-begin").click()
    expect(ana.locator("#vote-start-error")).to_have_text(
        re.compile(r"^You started a vote a moment ago; try again in \d+ s\.$")
    )
    cy.locator("#vote-start summary").click()
    cy.locator("#vote-begin").click()
    expect(cy.locator("#vote-start-error")).to_have_text("There is nobody else here to decide.")


def test_a_private_rooms_host_allows_votes(player):
    """Issue 31.1: "(public rooms, and private rooms when the host allows it)"."""
    ana, bo = player(), player(viewport=PHONE)
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    expect(bo.locator("#votes-public-note")).to_have_text(
        "Only the host can remove someone from this room."
    )
    expect(bo.locator("#vote-start")).to_be_hidden()
    expect(bo.locator("#allow-votes")).to_be_disabled()  # the host's switch
    ana.locator("#allow-votes").check()
    expect(bo.locator("#votes-public-note")).to_have_text(
        "The players may vote to remove someone from this room."
    )
    expect(bo.locator("#vote-start")).to_be_visible()
    expect(bo.locator("#allow-votes")).to_be_checked()


def test_mute_for_me_hides_one_persons_chat_on_my_screen_only(player):
    """Issue 31.2: "any player can hide one other player's chat and reactions on their own
    screen (kept for the session of that room)"."""
    ana, bo, cy = player(), player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    bo_id = bo.locator("#seats li.is-me").get_attribute("data-player")
    mute = ana.locator(f"#seats li[data-player='{bo_id}'] .mute-button")
    expect(mute).to_have_attribute("aria-label", "Mute Bo for me (their chat and reactions)")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    bo.locator("#chat-input").fill("spoiler!")
    bo.locator("#chat-input").press("Enter")
    cy.locator("#chat-input").fill("hello")
    cy.locator("#chat-input").press("Enter")
    expect(cy.locator("#chat-log")).to_contain_text("spoiler!")  # nobody else is told
    expect(ana.locator("#chat-log")).to_contain_text("hello")  # Cy's line, after Bo's
    expect(ana.locator("#chat-log")).not_to_contain_text("spoiler!")
    ana.reload()  # kept for the session of that room
    ana.locator("#seats").wait_for()
    expect(ana.locator("#chat-log")).to_contain_text("hello")
    expect(ana.locator("#chat-log")).not_to_contain_text("spoiler!")
    ana.locator(f"#seats li[data-player='{bo_id}'] .mute-button").click()
    expect(ana.locator("#chat-log")).to_contain_text("spoiler!")


def test_the_host_chooses_the_level_of_a_computer_player_who_stands_in(player):
    """Issue 32.6: "a bot that stands in for a dropped player … plays at the host's chosen
    level"."""
    ana, _bo, _code = a_match_where_bo_dropped(player)
    sent: list[dict] = []
    ana.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda frame: sent.append(json.loads(frame))),
    )
    ana.reload()  # a new socket, whose frames are heard
    offer = ana.locator(".stand-in-button")
    expect(offer).to_have_text("Play for Bo")
    ana.locator("#stand-in-level").select_option("beginner")
    offer.click()
    expect(ana.locator(".stand-in.is-playing")).to_have_count(1)
    (asked,) = [m for m in sent if m.get("type") == "stand_in"]
    assert asked["level"] == "beginner"


def test_a_player_voted_out_of_a_match_who_hid_their_name_is_not_named_on_its_page(player):
    """Issue 31.1 and 31.3: "In a match, a removed player's turn is handled as a drop" (here
    the match is left with too few players, and ends); "a player who was removed does not
    appear by name if they asked to hide it"."""
    ana, bo, cy = player(), player(viewport=PHONE), player(viewport=PHONE)
    code = create_room(ana, "Ana", public=True)
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    bo.locator("#vote-start").wait_for()  # the way to start a vote, before the match too
    ana.locator("#start-match").click()
    for page in (ana, bo, cy):
        page.locator("#pitacor-board .pc-cell").first.wait_for()
    # In a match the way to start a vote sits under the game, folded.
    assert cy.evaluate(
        "document.getElementById('vote-start').compareDocumentPosition("
        "document.getElementById('game-area')) & Node.DOCUMENT_POSITION_PRECEDING"
    )
    cy.locator("#vote-start summary").click()
    options = cy.locator("#vote-player option")
    bo_id = options.filter(has_text="Bo").get_attribute("value")
    cy.locator("#vote-player").select_option(bo_id)
    cy.locator("#vote-reason").select_option("away")
    cy.locator("#vote-begin").click()
    bo.locator("#hide-name").check()
    expect(bo.locator("#hide-name")).to_be_checked()
    ana.locator("#vote-yes").click()
    bo.wait_for_url(re.compile(r"/$"))
    # Two players left: the match ends; its page does not name Bo.
    link = ana.locator("#match-page-link")
    expect(link).to_be_visible()
    link.click()
    scores = ana.locator("#match-scores")
    expect(scores.locator("li")).to_have_count(3)
    expect(scores.locator(".is-hidden .name")).to_have_text("A removed player")
    expect(ana.locator("#match-page")).not_to_contain_text("Bo")
    expect(ana.locator("#match-when")).to_contain_text("too few players")


def test_a_vote_against_the_host_keeps_them_and_ties_their_hands_meanwhile(player):
    """Issue 31.1: "the table can do nothing" when the host spoils the game — now it can
    vote; "The host's kick stays", but not against the voters while the room votes on the
    host; a vote that cannot reach a majority keeps the player."""
    ana, bo, cy = player(), player(viewport=PHONE), player(viewport=PHONE)
    code = create_room(ana, "Ana", public=True)
    join_room(bo, "Bo", code)
    join_room(cy, "Cy", code)
    ana_id = ana.locator("#seats li.is-me").get_attribute("data-player")
    bo.locator("#vote-start summary").click()
    bo.locator("#vote-player").select_option(ana_id)
    bo.locator("#vote-reason").select_option("offensive")
    bo.locator("#vote-begin").click()
    expect(ana.locator("#vote-question")).to_have_text(
        "Bo asks to remove Ana: offensive behaviour."
    )
    ana.get_by_role("button", name="Remove Bo").click()
    ana.get_by_role("dialog").get_by_role("button", name="Remove").click()
    expect(ana.locator("#seat-error")).to_have_text(
        "You can't remove anyone while the room votes on you."
    )
    cy.locator("#vote-no").click()
    for page in (ana, bo, cy):
        expect(page.locator("#vote-result-text")).to_have_text("Ana stays (0 yes, 1 no).")
        expect(page.locator("#vote-running")).to_be_hidden()
    expect(ana.locator("#seats li")).to_have_count(3)
