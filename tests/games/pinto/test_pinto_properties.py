"""Properties over random Pintó games: scores follow the rulebook's formula, no seat receives a
title or drawing before its time, an action that names whose views it can change
(``views_changed_by``: a draft) leaves every other view as it was, and replaying the log
rebuilds the state."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from patched_views import PatchedViews
from pinto_driver import DOODLE, Match

from tertulia.games import base
from tertulia.games.base import RuleError, Timeout
from tertulia.games.pinto import rules
from tertulia.games.pinto.state import (
    AcceptMarks,
    ConfirmMarks,
    DisputeMark,
    FlagDrawing,
    Interpret,
    Judge,
    Phase,
    RevealDrawing,
    SetTitle,
    VoteMark,
)
from tertulia.games.pinto.views import view, views_changed_by

WORDS = ["moon", "kite", "boat", "rocket", "cake", "tree", "doctor", "medic", ""]


def _secrets_hold(match: Match) -> None:
    state = match.state
    judged = {j.artist for j in state.judgements}
    for seat in [p.id for p in state.players] + [None]:
        seen = view(state, seat)
        assert set(seen["titles"]) <= judged  # titles only once their drawing is judged
        for artist in seen["drawings"]:
            assert state.works[artist].drawing is not None  # drawings only once revealed
        if state.phase is Phase.CREATE:
            raw = msgspec.json.encode(
                {
                    k: v
                    for k, v in seen.items()
                    if k not in ("my_title", "my_interpretations", "my_drafts")
                }
            )
            for artist, work in state.works.items():
                if artist != seat and work.title and work.title not in WORDS:
                    assert f'"{work.title}"'.encode() not in raw


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(3, 8), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_score_by_the_formula_keep_secrets_and_replay(count, seed, data):
    match = Match(count, seed=seed, rounds=2, drawing_seconds=300, judging_seconds=60)
    # "applying every patch to the first view gives exactly the full view at every version"
    onlookers = [p.id for p in match.state.players] + [None]
    pictures = PatchedViews(lambda who: view(match.state, who))
    pictures.follow(onlookers)
    for step in range(data.draw(st.integers(20, 200))):
        if match.phase is Phase.ENDED:
            break
        seat = data.draw(st.sampled_from([p.id for p in match.state.players]))
        kind = data.draw(st.integers(0, 11))
        if kind == 0 and match.state.deadline is not None:
            match.now = match.state.deadline
            seat, action = None, Timeout()
        elif kind == 1:
            room_actions = [base.Drop(seat), base.Return(seat), base.Extend(match.now + 30)]
            seat, action = None, data.draw(st.sampled_from(room_actions))
        elif match.phase is Phase.CREATE:
            work = match.state.works.get(seat)
            other = data.draw(st.sampled_from(match.ids))
            if work is not None and work.title is None:
                action = SetTitle(f"secret{step}")
            elif work is not None and work.drawing is None:
                action = RevealDrawing(DOODLE)
            elif kind == 2:
                action = FlagDrawing(other)
            else:
                draft = data.draw(st.booleans())
                action = Interpret(other, data.draw(st.sampled_from(WORDS)), draft=draft)
        else:
            judgement = rules.current(match.state)
            marked = data.draw(st.sampled_from(judgement.order)) if judgement else "p1"
            if kind in (2, 3):
                action = DisputeMark(marked)
            elif kind in (4, 5, 6):
                action = VoteMark(marked, data.draw(st.booleans()))
            elif kind == 7:  # from before fair marks: always refused now
                action = data.draw(st.sampled_from([Judge(marked, True), ConfirmMarks()]))
            else:
                action = AcceptMarks()
        before = base.clone(match.state)
        seen_before = {s: view(before, s) for s in [p.id for p in before.players] + [None]}
        try:
            match.act(seat, action)
        except RuleError:
            assert match.state == before
            continue
        _secrets_hold(match)
        pictures.follow(onlookers)
        changed = views_changed_by(seat, action)
        if changed is not None:  # the hook's claim: every other seat sees exactly the same
            for other, seen in seen_before.items():
                if other not in changed:
                    assert view(match.state, other) == seen
        judgements = [j for rnd in match.state.history for j in rnd]
        if match.phase is not Phase.ENDED:  # at the end, this round is in the history already
            judgements += match.state.judgements
        for judgement in judgements:
            voided = judgement.points == {} and judgement.done
            if judgement.done and not voided:
                assert judgement.points == rules.drawing_points(judgement.artist, judgement.marks)
        totals = {p.id: 0 for p in match.state.players}
        for judgement in judgements:
            for who, points in judgement.points.items():
                totals[who] += points
        assert totals == {p.id: p.score for p in match.state.players}
    if match.phase is Phase.ENDED:
        # Issue 30: the album of the end (the recap) adds up to the podium's scores.
        album = {p.id: 0 for p in match.state.players}
        for past in view(match.state, None)["past_rounds"]:
            for judged in past["judged"]:
                for who, points in judged["points"].items():
                    album[who] += points
        assert album == {p.id: p.score for p in match.state.players}
    assert match.replay() == match.state
