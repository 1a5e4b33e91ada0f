"""What goes into a game's ``apply`` and what comes out: actions, and events.

A game's ``Action`` union is its own actions (subclasses of ``Action``) ``| SystemAction``,
the room's: timeouts, joins, drops, returns, leaves, who hosts, a later deadline. ``apply``
answers with ``Event``s, which every seat may learn; secrets travel only in views.
"""

from __future__ import annotations

import functools
import typing
from typing import Any

import msgspec


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """Base of every action; the ``type`` field carries the tag on the wire."""


class Timeout(Action, tag="timeout", frozen=True):
    """The room's clock reached ``deadline(state)``; sent with ``seat=None`` and ``now`` >= it."""


class Join(Action, tag="join", frozen=True):
    """A player joins a running match (the game decides where they fit)."""

    player: str
    nickname: str


class Drop(Action, tag="drop", frozen=True):
    """A player's last connection closed; they may come back."""

    player: str


class Return(Action, tag="return", frozen=True):
    """A dropped player is connected again, to the same seat."""

    player: str


class Leave(Action, tag="leave", frozen=True):
    """A player left for good (or was removed by the host)."""

    player: str


class Host(Action, tag="host", frozen=True):
    """Who hosts the room now (sent at the start and whenever hosting passes on). Games that
    let the host decide something during a match use it; the others ignore it."""

    player: str | None


class Extend(Action, tag="extend", frozen=True):
    """The room moves the current deadline later, to ``until`` (never earlier; no deadline
    stays none). A restarted server sends it for a clock that ran out, or nearly, while it was
    down: nobody could act then. Handled once for every game (``extend``, in ``apply_with``),
    logged like any move, so a replay moves the deadline the same way without reading the
    clock."""

    until: float


# The room's actions: a game's ``Action`` union is its own actions ``| SystemAction``.
SystemAction = Timeout | Join | Drop | Return | Leave | Host | Extend
SYSTEM_ACTIONS: tuple[type[Action], ...] = typing.get_args(SystemAction)


class Event(msgspec.Struct, frozen=True):
    """Something that happened, for the room's log, animations and sounds.

    Events are public: every seat may learn them. Secrets travel only in ``view``.
    """

    kind: str
    data: dict[str, Any] = {}


def decode_action(action_type: Any, raw: Any) -> Any:
    """``msgspec.convert(raw, action_type)``: the same result and the same errors, without
    the cost. Given a union (every game's ``Action``), ``convert`` works out the union's
    type information again on every call (~10 µs, a fifth of a move's fold); converting to
    the one struct the tag names costs ~0.2 µs. Anything unusual (no tag, an unknown one)
    takes the slow path, which words the refusal."""
    if isinstance(raw, dict):
        try:
            struct = _structs_by_tag(action_type).get(raw.get("type"))
        except TypeError:  # an unhashable tag: not ours
            struct = None
        if struct is not None:
            return msgspec.convert(raw, struct)
    return msgspec.convert(raw, action_type)


@functools.cache
def _structs_by_tag(action_type: Any) -> dict[Any, type[msgspec.Struct]]:
    members = typing.get_args(action_type)
    return {
        m.__struct_config__.tag: m
        for m in members
        if isinstance(m, type)
        and issubclass(m, msgspec.Struct)
        and m.__struct_config__.tag_field == "type"
    }
