"""A bot's action is always accepted by the engine when it is the bot's turn (both games).

Whole matches (or their first rounds) with every seat a bot, over random seeds, table sizes,
host settings, levels and languages: ``bots.play`` raises ``Stuck`` at the first refusal.
The one refusal a bot cannot foresee is a cell someone hid a marker on (hidden markers), so
that one is allowed there — and the bot must then get a marker down anyway.
"""

from __future__ import annotations

from bot_helpers import needs_model, players
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tertulia.bots.base import LANGUAGES, Level
from tertulia.bots.play import play
from tertulia.games import haiclue, pitacor
from tertulia.games.haiclue.settings import Deck
from tertulia.games.pitacor.settings import GuessMode, MarkerVisibility

levels = st.sampled_from(list(Level))
slow = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@slow
@given(
    seed=st.integers(0, 2**32),
    count=st.integers(3, 6),
    level=levels,
    language=st.sampled_from(LANGUAGES),
    mode=st.sampled_from(list(GuessMode)),
    markers=st.sampled_from(list(MarkerVisibility)),
    ultra_hard=st.booleans(),
    public=st.booleans(),
)
def test_pitacor_bot_actions_are_accepted(
    seed, count, level, language, mode, markers, ultra_hard, public
) -> None:
    """Choosing, both clues or a pass, selecting and confirming: never refused."""
    rules = pitacor.Settings(goal=200, guess_mode=mode, markers=markers, ultra_hard=ultra_hard)
    seats = players(count)
    state = pitacor.start(rules, seats, seed, 1000.0, public=public)
    hidden = markers is MarkerVisibility.HIDDEN
    state = play(
        pitacor, state, {p.id: level for p in seats}, language=language, seed=seed,
        until=lambda s: len(s.history) >= 3,
        may_refuse=frozenset({"marker.cell_taken"}) if hidden else frozenset(),
    )  # fmt: skip
    for rnd in state.history:
        assert not rnd.void  # the giver always found a clue
        assert {m.seat for m in rnd.markers if m.guess == 1} == set(rnd.guessers)


@slow
@given(
    seed=st.integers(0, 2**32),
    count=st.integers(2, 6),
    level=levels,
    deck=st.sampled_from(list(Deck)),
)
def test_haiclue_bot_actions_are_accepted_without_the_model(no_model, seed, count, level, deck):
    """A server without the ``bots`` extra: clues and guesses still follow the rules."""
    _play_haiclue(seed, count, level, deck)


@needs_model
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    count=st.integers(2, 5),
    level=levels,
    deck=st.sampled_from(list(Deck)),
)
def test_haiclue_bot_actions_are_accepted(seed, count, level, deck) -> None:
    """ "A clue must contain at least two word tiles", from your own tiles, on this side."""
    _play_haiclue(seed, count, level, deck)


def _play_haiclue(seed: int, count: int, level: Level, deck: Deck) -> None:
    seats = players(count)
    state = haiclue.start(haiclue.Settings(deck=deck), seats, seed, 1000.0)
    state = play(haiclue, state, {p.id: level for p in seats}, language=deck.value, seed=seed)
    assert state.outcome is not None
    for results in state.history:  # every clue was given and every other seat guessed it
        assert len(results) == count
        assert all(len(r.guesses) == count - 1 for r in results)
