"""Joining mid-match, dropping and coming back, leaving (the rules' "Joining mid-match")."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games.base import RuleError
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import GuessMode
from tertulia.games.pitacor.state import Phase, SelectCell


def _finish_round(match: Match) -> None:
    target = match.choose()
    match.clue(match.fresh_clue())
    match.guess_all(match.around(target, 1))
    match.pass_clue()


def test_you_can_join_while_a_match_is_running_and_play_from_the_next_round():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    match.join("new", "Zoe")
    assert "new" not in match.guessers
    with pytest.raises(RuleError) as error:
        match.act("new", SelectCell("A1"))
    assert error.value.code == "marker.not_playing_yet"
    match.guess_all({g: c for g, c in match.around(match.state.round.target, 1).items()})
    match.pass_clue()
    match.next_round()
    assert "new" in match.guessers


def test_a_joiner_starts_with_0_points_and_goes_to_the_end_of_the_clue_giver_line():
    match = Match(3, goal=100)
    _finish_round(match)
    match.join("new", "Zoe")
    assert match.score("new") == 0
    assert match.state.giver_line[-1] == "new"
    givers = []
    for _ in range(4):
        match.next_round()
        givers.append(match.giver)
        _finish_round(match)
    assert givers.count("new") == 1 and givers.index("new") == 2  # after the original line


def test_a_full_match_takes_no_more_players():
    match = Match(10)
    with pytest.raises(RuleError) as error:
        match.join("eleventh", "Kai")
    assert error.value.code == "seat.match_full"


def test_joining_twice_is_refused():
    match = Match(4)
    with pytest.raises(RuleError) as error:
        match.join("p1", "Ana")
    assert error.value.code == "seat.already_seated"


def test_if_you_drop_and_come_back_you_get_your_seat_and_points_back():
    match = Match(4, goal=100)
    _finish_round(match)
    seat = match.guessers[1]  # not the next giver
    points = match.score(seat)
    assert points > 0
    match.drop(seat)
    match.next_round()
    match.back(seat)
    assert match.score(seat) == points and seat in match.guessers
    member = rules.find_member(match.state, seat)
    assert member.online


def test_the_others_do_not_wait_for_a_guesser_who_dropped():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.drop(c)
    cells = match.around(target, 1, seats=[a, b])
    match.place(a, cells[a])
    match.place(b, cells[b])
    assert match.phase is Phase.CLUE2


def test_in_turns_a_dropped_guessers_turn_passes():
    match = Match(4, guess_mode=GuessMode.TURNS)
    match.choose()
    match.clue("ocean")
    first, second, _ = match.guessers
    match.drop(first)
    assert rules.current_turn(match.state) == second


def test_a_match_with_fewer_than_3_players_left_ends():
    match = Match(3)
    match.leave(match.guessers[0])
    assert match.phase is Phase.ENDED and match.state.end_reason == "too_few_players"


def test_a_giver_who_leaves_before_the_first_clue_loses_the_turn():
    match = Match(4)
    giver = match.giver
    match.choose()
    match.leave(giver)
    assert match.giver != giver and match.phase is Phase.CHOOSE
    for _ in range(5):  # and never comes up again
        _finish_round(match)
        match.next_round()
        assert match.giver != giver


def test_players_may_not_send_room_actions():
    match = Match(4)
    with pytest.raises(RuleError) as error:
        match.act("p1", rules.Leave("p2"))
    assert error.value.code == "action.room_only"
