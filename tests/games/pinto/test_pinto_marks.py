"""Fair marks: "the table agrees", online (``marks.py``, ``docs/games/pinto.md``).

Each test quotes the sentence of issue 17 (point 10) it checks.
"""

from __future__ import annotations

import msgspec
import pytest
from pinto_driver import Match, judgement_of

from tertulia.games import base
from tertulia.games.base import RuleError
from tertulia.games.pinto import rules
from tertulia.games.pinto.state import AcceptMarks, Clock, DisputeMark, Phase, VoteMark
from tertulia.games.pinto.views import view

TITLES = {"p1": "comet", "p2": "kite", "p3": "boat", "p4": "tree", "p5": "cake"}


def comet(count: int = 4, **settings) -> Match:
    """p1's comet is judged first; p2 read "comet" (right), the others "star" (wrong)."""
    match = Match(count, first_artist="first_seat", **settings)
    readings = {("p2", "p1"): "comet", **{(f"p{i}", "p1"): "star" for i in range(3, count + 1)}}
    match.create({p: TITLES[p] for p in match.ids}, readings)
    assert judgement_of(match.state).artist == "p1"
    return match


def refused(match: Match, seat, action) -> str:
    before = base.clone(match.state)
    with pytest.raises(RuleError) as error:
        match.act(seat, action)
    assert match.state == before  # "changes nothing"
    return error.value.code


def test_the_automatic_mark_stands_unless_disputed():
    match = comet()
    match.accept_all()
    assert match.state.judgements[0].points == {"p1": 2, "p2": 2}  # 1 right, 2 wrong


def test_everyone_here_accepting_scores_without_waiting_for_the_clock():
    match = comet(judging_seconds=90)
    for seat in ("p1", "p2", "p3"):
        match.act(seat, AcceptMarks())
    assert not judgement_of(match.state).done  # p4 has not accepted yet
    match.act("p4", AcceptMarks())
    assert match.state.judgements[0].done and judgement_of(match.state).artist == "p2"


@pytest.mark.parametrize("disputer", ["p1", "p2", "p3"])
def test_any_player_may_dispute_a_mark(disputer):
    """ "any player may dispute a mark": the artist, the interpreter or anyone else."""
    match = comet()
    match.act(disputer, DisputeMark("p3"))
    dispute = judgement_of(match.state).disputes[0]
    assert (dispute.seat, dispute.by) == ("p3", disputer)
    assert match.state.clock is Clock.VOTING


def test_a_mark_is_disputed_once_and_a_newcomer_does_not_dispute():
    match = comet()
    match.act("p2", DisputeMark("p3"))
    assert refused(match, "p4", DisputeMark("p3")) == "dispute.already"
    assert refused(match, "p4", DisputeMark("p9")) == "judge.unknown_seat"
    match.act(None, base.Join("p5", "Bo"))  # plays from the next round
    assert refused(match, "p5", DisputeMark("p4")) == "seat.next_round"


def test_a_dispute_is_decided_by_the_players_who_are_neither_the_artist_nor_that_interpreter():
    """ "decided by a quick vote of the players who are neither the artist nor that
    interpreter (majority)" — the artist wants p3's "star" right (more points for both)."""
    match = comet(5)
    match.act("p1", DisputeMark("p3"))
    assert judgement_of(match.state).disputes[0].voters == ["p2", "p4", "p5"]
    for party in ("p1", "p3"):
        assert refused(match, party, VoteMark("p3", True)) == "vote.not_voter"
    match.act("p2", VoteMark("p3", False))
    match.act("p4", VoteMark("p3", True))
    assert not judgement_of(match.state).disputes[0].decided  # p5 is still to vote
    match.act("p5", VoteMark("p3", False))
    judgement = judgement_of(match.state)
    assert judgement.disputes[0].decided and judgement.disputes[0].right is False
    assert judgement.marks["p3"].right is False  # the majority: the automatic mark stays


def test_a_majority_changes_the_mark():
    match = comet(4)
    match.act("p3", DisputeMark("p3"))  # "star" for a comet? p3 thinks it should count
    match.act("p2", VoteMark("p3", True))
    match.act("p4", VoteMark("p3", True))
    mark = judgement_of(match.state).marks["p3"]
    assert (mark.right, mark.reason) == (True, "vote")
    match.accept_all()
    assert match.state.judgements[0].points == {"p1": 1, "p2": 1, "p3": 1}


def test_a_tie_keeps_the_automatic_mark():
    """ "majority; a tie keeps the automatic mark" """
    match = comet(4)
    match.act("p1", DisputeMark("p2"))  # the artist disputes a right guess
    match.act("p3", VoteMark("p2", False))
    match.act("p4", VoteMark("p2", True))
    judgement = judgement_of(match.state)
    assert judgement.disputes[0].decided and judgement.marks["p2"].right is True


def test_a_vote_nobody_casts_in_time_keeps_the_automatic_mark():
    """ "Votes need a clock ... a vote nobody casts in time keeps the automatic mark" """
    match = comet(4, vote_seconds=20)
    match.act("p1", DisputeMark("p2"))
    assert match.state.deadline == match.now + 20
    match.timeout()
    judgement = judgement_of(match.state)
    assert judgement.disputes[0].decided and judgement.marks["p2"].right is True
    assert match.state.clock is Clock.JUDGING


def test_a_vote_pauses_the_judging_clock_which_then_goes_on():
    match = comet(4, judging_seconds=90, vote_seconds=20)
    start = match.now
    match.now += 30  # 60 s of judging left
    match.act("p1", DisputeMark("p2"))
    match.now += 5
    match.act("p3", VoteMark("p2", True))
    match.act("p4", VoteMark("p2", True))
    assert match.state.clock is Clock.JUDGING
    assert match.state.deadline == pytest.approx(match.now + 60)
    assert match.state.deadline > start + 90


def test_the_host_decides_only_when_nobody_else_can_vote():
    """ "the host decides only when nobody else can vote" — with three players and the third
    away, only the artist and that interpreter are left: the host (here, the artist)."""
    match = comet(3, host="p1")
    match.act(None, base.Drop("p3"))
    match.act("p2", DisputeMark("p2"))
    dispute = judgement_of(match.state).disputes[0]
    assert dispute.voters == []
    assert view(match.state, "p1")["you"]["to_do"] == "vote"
    assert refused(match, "p2", VoteMark("p2", True)) == "vote.not_voter"
    match.act("p1", VoteMark("p2", False))
    mark = judgement_of(match.state).marks["p2"]
    assert (mark.right, mark.reason) == (False, "host")


def test_the_host_does_not_vote_when_others_can():
    match = comet(4, host="p1")
    match.act("p2", DisputeMark("p3"))
    assert refused(match, "p1", VoteMark("p3", True)) == "vote.not_voter"


def test_a_voter_who_goes_away_is_not_waited_for():
    """ "must never stall the match on an absent player" """
    match = comet(5)
    match.act("p2", DisputeMark("p3"))
    match.act("p4", VoteMark("p3", True))
    match.act(None, base.Drop("p5"))  # p2 and p4 voted... p2 has not: still open
    assert not judgement_of(match.state).disputes[0].decided
    match.act("p2", VoteMark("p3", True))
    judgement = judgement_of(match.state)
    assert judgement.disputes[0].decided and judgement.marks["p3"].right


def test_when_every_voter_goes_away_without_voting_the_host_decides():
    match = comet(4, host="p1")
    match.act("p2", DisputeMark("p2"))
    match.act(None, base.Drop("p3"))
    match.act(None, base.Leave("p4"))
    assert judgement_of(match.state).disputes[0].voters == []
    match.act("p1", VoteMark("p2", False))
    assert judgement_of(match.state).marks["p2"].right is False


def test_a_player_who_is_away_is_not_waited_for_to_accept():
    match = comet(4)
    for seat in ("p1", "p2", "p3"):
        match.act(seat, AcceptMarks())
    match.act(None, base.Drop("p4"))
    assert match.state.judgements[0].done


def test_a_drawing_is_never_held_longer_than_one_vote_per_mark():
    """Disputes cannot hold the table for ever: one per mark, each with its clock."""
    match = comet(4, judging_seconds=0, vote_seconds=10)
    for seat in ("p2", "p3", "p4"):
        match.act("p1", DisputeMark(seat))
        assert refused(match, "p1", DisputeMark(seat)) == "dispute.already"
    match.timeout()
    assert all(d.decided for d in judgement_of(match.state).disputes)
    assert match.state.deadline is None  # judging_seconds=0: until everyone accepts
    match.accept_all()
    assert match.state.judgements[0].done


def test_votes_are_secret_until_decided_and_the_tally_is_shown_after():
    match = comet(5)
    match.act("p1", DisputeMark("p3"))
    match.act("p2", VoteMark("p3", True))
    for seat in ("p1", "p3", "p4", None):
        seen = view(match.state, seat)["judging"]["disputes"][0]
        assert seen["voted"] == ["p2"] and seen["yes"] is None and seen["no"] is None
        raw = msgspec.json.encode(seen)
        assert b"true" not in raw.replace(b'"host_decides":false', b"")
    assert view(match.state, "p4")["you"]["to_do"] == "vote"
    assert view(match.state, "p2")["you"]["to_do"] == "check_marks"
    match.act("p4", VoteMark("p3", False))
    match.act("p5", VoteMark("p3", False))
    seen = view(match.state, "p3")["judging"]["disputes"][0]
    assert (seen["decided"], seen["right"], seen["yes"], seen["no"]) == (True, False, 1, 2)


def test_a_match_with_disputes_replays_to_the_same_state():
    match = comet(5, rounds=1)
    match.act("p1", DisputeMark("p3"))
    match.act("p2", VoteMark("p3", True))
    match.act(None, base.Drop("p4"))
    match.timeout()
    match.judge_all({("p2", "p1"): True, ("p3", "p5"): True})
    assert match.phase is Phase.ENDED
    assert match.replay() == match.state


def test_an_old_logs_drop_during_judging_does_not_score_it():
    """A judgement of a log saved before fair marks has no acceptance: a drop there folds as
    it did (the drawing waited for the artist or the clock)."""
    match = comet(3)
    for seat in ("p1", "p2", "p3"):
        match.act(None, base.Drop(seat))
    assert not judgement_of(match.state).done
    assert rules.current(match.state).artist == "p1"
