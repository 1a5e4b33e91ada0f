"""Pitacor's scoring table, rule by rule ("Points depend on the distance ...")."""

from __future__ import annotations

import pytest
from pitacor_driver import Match

from tertulia.games.pitacor.board import CLASSIC
from tertulia.games.pitacor.scoring import guesser_points
from tertulia.games.pitacor.settings import Settings
from tertulia.games.pitacor.state import Phase


def _round_with(match: Match, rings: list[int | None], passed: bool = True) -> dict[str, int]:
    """Guessers aim ``rings`` away from the target (None: no marker); the giver passes."""
    target = match.choose()
    match.clue(match.fresh_clue())
    aims = {}
    for seat, ring in zip(match.guessers, rings, strict=True):
        if ring is not None:
            aims[seat] = match.near(target, ring, avoid=set(aims.values()))
    match.guess_all(aims)
    if match.phase is Phase.GUESS1:  # someone without a marker: the clock decides
        match.timeout()
    if passed:
        match.pass_clue()
    else:
        match.clue(match.fresh_clue())
        match.timeout()
    return dict(match.state.round.points)


@pytest.mark.parametrize(("rings", "points"), [(0, 3), (1, 2), (2, 1), (3, 0), (9, 0)])
def test_guesser_3_on_the_exact_cell_2_on_its_8_neighbours_1_on_the_next_ring(rings, points):
    assert guesser_points(rings, Settings()) == points


def test_diagonals_count_as_neighbours():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    row, col = CLASSIC.parse(target)
    diagonal = CLASSIC.name(row + (1 if row < 15 else -1), col + (1 if col < 29 else -1))
    a, b, c = match.guessers
    match.guess_all({a: diagonal, b: match.near(target, 5), c: match.near(target, 6)})
    match.pass_clue()
    assert match.state.round.points[a] == 2


def test_near_the_edge_the_zones_are_cut_off_by_the_board():
    """ "Near the edge, the zones are cut off by the board." A corner has 3 neighbours."""
    neighbours = [c for c in CLASSIC.cells() if CLASSIC.distance("A1", c) == 1]
    ring = [c for c in CLASSIC.cells() if CLASSIC.distance("A1", c) == 2]
    assert len(neighbours) == 3 and len(ring) == 5
    assert CLASSIC.distance("A1", "A30") == 29  # no wrapping to the other side


def test_clue_giver_1_point_per_guesser_who_hit_the_cell_or_a_neighbour():
    match = Match(5)
    points = _round_with(match, [0, 1, 2, 4], passed=False)
    assert points[match.giver] == 2  # exact + neighbour; the ring and the miss give nothing


def test_in_a_room_with_exactly_3_players_it_is_2_points_per_guesser():
    match = Match(3)
    points = _round_with(match, [1, 0], passed=False)
    assert points[match.giver] == 4


def test_passing_bonus_multiplies_the_givers_round_points():
    """ "If the clue giver chose to pass the second clue, their points ... are multiplied" """
    match = Match(4)
    points = _round_with(match, [0, 1, 5], passed=True)
    assert points[match.giver] == 2 * 2
    assert match.state.round.passed


def test_letting_the_timer_run_out_counts_as_passing_but_without_the_bonus():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(
        match.around(target, 0, seats=match.guessers[:1])
        | match.around(target, 1, seats=match.guessers[1:])
    )
    match.timeout()  # the giver lets the second-clue clock run out
    assert match.phase is Phase.REVEAL
    assert match.state.round.forfeited and not match.state.round.passed
    assert match.state.round.points[match.giver] == 3  # three hits, no ×2
    assert all(m.guess == 1 for m in match.state.round.markers)  # no second guess


def test_dropping_from_the_room_counts_as_passing_without_the_bonus():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.drop(match.giver)
    match.guess_all(match.around(target, 1))
    assert match.state.clock.value == "giver_away"
    match.timeout()  # the wait for the giver runs out
    assert match.phase is Phase.REVEAL and match.state.round.forfeited
    assert match.state.round.points[match.giver] == 3


def test_host_can_change_these_values_or_restore_the_defaults():
    custom = dict(
        exact_points=5, neighbour_points=4, ring_points=2, giver_points=3, pass_multiplier=3
    )
    match = Match(4, **custom)
    points = _round_with(match, [0, 1, 2], passed=True)
    guessers = match.guessers
    assert [points[g] for g in guessers] == [5, 4, 2]
    assert points[match.giver] == 2 * 3 * 3
    assert Settings() == Settings(**{f: getattr(Settings(), f) for f in custom})
    assert Settings().exact_points == 3 and Settings().pass_multiplier == 2


def test_no_marker_scores_nothing():
    match = Match(4)
    points = _round_with(match, [0, None, None], passed=True)
    assert [points[g] for g in match.guessers] == [3, 0, 0]


def test_scores_add_up_round_after_round():
    match = Match(4, goal=200)
    totals = dict.fromkeys(match.scores(), 0)
    for _ in range(6):
        points = _round_with(match, [0, 1, 3], passed=False)
        for seat, gained in points.items():
            totals[seat] += gained
        assert match.scores() == totals
        match.next_round()
