"""Tiny: "Count to ten", the example game of ``docs/adding-a-game.md`` (and the tests' game).

2–3 players take turns adding 1, 2 or 3 to a shared counter; whoever reaches 10 wins. Each
player also holds a secret word only they may see, and the player whose turn it is may not
chat. A turn lasts 30 seconds; on time-out the counter goes up by 1 for them. Late joiners are
refused, so they become spectators; when a player leaves, the first other player wins.

The whole engine is this one file: the contract of ``games/base.py``, built as every game is
with base's shared tools: a handler per action, the actions each phase allows, ``SEATS`` for
players coming and going, and ``base.apply_with`` for the checks every move passes. Copied to
``src/tertulia/games/<name>/__init__.py`` it is a game the server finds by itself.
"""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from tertulia.games import base
from tertulia.games.base import Event, Outcome, Player, Rng, RuleError, setting

NAME = __name__.rpartition(".")[2]  # a game's name is its folder's name: "tiny"
MIN_PLAYERS = 2
MAX_PLAYERS = 3
ORDER = 100  # where it stands in the lists of games: after the shipped ones
SECRETS = ["apple", "river", "stone", "cloud", "maple", "tiger"]

# Every code this game refuses with beyond the platform's; the client words each as
# games.tiny.errors.<code> (web/i18n/<lang>.json, in this folder).
AMOUNT = "tiny.amount"  # an amount that is not 1, 2 or 3
NO_JOINING = "seat.no_joining"  # a latecomer: the room makes them a spectator
ERRORS = (AMOUNT, NO_JOINING)


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the host may set in the lobby (labels: web/i18n/<lang>.json)."""

    target: Annotated[int, setting(10, label="settings.tiny.target", ge=3, le=50)] = 10
    turn_seconds: Annotated[int, setting(30, label="settings.tiny.turn_seconds", ge=0, le=300)] = 30


class Add(base.Action, tag="add"):
    """The one move of the game: ``{"type": "add", "amount": 2}``."""

    amount: int


# The game's own actions, and the room's: timeouts, joins, drops, returns, leaves, who hosts,
# a later deadline after a restart.
Action = Add | base.SystemAction


class Phase(enum.Enum):
    PLAYING = "playing"
    ENDED = "ended"


# Which of the game's own actions each phase allows (``apply`` refuses the others).
PHASE_ACTIONS = {Phase.PLAYING: frozenset({Add}), Phase.ENDED: frozenset()}


class Clock(enum.Enum):
    """What the deadline is for (``base.set_clock``); NONE: nothing is timed."""

    NONE = "none"
    TURN = "turn"


class State(msgspec.Struct):
    """Everything about a match; msgspec copies it cheaply, and replaying the log rebuilds it.
    ``phase``, ``clock``, ``deadline``, ``end_reason`` and ``outcome`` are what base's tools
    read and write in every game's state."""

    settings: Settings
    rng: Rng
    seats: list[base.SeatedPlayer]  # in turn order; what every game keeps of a player
    secrets: dict[str, str]
    phase: Phase = Phase.PLAYING
    clock: Clock = Clock.NONE
    deadline: float | None = None
    turn: int = 0  # whose turn it is: an index in ``seats``
    counter: int = 0
    winner: str | None = None
    end_reason: str = ""
    outcome: Outcome | None = None

    @property
    def players(self) -> list[str]:
        """The players' ids, in turn order."""
        return [s.id for s in self.seats]


def start(settings: Settings, players: list[Player], seed: int, now: float, *, public=False):
    """A new match: the seats in lobby order; every random draw comes from ``seed``."""
    base.require_players(len(players), "Tiny", MIN_PLAYERS, MAX_PLAYERS)
    rng = Rng.from_seed(seed)
    secrets = {p.id: rng.choice(SECRETS) for p in players}
    state = State(settings, rng, [base.SeatedPlayer(p.id, p.nickname) for p in players], secrets)
    base.set_clock(state, Clock.TURN, settings.turn_seconds, now)
    return state


# One handler per action: ``(state, seat, action, now, events)``. By the time one runs,
# ``apply`` has checked who sent the action and that the phase allows it, and handed over a
# copy of the state to change; the handler appends what happened to ``events``.


def add(state: State, seat: str, action: Add, now: float, events: list[Event]) -> None:
    """A player adds 1, 2 or 3 to the counter, on their turn."""
    if seat != state.players[state.turn]:
        raise RuleError(base.NOT_YOUR_TURN, "Not your turn.")
    if action.amount not in (1, 2, 3):
        raise RuleError(AMOUNT, "Add 1, 2 or 3.", amount=action.amount)
    _add_for(state, seat, action.amount, now, events)


def timeout(state: State, seat: None, action: base.Timeout, now: float, events) -> None:
    """The turn's time ran out: 1 is added for whoever had it."""
    _add_for(state, state.players[state.turn], 1, now, events)


def _add_for(state: State, seat: str, amount: int, now: float, events: list[Event]) -> None:
    state.counter += amount
    events.append(Event("tiny.added", {"seat": seat, "amount": amount}))
    if state.counter >= state.settings.target:
        _win(state, seat, "target", events)
    else:
        state.turn = (state.turn + 1) % len(state.seats)
        base.set_clock(state, Clock.TURN, state.settings.turn_seconds, now)


def join(state: State, seat: None, action: base.Join, now: float, events) -> None:
    """Tiny refuses latecomers (so it never calls ``SEATS.join``)."""
    raise RuleError(NO_JOINING, "No joining mid-match.")


def drop(state: State, seat: None, action: base.Drop, now: float, events) -> None:
    """A dropped player still plays: their turn comes, and times out, as before."""
    SEATS.drop(state, action, events)


def return_(state: State, seat: None, action: base.Return, now: float, events) -> None:
    SEATS.return_(state, action, events)


def leave(state: State, seat: None, action: base.Leave, now: float, events) -> None:
    """With one player left ``SEATS.leave`` ends the match (too few); with two, so does Tiny."""
    if SEATS.leave(state, action, events) is not None:
        end_match(state, "player_left", events)


def end_match(state: State, reason: str, events: list[Event]) -> None:
    """The match ends before anyone reached the target: the first player still here wins."""
    _win(state, next(s.id for s in state.seats if not s.left), reason, events)


def _win(state: State, seat: str, reason: str, events: list[Event]) -> None:
    state.phase, state.winner = Phase.ENDED, seat
    for player in state.seats:
        player.score = 1 if player.id == seat else 0
    ranking = base.rank((s.id, s.nickname, s.score) for s in state.seats)
    base.finish_match(state, reason, ranking, events)


SEATS: base.Seating[State, base.SeatedPlayer] = base.Seating(
    lambda state: state.seats, MIN_PLAYERS, MAX_PLAYERS, Phase.ENDED, end_match
)
HANDLERS: dict[type, base.Handler] = {
    Add: add,
    base.Timeout: timeout,
    base.Join: join,
    base.Drop: drop,
    base.Return: return_,
    base.Leave: leave,
    base.Host: base.ignore,
}
# apply(state, seat, action, now, *, judge_text=True) -> (new state, events), or RuleError
# and nothing changed. Tiny has no free text to judge, so ``judge_text`` changes nothing here.
apply = base.apply_with(HANDLERS, PHASE_ACTIONS, SEATS)
deadline = base.deadline
outcome = base.outcome


def view(state: State, seat: str | None) -> dict:
    """What ``seat`` (None: a spectator) may see: only its own secret word. ``you``,
    ``players``, ``waiting_for`` and ``ranking`` are the names the generic screen and the
    room's sounds read, so they work for this game too."""
    turn = state.players[state.turn]
    playing = state.phase is Phase.PLAYING
    return {
        "game": NAME,
        "counter": state.counter,
        "target": state.settings.target,
        "turn": turn,
        "deadline": state.deadline,
        "winner": state.winner,
        "secret": state.secrets.get(seat) if seat is not None else None,
        "online": {s.id: s.online for s in state.seats},
        "you": _you(state, seat, "add" if playing and seat == turn else None),
        "players": [base.seat_view(s) for s in state.seats],
        "waiting_for": [turn] if playing else [],
        "ranking": base.podium(state.outcome),
    }


def _you(state: State, seat: str | None, to_do: str | None) -> dict:
    player = SEATS.find(state, seat)
    if player is None:
        return base.you(seat)  # a spectator's
    return base.you(player.id, "player", may_chat(state, player.id), to_do)


def blobs(state: State, seat: str | None, known: frozenset | set = frozenset()) -> dict:
    """Each player's secret also travels as a blob, seen by its owner only."""
    key = f"secret:{seat}"
    return {key: state.secrets[seat]} if seat in state.secrets and key not in known else {}


def may_chat(state: State, seat: str) -> bool:
    """Whose turn it is may not chat (to show the room greying out the chat box)."""
    return state.phase is Phase.ENDED or seat != state.players[state.turn]
