"""The checks every move passes, then the game's handler: ``apply_with`` builds a game's
``apply`` from its handlers (one per action), the actions each phase allows and its seats.

The ladder (``check_and_apply``): the room's actions only from the room, a timeout only once
due, ``Extend`` handled here for every game; a game's own actions only from a seated player
who has not left, before the end, in a phase that allows them. The handler changes a copy of
the state, so a ``RuleError`` anywhere leaves the caller's state untouched. The copy is
``clone`` (whole and deep) unless a game gives its own (``apply_with(copy=...)``): Pitacor's
copies only what an action may change and shares the rest, its filed rounds above all.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import msgspec

from ._actions import SYSTEM_ACTIONS, Action, Event, Extend, Timeout
from ._errors import EARLY_TIMEOUT, MATCH_OVER, NOT_A_PLAYER, ROOM_ONLY, WRONG_PHASE, RuleError
from ._match import M
from ._seating import Seating, is_playing

T = TypeVar("T")


def clone(state: T) -> T:
    """A deep, independent copy of a msgspec state (a msgpack round trip: fast and exact)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state))


# A game's handler of one action: ``(state, seat, action, now, events) -> None``. It changes the
# state (a copy) in place, appends what happened to ``events``, or raises ``RuleError``.
Handler = Callable[..., None]


def check_and_apply(
    state: M,
    seat: str | None,
    action: Action,
    now: float,
    *,
    handlers: Mapping[type, Handler],
    allowed: frozenset[type],
    ended: bool,
    playing: bool,
    copy: Callable[[M], M] = clone,
) -> tuple[M, list[Event]]:
    """The ladder every game's ``apply`` climbs, then the handler, on a copy of the state.

    Room actions only from the room (a timeout only once its deadline has come; an extension is
    handled here, the same for every game); a game's own actions only from a seated player,
    before the end, in a phase that ``allowed`` lists. The handler changes the copy (made by
    ``copy``: all the handlers may change must be new in it); a ``RuleError`` anywhere leaves
    the caller's state untouched.
    """
    if isinstance(action, SYSTEM_ACTIONS):
        if seat is not None:
            raise RuleError(ROOM_ONLY, "Only the room may send this action.")
        if isinstance(action, Timeout) and (state.deadline is None or now < state.deadline):
            raise RuleError(EARLY_TIMEOUT, "Nothing has timed out yet.")
        if isinstance(action, Extend):
            return extend(state, action, copy)
    else:
        if type(action) not in handlers:
            raise RuleError("action.unknown", "This game has no such action.")
        if ended:
            raise RuleError(MATCH_OVER, "The match is over.")
        if not playing:
            raise RuleError(NOT_A_PLAYER, "You are not playing in this match.")
        if type(action) not in allowed:
            raise RuleError(WRONG_PHASE, "That can't be done at this point of the game.")
    new = copy(state)
    events: list[Event] = []
    handlers[type(action)](new, seat, action, now, events)
    return new, events


def same(state: T) -> T:
    """No copy: the ``copy`` of a replay that changes its state in place (``in_place``)."""
    return state


def extend(state: M, action: Extend, copy: Callable[[M], M] = clone) -> tuple[M, list[Event]]:
    """``Extend`` for any game whose state keeps its ``deadline``: the deadline moves to
    ``action.until`` if that is later, on a copy; whatever the clock is for (a clue, a guess, a
    reveal, a wait for someone) stays as it was. Games that derive something from the
    deadline do so when they need it (Pitacor's paused clue clock), so they see the new one."""
    new = copy(state)
    if state.deadline is None or not action.until > state.deadline:  # (a NaN moves nothing)
        return new, []
    new.deadline = action.until
    return new, [Event("clock.extended", {"until": action.until})]


def apply_with(
    handlers: Mapping[type, Handler],
    phase_actions: Mapping[Any, frozenset[type]],
    seats: Seating[M, Any],
    *,
    judging: Iterable[type] = (),
    copy: Callable[[M], M] = clone,
) -> Callable[..., tuple[M, list[Event]]]:
    """A game's ``apply``: every game climbs the same ladder (``check_and_apply``) with its own
    handlers and the actions each phase allows; its ``seats`` say when the match is over and
    who plays (a seat ``find`` finds that has not left). ``judging``: the actions whose
    handler judges free text (a clue, a title); that handler takes the keyword
    ``judge_text`` (True by default), which ``apply(..., judge_text=False)`` turns off.
    ``copy``: how the state is copied before a handler changes it (``check_and_apply``)."""
    if not set(judging) <= set(handlers):
        raise ValueError(f"expected judging actions among the handlers, got {judging!r}")
    trusting = {
        kind: functools.partial(handler, judge_text=False) if kind in judging else handler
        for kind, handler in handlers.items()
    }

    def apply(
        state: M,
        seat: str | None,
        action: Action,
        now: float,
        *,
        judge_text: bool = True,
        in_place: bool = False,
    ) -> tuple[M, list[Event]]:
        """The new state after ``seat`` (None: the room) does ``action`` at ``now``, and its
        events. ``judge_text=False``: a replayed move, whose text is not judged again.
        ``in_place``: a replay of a state nobody else holds, changed instead of copied (a
        restart folds up to 99 moves a room, and the copy was most of a move's cost); after a
        ``RuleError`` it may be half-changed, and the caller must throw it away."""
        return check_and_apply(
            state,
            seat,
            action,
            now,
            handlers=handlers if judge_text else trusting,
            allowed=phase_actions[state.phase],
            ended=state.phase is seats.ended,
            playing=is_playing(seats.find(state, seat)),
            copy=same if in_place else copy,
        )

    return apply


def ignore(state: Any, seat: str | None, action: Action, now: float, events: list[Event]) -> None:
    """The handler of a room action a game has no use for (``Host``, in most games)."""
