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


def _givers_from_here(match: Match, rounds: int) -> list[str]:
    """Play ``rounds`` more rounds from the current one; the giver of each, in order."""
    givers = []
    for _ in range(rounds):
        givers.append(match.giver)
        _finish_round(match)
        match.next_round()
    return givers


def test_a_leave_and_rejoin_skips_nobodys_turn_as_clue_giver():
    """Issue 17: "Five players, line p3 p4 p5 p1 p2, p1 giving; p4 leaves and rejoins: the
    next givers became p4 p3 p5 p1, p2 never gave." "The turn goes around everyone": p2 gives
    next, and p4, back at the end of the line, after p2."""
    match = Match(5, seed=6, goal=200)
    assert match.state.giver_line == ["p3", "p4", "p5", "p1", "p2"]
    assert _givers_from_here(match, 3) == ["p3", "p4", "p5"]
    assert match.giver == "p1"
    match.leave("p4")
    match.join("p4", "Dario")
    assert match.state.giver_line == ["p3", "p5", "p1", "p2", "p4"]
    assert match.state.giver_line[match.state.giver_index] == "p1"  # still the giver
    assert _givers_from_here(match, 6) == ["p1", "p2", "p4", "p3", "p5", "p1"]


def test_a_giver_who_leaves_and_rejoins_during_their_round_keeps_their_place_in_line():
    """The round's giver left after the first clue and came back while the others guess:
    they are still this round's giver, and the line goes on from them (nobody is skipped,
    they do not give twice in a row)."""
    match = Match(5, seed=6, goal=200)
    target = match.choose()
    match.clue(match.fresh_clue())
    match.leave("p3")
    match.join("p3", "Carla")
    assert match.state.giver_line == ["p3", "p4", "p5", "p1", "p2"]
    match.guess_all(match.around(target, 1))
    assert match.phase is Phase.CLUE2 and match.giver == "p3"  # asked for the second clue
    match.pass_clue()
    match.next_round()
    assert _givers_from_here(match, 5) == ["p4", "p5", "p1", "p2", "p3"]


def test_a_player_who_rejoins_after_their_turn_goes_to_the_end_of_the_line():
    """ "A player who had left and joins again ... goes to the end of the line" (docs), also
    when their place was after the current giver: the same line as before this fix."""
    match = Match(5, seed=6, goal=200)
    match.leave("p1")
    match.join("p1", "Ana")
    assert match.state.giver_line == ["p3", "p4", "p5", "p2", "p1"]
    assert _givers_from_here(match, 5) == ["p3", "p4", "p5", "p2", "p1"]
