"""Pitacor's clocks: "There are two clocks: clues (90 s by default) and guesses (45 s ...)"."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games.base import Extend, RuleError, Timeout
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import GuessMode, OnTimeout
from tertulia.games.pitacor.state import Clock, Phase, SelectCell
from tertulia.games.pitacor.views import view


def test_two_clocks_clues_90_s_and_guesses_45_s_by_default():
    match = Match(4)
    assert match.state.clock is Clock.CLUE and rules.deadline(match.state) == match.now + 90
    match.wait(10)
    match.choose()
    assert rules.deadline(match.state) == match.now - 10 + 90  # choosing is on the clue clock
    match.clue("ocean")
    assert match.state.clock is Clock.GUESS and rules.deadline(match.state) == match.now + 45


def test_you_can_also_play_with_no_limit():
    match = Match(4, clue_seconds=0, guess_seconds=0)
    assert rules.deadline(match.state) is None
    match.choose()
    match.clue("ocean")
    assert rules.deadline(match.state) is None
    with pytest.raises(RuleError) as error:
        match.act(None, Timeout())
    assert error.value.code == "timeout.early"


def test_a_timeout_before_the_deadline_is_refused():
    match = Match(4)
    match.wait(89)
    before = match.state
    with pytest.raises(RuleError) as error:
        match.act(None, Timeout())
    assert error.value.code == "timeout.early" and match.state == before


def test_if_everyone_confirms_early_the_round_moves_on_right_away():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.wait(5)
    match.guess_all(match.around(target, 3))
    assert match.phase is Phase.CLUE2
    assert rules.deadline(match.state) == match.now + 90


def test_forced_a_clue_giver_without_a_clue_loses_the_turn():
    match = Match(4)
    giver = match.giver
    upcoming = rules.upcoming_giver(match.state)
    match.choose()
    match.timeout()
    assert match.state.history[-1].void and match.state.history[-1].giver == giver
    assert match.giver == upcoming and match.phase is Phase.CHOOSE
    assert set(match.scores().values()) == {0}
    assert "round.skipped" in [e.kind for e in match.events]


def test_never_repeating_a_target_a_skipped_rounds_chosen_target_is_never_drawn_again():
    """ "never repeating a target from the same match": a target the giver chose in a round
    the clock then skipped was a target; from rules version 2 it is never drawn again."""
    match = Match(4)
    skipped = [match.choose()]
    match.timeout()
    assert match.state.history[-1].void and skipped[0] in match.state.past_targets
    drawn_later: set[str] = set()
    for round_number in range(60):  # every round skipped too, each after choosing
        drawn_later.update(match.state.round.candidates)
        skipped.append(match.choose(index=round_number % 4))
        match.timeout()
    assert skipped[0] not in drawn_later
    assert len(set(skipped)) == len(skipped)  # no chosen target came back


def test_a_match_started_before_version_2_still_draws_a_skipped_target_again():
    """Saved matches replay as they were dealt: before version 2 a skipped round's target was
    not kept among the match's targets."""
    match = Match(4, version=1)
    target = match.choose()
    match.timeout()
    assert match.state.history[-1].void and target not in match.state.past_targets
    assert match.replay() == match.state  # its log folds at its own version


def test_forced_a_selected_but_unconfirmed_guess_is_confirmed_if_the_cell_is_free():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.act(a, SelectCell("C3"))
    match.act(b, SelectCell("D4"))
    match.place(c, "D4")  # c takes b's cell first
    events = match.timeout()
    placed = {m.seat: m.cell for m in match.state.round.markers}
    assert placed == {a: "C3", c: "D4"}  # b's cell was no longer free
    assert match.phase is Phase.CLUE2
    # b is told at once that no marker went down (not only at the reveal).
    assert [e.data["seat"] for e in events if e.kind == "guess.missed"] == [b]


def test_forced_a_guesser_who_selected_nothing_is_told_no_marker_went_down():
    match = Match(3)
    match.choose()
    match.clue("ocean")
    a, b = match.guessers
    match.place(a, "C3")
    events = match.timeout()
    assert [e.data for e in events if e.kind == "guess.missed"] == [{"seat": b}]
    assert [m.seat for m in match.state.round.markers] == [a]


def test_warn_only_warns_and_waits():
    match = Match(4, on_timeout=OnTimeout.WARN)
    match.choose()
    events = match.timeout()
    assert [e.kind for e in events] == ["clock.expired"] and not events[0].data["forced"]
    assert match.phase is Phase.CLUE1 and match.state.overtime
    assert rules.deadline(match.state) is None
    match.clue("ocean")  # the giver may still give the clue
    assert match.phase is Phase.GUESS1 and not match.state.overtime
    a = match.guessers[0]
    match.act(a, SelectCell("E5"))
    match.timeout()
    assert match.phase is Phase.GUESS1 and match.state.round.markers == []  # nothing forced


def test_in_turns_each_guesser_has_the_guess_clock():
    match = Match(4, guess_mode=GuessMode.TURNS)
    match.choose()
    match.clue("ocean")
    first, second, _ = match.guessers
    assert rules.current_turn(match.state) == first
    match.act(first, SelectCell("F6"))
    match.timeout()
    assert [m.cell for m in match.state.round.markers] == ["F6"]
    assert rules.current_turn(match.state) == second
    assert rules.deadline(match.state) == match.now + 45


def test_if_the_clue_giver_drops_the_clock_waits_about_a_minute():
    match = Match(4)
    match.wait(30)
    match.drop(match.giver)
    assert match.state.clock is Clock.GIVER_AWAY
    assert rules.deadline(match.state) == match.now + 60


def test_a_giver_back_in_time_gets_the_rest_of_the_clue_clock():
    match = Match(4)
    match.wait(30)  # 60 s of the clue clock left
    match.drop(match.giver)
    match.wait(40)
    match.back(match.giver)
    assert match.state.clock is Clock.CLUE and rules.deadline(match.state) == match.now + 60
    match.choose()
    match.clue("ocean")
    assert match.phase is Phase.GUESS1


def test_a_clue_clock_a_restart_extended_is_what_a_giver_who_then_drops_has_left():
    """The room gives a clock the server's downtime ate a grace (``base.Extend``); if the giver
    does not come back in their drop grace, the paused clue clock keeps that extended time."""
    match = Match(4)
    match.wait(200)  # the server was down: the 90 s clue clock ran out meanwhile
    match.act(None, Extend(match.now + 20))
    assert match.state.clock is Clock.CLUE and rules.deadline(match.state) == match.now + 20
    match.wait(5)
    match.drop(match.giver)
    assert match.state.clock is Clock.GIVER_AWAY and match.state.clue_seconds_left == 15
    match.wait(10)
    match.back(match.giver)
    assert match.state.clock is Clock.CLUE and rules.deadline(match.state) == match.now + 15


def test_giver_dropped_without_the_first_clue_the_turn_moves_on():
    match = Match(4)
    giver = match.giver
    match.choose()
    match.drop(giver)
    match.timeout()
    assert match.state.history[-1].void and match.giver != giver
    assert match.phase is Phase.CHOOSE


def test_giver_dropped_with_the_first_clue_the_round_continues_without_a_second_clue():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 1))
    assert match.phase is Phase.CLUE2
    match.drop(match.giver)
    match.timeout()
    assert match.phase is Phase.REVEAL and match.state.round.forfeited
    assert len(match.state.round.clues) == 1


def test_a_giver_away_at_the_start_of_their_turn_is_waited_for():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 2))
    match.pass_clue()
    upcoming = rules.upcoming_giver(match.state)
    match.drop(upcoming)
    match.timeout()  # the reveal ends
    assert match.giver == upcoming and match.state.clock is Clock.GIVER_AWAY


def test_the_reveal_stays_a_while_and_the_next_giver_may_move_on():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 2))
    match.pass_clue()
    assert match.state.clock is Clock.REVEAL and rules.deadline(match.state) == match.now + 15
    outsider = next(s for s in match.guessers if s != rules.upcoming_giver(match.state))
    with pytest.raises(RuleError) as error:
        match.act(outsider, rules.NextRound())
    assert error.value.code == "action.not_your_turn"
    match.timeout()
    assert match.phase is Phase.CHOOSE and match.state.round.number == 2


def _to_an_untimed_reveal() -> Match:
    match = Match(4, reveal_seconds=0)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 2))
    match.pass_clue()
    assert match.phase is Phase.REVEAL and rules.deadline(match.state) is None
    return match


def test_reveal_clock_0_and_the_next_giver_dropped_anyone_here_moves_the_match_on():
    """Issue 17: "Reveal clock 0 + the next giver dropped: nobody can move the match on." A
    match never waits for an absent player: anyone still here may start the next round, and
    the absent giver then gets the usual drop wait."""
    match = _to_an_untimed_reveal()
    upcoming = rules.upcoming_giver(match.state)
    others = [m.id for m in match.state.members if m.id != upcoming]
    # The giver is here: starting the next round is theirs; the others may say they are ready.
    assert view(match.state, others[0])["you"]["to_do"] == "ready"
    match.drop(upcoming)
    assert view(match.state, None)["waiting_for"] == others
    assert {view(match.state, seat)["you"]["to_do"] for seat in others} == {"next_round"}
    match.act(others[0], rules.NextRound())
    assert match.giver == upcoming and match.state.clock is Clock.GIVER_AWAY
    match.timeout()  # not back in time: "Without the first clue, the turn moves on"
    assert match.giver != upcoming and match.phase is Phase.CHOOSE


def test_with_a_reveal_clock_only_the_next_giver_cuts_it_short_even_when_away():
    """With a clock the reveal ends by itself, so an absent next giver holds nobody up and the
    others still cannot cut it short ("a fast player cannot cut the reveal short")."""
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 2))
    match.pass_clue()
    upcoming = rules.upcoming_giver(match.state)
    match.drop(upcoming)
    outsider = next(m.id for m in match.state.members if m.id != upcoming)
    with pytest.raises(RuleError) as error:
        match.act(outsider, rules.NextRound())
    assert error.value.code == "action.not_your_turn"


def test_an_untimed_reveal_goes_back_to_the_next_giver_when_they_return():
    match = _to_an_untimed_reveal()
    upcoming = rules.upcoming_giver(match.state)
    outsider = next(m.id for m in match.state.members if m.id != upcoming)
    match.drop(upcoming)
    match.back(upcoming)
    with pytest.raises(RuleError) as error:
        match.act(outsider, rules.NextRound())
    assert error.value.code == "action.not_your_turn"
    match.next_round()
    assert match.giver == upcoming and match.state.clock is Clock.CLUE
