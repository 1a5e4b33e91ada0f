"""A match's clock and its end, the same in every game.

What the shared tools read and write in a game's state are typed protocols a game's state
satisfies structurally: ``MatchState`` (``phase``, ``deadline``, ``outcome``) and
``TimedState`` (with ``clock`` and ``end_reason``, for ``set_clock`` and ``finish_match``).
A game's ``deadline`` and ``outcome`` are usually ``base.deadline`` and ``base.outcome``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

import msgspec

from ._actions import Event


class Placing(msgspec.Struct, frozen=True):
    """One line of a final ranking; equal ``place`` values are shared places."""

    seat: str
    nickname: str
    score: int
    place: int
    winner: bool


class Outcome(msgspec.Struct, frozen=True):
    """How a match ended: the podium, and why it ended."""

    ranking: list[Placing]
    reason: str


class MatchState(Protocol):
    """What ``apply_with``, ``check_and_apply``, ``extend``, ``deadline`` and ``outcome`` read
    in a game's state (``extend`` also writes the deadline)."""

    @property
    def phase(self) -> enum.Enum:
        """The game's ``Phase``: it decides which of the game's actions may be sent now."""
        ...

    deadline: float | None  # when the room sends a ``Timeout``; None: nothing is timed now
    outcome: Outcome | None  # how the match ended; None while it runs


class TimedState(MatchState, Protocol):
    """What ``set_clock`` and ``finish_match`` also write: every real game's state has these."""

    clock: Any  # the game's ``Clock`` enum, with a ``NONE`` member: what the deadline is for
    end_reason: str  # why the match ended ("" while it runs)


M = TypeVar("M", bound=MatchState)


def rank(
    scores: Iterable[tuple[str, str, int]],
    winners: Iterable[str] | None = None,
    *,
    tiebreak: Mapping[str, int] | None = None,
) -> list[Placing]:
    """Rank ``(seat, nickname, score)`` rows, best first, with shared places for equal scores.

    ``winners`` names the winning seats when the rules decide them otherwise (a game won on
    the spot); by default everyone with the top score wins, so a tie is a shared victory.
    ``tiebreak`` (seat → number, higher first) orders equal scores: only players equal in
    both share a place (Pintó: the most points in a single round).
    """

    def key(row: tuple[str, str, int]) -> tuple[int, int]:
        return row[2], tiebreak[row[0]] if tiebreak is not None else 0

    rows = sorted(scores, key=key, reverse=True)  # (stable: equal rows keep their order)
    chosen = set(winners) if winners is not None else None
    top = key(rows[0]) if rows else None
    placings: list[Placing] = []
    for index, row in enumerate(rows):
        seat, nickname, score = row
        same_as_previous = index > 0 and key(rows[index - 1]) == key(row)
        place = placings[-1].place if same_as_previous else index + 1
        winner = seat in chosen if chosen is not None else key(row) == top
        placings.append(Placing(seat, nickname, score, place, winner))
    if chosen is not None:
        # A winner decided by the rules stands first even if someone later drew level.
        placings.sort(key=lambda p: (not p.winner, p.place))
    return placings


def rank_leavers_last(
    scores: Iterable[tuple[str, str, int]],
    left: set[str],
    winners: Iterable[str] | None = None,
    *,
    tiebreak: Mapping[str, int] | None = None,
) -> list[Placing]:
    """The podium when players may leave for good: the ``(seat, nickname, score)`` rows of
    those still in the match ranked as ``rank`` does, then those of the seats in ``left``,
    ranked among themselves by the score they left with and never winners — a player who
    leaves gives up the match, whatever their score."""
    rows = list(scores)
    playing = [row for row in rows if row[0] not in left]
    gone = [row for row in rows if row[0] in left]
    ranking = rank(playing, winners, tiebreak=tiebreak)
    after = len(ranking)
    return ranking + [
        msgspec.structs.replace(placing, place=placing.place + after, winner=False)
        for placing in rank(gone, [], tiebreak=tiebreak)
    ]


def set_clock(state: TimedState, clock: enum.Enum, seconds: float, now: float) -> None:
    """Start ``clock`` (what the deadline is for) for ``seconds`` from ``now``; 0 seconds: no
    limit, and the clock is its enum's ``NONE``."""
    state.clock = clock if seconds else type(clock)["NONE"]
    state.deadline = now + seconds if seconds else None


def finish_match(
    state: TimedState, reason: str, ranking: list[Placing], events: list[Event]
) -> list[str]:
    """The match is over for ``reason``: no clock runs any more, ``outcome`` keeps the
    ``ranking``, and everyone is told who won (returned too). The game's own ``end_match``
    sets its ended phase and ranks as its rules say (a tie shared or broken, a team's score)."""
    state.clock, state.deadline = type(state.clock)["NONE"], None
    state.end_reason = reason
    state.outcome = Outcome(ranking=ranking, reason=reason)
    winners = [p.seat for p in ranking if p.winner]
    events.append(Event("match.ended", {"reason": reason, "winners": list(winners)}))
    return winners


def deadline(state: MatchState) -> float | None:
    """When the room must send a ``Timeout`` (None: nothing is timed now)."""
    return state.deadline


def outcome(state: MatchState) -> Outcome | None:
    """How the match ended (None while it runs)."""
    return state.outcome
