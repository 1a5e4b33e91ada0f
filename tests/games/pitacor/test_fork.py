"""The copy an action changes (``fork.py``): new where an action may change it, shared only
where nothing ever changes, and exactly equal to the state it came from.

A part a fork shares by mistake would let the next move change the state before it: a replay
would still agree with the live match, but a refused move's "nothing changed", a room holding
the state it folded from, and the snapshot saved from it would not.
"""

from __future__ import annotations

import enum

import msgspec
import pytest
from pitacor_driver import Match

from tertulia.games.pitacor import rules
from tertulia.games.pitacor.fork import SHARED_ITEMS, SHARED_STATE, fork
from tertulia.games.pitacor.state import Confirm, Marker, Round, SelectCell, State


def _mid_match() -> State:
    """A state with every part filled: filed rounds, markers, a selection, clues, scores."""
    match = Match(5, goal=200)
    for _ in range(2):
        match.play_round(match.around(match.state.round.candidates[0], 2))
        match.next_round()
    target = match.choose()
    match.clue(match.fresh_clue())
    first, second, *_ = match.guessers
    match.place(first, match.near(target, 1))
    match.act(second, SelectCell(match.near(target, 3)))
    state = match.state
    assert state.history and state.round.markers and state.round.selections
    assert state.used_clues and state.past_targets
    return state


def _immutable(value: object) -> bool:
    if value is None or isinstance(value, (str, int, float, bool, enum.Enum)):
        return True
    return isinstance(value, msgspec.Struct) and type(value).__struct_config__.frozen


def _parts(struct: msgspec.Struct, prefix: str = "") -> dict[str, object]:
    return {prefix + name: getattr(struct, name) for name in struct.__struct_fields__}


def test_a_fork_is_equal_to_its_state_byte_for_byte():
    state = _mid_match()
    new = fork(state)
    assert new == state
    assert msgspec.msgpack.encode(new) == msgspec.msgpack.encode(state)


def test_everything_a_fork_shares_is_named_and_what_it_shares_cannot_change():
    """Each list, dict or mutable struct of the state and of its current round is new in the
    fork, unless ``fork.py`` names it shared: then it is frozen, or it is a new list of items
    that are (markers) or that nothing changes once filed (past rounds)."""
    state = _mid_match()
    new = fork(state)
    old_parts = {**_parts(state), **_parts(state.round, "round.")}
    new_parts = {**_parts(new), **_parts(new.round, "round.")}
    old_parts.pop("round"), new_parts.pop("round")
    assert new.round is not state.round
    for name, value in old_parts.items():
        if name in SHARED_STATE:
            assert new_parts[name] is value and _immutable(value), name
        elif name in SHARED_ITEMS:
            assert new_parts[name] is not value and new_parts[name] == value, name
            assert all(a is b for a, b in zip(new_parts[name], value, strict=True)), name
        elif not _immutable(value):
            assert new_parts[name] is not value, f"{name} is shared by the fork"
            if isinstance(value, list):
                assert all(a is not b for a, b in zip(new_parts[name], value, strict=True)) or all(
                    _immutable(item) for item in value
                ), f"the items of {name} are shared by the fork"
    assert all(type(m).__struct_config__.frozen for m in state.round.markers)
    assert all(isinstance(rnd, Round) for rnd in state.history)


def test_changing_every_part_of_a_fork_leaves_its_state_as_it_was():
    state = _mid_match()
    before = msgspec.msgpack.encode(state)
    new = fork(state)
    new.rng.next64()
    new.members[0].score += 5
    new.members.append(new.members[0])
    new.giver_line.reverse()
    new.past_targets.append("A1")
    new.used_clues.append("velvet")
    new.history.append(new.round)
    rnd = new.round
    rnd.clues.append("harbour")
    rnd.selections.clear()
    rnd.markers.append(Marker("p1", "P30", 2))
    rnd.confirmed.append("p9")
    rnd.guessing_order.clear()
    rnd.candidates.pop()
    rnd.guessers.pop()
    rnd.turn_order.append("p1")
    rnd.points["p1"] = 3
    rnd.awarded["p1"] = 3
    assert msgspec.msgpack.encode(state) == before


@pytest.mark.parametrize("restarted", [False, True])
def test_one_cell_one_marker_holds_across_folds_and_restarts(restarted):
    """ "One cell, one marker. An occupied cell can't take another marker": the cells taken are
    kept beside the markers; a state restored from its saved bytes (a restart) has no such
    index yet and must refuse the same cells."""
    match = Match(5)
    target = match.choose()
    match.clue("ocean")
    a, b, c, d = match.guessers
    taken = match.near(target, 1)
    match.place(a, taken)
    match.act(b, SelectCell(match.near(target, 2)))  # a fold that keeps the index as it is
    if restarted:
        match.state = msgspec.msgpack.decode(msgspec.msgpack.encode(match.state), type=State)
    for seat in (b, c):
        with pytest.raises(rules.RuleError) as error:
            match.act(seat, SelectCell(taken))
        assert error.value.code == "marker.cell_taken"
    other = match.near(target, 3)
    match.place(c, other)
    with pytest.raises(rules.RuleError) as error:
        match.act(d, SelectCell(other))  # the cell taken by the latest marker, too
    assert error.value.code == "marker.cell_taken"
    match.act(d, SelectCell(match.near(target, 4)))
    match.act(d, Confirm())
    assert len({m.cell for m in match.state.round.markers}) == 3
