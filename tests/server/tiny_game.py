"""A tiny game for testing the platform, never shipped: "Count to ten".

2–3 players take turns adding 1, 2 or 3 to a shared counter; whoever reaches 10 wins. Each
player also holds a secret word only they may see, and the player whose turn it is may not
chat. A turn lasts 30 seconds; on time-out the counter goes up by 1 for them. Late joiners are
refused, so they become spectators; when a player leaves, the first other player wins.

It is built like the real games (the contract in ``tertulia.games.base``): handlers per action,
the actions each phase allows, ``Seating`` for players coming and going, and ``apply_with``.
"""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from tertulia.games import base
from tertulia.games.base import Event, Outcome, Player, Rng, RuleError, setting

NAME = "tiny"
MIN_PLAYERS = 2
MAX_PLAYERS = 3
SECRETS = ["apple", "river", "stone", "cloud", "maple", "tiger"]


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    target: Annotated[int, setting(10, label="settings.tiny.target", ge=3, le=50)] = 10
    turn_seconds: Annotated[int, setting(30, label="settings.tiny.turn_seconds", ge=0, le=300)] = 30


class Add(base.Action, tag="add"):
    amount: int


Action = Add | base.SystemAction


class Phase(enum.Enum):
    PLAYING = "playing"
    ENDED = "ended"


class State(msgspec.Struct):
    settings: Settings
    rng: Rng
    seats: list[base.SeatedPlayer]  # what every game keeps of a player is all Tiny needs
    secrets: dict[str, str]
    phase: Phase = Phase.PLAYING
    turn: int = 0
    counter: int = 0
    deadline: float | None = None
    winner: str | None = None
    outcome: Outcome | None = None

    @property
    def players(self) -> list[str]:
        return [s.id for s in self.seats]


def start(settings: Settings, players: list[Player], seed: int, now: float, *, public=False):
    base.require_players(len(players), "Tiny", MIN_PLAYERS, MAX_PLAYERS)
    rng = Rng.from_seed(seed)
    secrets = {p.id: rng.choice(SECRETS) for p in players}
    state = State(settings, rng, [base.SeatedPlayer(p.id, p.nickname) for p in players], secrets)
    _clock(state, now)
    return state


def _clock(state: State, now: float) -> None:
    seconds = state.settings.turn_seconds
    state.deadline = now + seconds if seconds and state.winner is None else None


def add(state: State, seat: str, action: Add, now: float, events: list[Event]) -> None:
    if seat != state.players[state.turn]:
        raise RuleError(base.NOT_YOUR_TURN, "Not your turn.")
    if action.amount not in (1, 2, 3):
        raise RuleError("tiny.amount", "Add 1, 2 or 3.", amount=action.amount)
    _add(state, seat, action.amount, now, events)


def timeout(state: State, seat: None, action: base.Timeout, now: float, events) -> None:
    _add(state, state.players[state.turn], 1, now, events)


def _add(state: State, seat: str, amount: int, now: float, events: list[Event]) -> None:
    state.counter += amount
    events.append(Event("tiny.added", {"seat": seat, "amount": amount}))
    if state.counter >= state.settings.target:
        state.winner = seat
        _finish(state, "target", events)
    else:
        state.turn = (state.turn + 1) % len(state.players)
    _clock(state, now)


def join(state: State, seat: None, action: base.Join, now: float, events) -> None:
    raise RuleError("seat.no_joining", "No joining mid-match.")


def drop(state: State, seat: None, action: base.Drop, now: float, events) -> None:
    SEATS.drop(state, action, events)


def return_(state: State, seat: None, action: base.Return, now: float, events) -> None:
    SEATS.return_(state, action, events)


def leave(state: State, seat: None, action: base.Leave, now: float, events) -> None:
    """With one player left ``SEATS.leave`` ends the match (too few); with two, so does Tiny."""
    if SEATS.leave(state, action, events) is not None:
        end_match(state, "player_left", events)


def end_match(state: State, reason: str, events: list[Event]) -> None:
    """A player left: the first one still here wins."""
    state.winner = next(s.id for s in state.seats if not s.left)
    _finish(state, reason, events)


def _finish(state: State, reason: str, events: list[Event]) -> None:
    rows = [(s.id, s.nickname, 1 if s.id == state.winner else 0) for s in state.seats]
    state.phase = Phase.ENDED
    state.outcome = Outcome(base.rank(rows), reason)
    state.deadline = None
    events.append(Event("match.ended", {"winners": [state.winner]}))


SEATS: base.Seating[State, base.SeatedPlayer] = base.Seating(
    lambda state: state.seats, MIN_PLAYERS, MAX_PLAYERS, Phase.ENDED, end_match
)
PHASE_ACTIONS = {Phase.PLAYING: frozenset({Add}), Phase.ENDED: frozenset()}
HANDLERS: dict[type, base.Handler] = {
    Add: add,
    base.Timeout: timeout,
    base.Join: join,
    base.Drop: drop,
    base.Return: return_,
    base.Leave: leave,
    base.Host: base.ignore,
}
apply = base.apply_with(HANDLERS, PHASE_ACTIONS, SEATS)
deadline = base.deadline
outcome = base.outcome


def view(state: State, seat: str | None) -> dict:
    return {
        "game": NAME,
        "counter": state.counter,
        "turn": state.players[state.turn],
        "deadline": state.deadline,
        "winner": state.winner,
        "secret": state.secrets.get(seat) if seat is not None else None,
        "online": {s.id: s.online for s in state.seats},
    }


def blobs(state: State, seat: str | None, known: frozenset | set = frozenset()) -> dict:
    """Each player's secret also travels as a blob, seen by its owner only."""
    key = f"secret:{seat}"
    return {key: state.secrets[seat]} if seat in state.secrets and key not in known else {}


def may_chat(state: State, seat: str) -> bool:
    return state.winner is not None or seat != state.players[state.turn]
