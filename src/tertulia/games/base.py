"""The contract every game implements, and the small tools the games share.

A game is pure: ``apply(state, seat, action, now)`` returns a new state and the events it
caused, or raises ``RuleError`` and leaves the state exactly as it was. Games never read the
clock, never touch a global RNG, never do I/O. Time comes in as ``now`` (seconds, a float the
room supplies and logs), randomness from a ``Rng`` stored inside the state. So a match is a
pure fold of its action log, and replaying the log rebuilds the state exactly.

Shape of a game module (see ``games/pitacor`` for the first one)::

    NAME, MIN_PLAYERS, MAX_PLAYERS
    Settings                      msgspec Struct; every field has a default and bounds
    Action                        tagged union: the game's actions | SystemAction (the room's)
    start(settings, players, seed, now, *, public) -> State
    apply(state, seat, action, now) -> (State, list[Event])
    deadline(state) -> float | None
    view(state, seat | None) -> dict     (None: a spectator)
    may_chat(state, seat) -> bool
    outcome(state) -> Outcome | None     (None while the match runs)
    views_for(state, seats) -> {seat: view}  (optional: several views at once, sharing work)
    static_data() -> dict                (optional: public data that never changes, such as
                                          a board's colours, served once at /api/games)
    views_changed_by(seat, action) -> frozenset[str] | None
                                         (optional: the only seats whose views this accepted
                                          action can change, when that is not everyone's;
                                          None: anyone's. The room then rebuilds only those.)
    blobs(state, seat, known) -> {key: value}
                                         (optional: large unchanging parts of a view, such as
                                          drawings, sent once per connection; build only the
                                          keys not in ``known``, which that connection has)

Seats are the players' public ids (strings). ``seat=None`` in ``apply`` means the room itself:
timeouts, joins, drops, leaves and clock extensions are ordinary actions sent by the room, so
they are logged and replayed like any move.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

import msgspec

# --------------------------------------------------------------------------- errors


class RuleError(Exception):
    """A move the rules forbid: the player's fault, expected, answered with ``code``.

    ``code`` is a stable dotted string (``clue.color_name``, ``marker.cell_taken``) that the
    client translates; ``params`` fill the translated sentence (``{"word": "reddish"}``).
    The English ``message`` is for logs and for clients without a translation.
    """

    def __init__(self, code: str, message: str = "", /, **params: Any) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
        self.params = params

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


# Codes every game may raise; each game adds its own in its rules module.
NOT_YOUR_TURN = "action.not_your_turn"  # another seat must act now
WRONG_PHASE = "action.wrong_phase"  # the action exists, but not at this moment
NOT_A_PLAYER = "action.not_a_player"  # the seat is not playing this match (spectator)
MATCH_OVER = "action.match_over"  # the match has ended
ROOM_ONLY = "action.room_only"  # only the room (seat=None) may send this action
EARLY_TIMEOUT = "timeout.early"  # a timeout before the deadline, or with no deadline
UNKNOWN_SEAT = "seat.unknown"  # a system action names a seat the match does not know
ALREADY_SEATED = "seat.already_seated"  # a join for someone already in the match
MATCH_FULL = "seat.match_full"  # no seat left; the room makes the newcomer a spectator


# --------------------------------------------------------------------------- actions


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """Base of every action; the ``type`` field carries the tag on the wire."""


class Timeout(Action, tag="timeout"):
    """The room's clock reached ``deadline(state)``; sent with ``seat=None`` and ``now`` >= it."""


class Join(Action, tag="join"):
    """A player joins a running match (the game decides where they fit)."""

    player: str
    nickname: str


class Drop(Action, tag="drop"):
    """A player's last connection closed; they may come back."""

    player: str


class Return(Action, tag="return"):
    """A dropped player is connected again, to the same seat."""

    player: str


class Leave(Action, tag="leave"):
    """A player left for good (or was removed by the host)."""

    player: str


class Host(Action, tag="host"):
    """Who hosts the room now (sent at the start and whenever hosting passes on). Games that
    let the host decide something during a match use it; the others ignore it."""

    player: str | None


class Extend(Action, tag="extend"):
    """The room moves the current deadline later, to ``until`` (never earlier; no deadline
    stays none). A restarted server sends it for a clock that ran out, or nearly, while it was
    down: nobody could act then. Handled here once for every game (``extend``), logged like
    any move, so a replay moves the deadline the same way without reading the clock."""

    until: float


# The room's actions: a game's ``Action`` union is its own actions ``| SystemAction``.
SystemAction = Timeout | Join | Drop | Return | Leave | Host | Extend
SYSTEM_ACTIONS: tuple[type[Action], ...] = typing.get_args(SystemAction)


# --------------------------------------------------------------------------- events, outcome


class Event(msgspec.Struct, frozen=True):
    """Something that happened, for the room's log, animations and sounds.

    Events are public: every seat may learn them. Secrets travel only in ``view``.
    """

    kind: str
    data: dict[str, Any] = {}


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


class Player(msgspec.Struct, frozen=True):
    """A seat handed to ``start``: public id plus the nickname shown to others."""

    id: str
    nickname: str


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


def require_players(count: int, game: str, lowest: int, highest: int) -> None:
    """Refuse to start a match with too few or too many players."""
    if not lowest <= count <= highest:
        raise RuleError(
            "match.player_count",
            f"{game} needs {lowest} to {highest} players.",
            min=lowest,
            max=highest,
            count=count,
        )


def podium(outcome: Outcome | None) -> list[dict[str, Any]] | None:
    """The ranking as views send it (None while the match runs)."""
    if outcome is None:
        return None
    return [msgspec.structs.asdict(placing) for placing in outcome.ranking]


# --------------------------------------------------------------------------- randomness


_MASK64 = (1 << 64) - 1


class Rng(msgspec.Struct):
    """SplitMix64: a tiny, fast generator whose whole state is one integer.

    It lives inside a game's state, so the state can be copied, stored and compared, and a
    replay draws exactly the same numbers. Not for cryptography.
    """

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK64)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"expected n > 0, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[Any]) -> Any:
        return items[self.below(len(items))]


# --------------------------------------------------------------------------- helpers

S = TypeVar("S", bound=msgspec.Struct)


def clone(state: S) -> S:
    """A deep, independent copy of a msgspec state (a msgpack round trip: fast and exact)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state))


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


def check_and_apply(
    state: Any,
    seat: str | None,
    action: Action,
    now: float,
    *,
    handlers: dict[type, Callable[..., None]],
    allowed: frozenset[type],
    ended: bool,
    playing: bool,
) -> tuple[Any, list[Event]]:
    """The ladder every game's ``apply`` climbs, then the handler, on a copy of the state.

    Room actions only from the room (a timeout only once its deadline has come; an extension is
    handled here, the same for every game); a game's own actions only from a seated player,
    before the end, in a phase that ``allowed`` lists. The handler changes the copy; a
    ``RuleError`` anywhere leaves the caller's state untouched.
    """
    if isinstance(action, SYSTEM_ACTIONS):
        if seat is not None:
            raise RuleError(ROOM_ONLY, "Only the room may send this action.")
        if isinstance(action, Timeout) and (state.deadline is None or now < state.deadline):
            raise RuleError(EARLY_TIMEOUT, "Nothing has timed out yet.")
        if isinstance(action, Extend):
            return extend(state, action)
    else:
        if type(action) not in handlers:
            raise RuleError("action.unknown", "This game has no such action.")
        if ended:
            raise RuleError(MATCH_OVER, "The match is over.")
        if not playing:
            raise RuleError(NOT_A_PLAYER, "You are not playing in this match.")
        if type(action) not in allowed:
            raise RuleError(WRONG_PHASE, "That can't be done at this point of the game.")
    new = clone(state)
    events: list[Event] = []
    handlers[type(action)](new, seat, action, now, events)
    return new, events


def extend(state: Any, action: Extend) -> tuple[Any, list[Event]]:
    """``Extend`` for any game whose state keeps its ``deadline``: the deadline moves to
    ``action.until`` if that is later, on a copy; whatever the clock is for (a clue, a guess, a
    reveal, a wait for someone) stays as it was. Games that derive something from the
    deadline do so when they need it (Pitacor's paused clue clock), so they see the new one."""
    new = clone(state)
    if state.deadline is None or not action.until > state.deadline:  # (a NaN moves nothing)
        return new, []
    new.deadline = action.until
    return new, [Event("clock.extended", {"until": action.until})]


def apply_with(
    handlers: dict[type, Callable[..., None]],
    phase_actions: Mapping[Any, frozenset[type]],
    ended_phase: Any,
    find: Callable[[Any, str | None], Any],
) -> Callable[[Any, str | None, Action, float], tuple[Any, list[Event]]]:
    """A game's ``apply``: every game climbs the same ladder (``check_and_apply``) with its own
    handlers, the actions each phase allows, the phase that ends a match and the way it finds a
    seated player (who may have left)."""

    def apply(state: Any, seat: str | None, action: Action, now: float):
        """The new state after ``seat`` (None: the room) does ``action`` at ``now``, and its
        events."""
        player = find(state, seat)
        return check_and_apply(
            state,
            seat,
            action,
            now,
            handlers=handlers,
            allowed=phase_actions[state.phase],
            ended=state.phase is ended_phase,
            playing=player is not None and not player.left,
        )

    return apply


def settings_schema(settings_type: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema the lobby builds its settings form from.

    Choices (enums) are written into each field (``enum`` beside ``x-label``) instead of
    behind a ``$ref``, so the browser reads one flat object per field.
    """
    schema = msgspec.json.schema(settings_type)
    defs = schema.get("$defs", {})
    for field in defs.get(settings_type.__name__, {}).get("properties", {}).values():
        ref = field.pop("$ref", None)
        if ref is not None:
            field.update(
                {k: v for k, v in defs[ref.rsplit("/", 1)[-1]].items() if k in ("enum", "type")}
            )
    return schema


def setting(
    default: Any,
    *,
    label: str,
    ge: float | None = None,
    le: float | None = None,
    advanced: bool = False,
    in_public_rooms: Any = None,
) -> Any:
    """Metadata for one settings field: bounds, its i18n label key, basic or advanced part.

    Use as ``goal: Annotated[int, setting(25, label=..., ge=5, le=100)] = 25``; the default is
    repeated in the schema so the lobby can show and restore it. ``in_public_rooms``: the value
    the game uses in a public room whatever the host chose (the form shows it, locked).
    """
    extra: dict[str, Any] = {"x-label": label, "x-advanced": advanced, "default": default}
    if in_public_rooms is not None:
        extra["x-public"] = in_public_rooms
    return msgspec.Meta(ge=ge, le=le, extra_json_schema=extra)


class Game(Protocol):
    """What the room needs from a game module (a module satisfies it structurally)."""

    NAME: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    Settings: type[msgspec.Struct]
    Action: Any
    State: type[msgspec.Struct]
    start: Callable[..., Any]
    apply: Callable[..., tuple[Any, list[Event]]]
    deadline: Callable[[Any], float | None]
    view: Callable[[Any, str | None], dict[str, Any]]
    may_chat: Callable[[Any, str], bool]
    outcome: Callable[[Any], Outcome | None]
