"""The contract every game implements, and the small tools the games share.

A game is pure: ``apply(state, seat, action, now)`` returns a new state and the events it
caused, or raises ``RuleError`` and leaves the state exactly as it was. Games never read the
clock, never touch a global RNG, never do I/O. Time comes in as ``now`` (seconds, a float the
room supplies and logs), randomness from a ``Rng`` stored inside the state. So a match is a
pure fold of its action log, and replaying the log rebuilds the state exactly.

One input changes between versions: the word lists free text is judged by (profanity). So
``apply`` takes ``judge_text``: False when the room replays its log, where a clue or a title
was accepted once and must stay accepted (one saved word a newer list refuses would drop that
move, and every move after it that depended on it). A game judges free text only when it is
True (``apply_with``'s ``judging``).

Shape of a game module (see ``games/pitacor`` for the first one)::

    NAME, MIN_PLAYERS, MAX_PLAYERS
    Settings                      msgspec Struct; every field has a default and bounds
    Action                        tagged union: the game's actions | SystemAction (the room's)
    start(settings, players, seed, now, *, public) -> State
    apply(state, seat, action, now, *, judge_text=True) -> (State, list[Event])
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

How a game is written with the tools below (every game here is; ``tests/server/tiny_game.py``
is the smallest example):

- ``apply = apply_with(handlers, phase_actions, SEATS)``: the checks every move passes
  (``check_and_apply``), then the game's handler for the action on a copy of the state. A
  handler ``(state, seat, action, now, events)`` changes the copy and appends its events.
- ``SEATS = Seating(players, min_players, max_players, ended, end_match)``: where the state
  lists its players, the ended phase, and the game's ``end_match(state, reason, events)``.
  Its ``join``, ``drop``, ``return_`` and ``leave`` find the seat, refuse with the shared
  codes, mark the player, tell everyone, end the match when a leave leaves too few players
  (reason ``TOO_FEW_PLAYERS``), and return the player, or None when there is nothing more to
  do. The game's handler then does what its own rules say: where a joiner fits, whose turn
  passes, who is no longer waited for. A game that refuses latecomers raises its own code.
- ``set_clock``, ``finish_match``, ``deadline``, ``outcome``, ``ignore``, ``rank``,
  ``seat_view``, ``you``: the clock, the end, a room action a game has no use for, and the
  views' common parts, the same in every game.

The fields these tools read and write are typed protocols that a game's types satisfy
structurally (a type checker can verify it; ``tests/games/test_base.py`` checks each game's
annotations):

- the state, ``MatchState``: ``phase`` (the game's ``Phase`` enum, read only: it picks the
  actions allowed now, and ``Seating.ended`` is one of its members), ``deadline``
  (``float | None``: when the room sends a ``Timeout``; ``extend`` moves it) and ``outcome``
  (``Outcome | None``); ``TimedState``, for ``set_clock`` and ``finish_match``, adds ``clock``
  (the game's ``Clock`` enum, with a ``NONE`` member: what the deadline is for) and
  ``end_reason`` (``str``);
- a player, ``Seat``: ``id`` and ``nickname`` (``str``), ``online`` (connected now: ``Drop``
  clears it, ``Return`` sets it) and ``left`` (gone for good: still listed with their score,
  but playing no more and not counted); ``Scored`` adds ``score`` (``int``). A game's player
  type extends ``SeatedPlayer``, which has these five, with its own fields.

A player is found by ``Seating.find(state, seat)``: the one in the state's list whose ``id``
is the seat, also after they have left (None: a spectator, or the room). ``apply_with`` lets
a seat send the game's own actions only if it finds one that has not left.
"""

from __future__ import annotations

import enum
import functools
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

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


# --------------------------------------------------------------------------- what games keep


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


class Seat(Protocol):
    """A player as a game's state lists them, as ``Seating`` and ``apply_with`` read them."""

    id: str  # the public player id, which is the seat
    nickname: str
    online: bool  # connected now: ``Drop`` clears it, ``Return`` sets it
    left: bool  # gone for good: still listed with their score, but playing no more


class Scored(Seat, Protocol):
    """A player of a game that keeps scores (``seat_view`` shows it)."""

    score: int


class SeatedPlayer(msgspec.Struct):
    """``Scored`` as a struct: the fields every game keeps for a player, which a game's own
    player type extends with what its rules need (Pitacor: the round they play from)."""

    id: str
    nickname: str
    score: int = 0
    online: bool = True
    left: bool = False


M = TypeVar("M", bound=MatchState)
P = TypeVar("P", bound=Seat)

TOO_FEW_PLAYERS = "too_few_players"  # the reason a match ends when a leave leaves too few


def is_playing(player: P | None) -> TypeGuard[P]:
    """In the match and not gone for good (a dropped player still plays)."""
    return player is not None and not player.left


def is_here(player: P | None) -> TypeGuard[P]:
    """Playing and connected: someone the match waits for."""
    return player is not None and player.online and not player.left


@dataclass(frozen=True)
class Seating(Generic[M, P]):
    """A game's seats: where its state lists the players, how many it plays with, the phase
    of a finished match and how the game ends one (``end_match(state, reason, events)``).

    With these, players come and go the same way in every game: each method finds the seat
    (``seat.unknown`` if the match never had it), refuses with the shared codes, marks the
    player, tells everyone with an event and returns the player, or None when there is nothing
    more to do. What the game then does about it (whose turn it is now, who is still waited
    for) is its own handler's job; a game that refuses latecomers never calls ``join``.
    """

    players: Callable[[M], list[P]]
    min_players: int
    max_players: int
    ended: enum.Enum
    end_match: Callable[[M, str, list[Event]], None]

    def find(self, state: M, seat: str | None) -> P | None:
        """The player whose id is ``seat``, also after they left; None if the match never had
        them (a spectator, or the room itself)."""
        for player in self.players(state):  # (a loop: the quickest way, on every move)
            if player.id == seat:
                return player
        return None

    def known(self, state: M, seat: str) -> P:
        """The player a room action names; ``seat.unknown`` if the match never had them."""
        player = self.find(state, seat)
        if player is None:
            raise RuleError(UNKNOWN_SEAT, "No such player in this match.", seat=seat)
        return player

    def playing(self, state: M) -> int:
        """How many are still in the match (whether connected or not)."""
        return sum(1 for p in self.players(state) if not p.left)

    def join(
        self,
        state: M,
        action: Join,
        events: list[Event],
        *,
        plays_from: int,
        new: Callable[[str, str], P],
    ) -> P:
        """``action.player`` takes a seat in the running match and plays from round
        ``plays_from``: a newcomer (``new(id, nickname)``) at the end of the list, someone who
        had left in their old place, with their points. Refused once the match is over, for
        someone already in it, and when it is full. Where they fit in the game's own order is
        the game's."""
        if state.phase is self.ended:
            raise RuleError(MATCH_OVER, "The match is over; join the rematch.")
        player = self.find(state, action.player)
        if is_playing(player):
            raise RuleError(ALREADY_SEATED, "You are already in this match.")
        if self.playing(state) >= self.max_players:
            raise RuleError(MATCH_FULL, "This match is full.", max=self.max_players)
        if player is None:
            player = new(action.player, action.nickname)
            self.players(state).append(player)
        else:
            player.left, player.online = False, True
        events.append(Event("player.joined", {"seat": action.player, "plays_from": plays_from}))
        return player

    def drop(self, state: M, action: Drop, events: list[Event]) -> P | None:
        """``action.player``'s last connection closed: they still play, but are not waited
        for. None if they were away already."""
        return self._connected(state, action.player, False, events)

    def return_(self, state: M, action: Return, events: list[Event]) -> P | None:
        """``action.player`` is connected again, to the same seat. None if they were not away."""
        return self._connected(state, action.player, True, events)

    def _connected(self, state: M, seat: str, online: bool, events: list[Event]) -> P | None:
        player = self.known(state, seat)
        if player.online is online:
            return None
        player.online = online
        events.append(Event("player.returned" if online else "player.dropped", {"seat": seat}))
        return player

    def leave(self, state: M, action: Leave, events: list[Event]) -> P | None:
        """``action.player`` left for good: listed still, with their score, but playing no
        more. With fewer than ``min_players`` left the match ends (``TOO_FEW_PLAYERS``).
        Returns the player when the match goes on without them, for the game to move past
        them; None if they had left already or the match is over."""
        player = self.known(state, action.player)
        if player.left:
            return None
        player.left, player.online = True, False
        events.append(Event("player.left", {"seat": action.player}))
        if state.phase is self.ended:
            return None
        if self.playing(state) < self.min_players:
            self.end_match(state, TOO_FEW_PLAYERS, events)
            return None
        return player


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


def ignore(state: Any, seat: str | None, action: Action, now: float, events: list[Event]) -> None:
    """The handler of a room action a game has no use for (``Host``, in most games)."""


def seat_view(player: Scored, **more: Any) -> dict[str, Any]:
    """A player as every game's view lists them, then the game's own keys (``more``)."""
    return {
        "id": player.id,
        "nickname": player.nickname,
        "score": player.score,
        "online": player.online,
        "left": player.left,
        **more,
    }


def you(
    seat: str | None, role: str = "spectator", may_chat: bool = True, to_do: str | None = None
) -> dict[str, Any]:
    """A view's ``you``: the seat's role, and what it is expected to do now (an i18n key
    suffix), if anything. By default, a spectator's."""
    return {"seat": seat, "role": role, "may_chat": may_chat, "to_do": to_do}


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

T = TypeVar("T")


def clone(state: T) -> T:
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
) -> tuple[M, list[Event]]:
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


def extend(state: M, action: Extend) -> tuple[M, list[Event]]:
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
    handlers: Mapping[type, Handler],
    phase_actions: Mapping[Any, frozenset[type]],
    seats: Seating[M, Any],
    *,
    judging: Iterable[type] = (),
) -> Callable[..., tuple[M, list[Event]]]:
    """A game's ``apply``: every game climbs the same ladder (``check_and_apply``) with its own
    handlers and the actions each phase allows; its ``seats`` say when the match is over and
    who plays (a seat ``find`` finds that has not left). ``judging``: the actions whose
    handler judges free text (a clue, a title); that handler takes the keyword
    ``judge_text`` (True by default), which ``apply(..., judge_text=False)`` turns off."""
    if not set(judging) <= set(handlers):
        raise ValueError(f"expected judging actions among the handlers, got {judging!r}")
    trusting = {
        kind: functools.partial(handler, judge_text=False) if kind in judging else handler
        for kind, handler in handlers.items()
    }

    def apply(
        state: M, seat: str | None, action: Action, now: float, *, judge_text: bool = True
    ) -> tuple[M, list[Event]]:
        """The new state after ``seat`` (None: the room) does ``action`` at ``now``, and its
        events. ``judge_text=False``: a replayed move, whose text is not judged again."""
        return check_and_apply(
            state,
            seat,
            action,
            now,
            handlers=handlers if judge_text else trusting,
            allowed=phase_actions[state.phase],
            ended=state.phase is seats.ended,
            playing=is_playing(seats.find(state, seat)),
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
