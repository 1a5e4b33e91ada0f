"""Issue 19.4, "How to play": every game's rules card, in four languages, from the home page,
the lobby and inside a match, and offered once to a player meeting a game for the first time.

The card is a game's own files (a game is a folder): its web/i18n/howto.<lang>.json for the
words and web/img/howto/<picture>.svg for each step's picture, found by the
convention docs/adding-a-game.md states; the example game of that page has one too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from e2e_actions import LAPTOP, PHONE, create_room, join_room
from playwright.sync_api import expect

from tertulia.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "tiny" / "games" / "tiny" / "web"
LANGUAGES = ("en", "pt-BR", "es", "pl")
CARDS = {name: Path(game.__file__ or "").parent / "web" for name, game in GAMES.items()}
CARDS["tiny"] = EXAMPLE  # the game of docs/adding-a-game.md


def _card(web: Path, game: str, lang: str) -> dict:
    return json.loads((web / "i18n" / f"howto.{lang}.json").read_text("utf-8"))


@pytest.mark.parametrize("game", list(CARDS))
def test_every_game_has_a_rules_card_in_four_languages_with_a_picture_per_step(game):
    """ "Each game gets a short rules card in four languages (a few sentences and a small
    picture or diagram per step)": the same steps and pictures in every language, each
    picture one of the game's files, each text short enough for a card."""
    web = CARDS[game]
    english = _card(web, game, "en")
    pictures = [step["picture"] for step in english["steps"]]
    assert 2 <= len(pictures) <= 6, f"{game}: {len(pictures)} steps is not a short card"
    for lang in LANGUAGES:
        card = _card(web, game, lang)
        assert card["title"] and card["intro"], f"{game} {lang}: no title or intro"
        assert [s["picture"] for s in card["steps"]] == pictures, f"{game} {lang}: other steps"
        for step in card["steps"]:
            assert step["title"] and step["text"], f"{game} {lang}: an empty step"
            assert len(step["text"]) <= 240, f"{game} {lang}: {step['title']!r} is too long"
    for picture in pictures:
        svg = web / "img" / "howto" / f"{picture}.svg"
        assert svg.is_file(), f"{game}: no picture {svg}"
        text = svg.read_text("utf-8")
        assert text.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in text
        assert "<script" not in text and "href" not in text  # drawn here, nothing fetched


def _open_card(page, button: str, game_title: str) -> None:
    page.locator(button).click()
    dialog = page.locator("#howto")
    expect(dialog.locator("#howto-title")).to_have_text(game_title)
    steps = dialog.locator(".howto-step")
    expect(steps).to_have_count(4)
    # Every picture is drawn (an image that failed to load has no natural width).
    expect(dialog.locator("img.howto-picture")).to_have_count(4)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#howto img.howto-picture')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )


def test_the_home_page_opens_each_games_card_in_the_players_language(player, artifacts):
    page = player(viewport=PHONE)
    titles = {"pitacor": "How to play Pitacor", "haiclue": "How to play Haiclue"}
    for game, title in titles.items():
        page.locator("#game").select_option(game)
        _open_card(page, "#home-howto", title)
        page.locator("#howto-close").click()
        expect(page.locator("#howto")).to_have_count(0)
    page.locator("#game").select_option("pinto")
    _open_card(page, "#home-howto", "How to play Pintó")
    # The card follows a change of language while open.
    for lang, title in (("pl", "Jak grać w Pintó"), ("es", "Cómo se juega a Pintó")):
        page.locator("#language").select_option(lang)
        expect(page.locator("#howto-title")).to_have_text(title)
    page.screenshot(path=artifacts / "howto-pinto-phone-es.png")
    page.keyboard.press("Escape")
    expect(page.locator("#howto")).to_have_count(0)
    expect(page.locator("#home-howto")).to_be_focused()


def test_a_first_timer_is_offered_the_card_once_and_finds_it_in_the_lobby_and_the_match(
    player, artifacts
):
    """ "The first time a player joins a game they have never played, offer it", and it is
    "reachable from ... the lobby and inside the game"."""
    ana, bo = player(locale="pt-BR"), player(viewport=PHONE)
    ana.locator("#game").select_option("haiclue")
    code = create_room(ana, "Ana")
    offer = ana.locator("#howto-offer")
    expect(offer).to_contain_text("Primeira vez jogando Haiclue?")
    ana.screenshot(path=artifacts / "howto-offer-laptop-pt.png")
    ana.locator("#howto-offer-open").click()
    expect(ana.locator("#howto-title")).to_have_text("Como jogar Haiclue")
    ana.locator("#howto-close").click()
    expect(offer).to_have_count(0)
    ana.reload()
    ana.locator("#seats").wait_for()
    expect(ana.locator("#howto-offer")).to_have_count(0)  # once is enough

    join_room(bo, "Bo", code)
    expect(bo.locator("#howto-offer")).to_be_visible()
    bo.locator("#howto-offer-dismiss").click()
    expect(bo.locator("#howto-offer")).to_have_count(0)
    # The room's head keeps the card a click away, in the lobby...
    _open_card(bo, "#room-howto", "How to play Haiclue")
    bo.locator("#howto-close").click()
    # ...and during the match (the offer does not come back there).
    ana.locator("#start-match").click()
    bo.locator("#game-area .game-screen").wait_for()
    expect(bo.locator("#howto-offer")).to_have_count(0)
    _open_card(bo, "#room-howto", "How to play Haiclue")
    bo.screenshot(path=artifacts / "howto-in-match-phone.png")
    bo.locator("#howto-close").click()
    # A different game is a new acquaintance: offered again.
    bo.locator("#leave-room").click()
    bo.locator("dialog.confirm button.danger").click()
    bo.wait_for_url(re.compile(r"/$"))
    bo.locator("#game").select_option("pinto")
    create_room(bo, "Bo")
    expect(bo.locator("#howto-offer")).to_contain_text("First time playing Pintó?")


def test_the_card_fits_a_laptop_screen(player):
    page = player(viewport=LAPTOP)
    page.locator("#game").select_option("pitacor")
    _open_card(page, "#home-howto", "How to play Pitacor")
    box = page.locator("#howto").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]
