"""The reveal's pace: "when every person at the table has seen a reveal ("Next" / "Ready"), the
next round starts, whoever the next giver is; a reveal clock stays the upper bound" (issue 29,
"Pace with computer players"; UI.md: "Computer players never make people wait longer than a
person would")."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games.base import RuleError
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.state import Phase, Ready
from tertulia.games.pitacor.views import view


def _at_the_reveal(count: int = 4, **settings) -> Match:
    match = Match(count, reveal_seconds=60, **settings)
    target = match.choose()
    match.clue(match.fresh_clue())
    match.guess_all(match.around(target, 3))
    match.pass_clue()
    assert match.phase is Phase.REVEAL
    return match


def test_when_everyone_here_has_seen_the_reveal_the_next_round_starts_before_its_clock():
    match = _at_the_reveal()
    number = match.state.round.number
    seats = [m.id for m in match.state.members]
    for seat in seats[:-1]:
        match.ready(seat)
        assert match.phase is Phase.REVEAL  # someone has not said so yet
    match.ready(seats[-1])
    assert match.state.round.number == number + 1 and match.phase is Phase.CHOOSE


def test_the_next_round_starts_whoever_the_next_giver_is():
    """The next giver's "Ready" counts like anyone's: a computer player as next giver says it
    as soon as it has looked, and does not start the round early on its own."""
    match = _at_the_reveal()
    giver = rules.upcoming_giver(match.state)
    match.ready(giver)
    assert match.phase is Phase.REVEAL
    for member in match.state.members:
        if member.id != giver:
            match.ready(member.id)
    assert match.phase is Phase.CHOOSE and match.giver == giver


def test_the_next_giver_may_still_start_the_next_round_at_once():
    match = _at_the_reveal()
    number = match.state.round.number
    match.next_round()
    assert match.state.round.number == number + 1


def test_the_reveal_clock_stays_the_upper_bound():
    match = _at_the_reveal()
    match.ready(match.state.members[0].id)
    match.timeout()
    assert match.phase is Phase.CHOOSE


def test_saying_ready_twice_counts_once_and_a_player_away_is_not_waited_for():
    match = _at_the_reveal()
    first, *others = [m.id for m in match.state.members]
    match.ready(first)
    match.ready(first)
    assert match.state.round.ready == [first]
    match.drop(others[-1])  # gone before saying so
    for seat in others[:-1]:
        match.ready(seat)
    assert match.phase is Phase.CHOOSE


def test_the_last_one_not_ready_dropping_starts_the_next_round():
    match = _at_the_reveal()
    *readied, last = [m.id for m in match.state.members]
    for seat in readied:
        match.ready(seat)
    assert match.phase is Phase.REVEAL
    match.drop(last)
    assert match.phase is Phase.CHOOSE


def test_everyone_away_does_not_end_the_reveal():
    match = _at_the_reveal()
    for member in match.state.members:
        match.drop(member.id)
    assert match.phase is Phase.REVEAL


def test_ready_is_only_for_the_reveal():
    match = Match(4)
    with pytest.raises(RuleError) as refused:
        match.act(match.guessers[0], Ready())
    assert refused.value.code == "action.wrong_phase"


def test_the_view_says_who_has_not_seen_it_yet_and_asks_each_of_them():
    match = _at_the_reveal()
    giver = rules.upcoming_giver(match.state)
    other = next(m.id for m in match.state.members if m.id != giver)
    match.ready(other)
    mine = view(match.state, other)
    assert other not in mine["waiting_for"] and mine["you"]["to_do"] is None
    theirs = view(match.state, giver)
    assert giver in theirs["waiting_for"] and theirs["you"]["to_do"] == "next_round"
    third = next(m.id for m in match.state.members if m.id not in (giver, other))
    assert view(match.state, third)["you"]["to_do"] == "ready"
