"""A small driver for Pitacor tests: a match, a clock, and moves named as at the table."""

from __future__ import annotations

from typing import Any

import msgspec

from tertulia.games import base
from tertulia.games.base import Drop, Event, Join, Leave, Player, Return, Timeout
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import Settings
from tertulia.games.pitacor.state import (
    ChooseTarget,
    Confirm,
    GiveClue,
    NextRound,
    PassClue,
    Phase,
    Ready,
    SelectCell,
    State,
)

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Eva", "Filipe", "Gosia", "Hugo", "Iga", "Jorge"]


# Ordinary words, far from any colour name, number, direction or light/dark word.
CLUE_WORDS = """
ocean lemon forest sunset ember lagoon moss cherry denim sand honey steel berry tomato
wine pine cloud storm grass blood coffee banana pumpkin flame glacier desert jungle
volcano meadow canyon tulip carrot mango kiwi avocado brick ink smoke candle frost
autumn winter summer dragon penguin kettle lantern velvet pepper garlic thunder harbour
island castle garden orchid parrot rocket marble copper feather tiger whale wolf
""".split()


class CluesSpent(LookupError):
    """The driver has no clue word left that the match has not used."""


def players(count: int) -> list[Player]:
    return [Player(f"p{i + 1}", NAMES[i]) for i in range(count)]


class Match:
    """A match being played: ``state``, the log of what was applied, and a settable clock."""

    def __init__(
        self,
        count: int = 4,
        seed: int = 7,
        public: bool = False,
        version: int = rules.VERSION,
        **settings: Any,
    ):
        # As the room makes them (``msgspec.convert``): "end_of_round" becomes the enum.
        self.settings = msgspec.convert(settings, Settings)
        self.now = 1000.0
        self.seed = seed
        self.public = public
        self.version = version
        self.players = players(count)
        self.state: State = rules.start(
            self.settings, self.players, seed, self.now, public=public, version=version
        )
        self.log: list[tuple[str | None, base.Action, float]] = []
        self.events: list[Event] = []

    # -- low level
    def act(self, seat: str | None, action: base.Action) -> list[Event]:
        self.state, events = rules.apply(self.state, seat, action, self.now)
        self.log.append((seat, action, self.now))
        self.events.extend(events)
        return events

    def wait(self, seconds: float) -> None:
        self.now += seconds

    def timeout(self) -> list[Event]:
        assert self.state.deadline is not None, "nothing is timed"
        self.now = max(self.now, self.state.deadline)
        return self.act(None, Timeout())

    # -- names
    @property
    def giver(self) -> str:
        return self.state.round.giver

    @property
    def guessers(self) -> list[str]:
        return list(self.state.round.guessers)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def score(self, seat: str) -> int:
        member = rules.find_member(self.state, seat)
        assert member is not None
        return member.score

    def scores(self) -> dict[str, int]:
        return {m.id: m.score for m in self.state.members}

    # -- moves
    def choose(self, index: int = 0) -> str:
        self.act(self.giver, ChooseTarget(index))
        assert self.state.round.target is not None
        return self.state.round.target

    def clue(self, text: str) -> None:
        self.act(self.giver, GiveClue(text))

    def pass_clue(self) -> None:
        self.act(self.giver, PassClue())

    def place(self, seat: str, cell: str) -> None:
        self.act(seat, SelectCell(cell))
        self.act(seat, Confirm())

    def next_round(self) -> None:
        self.act(rules.upcoming_giver(self.state), NextRound())

    def ready(self, seat: str) -> None:
        self.act(seat, Ready())

    def join(self, seat: str, nickname: str) -> None:
        self.act(None, Join(seat, nickname))

    def drop(self, seat: str) -> None:
        self.act(None, Drop(seat))

    def back(self, seat: str) -> None:
        self.act(None, Return(seat))

    def leave(self, seat: str) -> None:
        self.act(None, Leave(seat))

    def guess_all(self, cells: dict[str, str]) -> None:
        """Place markers in the order the phase needs (turn order in turns mode)."""
        if self.state.settings.guess_mode.value == "turns":
            while self.phase in (Phase.GUESS1, Phase.GUESS2):
                seat = rules.current_turn(self.state)
                assert seat is not None
                self.place(seat, cells[seat])
        else:
            for seat, cell in cells.items():
                self.place(seat, cell)

    def play_round(
        self,
        first: dict[str, str],
        second: dict[str, str] | None = None,
        clue: str | None = None,
        second_clue: str | None = None,
        index: int = 0,
    ) -> str:
        """A whole round: the giver chooses, clues; guessers place; pass unless ``second``."""
        target = self.choose(index)
        self.clue(clue or self.fresh_clue())
        self.guess_all(first)
        if second is None:
            self.pass_clue()
        else:
            self.clue(second_clue or self.fresh_clue())
            self.guess_all(second)
        return target

    def fresh_clue(self) -> str:
        """A clue word the match has not used yet; ``CluesSpent`` once every one of
        ``CLUE_WORDS`` has been (a random match may run that long)."""
        used = set(self.state.used_clues)
        for word in CLUE_WORDS:
            if word not in used:
                return word
        raise CluesSpent(f"all {len(CLUE_WORDS)} clue words of the driver were used")

    def near(self, cell: str, rings: int, avoid: set[str] | None = None) -> str:
        """A free cell exactly ``rings`` away from ``cell`` (for aiming a guess)."""
        board = rules.board_of(self.state.settings)
        taken = {m.cell for m in self.state.round.markers} | (avoid or set())
        for other in board.cells():
            if other not in taken and board.distance(cell, other) == rings:
                return other
        raise AssertionError(f"no free cell {rings} rings from {cell}")

    def around(self, cell: str, rings: int, seats: list[str] | None = None) -> dict[str, str]:
        """A distinct free cell ``rings`` away from ``cell`` for each guesser (or ``seats``)."""
        chosen: dict[str, str] = {}
        for seat in seats if seats is not None else self.guessers:
            chosen[seat] = self.near(cell, rings, avoid=set(chosen.values()))
        return chosen

    def replay(self) -> State:
        """Rebuild the state from the start and the log alone."""
        state = rules.start(
            self.settings, self.players, self.seed, 1000.0, public=self.public, version=self.version
        )
        for seat, action, now in self.log:
            state, _ = rules.apply(state, seat, action, now)
        return state
