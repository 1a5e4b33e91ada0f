"""The example game of docs/adding-a-game.md, installed as its page says, in Chromium: the
home page names and describes it from its own strings, the lobby labels its settings, its
screen, stylesheet and translations load by its name, a refusal is worded in the player's
language, and two players count to the end."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Server
from e2e_actions import PHONE, create_room, join_room, settled

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from package_copy import copy_package, install_example
from playwright.sync_api import expect


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The real server, run from a copy of the package with the example game installed."""
    root = copy_package(tmp_path / "copy")
    install_example(root / "tertulia")
    running = Server(tmp_path, python_path=root)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_the_example_game_is_chosen_set_up_and_played_to_its_end_in_the_browser(player, artifacts):
    ana, bo = player(), player(locale="pl-PL")
    ana.locator("#game").select_option("tiny")
    expect(ana.locator("#game option:checked")).to_have_text("Count to ten")
    expect(ana.locator("#game-hint")).to_contain_text("Take turns adding 1, 2 or 3")
    expect(bo.locator("#game option[value=tiny]")).to_have_text("Licz do dziesięciu")

    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    expect(bo.locator(".game-name strong")).to_have_text("Licz do dziesięciu")
    expect(ana.get_by_label("Time per turn (seconds)")).to_have_value("30")
    ana.get_by_label("Time per turn (seconds)").fill("0")
    ana.get_by_label("Time per turn (seconds)").press("Enter")
    seconds = bo.locator("[data-field=turn_seconds]")
    expect(seconds.locator("dt")).to_have_text("Czas na ruch (sekundy)")
    expect(seconds.locator("dd")).to_have_text("0")
    ana.locator("#start-match").click()

    for page in (ana, bo):
        expect(page.locator("#tiny-counter")).to_be_visible()
        # Its stylesheet came with it, by its name.
        assert page.locator('link[data-game-css="tiny"]').count() == 1
    expect(bo.locator("#tiny-secret")).to_contain_text("Twoje tajne słowo")

    for total in (3, 6, 9, 12):
        mover = ana if ana.locator("[data-amount='3']").is_enabled() else bo
        mover.locator("[data-amount='3']").click()
        expect(ana.locator("#tiny-counter")).to_have_text(f"{total} of 10")
        expect(bo.locator("#tiny-counter")).to_have_text(f"{total} z 10")
        if total == 6:
            bo.set_viewport_size(PHONE)
            settled(bo)  # the chat slides into its drawer
            bo.screenshot(path=artifacts / "tiny-playing-pl-360x640.png")
    for page in (ana, bo):
        expect(page.locator("#tiny-podium li")).to_have_count(2)
        expect(page.locator("[data-amount='3']")).to_be_disabled()
    expect(bo.locator("#status-line")).to_contain_text("cel osiągnięty")
    ana.screenshot(path=artifacts / "tiny-ended-1280x800.png")


# What a refused move shows: the game's own sentence for its code, in the player's language,
# even for a code another game words differently (Haiclue's seat.no_joining).
REFUSALS = """async () => {
  const { app } = await import("/static/js/app.js");
  const { tError } = await import("/static/js/i18n.js");
  let amount;
  try {
    await app.conn.request("act", { action: { type: "add", amount: 7 } });
  } catch (error) {
    amount = tError(error);
  }
  return [amount, tError({ code: "seat.no_joining", message: "?", params: {} })];
}"""


def test_a_refusal_is_worded_by_the_game_in_the_players_language(player):
    ana, bo = player(locale="es-ES"), player()
    ana.locator("#game").select_option("tiny")
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    ana.locator("#start-match").click()
    for page in (ana, bo):
        expect(page.locator("#tiny-counter")).to_be_visible()
    mover = ana if ana.locator("[data-amount='1']").is_enabled() else bo
    words = {
        ana: ["Suma 1, 2 o 3.", "Esta partida ya empezó: mírala y juega la próxima."],
        bo: ["Add 1, 2 or 3.", "This match has begun: watch it, and play the next one."],
    }
    assert mover.evaluate(REFUSALS) == words[mover]
