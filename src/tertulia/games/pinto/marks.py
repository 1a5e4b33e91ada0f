"""Fair marks: "the table agrees", online (``docs/games/pinto.md``, "Fair marks").

At the table, whether an interpretation matches the title is settled by everyone looking at
it. Online, letting the artist decide alone let an artist mark a wrong guess right or a right
one wrong to gain points. So:

- the server's automatic mark (``judging.premark``) stands unless someone disputes it;
- any player of the round may dispute a mark, once per mark;
- a dispute is decided by a quick vote of the players who are neither the artist nor that
  interpreter, and who are here when it is raised: the majority of the votes cast decides,
  a tie (no vote at all included) keeps the automatic mark;
- the host decides only when nobody else can vote (nobody else is here, or every voter went
  away without voting);
- a vote always has a clock (setting ``vote_seconds``); the judging clock is paused while
  a vote runs and goes on after it; nobody who is away is waited for;
- once everyone here has accepted the marks and no vote is open, the drawing is scored.

The artist's own ``judge`` / ``confirm_marks`` of before are kept for the logs saved with
them: a replay (``judge_text=False``) folds them exactly as it did, a new one is refused.
"""

from __future__ import annotations

from .. import base
from ..base import Event, RuleError, set_clock
from .flow import current, has_left, present, score_current
from .judging import Mark
from .state import (
    AcceptMarks,
    Clock,
    ConfirmMarks,
    Dispute,
    DisputeMark,
    Judge,
    Judgement,
    State,
    VoteMark,
)

__all__ = [
    "accept_marks",
    "confirm_marks",
    "dispute_mark",
    "judge",
    "participants",
    "settle",
    "timeout_vote",
    "vote_mark",
]


def participants(state: State, judgement: Judgement) -> list[str]:
    """Who takes part in judging this drawing: its artist and its guessers, while they play."""
    return [p for p in [judgement.artist, *judgement.order] if not has_left(state, p)]


def dispute_mark(state: State, seat: str, action: DisputeMark, now: float, events) -> None:
    """ "any player may dispute a mark" — once per mark; the vote starts at once."""
    judgement = _judging(state, seat)
    if action.seat not in judgement.marks:
        raise RuleError("judge.unknown_seat", "No such interpretation.")
    if any(d.seat == action.seat for d in judgement.disputes):
        raise RuleError("dispute.already", "That mark has been disputed already.")
    voters = [
        p
        for p in participants(state, judgement)
        if p not in (judgement.artist, action.seat) and present(state, p)
    ]
    if not _open(judgement):  # the judging clock pauses while votes run
        judgement.review_left = (
            max(0.0, state.deadline - now) if state.deadline is not None else None
        )
    judgement.disputes.append(Dispute(action.seat, seat, voters))
    events.append(
        Event("mark.disputed", {"seat": action.seat, "by": seat, "host_decides": not voters})
    )
    # Every open vote runs until the newest one's end: at most one vote per mark, so the
    # drawing is held for a bounded time whoever disputes.
    set_clock(state, Clock.VOTING, state.settings.vote_seconds, now)


def vote_mark(state: State, seat: str, action: VoteMark, now: float, events) -> None:
    """ "decided by a quick vote of the players who are neither the artist nor that
    interpreter" (the host's vote decides when nobody else can vote)."""
    judgement = _judging(state, seat)
    dispute = next((d for d in _open(judgement) if d.seat == action.seat), None)
    if dispute is None:
        raise RuleError("vote.no_dispute", "That mark is not being voted on.")
    voters = dispute.voters or ([state.host] if state.host is not None else [])
    if seat not in voters:
        raise RuleError("vote.not_voter", "The artist and that interpreter don't vote on it.")
    dispute.votes[seat] = action.right
    events.append(Event("mark.voted", {"seat": action.seat, "voter": seat}))
    settle(state, now, events)


def accept_marks(state: State, seat: str, action: AcceptMarks, now: float, events) -> None:
    """Nothing to dispute: when everyone here agrees (and no vote is open) it is scored."""
    judgement = _judging(state, seat)
    if seat not in judgement.accepted:
        judgement.accepted.append(seat)
        events.append(Event("marks.accepted", {"seat": seat}))
    settle(state, now, events)


def settle(state: State, now: float, events: list[Event]) -> None:
    """Decide each vote that waits for nobody who is here, hand to the host the votes nobody
    can cast any more, go on with the judging clock once no vote is open, and score the
    drawing once everyone here has accepted. Called after every vote, accept, drop, leave and
    change of host. (A judgement of a log saved before fair marks has no dispute and no
    acceptance: nothing here touches it.)"""
    judgement = current(state)
    if judgement is None:
        return
    for dispute in _open(judgement):
        if not dispute.voters:
            if state.host in dispute.votes:
                _decide(judgement, dispute, events)
            continue
        if any(v not in dispute.votes and present(state, v) for v in dispute.voters):
            continue  # someone here has not voted yet
        if dispute.votes:
            _decide(judgement, dispute, events)
        else:  # every voter went away without voting: "only when nobody else can"
            dispute.voters = []
            events.append(Event("mark.to_host", {"seat": dispute.seat}))
    if _open(judgement):
        return
    if state.clock is Clock.VOTING:
        left = judgement.review_left
        set_clock(state, Clock.JUDGING, left if left is not None else 0, now)
        if left is not None and state.deadline is None:
            state.clock, state.deadline = Clock.JUDGING, now  # no time was left: due at once
    here = [p for p in participants(state, judgement) if present(state, p)]
    if judgement.accepted and all(p in judgement.accepted for p in here):
        score_current(state, now, events)


def timeout_vote(state: State, now: float, events: list[Event]) -> None:
    """The vote's time is up: each open vote is decided by the votes cast ("a vote nobody
    casts in time keeps the automatic mark"), then judging goes on."""
    judgement = current(state)
    assert judgement is not None
    for dispute in _open(judgement):
        _decide(judgement, dispute, events)
    settle(state, now, events)


def _decide(judgement: Judgement, dispute: Dispute, events: list[Event]) -> None:
    """The majority of the votes cast; a tie keeps the automatic mark."""
    yes = sum(1 for right in dispute.votes.values() if right)
    no = len(dispute.votes) - yes
    automatic = judgement.marks[dispute.seat]
    right = yes > no if yes != no else automatic.right
    dispute.decided, dispute.right = True, right
    if right != automatic.right:
        judgement.marks[dispute.seat] = Mark(right, "vote" if dispute.voters else "host")
    events.append(
        Event("mark.decided", {"seat": dispute.seat, "right": right, "yes": yes, "no": no})
    )


def _open(judgement: Judgement) -> list[Dispute]:
    return [d for d in judgement.disputes if not d.decided]


def _judging(state: State, seat: str) -> Judgement:
    """The drawing being judged, for one of the players judging it."""
    judgement = current(state)
    if judgement is None:
        raise RuleError(base.WRONG_PHASE, "Nothing is being judged.")
    if seat not in participants(state, judgement):
        raise RuleError("seat.next_round", "You play from the next round.")
    return judgement


# ---------------------------------------------------------------------------- before fair marks


def judge(
    state: State, seat: str, action: Judge, now: float, events, *, judge_text: bool = True
) -> None:
    """Before fair marks the artist flipped a mark. Replayed from an old log as it was; a new
    one is refused (``judge_text`` is False only when the room replays its log)."""
    judgement = _old_judge(state, seat, judge_text)
    if action.seat not in judgement.marks:
        raise RuleError("judge.unknown_seat", "No such interpretation.")
    judgement.marks[action.seat] = Mark(action.right, "artist")


def confirm_marks(
    state: State, seat: str, action: ConfirmMarks, now: float, events, *, judge_text: bool = True
) -> None:
    """Before fair marks the artist confirmed the marks: scored at once. Replay only."""
    _old_judge(state, seat, judge_text)
    score_current(state, now, events)


def _old_judge(state: State, seat: str, judge_text: bool) -> Judgement:
    if judge_text:
        raise RuleError(
            "judge.by_the_table", "Marks stand unless disputed: dispute one and the table votes."
        )
    judgement = current(state)
    if judgement is None:
        raise RuleError(base.WRONG_PHASE, "Nothing is being judged.")
    artist_here = present(state, judgement.artist)
    if seat != judgement.artist and not (seat == state.host and not artist_here):
        raise RuleError("judge.not_artist", "The artist judges the interpretations.")
    return judgement
