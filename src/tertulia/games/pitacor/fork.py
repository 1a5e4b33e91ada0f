"""The copy of a Pitacor state that one action changes, sharing what no action changes.

``apply`` must leave the state it was given exactly as it was (a pure fold: the room, a replay
and the tests may all still hold it). Copying the whole state for that (``base.clone``, a
msgpack round trip) costs ~20 KB of encoding per move in a long match, most of it the filed
rounds of ``history``, which no action ever changes again; a crash restart folds up to 99
moves a room, so that copy was most of its time (benchmarks/README.md, "Restart").

``fork`` copies only the parts a handler may change: the state itself, its lists, its RNG,
each member, and the current round with its lists and dicts. The rest is shared between the
old state and the new one, and must never be changed in place:

- the settings and the outcome (frozen structs) and the markers (frozen: a marker is placed,
  never moved);
- the filed rounds in ``history``: a round is filed at its end (``finish_round``,
  ``end_match``) and only read after that. The list is new in each fork, its rounds are not.

So the rule for handlers: change in place only what ``fork`` makes new, and replace anything
else whole (a new round, a new outcome). ``tests/games/pitacor/test_fork.py`` checks that
every list, dict and struct of a state is new after a fork or named here as shared, and the
property tests that folding random matches never changes an earlier state and ends exactly
where the whole copy does.
"""

from __future__ import annotations

import copy

from .state import Round, State, carry_occupied

# What a fork shares with the state it came from (everything else that is not a number, a
# string or an enum is new in it): ``State`` fields, then ``Round`` fields.
SHARED_STATE = frozenset({"settings", "outcome"})
SHARED_ITEMS = frozenset({"history", "round.markers"})  # new lists of the same items


def fork(state: State) -> State:
    """A state equal to ``state`` that an action may change without touching ``state``."""
    new = copy.copy(state)  # shallow: numbers, strings, enums and frozen parts stay shared
    new.rng = copy.copy(state.rng)
    # A member holds only numbers, strings and booleans: a shallow copy is a whole one.
    new.members = [copy.copy(m) for m in state.members]
    new.giver_line = state.giver_line.copy()
    new.round = fork_round(state.round)
    new.past_targets = state.past_targets.copy()
    new.used_clues = state.used_clues.copy()
    new.winners = state.winners.copy()
    new.history = state.history.copy()  # the filed rounds themselves are shared
    return new


def fork_round(rnd: Round) -> Round:
    """The current round, with new lists and dicts (the markers in them are shared)."""
    new = copy.copy(rnd)
    new.candidates = rnd.candidates.copy()
    new.guessers = rnd.guessers.copy()
    new.clues = rnd.clues.copy()
    new.turn_order = rnd.turn_order.copy()
    new.selections = rnd.selections.copy()
    new.markers = rnd.markers.copy()
    new.confirmed = rnd.confirmed.copy()
    new.guessing_order = rnd.guessing_order.copy()
    new.points = rnd.points.copy()
    new.awarded = rnd.awarded.copy()
    new.ready = rnd.ready.copy()
    carry_occupied(rnd, new)
    new.__dict__.pop("_summary", None)  # a view's summary of a filed round: not this copy's
    return new
