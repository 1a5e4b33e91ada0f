"""The host stops a computer player playing for someone who dropped out ("Stop playing for
Bo"): the seat is Bo's again, waiting for him, and the host is offered "Play for Bo" anew."""

from __future__ import annotations

import pytest
from e2e_actions import a_match_where_bo_dropped
from haiclue_steps import expect


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    """Before the ``server`` fixture starts the server: quick bots, and a player who goes
    counts as dropped after a second (as in test_e2e_bots)."""
    monkeypatch.setenv("TERTULIA_BOT_DELAY", "0.05-0.15")
    monkeypatch.setenv("TERTULIA_DROP_GRACE", "1")


def test_the_host_stops_the_computer_player_and_may_hand_the_seat_over_again(player, server):
    ana, bo, code = a_match_where_bo_dropped(player)
    ana.locator(".stand-in-button").click()
    expect()(ana.locator(".stand-in.is-playing")).to_have_count(1)
    stop = ana.locator(".stand-in-end")
    expect()(stop).to_have_text("Stop playing for Bo")
    stop.click()
    expect()(ana.locator(".stand-in.is-playing")).to_have_count(0)
    expect()(ana.locator(".stand-in-end")).to_have_count(0)
    expect()(ana.locator(".stand-in-button")).to_have_text("Play for Bo")  # offered again
    bo.goto(f"{server.url}/r/{code}")  # Bo comes back to his own seat
    bo.locator("#pitacor-board .pc-cell").first.wait_for()
    expect()(ana.locator(".stand-in")).to_have_count(0)
