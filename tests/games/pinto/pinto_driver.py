"""A Pintó match for tests: a clock, and moves named as at the table."""

from __future__ import annotations

from typing import Any

from tertulia.games import base
from tertulia.games.base import Host, Player, Timeout
from tertulia.games.pinto import rules
from tertulia.games.pinto.drawing import Stroke
from tertulia.games.pinto.flow import present
from tertulia.games.pinto.marks import participants
from tertulia.games.pinto.settings import Settings
from tertulia.games.pinto.state import (
    AcceptMarks,
    ConfirmMarks,
    DisputeMark,
    Interpret,
    Judge,
    Phase,
    RevealDrawing,
    SetTitle,
    State,
    VoteMark,
)

NAMES = ["Lucas", "Ana", "Nico", "Eva", "Bo", "Cy", "Di", "Ed"]
DOODLE = [Stroke("#1d1d1f", 5, [100, 100, 500, 500, 900, 100])]


class Match:
    def __init__(
        self,
        count: int = 4,
        seed: int = 1,
        host: str = "p1",
        new: tuple[str, ...] = (),
        **settings: Any,
    ):
        """``new``: the seats new to Pintó (the room's ``Player.new``)."""
        self.settings = Settings(**settings)
        self.players = [Player(f"p{i + 1}", NAMES[i], f"p{i + 1}" in new) for i in range(count)]
        self.seed = seed
        self.now = 100.0
        self.state: State = rules.start(self.settings, self.players, seed, self.now)
        self.log: list[tuple[str | None, base.Action, float]] = []
        self.act(None, Host(host))

    def act(self, seat, action, *, replaying: bool = False):
        """``replaying``: as the room folds its saved log (an old log's moves are accepted
        as they were then). Otherwise the move is made as the live room makes it: with the
        judge's verdicts written in (``rules.verdicts``), and logged so."""
        if not replaying:
            action = rules.verdicts(self.state, seat, action)
        self.state, events = rules.apply(
            self.state, seat, action, self.now, judge_text=not replaying
        )
        self.log.append((seat, action, self.now))
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
        return list(self.state.round_players)

    def draw(self, seat: str, title: str) -> None:
        self.act(seat, SetTitle(title))
        self.act(seat, RevealDrawing(DOODLE))

    def create(self, titles: dict[str, str], readings: dict[tuple[str, str], str]) -> None:
        """Everyone titles and draws, then interprets (``(reader, artist) → text``, else blank)."""
        for seat, title in titles.items():
            self.draw(seat, title)
        for reader in titles:
            for artist in titles:
                if reader != artist and self.phase is Phase.CREATE:
                    self.act(reader, Interpret(artist, readings.get((reader, artist), "")))

    def judge_all(self, flips: dict[tuple[str, str], bool] | None = None) -> None:
        """Each artist in turn: the table changes the given marks ``(artist, reader) →
        right`` (the artist disputes, the others vote so), then everyone accepts."""
        while self.phase is Phase.JUDGE:
            judgement = rules.current(self.state)
            for (artist, reader), right in (flips or {}).items():
                if artist == judgement.artist and judgement.marks[reader].right != right:
                    self.act(artist, DisputeMark(reader))
                    dispute = judgement_of(self.state).disputes[-1]
                    for voter in dispute.voters or [self.state.host]:
                        self.act(voter, VoteMark(reader, right))
            self.accept_all()

    def accept_all(self) -> None:
        """Everyone here accepts the marks of the drawing being judged: it is scored."""
        judgement = judgement_of(self.state)
        artist, round_ = judgement.artist, self.state.round
        for seat in participants(self.state, judgement):
            now = rules.current(self.state)
            if now is None or now.artist != artist or self.state.round != round_:
                break  # scored already (the last of them accepted)
            if present(self.state, seat):
                self.act(seat, AcceptMarks())

    def judge_all_as_before(self, flips: dict[tuple[str, str], bool] | None = None) -> None:
        """A log saved before fair marks, replayed: each artist flipped the given marks
        ``(artist, reader) → right`` and confirmed."""
        while self.phase is Phase.JUDGE:
            judgement = rules.current(self.state)
            for (artist, reader), right in (flips or {}).items():
                if artist == judgement.artist:
                    self.act(artist, Judge(reader, right), replaying=True)
            self.act(judgement.artist, ConfirmMarks(), replaying=True)

    def score(self, seat: str) -> int:
        return rules.find(self.state, seat).score

    def replay(self, version: int = rules.VERSION) -> State:
        """The state rebuilt from the log, as the room replays it (``judge_text=False``):
        started at the match's logged ``version`` (0: a log from before versions)."""
        state = rules.start(self.settings, self.players, self.seed, 100.0, version=version)
        for seat, action, now in self.log:
            state, _ = rules.apply(state, seat, action, now, judge_text=False)
        return state


def judgement_of(state: State):
    judgement = rules.current(state)
    assert judgement is not None
    return judgement
