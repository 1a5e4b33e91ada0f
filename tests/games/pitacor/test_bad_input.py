"""Bad input gets a stable code and changes nothing: "the state is exactly as before"."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games import base
from tertulia.games.base import RuleError
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.state import (
    ChooseTarget,
    Confirm,
    GiveClue,
    NextRound,
    PassClue,
    SelectCell,
)


def _refused(match: Match, seat, action, code: str) -> None:
    before = base.clone(match.state)
    with pytest.raises(RuleError) as error:
        rules.apply(match.state, seat, action, match.now)
    assert error.value.code == code
    assert match.state == before  # nothing changed, not even inside the RNG


def _in_first_guess() -> Match:
    match = Match(4)
    match.choose()
    match.clue("ocean")
    return match


@pytest.mark.parametrize("cell", ["Z99", "Q1", "A31", "", "A", "H 1 2", "🙂"])
def test_unknown_cell(cell: str):
    match = _in_first_guess()
    _refused(match, match.guessers[0], SelectCell(cell), "marker.unknown_cell")


def test_move_out_of_turn():
    match = Match(4)
    _refused(match, match.guessers[0], ChooseTarget(0), "action.not_your_turn")
    match.choose()
    _refused(match, match.guessers[0], GiveClue("ocean"), "action.not_your_turn")


@pytest.mark.parametrize(
    "action", [SelectCell("A1"), Confirm(), PassClue(), NextRound(), GiveClue("ocean")]
)
def test_move_out_of_phase(action):
    match = Match(4)  # the giver is choosing the target
    seat = match.giver if isinstance(action, (PassClue, GiveClue)) else match.guessers[0]
    _refused(match, seat, action, "action.wrong_phase")


def test_second_marker_on_a_taken_cell():
    match = _in_first_guess()
    match.place(match.guessers[0], "B2")
    _refused(match, match.guessers[1], SelectCell("B2"), "marker.cell_taken")


def test_target_that_is_not_a_candidate():
    match = Match(4)
    for index in (-1, 4, 99):
        _refused(match, match.giver, ChooseTarget(index), "target.unknown")


def test_confirm_with_nothing_selected():
    match = _in_first_guess()
    _refused(match, match.guessers[0], Confirm(), "marker.nothing_selected")


def test_someone_not_in_the_match():
    match = _in_first_guess()
    _refused(match, "stranger", SelectCell("A1"), "action.not_a_player")


@pytest.mark.parametrize(
    ("clue", "code"),
    [
        ("", "clue.empty"),
        ("12", "clue.number"),
        ("a", "clue.too_short"),
        ("red", "clue.color_name"),
        ("K25", "clue.coordinate"),
        ("sea--salt", "clue.too_many_hyphens"),
        ("wh@t", "clue.not_letters"),
    ],
)
def test_malformed_or_forbidden_clue(clue: str, code: str):
    match = Match(4)
    match.choose()
    _refused(match, match.giver, GiveClue(clue), code)


def test_room_actions_about_unknown_players():
    match = Match(4)
    _refused(match, None, rules.Drop("ghost"), "seat.unknown")


def test_a_refused_action_leaves_the_callers_state_object_untouched():
    match = _in_first_guess()
    state = match.state
    snapshot = base.clone(state)
    with pytest.raises(RuleError):
        rules.apply(state, match.guessers[0], Confirm(), match.now)
    assert state == snapshot
