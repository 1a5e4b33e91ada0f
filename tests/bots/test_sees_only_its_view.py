"""Point 2: "Bots see only what their seat sees" — by construction, and checked in play.

By construction: a bot's ``decide`` takes the seat's view and three plain options, nothing
else, so no state can reach it. In play: whole matches driven through the pure engines, where
every input a bot got must be exactly ``game.view(state, seat)`` and hold no other seat's
secret.
"""

from __future__ import annotations

import inspect

import msgspec
import pytest
from bot_helpers import players

from tertulia.bots.base import Level
from tertulia.bots.play import play
from tertulia.games import haiclue, pitacor
from tertulia.games.haiclue import bot as haiclue_bot
from tertulia.games.haiclue import decks
from tertulia.games.pitacor import bot as pitacor_bot
from tertulia.games.pitacor.state import Phase


@pytest.mark.parametrize("bot", [pitacor_bot, haiclue_bot])
def test_a_bot_is_given_its_seats_view_and_nothing_else(bot) -> None:
    """ "A bot decides from its seat's view (the same view a browser gets), never from the
    state": the only positional input is the view; the rest are plain options."""
    parameters = inspect.signature(bot.decide).parameters
    assert list(parameters) == ["view", "language", "level", "rng"]
    assert [p.kind for p in parameters.values()][1:] == [inspect.Parameter.KEYWORD_ONLY] * 3


@pytest.mark.parametrize("markers", ["visible", "hidden"])
def test_pitacor_bots_never_see_the_target_or_hidden_markers(markers: str) -> None:
    """ "The clue giver picks one of them: that's the target color, and only they can see
    it"; hidden markers are "shown only at the reveal"."""
    settings = pitacor.Settings(goal=200, markers=pitacor.settings.MarkerVisibility(markers))
    seats = players(4)
    state = pitacor.start(settings, seats, 3, 1000.0)
    seen: list[int] = []

    def watch(state, seat, view, action) -> None:
        assert view == pitacor.view(state, seat)
        revealed = state.phase in (Phase.REVEAL, Phase.ENDED)
        if seat != state.round.giver and not revealed:
            assert view["target"] is None and view["candidates"] is None
            # A candidate's cell (the target's among them) may be in the view only as
            # someone's marker, or as this seat's own selection.
            text = msgspec.json.encode(view).decode()
            marker_cells = {m["cell"] for m in view["markers"]} | {view["selection"]}
            for cell in set(state.round.candidates) - marker_cells:
                assert f'"{cell}"' not in text
        if markers == "hidden" and not revealed:
            assert all(m["seat"] == seat for m in view["markers"])
        seen.append(1)

    state = play(
        pitacor, state, {p.id: Level.GOOD for p in seats}, language="en", seed=3,
        watch=watch, until=lambda s: len(s.history) >= 4,
        may_refuse=frozenset({"marker.cell_taken"}) if markers == "hidden" else frozenset(),
    )  # fmt: skip
    assert len(state.history) >= 4 and len(seen) > 40


def test_haiclue_bots_never_see_another_seats_card_or_rack(no_model) -> None:
    """ "looks at it without showing anyone": a card is its holder's until scored; other
    players' racks are not shown."""
    seats = players(3)
    state = haiclue.start(haiclue.Settings(), seats, 5, 1000.0)
    deck = decks.load(state.settings.deck.value)
    checked = 0

    def watch(state, seat, view, action) -> None:
        nonlocal checked
        assert view == haiclue.view(state, seat)
        side = state.side.value
        assert view["rack"] == [deck[t].word(side) for t in state.racks[seat]]
        scored = {r.author for r in state.results}
        for other in seats:
            if other.id == seat:
                continue
            # Another seat's unscored card is never in my view, whatever colour mine is.
            if other.id in state.cards and other.id not in scored:
                assert other.id not in {r["author"] for r in view["results"]}
            public = set(view["rack"]) | {t["word"] for t in view["targets"]}
            public |= set(view["reading"]["words"]) if view["reading"] else set()
            for result in view["results"] + view["last_round"]:
                public |= set(result["words"])
            text = msgspec.json.encode(view).decode()
            for tile in state.racks[other.id]:
                word = deck[tile].word(side)
                if word not in public:
                    assert f'"{word}"' not in text
        checked += 1

    play(haiclue, state, {p.id: Level.GOOD for p in seats}, language="en", seed=5, watch=watch)
    assert checked > 30
