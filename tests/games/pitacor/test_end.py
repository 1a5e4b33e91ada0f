"""How a Pitacor match ends: goal, the three end modes, ties, podium and rematch."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games.base import RuleError
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.flow import board_of
from tertulia.games.pitacor.settings import EndMode, Settings
from tertulia.games.pitacor.state import Phase, SelectCell


def test_the_goal_is_25_points_by_default_and_the_host_can_change_it():
    assert Settings().goal == 25
    assert Match(4, goal=40).state.settings.goal == 40


def test_right_away_is_the_default_end_mode():
    assert Settings().end_mode is EndMode.RIGHT_AWAY


def test_right_away_first_to_cross_the_goal_in_guessing_order_wins_on_the_spot():
    """ "the round's points are added in order (guessers in guessing order, clue giver last)
    and the first to cross the goal wins on the spot" """
    match = Match(4, goal=2)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    # c confirms first with a neighbour (2), then a with the exact cell (3).
    match.place(c, match.near(target, 1))
    match.place(a, target)
    match.place(b, match.near(target, 6))
    match.pass_clue()
    assert match.phase is Phase.ENDED
    assert match.state.winners == [c]  # c was first in guessing order, though a scored more
    assert match.score(a) == 0 and match.score(match.giver) == 0  # adding stopped there
    assert match.state.round.points[a] == 3  # what a would have earned is still shown
    ranking = match.state.outcome.ranking
    assert ranking[0].seat == c and ranking[0].winner and ranking[0].place == 1


def test_right_away_giver_is_added_last():
    match = Match(4, goal=3)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.place(c, match.near(target, 1))  # 2: not yet across
    match.place(a, target)  # 3: across
    match.place(b, match.near(target, 1, avoid={match.state.round.markers[0].cell}))
    match.pass_clue()  # the giver earned 3 hits × 2 = 6, but comes last
    assert match.state.winners == [a]
    assert match.score(match.giver) == 0 and match.score(b) == 0
    assert match.state.round.points[match.giver] == 6


def test_end_of_round_match_ends_after_the_round_and_the_highest_score_wins():
    match = Match(4, goal=2, end_mode=EndMode.END_OF_ROUND)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.place(c, match.near(target, 1))
    match.place(a, target)
    match.place(b, match.near(target, 6))
    match.pass_clue()
    assert match.phase is Phase.ENDED
    assert match.score(a) == 3 and match.score(c) == 2
    assert match.score(match.giver) == 2 * 2  # two hits, passed: everything was added
    assert match.state.winners == [match.giver]  # 4 beats 3


def test_a_tie_is_a_shared_victory():
    match = Match(4, goal=2, end_mode=EndMode.END_OF_ROUND)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.place(a, match.near(target, 1))
    match.place(b, match.near(target, 1, avoid={match.state.round.markers[0].cell}))
    match.place(c, match.near(target, 7))
    match.clue("tide")
    match.timeout()  # no second markers
    assert match.phase is Phase.ENDED
    assert sorted(match.state.winners) == sorted([a, b, match.giver])  # 2, 2 and 2 points
    places = {p.seat: p.place for p in match.state.outcome.ranking}
    assert places[a] == places[b] == places[match.giver] == 1 and places[c] == 4


def test_close_the_cycle_goes_on_until_everyone_has_given_clues_the_same_number_of_times():
    match = Match(4, goal=2, end_mode=EndMode.CLOSE_CYCLE)
    givers = []
    while match.phase is not Phase.ENDED:
        givers.append(match.giver)
        target = match.choose()
        match.clue(match.fresh_clue())
        match.guess_all(match.around(target, 1))
        match.pass_clue()
        if match.phase is Phase.REVEAL:
            match.next_round()
    assert len(givers) == 4 and len(set(givers)) == 4  # the goal fell in round 1
    assert {m.turns_given for m in match.state.members} == {1}
    assert match.state.end_reason == "cycle_closed"


def test_close_the_cycle_ends_when_everyone_has_given_as_often_even_after_a_leave_and_return():
    """ "play goes on until everyone has given clues the same number of times": a player who
    gave, left and came back goes to the end of the clue-giver line; once the others have
    given too, everyone has given once, and the match ends there rather than giving the
    returning player a second turn (found by an audit of the engine against the rules)."""
    match = Match(4, end_mode=EndMode.CLOSE_CYCLE, goal=1)

    def play() -> str:
        giver, target = match.giver, match.choose()
        match.clue(match.fresh_clue())
        exact, others = match.guessers[:1], match.guessers[1:]
        match.guess_all(
            match.around(target, 0, seats=exact) | match.around(target, 3, seats=others)
        )
        match.pass_clue()
        return giver

    givers = [play()]  # the goal falls in round 1
    match.next_round()
    givers.append(play())
    match.next_round()
    match.leave(givers[1])  # during round 3 the second giver leaves and comes back
    match.join(givers[1], "Back")
    givers.append(play())
    match.next_round()
    givers.append(play())
    assert match.phase is Phase.ENDED and match.state.end_reason == "cycle_closed"
    assert len(set(givers)) == 4
    assert {m.turns_given for m in match.state.members} == {1}


def test_close_the_cycle_waits_for_the_goal():
    match = Match(3, goal=100, end_mode=EndMode.CLOSE_CYCLE)
    for _ in range(7):
        target = match.choose()
        match.clue(match.fresh_clue())
        match.guess_all(match.around(target, 4))
        match.pass_clue()
        match.next_round()
    assert match.phase is Phase.CHOOSE  # two cycles closed without a goal: play goes on


def test_the_podium_shows_everyone_with_shared_places():
    match = Match(5, goal=1, end_mode=EndMode.END_OF_ROUND)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 5))
    match.clue("tide")
    a, b, c, d = match.guessers
    match.place(a, match.near(target, 1))
    match.place(b, match.near(target, 2))
    match.place(c, match.near(target, 2, avoid={match.state.round.markers[-1].cell}))
    match.place(d, match.near(target, 8))
    ranking = match.state.outcome.ranking
    assert [p.score for p in ranking] == [2, 1, 1, 1, 0]
    assert [p.place for p in ranking] == [1, 2, 2, 2, 5]
    assert {p.seat for p in ranking} == {m.id for m in match.state.members}


def test_nothing_can_be_played_after_the_match_ended():
    match = Match(4, goal=1)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 0, seats=match.guessers[:1]))
    match.timeout()
    match.pass_clue()
    assert match.phase is Phase.ENDED
    before = match.state
    with pytest.raises(RuleError) as error:
        match.act(match.guessers[1], SelectCell("A1"))
    assert error.value.code == "action.match_over"
    assert match.state == before and rules.deadline(match.state) is None


def test_a_rematch_returns_with_the_same_settings():
    match = Match(4, goal=1, markers=rules.MarkerVisibility.HIDDEN)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 0, seats=match.guessers[:1]))
    match.timeout()
    match.pass_clue()
    assert match.phase is Phase.ENDED
    rematch = rules.start(match.state.settings, match.players, 99, match.now)
    assert rematch.settings == match.state.settings
    assert all(m.score == 0 for m in rematch.members) and rematch.phase is Phase.CHOOSE


def test_a_player_who_left_for_good_cannot_cross_the_goal_right_away():
    """Issue 17: "A player who left for good can win the podium." Points they earned before
    leaving are added, but "the first to cross the goal" is the first still in the match."""
    match = Match(5, goal=3)
    target = match.choose()
    match.clue("ocean")
    a, b, c, d = match.guessers
    match.place(a, target)  # 3 points: the goal, in first place of the guessing order
    match.leave(a)
    match.place(b, match.near(target, 1))  # 2: short of the goal
    match.place(c, match.near(target, 6))
    match.place(d, match.near(target, 6, avoid={match.state.round.markers[-1].cell}))
    match.pass_clue()  # the giver: 2 hits × 1 × 2 = 4, across
    assert match.phase is Phase.ENDED
    assert match.state.winners == [match.giver]
    assert match.score(a) == 3  # kept on the scoreboard
    ranking = match.state.outcome.ranking
    assert ranking[0].seat == match.giver and ranking[0].winner
    assert ranking[-1].seat == a and not ranking[-1].winner and ranking[-1].place == 5


def test_a_departed_players_points_alone_do_not_end_the_match_right_away():
    """Their reaching the goal is not "someone crossed the goal": the match goes on."""
    match = Match(5, goal=3)
    target = match.choose()
    match.clue("ocean")
    a, *others = match.guessers
    match.place(a, target)
    match.leave(a)
    match.guess_all(match.around(target, 6, seats=others))
    match.pass_clue()
    assert match.phase is Phase.REVEAL and not match.state.goal_reached
    assert match.score(a) == 3


def test_the_podium_lists_players_who_left_after_those_still_in_the_match():
    """ "the highest score wins" among the players still in the match (End of round); those
    who left keep their score on the podium, after everyone else, and never win."""
    match = Match(5, goal=2, end_mode=EndMode.END_OF_ROUND)
    target = match.choose()
    match.clue("ocean")
    a, b, c, d = match.guessers
    match.place(a, target)
    match.place(b, match.near(target, 1))
    match.leave(a)
    match.place(c, match.near(target, 6))
    match.place(d, match.near(target, 6, avoid={match.state.round.markers[-1].cell}))
    match.clue("tide")
    match.timeout()  # no second markers
    assert match.phase is Phase.ENDED
    # a: 3, the top score, but gone; b: 2; the giver: 2 hits (a and b) × 1 = 2; c, d: 0.
    assert match.score(a) == 3 and match.score(b) == 2 and match.score(match.giver) == 2
    assert sorted(match.state.winners) == sorted([b, match.giver])
    ranking = match.state.outcome.ranking
    assert (ranking[-1].seat, ranking[-1].place, ranking[-1].winner) == (a, 5, False)
    assert [p.place for p in ranking] == [1, 1, 3, 3, 5]


def test_when_too_few_players_remain_a_leaver_with_the_top_score_does_not_win():
    """ "If fewer than three players remain in the match, it ends at once" (docs): the two
    still here are on top of the podium, the one who left below them."""
    match = Match(3, goal=50)
    target = match.choose()
    match.clue("ocean")
    a, b = match.guessers
    match.place(a, target)
    match.place(b, match.near(target, 5))
    match.pass_clue()
    match.next_round()
    assert match.score(a) == 3
    match.leave(a)
    assert match.phase is Phase.ENDED and match.state.end_reason == "too_few_players"
    ranking = match.state.outcome.ranking
    assert [p.seat for p in ranking][-1] == a and not ranking[-1].winner
    assert a not in match.state.winners and match.state.winners


def test_never_repeating_a_target_a_match_that_has_used_every_colour_ends_there() -> None:
    """ "never repeating a target from the same match": on Ultra Hard's 120 cells a long
    match can leave fewer than the four colours a round deals; it ends there (with its
    podium), instead of failing to deal."""
    match = Match(3, ultra_hard=True, goal=200)
    target = match.choose()
    spare = [c for c in board_of(match.state.settings).cells() if c != target][:3]
    match.state.past_targets = [
        c for c in board_of(match.state.settings).cells() if c != target and c not in spare
    ]
    match.timeout()  # no clue in time: the chosen target is one of the match's now
    assert match.phase is Phase.ENDED and match.state.end_reason == "colours_used_up"
    assert "match.ended" in [e.kind for e in match.events]
