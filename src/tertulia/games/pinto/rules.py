"""Pintó's rules as a pure state machine (rules: ``shared/rules/pinto.txt``).

Each round: the category is revealed; then every player, at their own pace, writes a secret
title, draws it, reveals the drawing and interprets every other revealed drawing (CREATE).
When everybody has finished, the drawings are judged one artist at a time, clockwise (JUDGE):
the interpretations and the title are shown, the server marks each interpretation, any
player may dispute a mark and the others vote on it ("the table agrees", ``marks.py``), and
the drawing is scored. Online choices are explained in ``docs/games/pinto.md``.
"""

from __future__ import annotations

import msgspec

from ...text.normalize import tidy
from ...text.profanity import is_profane
from .. import base
from ..base import Event, Player, Rng, RuleError, deadline, outcome
from . import judging, marks
from .drawing import check_drawing
from .flow import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    SEATS,
    VOIDED_NEVER_FIRST,
    begin_judging,
    begin_round,
    current,
    drawing_points,
    find,
    finish_creating_if_done,
    is_done,
    keep_mark,
    mark_of,
    next_artist,
    ranking,
    score_current,
)
from .settings import Settings
from .state import (
    AcceptMarks,
    Clock,
    ConfirmMarks,
    DisputeMark,
    FlagDrawing,
    Interpret,
    Judge,
    Phase,
    RevealDrawing,
    SetTitle,
    State,
    VoidDrawing,
    VoteMark,
    Work,
)
from .state import Player as Seat

TEXT_MAX = 60
MAX_FRAME_BYTES = 512 * 1024  # a drawing travels in one message

__all__ = [  # what views, the room and the tests use from here
    "MAX_FRAME_BYTES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "VERSION",
    "apply",
    "current",
    "deadline",
    "drawing_points",
    "find",
    "is_done",
    "may_chat",
    "outcome",
    "ranking",
    "start",
    "verdicts",
]

PHASE_ACTIONS: dict[Phase, frozenset[type]] = {
    Phase.CREATE: frozenset({SetTitle, RevealDrawing, Interpret, FlagDrawing, VoidDrawing}),
    Phase.JUDGE: frozenset(
        {Judge, ConfirmMarks, DisputeMark, VoteMark, AcceptMarks, FlagDrawing, VoidDrawing}
    ),
    Phase.ENDED: frozenset(),
}


# The version of how a match starts (games/base.py, ``VERSION``): the room logs it with the
# start, so a change here applies to new matches only and old logs deal as they did.
NEWCOMERS_WATCH_FIRST = 1  # from 1, a first-timer is not the first artist judged in round 1
# from 2, the podium: ``flow.LEAVERS``; from 3, a voided drawing never starts the judging
VERSION = VOIDED_NEVER_FIRST


def start(
    settings: Settings,
    players: list[Player],
    seed: int,
    now: float,
    *,
    public: bool = False,
    version: int = VERSION,
) -> State:
    """``version``: the room's logged one, so an old log deals as it did."""
    base.require_players(len(players), "Pintó", MIN_PLAYERS, MAX_PLAYERS)
    rng = Rng.from_seed(seed)
    state = State(
        settings=settings,
        rng=rng,
        players=[Seat(p.id, p.nickname) for p in players],
        deck=[],
        category="",
        category_forms=[],
        public=public,
        newcomers=[p.id for p in players if p.new] if version >= NEWCOMERS_WATCH_FIRST else [],
        version=version,
    )
    begin_round(state, now, [])
    return state


def set_title(
    state: State, seat: str, action: SetTitle, now: float, events, *, judge_text: bool = True
) -> None:
    """ "write what you will draw ... You cannot use the name of the category." (Public rooms
    filter profanity; ``judge_text=False``: a saved title replayed, not judged again.)"""
    work = _my_work(state, seat)
    if work.drawing is not None:
        raise RuleError("title.locked", "Your drawing is revealed: its title is final.")
    title = tidy(action.text)
    if not title:
        raise RuleError("title.empty", "Write what you will draw.")
    if len(title) > TEXT_MAX:
        raise RuleError("title.too_long", "That title is too long.", max=TEXT_MAX)
    forms, language = tuple(state.category_forms), state.settings.language.value
    word = judging.uses_category(title, forms, language, parts=judge_text)
    if word is not None:
        raise RuleError(
            "title.category_name",
            f"'{word}' is the category's name.",
            word=word,
            category=state.category,
        )
    if judge_text and state.public and is_profane(title):
        raise RuleError("title.profanity", "Please keep it friendly.")
    first = work.title is None
    work.title = title
    if first:
        events.append(Event("title.written", {"seat": seat}))


def reveal_drawing(state: State, seat: str, action: RevealDrawing, now: float, events) -> None:
    """ "When you finish your drawing, reveal it ... Once revealed, you cannot modify it." """
    work = _my_work(state, seat)
    if work.drawing is not None:
        raise RuleError("drawing.locked", "A revealed drawing can't be changed.")
    if work.title is None:
        raise RuleError("drawing.no_title", "Write your title first: it stays secret.")
    check_drawing(action.strokes)
    work.drawing = list(action.strokes)
    events.append(Event("drawing.revealed", {"seat": seat}))
    finish_creating_if_done(state, now, events)


def interpret(state: State, seat: str, action: Interpret, now: float, events) -> None:
    """ "Complete your screen's chart with ... your interpretation of their drawing. You can
    leave empty spaces." The judge's mark is kept with the text: the live room wrote it into
    the move (``verdicts``), so a replay reuses it. A move without one (a log saved before
    marks were kept) is judged when its drawing's judging starts, as it was then
    (``flow.mark_at_judging``)."""
    work = _my_work(state, seat)
    if action.artist == seat:
        raise RuleError("interpret.own", "That's your own drawing.")
    if action.artist not in state.round_players:
        raise RuleError("interpret.unknown_artist", "No such drawing this round.")
    if work.drawing is None:
        # "Each player does phase B's steps in order": title, drawing, then interpretations.
        raise RuleError("interpret.reveal_first", "Reveal your own drawing first.")
    if state.works[action.artist].drawing is None:
        raise RuleError("interpret.not_revealed", "That drawing isn't revealed yet.")
    text = tidy(action.text)
    if len(text) > TEXT_MAX:
        raise RuleError("interpret.too_long", "That's too long.", max=TEXT_MAX)
    mark = action.mark
    if action.draft:  # counts only if phase B ends first (begin_judging)
        if work.interpretations.get(action.artist) == text:
            work.drafts.pop(action.artist, None)  # typed back to what is saved: nothing newer
            work.draft_marks.pop(action.artist, None)
        else:
            work.drafts[action.artist] = text
            keep_mark(work.draft_marks, action.artist, mark)
        return
    work.drafts.pop(action.artist, None)
    work.draft_marks.pop(action.artist, None)
    work.interpretations[action.artist] = text
    keep_mark(work.marks, action.artist, mark)
    finish_creating_if_done(state, now, events)


def verdicts(state: State, seat: str | None, action: base.Action) -> base.Action:
    """The move as the room logs it (contract: ``verdicts``): an interpretation with the
    judge's mark written in, made now against the artist's (final) title, so a replay reuses
    it whatever the judge says by then. Any mark a client sent is replaced. Called by the live
    room only, before the move is folded; a move the rules will refuse gets no mark."""
    if not isinstance(action, Interpret):
        return action
    text = tidy(action.text)
    fit = state.phase is Phase.CREATE and len(text) <= TEXT_MAX
    mark = mark_of(state, action.artist, text) if fit else None
    return msgspec.structs.replace(action, mark=mark)


def flag_drawing(state: State, seat: str, action: FlagDrawing, now: float, events) -> None:
    work = _revealed_work(state, action.artist)
    if action.artist == seat:
        raise RuleError("flag.own", "That's your own drawing.")
    if seat not in work.flags:
        work.flags.append(seat)
        events.append(Event("drawing.flagged", {"artist": action.artist}))


def void_drawing(state: State, seat: str, action: VoidDrawing, now: float, events) -> None:
    """The host voids a flagged drawing; nobody scores on it."""
    if seat != state.host:
        raise RuleError("room.host_only", "Only the host can do that.")
    work = _revealed_work(state, action.artist)
    if not work.flags:
        raise RuleError("drawing.not_flagged", "Nobody has flagged that drawing.")
    if any(j.artist == action.artist and j.done for j in state.judgements):
        raise RuleError("drawing.already_scored", "That drawing is already scored.")
    work.void = True
    events.append(Event("drawing.voided", {"artist": action.artist}))
    judgement = current(state)
    if judgement is not None and judgement.artist == action.artist:
        judgement.done = True  # scored as nothing: "nobody scores on a void drawing"
        next_artist(state, now, events)


def _revealed_work(state: State, artist: str) -> Work:
    work = state.works.get(artist)
    if work is None or work.drawing is None:
        raise RuleError("drawing.unknown", "No such revealed drawing.")
    return work


def timeout(state: State, seat: None, action: base.Timeout, now: float, events) -> None:
    """Drawing time is up: on to judging (drawings not revealed are out of this round).
    A vote's time is up: decided by the votes cast. Judging time is up: the marks stand."""
    events.append(Event("clock.expired", {"clock": state.clock.value}))
    if state.phase is Phase.CREATE:
        begin_judging(state, now, events)
    elif state.clock is Clock.VOTING:
        marks.timeout_vote(state, now, events)
    elif state.phase is Phase.JUDGE:
        score_current(state, now, events)


def join(state: State, seat: None, action: base.Join, now: float, events) -> None:
    """A newcomer plays from the next round, with 0 points (for each round so far, too: the
    tie-break looks at them). Someone back in the round they left takes up their own work
    where they left it (their title, drawing and readings are still on their screen), so the
    event says they play this round."""
    back_in_round = action.player in state.works
    SEATS.join(
        state,
        action,
        events,
        plays_from=state.round if back_in_round else state.round + 1,
        new=lambda player, nickname: Seat(player, nickname, round_scores=[0] * (state.round - 1)),
    )


def drop(state: State, seat: None, action: base.Drop, now: float, events) -> None:
    """Nobody waits for a player who is away: not phase B, not a vote, not the marks."""
    SEATS.drop(state, action, events)
    finish_creating_if_done(state, now, events)
    marks.settle(state, now, events)


def return_(state: State, seat: None, action: base.Return, now: float, events) -> None:
    SEATS.return_(state, action, events)


def leave(state: State, seat: None, action: base.Leave, now: float, events) -> None:
    """Fewer than three left: the match ends (``SEATS.leave``); else nobody waits for them."""
    if SEATS.leave(state, action, events) is not None:
        finish_creating_if_done(state, now, events)
        marks.settle(state, now, events)


def host(state: State, seat: None, action: base.Host, now: float, events) -> None:
    state.host = action.player
    marks.settle(state, now, events)


def _my_work(state: State, seat: str) -> Work:
    if seat not in state.works:
        raise RuleError("seat.next_round", "You play from the next round.")
    return state.works[seat]


def may_chat(state: State, seat: str) -> bool:
    """Titles are secret until judged, but the table may talk: the rulebook never silences
    anyone, and a spoken title would only spoil the speaker's own points."""
    return True


_HANDLERS: dict[type, base.Handler] = {
    SetTitle: set_title,
    RevealDrawing: reveal_drawing,
    Interpret: interpret,
    FlagDrawing: flag_drawing,
    VoidDrawing: void_drawing,
    Judge: marks.judge,
    ConfirmMarks: marks.confirm_marks,
    DisputeMark: marks.dispute_mark,
    VoteMark: marks.vote_mark,
    AcceptMarks: marks.accept_marks,
    base.Timeout: timeout,
    base.Join: join,
    base.Drop: drop,
    base.Return: return_,
    base.Leave: leave,
    base.Host: host,
}

# "apply(state, seat, action, now) -> (State, events)": the contract's entry point (base.py);
# a replayed title (judge_text=False) is not judged for profanity again, and a replayed
# artist's mark of before fair marks folds as it did (a new one is refused: ``marks.py``).
# Interpretations are judged by ``verdicts``, before the fold, live only.
apply = base.apply_with(_HANDLERS, PHASE_ACTIONS, SEATS, judging={SetTitle, Judge, ConfirmMarks})
