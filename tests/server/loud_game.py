"""A test game whose every view is large: "Shout". Anyone may shout at any time; each push
carries a big new echo, so a client that stops reading falls behind within a few moves."""

from __future__ import annotations

import msgspec

from tertulia.games import base
from tertulia.games.base import Event, Outcome, Player, RuleError

NAME = "loud"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
ECHO_BYTES = 300_000


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Shout(base.Action, tag="shout"):
    pass


Action = Shout | base.Timeout | base.Join | base.Drop | base.Return | base.Leave | base.Host


class State(msgspec.Struct):
    players: list[str]
    shouts: int = 0
    deadline: float | None = None


def start(settings: Settings, players: list[Player], seed: int, now: float, *, public=False):
    return State([p.id for p in players])


def apply(
    state: State, seat: str | None, action: base.Action, now: float, *, judge_text: bool = True
):
    # judge_text: this game has no free text to judge (base.py).
    new = base.clone(state)
    if isinstance(action, Shout):
        if seat not in state.players:
            raise RuleError(base.NOT_A_PLAYER, "Not playing.")
        new.shouts += 1
        return new, [Event("loud.shouted", {"seat": seat})]
    if isinstance(action, base.Timeout):
        raise RuleError(base.EARLY_TIMEOUT, "Nothing is timed.")
    return new, []


def deadline(state: State) -> float | None:
    return None


def view(state: State, seat: str | None) -> dict:
    # A new echo with every shout: each push carries all of it again, even as a patch.
    return {"game": NAME, "shouts": state.shouts, "echo": str(state.shouts % 10) * ECHO_BYTES}


def may_chat(state: State, seat: str) -> bool:
    return True


def outcome(state: State) -> Outcome | None:
    return None
