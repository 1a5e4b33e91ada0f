"""The recap of a finished Pitacor match (issue 19, item 9): "every round of the match —
target, clues, every marker on a small board". The podium reads it from the history each view
carries: every round, as the log played it, and only what its reveal showed."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitacor_driver import CluesSpent, Match

from tertulia.games.base import RuleError, Timeout
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import GuessMode, MarkerVisibility
from tertulia.games.pitacor.state import (
    GUESS_PHASES,
    ChooseTarget,
    Confirm,
    GiveClue,
    NextRound,
    PassClue,
    Phase,
    SelectCell,
)
from tertulia.games.pitacor.views import view


def _markers_of(rnd) -> dict[str, list[str | None]]:
    """The round's markers, seat → cell of its first and second guess."""
    cells: dict[str, list[str | None]] = {}
    for marker in rnd.markers:
        row = cells.setdefault(marker.seat, [None, None])
        row[marker.guess - 1] = marker.cell
    return {seat: row[: max(i + 1 for i, c in enumerate(row) if c)] for seat, row in cells.items()}


def test_the_podium_has_every_round_with_its_target_clues_and_every_marker():
    match = Match(3, goal=4, end_mode="end_of_round")
    played = []
    while match.phase is not Phase.ENDED:
        giver, guessers = match.giver, match.guessers
        first = match.around("A1", 0, guessers[:1]) | {guessers[1]: "P30"}
        target = match.choose()
        match.clue(match.fresh_clue())
        match.guess_all(first)
        # "The better of the two counts": a second clue, each guesser a second marker.
        match.clue(match.fresh_clue())
        second = match.around(target, 1)
        match.guess_all(second)
        played.append((giver, target, first, second))
        if match.phase is Phase.REVEAL:
            match.next_round()
    recap = view(match.state, None)["history"]
    assert [r["round"] for r in recap] == list(range(1, len(played) + 1))
    for entry, (giver, target, first, second) in zip(recap, played, strict=True):
        assert entry["giver"] == giver and entry["target"] == target
        assert len(entry["clues"]) == 2
        assert entry["markers"] == {seat: [first[seat], second[seat]] for seat in first}


def test_a_guess_the_clock_took_leaves_a_gap_not_a_shifted_marker():
    """A guesser with no first marker but a second one: the recap says which guess it was."""
    match = Match(3, guess_seconds=30)
    late, placed = match.guessers
    target = match.choose()
    match.clue("ocean")
    match.place(placed, "A1")
    match.timeout()  # `late` never selected a cell: no first marker
    match.clue("forest floor")
    match.place(late, match.near(target, 0))
    match.place(placed, "A2")
    assert match.phase is Phase.REVEAL
    match.next_round()  # the round is filed as the next one starts
    (entry,) = view(match.state, placed)["history"]
    assert entry["markers"][late] == [None, target]
    assert entry["markers"][placed] == ["A1", "A2"]


def test_a_void_round_shows_no_target_and_no_marker():
    """ "a clue giver without a clue loses the turn": nothing of it was ever revealed."""
    match = Match(3, clue_seconds=30)
    match.choose()
    match.timeout()  # no first clue: the turn moves on
    (entry,) = view(match.state, None)["history"]
    assert entry["void"] is True and entry["target"] is None and entry["markers"] == {}


# ---------------------------------------------------------------------------- properties


def _random_move(match: Match, data: st.DataObject):
    state = match.state
    board = rules.board_of(state.settings)
    if state.deadline is not None and data.draw(st.integers(0, 9)) == 0:
        match.now = max(match.now, state.deadline)
        return None, Timeout()
    if state.phase is Phase.CHOOSE:
        return state.round.giver, ChooseTarget(data.draw(st.integers(0, 3)))
    if state.phase in (Phase.CLUE1, Phase.CLUE2):
        if state.phase is Phase.CLUE2 and data.draw(st.booleans()):
            return state.round.giver, PassClue()
        return state.round.giver, GiveClue(match.fresh_clue())
    if state.phase in GUESS_PHASES:
        seat = rules.current_turn(state) or data.draw(st.sampled_from(state.round.guessers))
        if seat in state.round.selections and data.draw(st.booleans()):
            return seat, Confirm()
        row = data.draw(st.integers(0, board.rows - 1))
        return seat, SelectCell(board.name(row, data.draw(st.integers(0, board.cols - 1))))
    return rules.upcoming_giver(state), NextRound()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=3, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    hidden=st.booleans(),
    turns=st.booleans(),
    data=st.data(),
)
def test_the_recap_is_every_filed_round_as_played_and_holds_no_secret(
    count, seed, hidden, turns, data
):
    match = Match(
        count,
        seed=seed,
        goal=6,
        clue_seconds=60,
        guess_seconds=30,
        markers=MarkerVisibility.HIDDEN if hidden else MarkerVisibility.VISIBLE,
        guess_mode=GuessMode.TURNS if turns else GuessMode.SIMULTANEOUS,
    )
    for _ in range(400):
        if match.phase is Phase.ENDED:
            break
        try:
            seat, action = _random_move(match, data)
        except CluesSpent:
            break  # as long a match as the driver's words allow: what it played is checked
        try:
            match.act(seat, action)
        except RuleError:
            continue
        state = match.state
        recaps = [view(state, who)["history"] for who in [m.id for m in state.members] + [None]]
        # The same for every seat: nothing in it is anyone's secret.
        assert all(r == recaps[0] for r in recaps)
        filed = state.history
        assert [r["round"] for r in recaps[0]] == [rnd.number for rnd in filed]
        for entry, rnd in zip(recaps[0], filed, strict=True):
            assert entry["markers"] == _markers_of(rnd)
            assert entry["target"] == (None if rnd.void else rnd.target)
            # No candidate the giver did not pick, unless a marker or the target sits on it.
            shown = {rnd.target, *(m.cell for m in rnd.markers)}
            raw = msgspec.json.encode(entry)
            for cell in set(rnd.candidates) - shown:
                assert f'"{cell}"'.encode() not in raw
        # The round being played is not in it (its hidden markers, its target) until filed.
        if state.phase is not Phase.ENDED:
            assert state.round.number not in [r["round"] for r in recaps[0]]
    if match.phase is Phase.ENDED:
        # Every round the match played is in the recap, the last one too.
        assert [r["round"] for r in view(match.state, None)["history"]] == list(
            range(1, match.state.round.number + 1)
        )
    # "matches the log": the replayed match gives the same recap.
    assert view(match.replay(), None)["history"] == view(match.state, None)["history"]


# ---------------------------------------------------------------------------- the sums


def _recap_totals(history: list[dict]) -> dict[str, int]:
    """Each seat's points as the recap (and its image) adds them up: what each round counted."""
    totals: dict[str, int] = {}
    for entry in history:
        for seat, points in (entry["awarded"] or {}).items():
            totals[seat] = totals.get(seat, 0) + points
    return totals


def test_right_away_the_recap_counts_only_what_was_added_before_the_winner():
    """Issue 30: "the first to cross the goal wins on the spot", and the rest of that round's
    points are never added. The recap says +0 for them, as the podium counted."""
    match = Match(3, goal=3, end_mode="right_away")
    first, second = match.guessers
    target = match.choose()
    match.clue(match.fresh_clue())
    match.guess_all({first: target, second: match.near(target, 1)})
    match.pass_clue()  # no second clue: the round is revealed
    assert match.phase is Phase.ENDED
    (entry,) = view(match.state, None)["history"]
    won = entry["points"][first]
    assert won >= 3 and entry["points"][second] > 0 and entry["points"][match.giver] > 0
    # Only the winner's points were added; everyone who played the round is in the count.
    assert entry["awarded"] == {first: won, second: 0, match.giver: 0}
    scores = {m.id: m.score for m in match.state.members}
    assert _recap_totals([entry]) == scores


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=3, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    end_mode=st.sampled_from(["right_away", "end_of_round", "close_cycle"]),
    goal=st.integers(min_value=2, max_value=8),
    data=st.data(),
)
def test_the_recaps_sums_are_the_final_scores_in_every_end_mode(count, seed, end_mode, goal, data):
    """Issue 30: every number in the recap equals what the podium counted."""
    match = Match(count, seed=seed, goal=goal, end_mode=end_mode, clue_seconds=60, guess_seconds=30)
    for _ in range(400):
        if match.phase is Phase.ENDED:
            break
        try:
            seat, action = _random_move(match, data)
        except CluesSpent:
            break
        try:
            match.act(seat, action)
        except RuleError:
            continue
        history = view(match.state, None)["history"]
        for entry in history:
            # Everyone the round scored has a counted number, the same or less.
            assert set(entry["awarded"]) == set(entry["points"])
            for seat_, counted in entry["awarded"].items():
                assert counted in (0, entry["points"][seat_])
        # While the round in play is unrevealed, the filed rounds add up to the scores.
        if match.phase is not Phase.REVEAL:
            scores = {m.id: m.score for m in match.state.members}
            totals = _recap_totals(history)
            assert {s: totals.get(s, 0) for s in scores} == scores
