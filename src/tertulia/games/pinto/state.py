"""What a Pintó match remembers, and the actions players send."""

from __future__ import annotations

import enum

import msgspec

from ..base import Action, Outcome, Rng, SeatedPlayer, SystemAction
from .drawing import Stroke
from .judging import Mark
from .settings import Settings


class Phase(enum.Enum):
    CREATE = "create"  # B) "Let's do this!": title, draw, reveal, interpret, each at their pace
    JUDGE = "judge"  # C) Interpretation: one artist at a time
    ENDED = "ended"


class Clock(enum.Enum):
    NONE = "none"
    DRAWING = "drawing"
    JUDGING = "judging"  # looking at the marks; a dispute pauses it
    VOTING = "voting"  # a disputed mark is being voted on


# ---------------------------------------------------------------------------- actions


class SetTitle(Action, tag="set_title", frozen=True):
    """What you will draw, kept secret ("don't show this to anyone"); changeable until you
    reveal your drawing."""

    text: str


class RevealDrawing(Action, tag="reveal_drawing", frozen=True):
    strokes: list[Stroke]


class Interpret(Action, tag="interpret", frozen=True):
    """Your reading of ``artist``'s drawing; "" leaves it blank (counted as wrong).

    ``draft``: what is in the box while you are still typing. It is kept, but it does not count
    as having interpreted that drawing (so it cannot end phase B under your fingers); if phase B
    ends before you save it, it is your interpretation."""

    artist: str
    text: str
    draft: bool = False
    # The judge's mark of ``text`` against the artist's title, written in by the room when the
    # move is made live (``rules.verdicts``: whatever a client sends here is overwritten), so
    # the log keeps what the judge said and a replay reuses it, never asking the judge again.
    # None in logs saved before marks were kept: those are judged when the drawing's judging
    # starts, as they were then.
    mark: Mark | None = None


class FlagDrawing(Action, tag="flag_drawing", frozen=True):
    """ "You cannot draw letters, numbers, or math or linguistic symbols." """

    artist: str


class VoidDrawing(Action, tag="void_drawing", frozen=True):
    """The host voids a flagged drawing: nobody scores on it."""

    artist: str


class Judge(Action, tag="judge", frozen=True):
    """Before fair marks: the artist (or the host, if the artist is gone) set one
    interpretation's mark. Kept so that logs saved before fair marks replay as they did;
    a new one is refused (``marks.py``)."""

    seat: str
    right: bool


class ConfirmMarks(Action, tag="confirm_marks", frozen=True):
    """Before fair marks: the artist's "the marks are final: score this drawing". Replayed
    from old logs only, like ``Judge``."""


class DisputeMark(Action, tag="dispute_mark", frozen=True):
    """ "The table agrees", online: any player says the automatic mark on ``seat``'s
    interpretation is wrong, and the players who are neither the artist nor ``seat`` vote."""

    seat: str


class VoteMark(Action, tag="vote_mark", frozen=True):
    """One vote on a disputed mark: is ``seat``'s interpretation right? (The host's vote is
    the decision when nobody else can vote.)"""

    seat: str
    right: bool


class AcceptMarks(Action, tag="accept_marks", frozen=True):
    """ "I have nothing to dispute": once everyone here has said so and no vote is open, the
    drawing is scored without waiting for the clock."""


PintoAction = (
    SetTitle
    | RevealDrawing
    | Interpret
    | FlagDrawing
    | VoidDrawing
    | Judge
    | ConfirmMarks
    | DisputeMark
    | VoteMark
    | AcceptMarks
    | SystemAction
)


# ---------------------------------------------------------------------------- state


class Player(SeatedPlayer):
    round_scores: list[int] = msgspec.field(default_factory=list)  # each round's: the tie-break


class Work(msgspec.Struct):
    """One player's screen in this round: title, drawing, and their interpretations."""

    title: str | None = None
    drawing: list[Stroke] | None = None  # set once revealed, locked from then on
    interpretations: dict[str, str] = {}  # artist → text ("" is blank)
    drafts: dict[str, str] = {}  # artist → text typed since the last save (see Interpret)
    # The judge's marks of those texts, made when each was sent (``Interpret.mark``); an
    # interpretation without one comes from a log saved before marks were kept.
    marks: dict[str, Mark] = {}  # artist → mark of interpretations[artist]
    draft_marks: dict[str, Mark] = {}  # artist → mark of drafts[artist]
    flags: list[str] = []  # who flagged this drawing
    void: bool = False


class Dispute(msgspec.Struct):
    """A disputed mark and its vote."""

    seat: str  # whose interpretation's mark
    by: str  # who disputed it
    voters: list[str]  # who may vote: neither the artist nor ``seat``; [] → the host decides
    votes: dict[str, bool] = {}  # voter → right?
    decided: bool = False
    right: bool | None = None  # the mark the vote gave (None until decided)


class Judgement(msgspec.Struct):
    """The interpretation phase for one artist: the marks, pre-set by the server."""

    artist: str
    order: list[str]  # the opponents, clockwise from the artist
    marks: dict[str, Mark]
    points: dict[str, int] = {}
    done: bool = False
    disputes: list[Dispute] = []  # at most one per mark
    accepted: list[str] = []  # who said they have nothing to dispute
    review_left: float | None = None  # judging time left when a vote paused it (None: no limit)


class PastRound(msgspec.Struct):
    """A round that is over, kept whole so every view can show it again (a reload, the end
    of the match). Everything here was revealed at its judging."""

    round: int
    category: str
    titles: dict[str, str]  # artist → title, for every drawing that was judged
    interpretations: dict[str, dict[str, str]]  # artist → reader → text ("" blank)
    # artist → the revealed drawing's strokes, msgpack-encoded: the state is copied at every
    # action, and bytes are copied whole where a match's worth of strokes would be walked.
    drawings: dict[str, bytes]
    void: list[str]  # artists whose drawing was voided
    judgements: list[Judgement]


class State(msgspec.Struct):
    settings: Settings
    rng: Rng
    players: list[Player]  # seat order = clockwise
    deck: list[str]  # category names still to come, top first
    category: str
    category_forms: list[str]
    public: bool = False
    phase: Phase = Phase.CREATE
    round: int = 1
    host: str | None = None
    works: dict[str, Work] = {}
    round_players: list[str] = []  # who plays this round (joined before it started)
    artists: list[str] = []  # judging order this round
    judging: int = 0  # index into artists
    judgements: list[Judgement] = []  # this round's, in order
    history: list[list[Judgement]] = []
    past: list[PastRound] = []  # every round that is over, first first
    clock: Clock = Clock.NONE
    deadline: float | None = None
    end_reason: str = ""
    outcome: Outcome | None = None
    newcomers: list[str] = []  # new to Pintó: not the first artist judged in round 1
    version: int = 0  # how this match was started (rules.VERSION then; the room logs it)
