"""A Haiclue match for tests, with a settable clock and moves named as at the table."""

from __future__ import annotations

from typing import Any

from tertulia.games import base
from tertulia.games.base import Drop, Event, Leave, Player, Return, Timeout
from tertulia.games.haiclue import decks, rules
from tertulia.games.haiclue.settings import Settings
from tertulia.games.haiclue.state import Colour, Guess, Phase, Ready, State, SubmitClue

NAMES = [
    "Ana",
    "Bruno",
    "Carla",
    "Dario",
    "Eva",
    "Filipe",
    "Gosia",
    "Hugo",
    "Iga",
    "Jorge",
    "Kasia",
    "Luis",
]


class Match:
    def __init__(
        self, count: int = 4, seed: int = 3, new: tuple[str, ...] = (), **settings: Any
    ) -> None:
        """``new``: the seats new to Haiclue (the room's ``Player.new``)."""
        self.settings = Settings(**settings)
        self.players = [Player(f"p{i + 1}", NAMES[i], f"p{i + 1}" in new) for i in range(count)]
        self.seed = seed
        self.now = 1000.0
        self.state: State = rules.start(self.settings, self.players, seed, self.now)
        self.log: list[tuple[str | None, base.Action, float]] = []
        self.events: list[Event] = []

    def act(self, seat: str | None, action: base.Action) -> list[Event]:
        self.state, events = rules.apply(self.state, seat, action, self.now)
        self.log.append((seat, action, self.now))
        self.events.extend(events)
        return events

    def timeout(self) -> None:
        assert self.state.deadline is not None
        self.now = max(self.now, self.state.deadline)
        self.act(None, Timeout())

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def ids(self) -> list[str]:
        return [p.id for p in self.state.players if not p.left]

    def rack(self, seat: str) -> list[str]:
        deck = decks.load("en")
        return [deck[t].word(self.state.side.value) for t in self.state.racks[seat]]

    def card(self, seat: str) -> Colour:
        return self.state.cards[seat]

    def clue(self, seat: str, count: int = 2) -> list[str]:
        words = self.rack(seat)[:count]
        self.act(seat, SubmitClue(words))
        return words

    def everyone_clues(self) -> None:
        for seat in self.ids:
            if seat not in self.state.clues and self.phase is Phase.BUILD:
                self.clue(seat)

    def author(self) -> str:
        author = rules.current_author(self.state)
        assert author is not None
        return author

    def guess(self, seat: str, colour: Colour) -> None:
        self.act(seat, Guess(colour))

    def everyone_guesses(self, right: set[str] | None = None) -> None:
        """Guessers in ``right`` pick the author's colour, the others a wrong one."""
        author = self.author()
        card = self.state.cards[author]
        wrong = next(c for c in Colour if c is not card)
        for seat in self.ids:
            if seat != author and seat not in self.state.guesses and self.phase is Phase.GUESS:
                self.guess(seat, card if right is None or seat in right else wrong)

    def everyone_ready(self) -> None:
        for seat in self.ids:
            if self.phase is Phase.REVEAL:
                self.act(seat, Ready())

    def play_round(self, right: set[str] | None = None) -> None:
        self.everyone_clues()
        while self.phase is Phase.GUESS:
            self.everyone_guesses(right)
            self.everyone_ready()

    def drop(self, seat: str) -> None:
        self.act(None, Drop(seat))

    def back(self, seat: str) -> None:
        self.act(None, Return(seat))

    def leave(self, seat: str) -> None:
        self.act(None, Leave(seat))

    def replay(self) -> State:
        state = rules.start(self.settings, self.players, self.seed, 1000.0)
        for seat, action, now in self.log:
            state, _ = rules.apply(state, seat, action, now)
        return state
