"""Tiny: "Count to ten", the example game of ``docs/adding-a-game.md`` (and the tests' game).

2–3 players take turns adding 1, 2 or 3 to a shared counter; whoever reaches 10 wins. Each
player also holds a secret word only they may see, and the player whose turn it is may not
chat. A turn lasts 30 seconds; on time-out the counter goes up by 1 for them. Late joiners are
refused, so they become spectators.

The whole engine is this one file: the contract of ``games/base.py``, nothing more. Copied to
``src/tertulia/games/<name>/__init__.py`` it is a game the server finds by itself.
"""

from __future__ import annotations

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
# games.tiny.errors.<code> (web/i18n/games/tiny/<lang>.json).
AMOUNT = "tiny.amount"  # an amount that is not 1, 2 or 3
NO_JOINING = "seat.no_joining"  # a latecomer: the room makes them a spectator
ERRORS = (AMOUNT, NO_JOINING)


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the host may set in the lobby (labels: web/i18n/games/tiny/<lang>.json)."""

    target: Annotated[int, setting(10, label="settings.tiny.target", ge=3, le=50)] = 10
    turn_seconds: Annotated[int, setting(30, label="settings.tiny.turn_seconds", ge=0, le=300)] = 30


class Add(base.Action, tag="add"):
    """The one move of the game: ``{"type": "add", "amount": 2}``."""

    amount: int


Action = (
    Add | base.Timeout | base.Join | base.Drop | base.Return | base.Leave | base.Host | base.Extend
)


class State(msgspec.Struct):
    """Everything about a match; msgspec copies it cheaply, and replaying the log rebuilds it."""

    settings: Settings
    rng: Rng
    players: list[str]
    names: dict[str, str]
    secrets: dict[str, str]
    online: dict[str, bool]
    turn: int = 0
    counter: int = 0
    deadline: float | None = None
    winner: str | None = None
    outcome: Outcome | None = None


def start(settings: Settings, players: list[Player], seed: int, now: float, *, public=False):
    """A new match: the seats in lobby order; every random draw comes from ``seed``."""
    base.require_players(len(players), "Tiny", MIN_PLAYERS, MAX_PLAYERS)
    rng = Rng.from_seed(seed)
    secrets = {p.id: rng.choice(SECRETS) for p in players}
    state = State(
        settings,
        rng,
        [p.id for p in players],
        {p.id: p.nickname for p in players},
        secrets,
        {p.id: True for p in players},
    )
    _clock(state, now)
    return state


def _clock(state: State, now: float) -> None:
    seconds = state.settings.turn_seconds
    state.deadline = now + seconds if seconds and state.winner is None else None


def apply(
    state: State, seat: str | None, action: base.Action, now: float, *, judge_text: bool = True
):
    """The state after ``seat`` (None: the room) does ``action`` at ``now``, and its events;
    or ``RuleError``, and nothing changed. Never reads a clock or a global random number.
    ``judge_text=False`` (a replayed move) would skip judging free text: Tiny has none."""
    if isinstance(action, base.Extend):  # the shared handling, as every game's apply does
        if seat is not None:
            raise RuleError(base.ROOM_ONLY, "Room only.")
        return base.extend(state, action)
    new = base.clone(state)
    events: list[Event] = []
    if state.winner is not None and not isinstance(action, (base.Drop, base.Return, base.Leave)):
        raise RuleError(base.MATCH_OVER, "Over.")
    if isinstance(action, Add):
        if seat not in state.players:
            raise RuleError(base.NOT_A_PLAYER, "Not playing.")
        if seat != state.players[state.turn]:
            raise RuleError(base.NOT_YOUR_TURN, "Not your turn.")
        if action.amount not in (1, 2, 3):
            raise RuleError(AMOUNT, "Add 1, 2 or 3.", amount=action.amount)
        _add(new, seat, action.amount, now, events)
    elif isinstance(action, base.Timeout):
        if seat is not None:
            raise RuleError(base.ROOM_ONLY, "Room only.")
        if state.deadline is None or now < state.deadline:
            raise RuleError(base.EARLY_TIMEOUT, "Not yet.")
        _add(new, state.players[state.turn], 1, now, events)
    elif isinstance(action, base.Join):
        raise RuleError(NO_JOINING, "No joining mid-match.")
    elif isinstance(action, (base.Drop, base.Return)):
        new.online[action.player] = isinstance(action, base.Return)
    elif isinstance(action, base.Leave) and action.player in new.players and new.winner is None:
        new.winner = next(p for p in new.players if p != action.player)
        _finish(new, events)
    return new, events


def _add(state: State, seat: str, amount: int, now: float, events: list[Event]) -> None:
    state.counter += amount
    events.append(Event("tiny.added", {"seat": seat, "amount": amount}))
    if state.counter >= state.settings.target:
        state.winner = seat
        _finish(state, events)
    else:
        state.turn = (state.turn + 1) % len(state.players)
    _clock(state, now)


def _finish(state: State, events: list[Event]) -> None:
    rows = [(p, state.names[p], 1 if p == state.winner else 0) for p in state.players]
    state.outcome = Outcome(base.rank(rows), "target")
    state.deadline = None
    events.append(Event("match.ended", {"winners": [state.winner]}))


def deadline(state: State) -> float | None:
    return state.deadline


def view(state: State, seat: str | None) -> dict:
    """What ``seat`` (None: a spectator) may see: only its own secret word. ``you``,
    ``players``, ``waiting_for`` and ``ranking`` are the names the generic screen and the
    room's sounds read, so they work for this game too."""
    turn = state.players[state.turn]
    playing = state.winner is None
    return {
        "game": NAME,
        "counter": state.counter,
        "target": state.settings.target,
        "turn": turn,
        "deadline": state.deadline,
        "winner": state.winner,
        "secret": state.secrets.get(seat) if seat is not None else None,
        "online": dict(state.online),
        "you": {
            "role": "player" if seat in state.secrets else "spectator",
            "to_do": "add" if playing and seat == turn else None,
            "may_chat": seat is not None and may_chat(state, seat),
        },
        "players": [
            {"id": p, "nickname": state.names[p], "online": state.online[p]} for p in state.players
        ],
        "waiting_for": [turn] if playing else [],
        "ranking": base.podium(state.outcome),
    }


def blobs(state: State, seat: str | None, known: frozenset | set = frozenset()) -> dict:
    """Each player's secret also travels as a blob, seen by its owner only."""
    key = f"secret:{seat}"
    return {key: state.secrets[seat]} if seat in state.secrets and key not in known else {}


def may_chat(state: State, seat: str) -> bool:
    """Whose turn it is may not chat (to show the room greying out the chat box)."""
    return state.winner is not None or seat != state.players[state.turn]


def outcome(state: State) -> Outcome | None:
    return state.outcome
