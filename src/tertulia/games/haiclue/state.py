"""What a Haiclue match remembers, and the actions players send."""

from __future__ import annotations

import enum

import msgspec

from ..base import Action, Outcome, Rng, SeatedPlayer, SystemAction
from .settings import Settings


class Colour(enum.Enum):
    """The four target stacks. Each colour also has a symbol, for colour-blind players."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


SYMBOLS = {
    Colour.RED: "circle",
    Colour.YELLOW: "triangle",
    Colour.GREEN: "square",
    Colour.BLUE: "diamond",
}
COLOURS = list(Colour)


class Side(enum.Enum):
    WHITE = "white"
    BLACK = "black"


class Phase(enum.Enum):
    BUILD = "build"  # everyone builds a clue at once
    GUESS = "guess"  # one clue is read; everyone else secretly picks a colour
    REVEAL = "reveal"  # that clue's guesses and its author's card are shown and scored
    ENDED = "ended"


class Clock(enum.Enum):
    NONE = "none"
    CLUE = "clue"
    GUESS = "guess"
    REVEAL = "reveal"


# ---------------------------------------------------------------------------- actions


class SubmitClue(Action, tag="submit_clue", frozen=True):
    """An ordered row of at least two of your own tiles, by their words on the round's side.

    ``draft``: the row while you are still building it (any length, even empty). It is kept
    for you alone and does not finish your clue; if the build ends before you finish, a draft
    of at least the minimum of tiles is your clue (``flow.take_drafts``)."""

    words: list[str]
    draft: bool = False


class Guess(Action, tag="guess", frozen=True):
    colour: Colour


class Ready(Action, tag="ready", frozen=True):
    """Done looking at a clue's result."""


HaiclueAction = SubmitClue | Guess | Ready | SystemAction


# ---------------------------------------------------------------------------- state


class Player(SeatedPlayer):
    """A player: the fields every game keeps are all Haiclue needs."""


class ClueResult(msgspec.Struct):
    """A clue once read and scored: everything about it is public from then on."""

    author: str
    words: list[str]
    card: Colour
    guesses: dict[str, Colour]
    points: dict[str, int]  # competitive: per seat; co-op: {"team": n}


class State(msgspec.Struct):
    settings: Settings
    rng: Rng
    players: list[Player]  # seat order = clockwise
    stacks: list[list[int]]  # one per colour, top first, tile ids
    racks: dict[str, list[int]]  # each player's 15 tile ids
    total_rounds: int
    phase: Phase = Phase.BUILD
    round: int = 1
    side: Side = Side.WHITE
    card_deck: list[Colour] = []
    card_discard: list[Colour] = []
    cards: dict[str, Colour] = {}  # this round's secret cards
    clues: dict[str, list[int]] = {}  # this round's finished clues, tile ids in order
    drafts: dict[str, list[int]] = {}  # this round's clues still being built (secret)
    reading_order: list[str] = []
    reading_index: int = 0
    guesses: dict[str, Colour] = {}  # for the clue being read
    ready: list[str] = []
    results: list[ClueResult] = []  # this round's scored clues, in reading order
    history: list[list[ClueResult]] = []  # earlier rounds
    # The four target tiles of each round in ``history`` (stack tops, in colour order): the
    # match's recap shows what each clue pointed at, and a black round's tiles are discarded.
    round_targets: list[list[int]] = []
    team_score: int = 0  # two players: "you score as a team"
    newcomers: list[str] = []  # new to Haiclue: their clue is not the first read in round 1
    clock: Clock = Clock.NONE
    deadline: float | None = None
    end_reason: str = ""
    outcome: Outcome | None = None
    version: int = 0  # how this match was started (rules.VERSION then; the room logs it)

    @property
    def cooperative(self) -> bool:
        return len(self.players) == 2
