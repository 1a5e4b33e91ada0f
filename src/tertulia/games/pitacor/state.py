"""What a Pitacor match remembers, and the actions players send.

Everything is a msgspec Struct so a state can be copied, compared, stored and sent as it is.
Cells are kept as coordinates (``"H12"``), the same strings players type and see.
"""

from __future__ import annotations

import enum

import msgspec

from ..base import Action, Outcome, Rng, SeatedPlayer, SystemAction
from .settings import Settings


class Phase(enum.Enum):
    CHOOSE = "choose"  # the giver picks the target among four candidates
    CLUE1 = "clue1"  # the giver writes the first clue (one word)
    GUESS1 = "guess1"  # every guesser places a first marker
    CLUE2 = "clue2"  # the giver writes a second clue (one or two words) or passes
    GUESS2 = "guess2"  # every guesser places a second marker
    REVEAL = "reveal"  # the target and the round's points are shown
    ENDED = "ended"  # the match is over: podium


CLUE_PHASES = frozenset({Phase.CHOOSE, Phase.CLUE1, Phase.CLUE2})
GUESS_PHASES = frozenset({Phase.GUESS1, Phase.GUESS2})


class Clock(enum.Enum):
    """What the current deadline is for."""

    NONE = "none"  # nothing is timed now
    CLUE = "clue"  # the giver's clue clock
    GUESS = "guess"  # the guessers' clock (one guesser's, in turns mode)
    GIVER_AWAY = "giver_away"  # the giver dropped: how long we wait for them
    REVEAL = "reveal"  # how long the reveal stays before the next round


# ---------------------------------------------------------------------------- actions


class ChooseTarget(Action, tag="choose_target", frozen=True):
    """The giver picks candidate ``index`` (0–3) as the round's target."""

    index: int


class GiveClue(Action, tag="give_clue", frozen=True):
    text: str


class PassClue(Action, tag="pass_clue", frozen=True):
    """The giver passes the second clue (and earns the passing bonus)."""


class SelectCell(Action, tag="select_cell", frozen=True):
    """A guesser points at a cell; nothing is placed until Confirm."""

    cell: str


class Confirm(Action, tag="confirm", frozen=True):
    """A guesser places a marker on the selected cell."""


class NextRound(Action, tag="next_round", frozen=True):
    """Leave the reveal early; sent by the next clue giver."""


class Ready(Action, tag="ready", frozen=True):
    """ "Ready": this player has seen the reveal. Once everyone here has, the next round
    starts, whoever the next giver is (a computer player never holds people up)."""


# Everything ``apply`` accepts; the room decodes client messages with this union.
PitacorAction = (
    ChooseTarget | GiveClue | PassClue | SelectCell | Confirm | NextRound | Ready | SystemAction
)


# ---------------------------------------------------------------------------- state


class Member(SeatedPlayer):
    """A player of the match, in lobby order (late joiners at the end)."""

    # "you play from the next round": the first round this player guesses in.
    plays_from: int = 1
    turns_given: int = 0


class Marker(msgspec.Struct, frozen=True):
    """A marker on the board: placed once, never moved (so states share them, ``fork.py``)."""

    seat: str
    cell: str
    guess: int  # 1 or 2


class Round(msgspec.Struct, dict=True):
    """One round; once filed in ``State.history``, never changed again (``fork.py``).

    (``dict=True``: room for ``occupied``'s index, which is never stored nor compared.)"""

    number: int
    giver: str
    candidates: list[str]
    guessers: list[str]  # seat order starting at the giver's left
    target: str | None = None
    clues: list[str] = []
    passed: bool = False  # the giver chose to pass: bonus
    forfeited: bool = False  # a timeout or a drop counted as a pass: no bonus
    void: bool = False  # the turn moved on without a first clue
    turn_order: list[str] = []  # turns mode: this pass's order
    turn_index: int = 0
    selections: dict[str, str] = {}
    markers: list[Marker] = []
    confirmed: list[str] = []  # who has confirmed in the current guess phase
    guessing_order: list[str] = []  # first confirmations, in order: "guessing order"
    points: dict[str, int] = {}  # what each seat earned this round (giver included)
    awarded: dict[str, int] = {}  # what was actually added (right-away can stop early)
    ready: list[str] = []  # who has seen this round's reveal ("Ready"), in order


class State(msgspec.Struct):
    settings: Settings
    public: bool
    rng: Rng
    members: list[Member]
    giver_line: list[str]  # clue-giver order, starting with the random first giver
    giver_index: int
    phase: Phase
    round: Round
    clock: Clock = Clock.NONE
    deadline: float | None = None
    # The clue clock's remaining seconds while its giver is away (None: it had no limit).
    clue_seconds_left: float | None = None
    overtime: bool = False  # a clock ran out in "warn" mode; we are waiting past it
    past_targets: list[str] = []
    used_clues: list[str] = []  # clue_key of every clue given in the match
    goal_reached: bool = False
    winners: list[str] = []
    end_reason: str = ""
    history: list[Round] = []  # finished rounds, oldest first
    outcome: Outcome | None = None
    # The rules version the match started under (``rules.VERSION``); 0 in snapshots saved
    # before the state carried it, which fold as they did then.
    version: int = 0


def occupied(rnd: Round) -> frozenset[str]:
    """The cells that have a marker this round ("One cell, one marker").

    Every selection is checked against them, and selecting is the commonest move of a match,
    so they are kept beside the markers instead of scanned for: built again only when the
    markers changed (``_kept_occupied``)."""
    cells = _kept_occupied(rnd)
    if cells is None:
        cells = frozenset(m.cell for m in rnd.markers)
        rnd.__dict__["_occupied"] = (rnd.markers, cells)
    return cells


def carry_occupied(old: Round, new: Round) -> None:
    """Give ``new`` (a copy of ``old`` with a new markers list) ``old``'s index, if it is up
    to date: the set is never changed in place, so the two rounds may share it."""
    cells = _kept_occupied(old)
    if cells is not None:
        new.__dict__["_occupied"] = (new.markers, cells)
    else:
        new.__dict__.pop("_occupied", None)


def _kept_occupied(rnd: Round) -> frozenset[str] | None:
    """The index kept on ``rnd``, if it is still that of its markers: made from this very list,
    and as long as it (markers only grow in a round, never two on one cell)."""
    kept = rnd.__dict__.get("_occupied")
    if kept is not None and kept[0] is rnd.markers and len(kept[1]) == len(rnd.markers):
        return kept[1]
    return None
