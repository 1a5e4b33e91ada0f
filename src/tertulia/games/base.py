"""The contract every game implements, and the one module games import for the shared tools.

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

A game is a folder, ``games/<name>/``, found by looking (``games/__init__.py``); its name is
the folder's. Shape of a game package (see ``games/pitacor`` for the first one, and
``docs/examples/tiny/`` for the smallest, which ``docs/adding-a-game.md`` walks through)::

    NAME                          the folder's name: ``__name__.rpartition(".")[2]``
    MIN_PLAYERS, MAX_PLAYERS
    VERSION                       (optional) an int, raised when the game changes how a
                                  match starts (a draw): the room logs it with the start
                                  and replays pass it back, ``start(..., version=n)``, so
                                  old logs start as they did (0: logged before versions)
    ORDER                         (optional) where it stands in lists of games, lower first;
                                  without one, after every game with one; a tie by name
    ERRORS                        every code its rules refuse with beyond the platform's
                                  (below), which the client words from the game's own
                                  translations (``games.<name>.errors.<code>``); the tests
                                  check it against the source
    Settings                      msgspec Struct; every field has a default and bounds
    Action                        tagged union: the game's actions | SystemAction (the room's)
    start(settings, players, seed, now, *, public) -> State
    apply(state, seat, action, now, *, judge_text=True, in_place=False) -> (State, list[Event])
                                  (``in_place``, optional: a replay's, whose state may be
                                  changed instead of copied; ``apply_with`` gives it)
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
    verdicts(state, seat, action) -> Action
                                         (optional: the move with the game's judge's verdict
                                          on its free text written in, such as a Pintó
                                          interpretation's mark; the live room calls it before
                                          logging and folding a move, so replay reuses the
                                          verdict and never asks a judge that may have changed)
    bot/                          (optional) its computer player: ``bot.decide`` is a
                                  ``Bot`` (``_bot.py``), which ``bots/`` runs
    blobs(state, seat, known) -> {key: value}
                                         (optional: large unchanging parts of a view, such as
                                          drawings, sent once per connection; build only the
                                          keys not in ``known``, which that connection has)

Seats are the players' public ids (strings). ``seat=None`` in ``apply`` means the room itself:
timeouts, joins, drops, leaves and clock extensions are ordinary actions sent by the room, so
they are logged and replayed like any move.

How a game is written with the shared tools (every game here is; the example in
``docs/examples/tiny/`` is the smallest):

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

Games import this module (``from tertulia.games import base``) and nothing else of the
platform. The tools live beside it in modules by job, gathered here:

- ``_errors``: ``RuleError`` and the codes the platform refuses with in every game;
- ``_actions``: ``Action``, the room's actions (``SystemAction``), ``Event``, decoding;
- ``_match``: the state's protocols, the clock and the end (``set_clock``,
  ``finish_match``, ``rank``, ``Outcome``);
- ``_seating``: players (``Player``, ``SeatedPlayer``, ``Seating``, ``require_players``,
  ``first_turn``: where a turn order starts, never at a newcomer);
- ``_apply``: the checks every move passes (``apply_with``, ``check_and_apply``, ``extend``);
- ``_views``: a view's common parts (``seat_view``, ``you``, ``podium``);
- ``_settings``: the lobby's settings form (``setting``, ``settings_schema``);
- ``_rng``: ``Rng``, the seeded randomness a state keeps;
- ``_bot``: a game's computer player (``Bot``, ``Level``), for a game that has one in
  ``games/<name>/bot/``.

Their names start with ``_`` so that no game folder can have one's name: a folder
``games/seating/`` would be imported in place of a module ``games/seating.py`` (a package
wins over a module of the same name), and discovery skips them as it skips every plain
module and every name starting with ``_``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from ._actions import (
    SYSTEM_ACTIONS,
    Action,
    Drop,
    Event,
    Extend,
    Host,
    Join,
    Leave,
    Return,
    SystemAction,
    Timeout,
    decode_action,
)
from ._apply import Handler, T, apply_with, check_and_apply, clone, extend, ignore
from ._bot import Bot, Level
from ._errors import (
    ALREADY_SEATED,
    EARLY_TIMEOUT,
    MATCH_FULL,
    MATCH_OVER,
    NOT_A_PLAYER,
    NOT_YOUR_TURN,
    ROOM_ONLY,
    UNKNOWN_SEAT,
    WRONG_PHASE,
    RuleError,
)
from ._match import (
    M,
    MatchState,
    Outcome,
    Placing,
    TimedState,
    deadline,
    finish_match,
    outcome,
    rank,
    rank_leavers_last,
    set_clock,
)
from ._rng import Rng
from ._seating import (
    TOO_FEW_PLAYERS,
    P,
    Player,
    Scored,
    Seat,
    SeatedPlayer,
    Seating,
    first_turn,
    is_here,
    is_playing,
    require_players,
)
from ._settings import setting, settings_schema
from ._views import podium, seat_view, you

__all__ = [
    "ALREADY_SEATED",
    "EARLY_TIMEOUT",
    "MATCH_FULL",
    "MATCH_OVER",
    "NOT_A_PLAYER",
    "NOT_YOUR_TURN",
    "ROOM_ONLY",
    "SYSTEM_ACTIONS",
    "TOO_FEW_PLAYERS",
    "UNKNOWN_SEAT",
    "WRONG_PHASE",
    "Action",
    "Bot",
    "Drop",
    "Event",
    "Extend",
    "Game",
    "Handler",
    "Host",
    "Join",
    "Leave",
    "Level",
    "M",
    "MatchState",
    "Outcome",
    "P",
    "Placing",
    "Player",
    "Return",
    "Rng",
    "RuleError",
    "Scored",
    "Seat",
    "SeatedPlayer",
    "Seating",
    "SystemAction",
    "T",
    "TimedState",
    "Timeout",
    "apply_with",
    "check_and_apply",
    "clone",
    "deadline",
    "decode_action",
    "extend",
    "finish_match",
    "first_turn",
    "ignore",
    "is_here",
    "is_playing",
    "outcome",
    "podium",
    "rank",
    "rank_leavers_last",
    "require_players",
    "seat_view",
    "set_clock",
    "setting",
    "settings_schema",
    "you",
]


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
