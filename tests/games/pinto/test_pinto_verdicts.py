"""The judge's marks are part of the log: each interpretation carries the mark the judge gave
when it was sent (``rules.verdicts``), judging reuses it, and a replay never asks the judge
again, so a judge changed between versions cannot change a finished round's marks and scores.
Logs saved before marks were kept still replay to the state they did (``data/old_log.json``,
written by that code: ``old_log_maker.py``)."""

from __future__ import annotations

import pathlib
from unittest import mock

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pinto_driver import DOODLE, Match

from tertulia.games import base
from tertulia.games.base import RuleError, Timeout
from tertulia.games.pinto import judging, rules
from tertulia.games.pinto.judging import Mark
from tertulia.games.pinto.settings import Settings
from tertulia.games.pinto.state import (
    AcceptMarks,
    DisputeMark,
    Interpret,
    Phase,
    PintoAction,
    RevealDrawing,
    SetTitle,
    State,
    VoteMark,
)

TITLES = ["cat", "red apple", "snowman", "doctor", "boats", "the moon", "mouse"]
READINGS = [*TITLES, "cats", "apple", "snow man", "physician", "boat", "moon", "", "dog", "mice"]


class OtherJudge:
    """A judge of another version: it says the opposite of today's, and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.real = judging.premark

    def __call__(self, title: str, interpretation: str, language: str, perfect=False) -> Mark:
        self.calls += 1
        return Mark(not self.real(title, interpretation, language, perfect).right, "other")


def _replay_judged_by(judge, match: Match) -> State:
    with mock.patch.object(judging, "premark", judge):
        return match.replay()


def _judged(state: State):
    """Every drawing judged so far with its title and readings: (judgement, title, texts)."""
    for past in state.past:
        for judgement in past.judgements:
            yield judgement, past.titles[judgement.artist], past.interpretations[judgement.artist]
    if state.phase is Phase.JUDGE:
        for judgement in state.judgements:
            texts = {
                r: state.works[r].interpretations.get(judgement.artist, "") for r in judgement.order
            }
            yield judgement, state.works[judgement.artist].title, texts


def _play(match: Match, data) -> None:
    """Random play: titles, drawings, readings and drafts, disputes and votes, drops and
    returns, and the clocks running out; then the clocks end the match."""
    for _ in range(data.draw(st.integers(10, 120))):
        if match.phase is Phase.ENDED:
            return
        seat = data.draw(st.sampled_from([p.id for p in match.state.players]))
        kind = data.draw(st.integers(0, 9))
        if kind == 0 and match.state.deadline is not None:
            match.now = match.state.deadline
            seat, action = None, Timeout()
        elif kind == 1:
            seat, action = None, data.draw(st.sampled_from([base.Drop(seat), base.Return(seat)]))
        elif match.phase is Phase.CREATE:
            work = match.state.works.get(seat)
            if work is not None and work.title is None:
                action = SetTitle(data.draw(st.sampled_from(TITLES)))
            elif work is not None and work.drawing is None:
                action = RevealDrawing(DOODLE)
            else:
                other = data.draw(st.sampled_from(match.ids))
                text = data.draw(st.sampled_from(READINGS))
                action = Interpret(other, text, draft=data.draw(st.booleans()))
        else:
            judgement = rules.current(match.state)
            marked = data.draw(st.sampled_from(judgement.order)) if judgement else "p1"
            action = data.draw(
                st.sampled_from([DisputeMark(marked), VoteMark(marked, True), AcceptMarks()])
            )
        try:
            match.act(seat, action)
        except RuleError:
            continue
    while match.phase is not Phase.ENDED and match.state.deadline is not None:
        match.timeout()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(3, 6), seed=st.integers(0, 2**32), data=st.data())
def test_a_replay_with_another_judge_gives_exactly_the_live_state_and_never_asks_it(
    count, seed, data
):
    """A match's marks and scores come out the same after a restart even if the word lists
    changed: the replayed state is exactly the live one and the (other) judge is never asked;
    the live marks are what today's judge said of each interpretation against its title."""
    match = Match(count, seed=seed, rounds=2, drawing_seconds=300, judging_seconds=60)
    _play(match, data)
    other = OtherJudge()
    assert _replay_judged_by(other, match) == match.state
    assert other.calls == 0
    language = match.settings.language.value
    for judgement, title, texts in _judged(match.state):
        voted = {d.seat for d in judgement.disputes if d.decided}
        for reader, mark in judgement.marks.items():
            if reader not in voted:  # "the server's automatic mark stands unless disputed"
                assert mark == judging.premark(title, texts[reader], language)


def test_the_mark_is_made_when_the_interpretation_is_sent_and_a_sent_mark_is_replaced():
    match = Match(3, rounds=1)
    match.draw("p1", "mouse")
    match.draw("p2", "cat")
    match.act("p2", Interpret("p1", "mice", mark=Mark(False, "different")))
    logged = match.log[-1][1]
    assert logged.mark == judging.premark("mouse", "mice", "en") == Mark(True, "number")
    assert match.state.works["p2"].marks == {"p1": Mark(True, "number")}
    match.act("p2", Interpret("p1", "rat", draft=True))  # a draft is marked too, on its own
    assert match.state.works["p2"].draft_marks == {"p1": Mark(False, "different")}
    assert match.state.works["p2"].marks == {"p1": Mark(True, "number")}


def test_a_draft_counted_at_the_end_of_phase_b_keeps_its_own_mark_through_a_replay():
    match = Match(3, rounds=1, first_artist="first_seat")
    for seat, title in {"p1": "mouse", "p2": "cat", "p3": "boats"}.items():
        match.draw(seat, title)
    match.act("p2", Interpret("p1", "mice"))
    match.act("p2", Interpret("p1", "rat", draft=True))  # on screen when the clock ends it
    match.act("p3", Interpret("p1", "mouse", draft=True))
    match.timeout()
    judgement = rules.current(match.state)
    assert judgement is not None and judgement.artist == "p1"
    assert judgement.marks == {"p2": Mark(False, "different"), "p3": Mark(True, "same")}
    assert _replay_judged_by(OtherJudge(), match) == match.state


def _old_log() -> tuple[Match, State]:
    raw = msgspec.json.decode(
        (pathlib.Path(__file__).parent / "data" / "old_log.json").read_bytes()
    )
    settings_ = msgspec.convert(raw["settings"], Settings)
    match = Match(4, seed=raw["seed"], **msgspec.structs.asdict(settings_))
    match.log = [
        (seat, base.decode_action(PintoAction, action), now) for seat, action, now in raw["log"]
    ]
    return match, msgspec.convert(raw["state"], State)


def test_a_log_saved_before_marks_were_kept_replays_to_the_state_it_did():
    """No interpretation of that log carries a mark: each is judged when its drawing's
    judging starts, as then, and the whole match replays to exactly the state that code
    folded it to (every mark, every score)."""
    match, then = _old_log()
    assert all(a.mark is None for _, a, _ in match.log if isinstance(a, Interpret))
    replayed = match.replay(version=0)  # saved before versions were logged
    assert replayed == then
    assert [p.score for p in replayed.players] == [4, 5, 6, 4]
    marks = replayed.past[0].judgements[3].marks
    assert marks["p1"] == Mark(True, "synonym") and marks["p3"] == Mark(True, "number")
    # Those marks are the judge's at judging time: the old path, kept for old logs only.
    assert _replay_judged_by(OtherJudge(), match) != then
