"""Pitacor's rules as a pure state machine: ``start``, ``apply``, ``deadline``, ``outcome``.

The phase table below says which action may happen when; the handlers are small functions
named after what happens at the table (``choose_target``, ``give_clue``, ``place_marker``).
The round's flow lives in ``flow.py``, players coming and going in ``seats.py``. Rule
sentences from ``shared/rules/pitacor.txt`` are quoted where they decide something; choices
the rules leave open are explained in ``docs/games/pitacor.md``.

``apply`` works on a copy (``fork.py``: new where an action may change it, shared where none
does): a ``RuleError`` raised half-way leaves the caller's state untouched, and so does success.
"""

from __future__ import annotations

import msgspec

from .. import base
from ..base import (
    Drop,
    Event,
    Join,
    Leave,
    Player,
    Return,
    Rng,
    RuleError,
    Timeout,
    deadline,
    outcome,
    set_clock,
)
from . import clues
from .flow import (
    CANDIDATES,
    MAX_PLAYERS,
    MIN_CANDIDATE_DISTANCE,
    MIN_PLAYERS,
    NAME,
    SEATS,
    SKIPPED_TARGETS_KEPT,
    begin_guessing,
    begin_round,
    board_of,
    current_turn,
    end_guessing,
    everyone_has_seen_the_reveal,
    find_member,
    finish_round,
    forfeit_second_clue,
    next_turn,
    reveal,
    skip_turn,
    upcoming_giver,
    waiting_guessers,
    who_may_start_next_round,
)
from .fork import fork
from .seats import drop, join, leave, return_
from .settings import GuessMode, MarkerVisibility, OnTimeout, Settings
from .state import (
    CLUE_PHASES,
    GUESS_PHASES,
    ChooseTarget,
    Clock,
    Confirm,
    GiveClue,
    Marker,
    Member,
    NextRound,
    PassClue,
    Phase,
    Ready,
    Round,
    SelectCell,
    State,
    occupied,
)

__all__ = [  # what tests, views and the room use from here
    "CANDIDATES",
    "MAX_PLAYERS",
    "MIN_CANDIDATE_DISTANCE",
    "MIN_PLAYERS",
    "NAME",
    "VERSION",
    "apply",
    "board_of",
    "current_turn",
    "deadline",
    "find_member",
    "may_chat",
    "outcome",
    "start",
    "upcoming_giver",
    "waiting_guessers",
    "who_may_start_next_round",
]

# Which player action may be sent in which phase. Room actions (timeouts, joins, drops,
# leaves) are accepted in every phase; the phase decides what they do.
PHASE_ACTIONS: dict[Phase, frozenset[type]] = {
    Phase.CHOOSE: frozenset({ChooseTarget}),
    Phase.CLUE1: frozenset({GiveClue}),
    Phase.GUESS1: frozenset({SelectCell, Confirm}),
    Phase.CLUE2: frozenset({GiveClue, PassClue}),
    Phase.GUESS2: frozenset({SelectCell, Confirm}),
    Phase.REVEAL: frozenset({NextRound, Ready}),
    Phase.ENDED: frozenset(),
}

# Error codes of this game (the shared ones live in base).
TARGET_UNKNOWN = "target.unknown"  # the chosen index is not one of the four candidates
CELL_UNKNOWN = "marker.unknown_cell"  # not a coordinate of this board
CELL_TAKEN = "marker.cell_taken"  # "One cell, one marker."
NOTHING_SELECTED = "marker.nothing_selected"  # confirm before selecting a cell
ALREADY_PLACED = "marker.already_placed"  # this guess's marker is already down
GIVER_CANNOT_GUESS = "marker.giver_cannot_guess"
NOT_PLAYING_YET = "marker.not_playing_yet"  # joined mid-round: "you play from the next round"


# The version of how a match starts (games/base.py, ``VERSION``): the room logs it with the
# start, so a change here applies to new matches only and old logs deal as they did.
NEWCOMERS_WATCH_FIRST = 1  # from 1, a first-timer is never the first clue giver
# From 2, a skipped round's chosen target is never drawn again (flow.SKIPPED_TARGETS_KEPT).
VERSION = SKIPPED_TARGETS_KEPT


def start(
    settings: Settings,
    players: list[Player],
    seed: int,
    now: float,
    *,
    public: bool = False,
    version: int = VERSION,
) -> State:
    """A new match; ``players`` in lobby order. "starting with a random player" — from
    ``NEWCOMERS_WATCH_FIRST`` never one new to the game when someone else can start
    (``base.first_turn``). ``version``: the room's logged one, so an old log deals as it
    did."""
    base.require_players(len(players), "Pitacor", MIN_PLAYERS, MAX_PLAYERS)
    if len({p.id for p in players}) != len(players):
        raise ValueError("expected distinct player ids")
    if public and not settings.ban_profanity:
        # "In public rooms, profanity is always filtered."
        settings = msgspec.structs.replace(settings, ban_profanity=True)
    rng = Rng.from_seed(seed)
    members = [Member(p.id, p.nickname) for p in players]
    newcomers = {p.id for p in players if p.new} if version >= NEWCOMERS_WATCH_FIRST else set()
    first = base.first_turn([m.id for m in members], newcomers, rng)
    line = [m.id for m in members[first:] + members[:first]]
    placeholder = Round(number=0, giver=line[0], candidates=[], guessers=[])
    state = State(settings, public, rng, members, line, 0, Phase.CHOOSE, placeholder)
    state.version = version
    events: list[Event] = []
    begin_round(state, now, events)
    return state


def choose_target(state: State, seat: str, action: ChooseTarget, now: float, events) -> None:
    """ "The clue giver picks one of them: that's the target color, and only they can see it." """
    _require_giver(state, seat)
    if not 0 <= action.index < len(state.round.candidates):
        raise RuleError(TARGET_UNKNOWN, "Pick one of the four colours.", index=action.index)
    state.round.target = state.round.candidates[action.index]
    state.phase = Phase.CLUE1
    events.append(Event("target.chosen", {"giver": seat}))


def give_clue(
    state: State, seat: str, action: GiveClue, now: float, events, *, judge_text: bool = True
) -> None:
    """ "First clue: one word." "Second clue or pass: ... a second clue of one or two words"
    (``judge_text=False``: a saved clue replayed, not looked up in the word lists again)"""
    _require_giver(state, seat)
    max_words = 1 if state.phase is Phase.CLUE1 else 2
    text = clues.check_clue(action.text, max_words, clue_rules(state, judge_text=judge_text))
    state.round.clues.append(text)
    state.used_clues.append(clues.clue_key(text))
    events.append(
        Event("clue.given", {"giver": seat, "clue": text, "number": len(state.round.clues)})
    )
    begin_guessing(state, Phase.GUESS1 if state.phase is Phase.CLUE1 else Phase.GUESS2, now, events)


def pass_clue(state: State, seat: str, action: PassClue, now: float, events) -> None:
    """ "the clue giver may ... pass." Only a pass by choice earns the bonus."""
    _require_giver(state, seat)
    state.round.passed = True
    events.append(Event("clue.passed", {"giver": seat}))
    reveal(state, now, events)


def clue_rules(state: State, *, judge_text: bool = True) -> clues.ClueRules:
    """The clue bans in force for this match, with the nicknames of everyone in it (without
    ``judge_text``, no word-list checks: numbers, colours, light/dark, directions and
    profanity lists grow between versions, and a clue accepted once stays accepted)."""
    s = state.settings
    return clues.ClueRules(
        ban_light_dark=s.ban_light_dark,
        ban_directions=s.ban_directions,
        ban_nicknames=s.ban_nicknames,
        ban_profanity=judge_text and (s.ban_profanity or state.public),
        nicknames=tuple(m.nickname for m in state.members),
        used=tuple(state.used_clues),
        judge_words=judge_text,
    )


def _require_giver(state: State, seat: str) -> None:
    if seat != state.round.giver:
        raise RuleError(base.NOT_YOUR_TURN, "Only the clue giver can do that.")


def select_cell(state: State, seat: str, action: SelectCell, now: float, events) -> None:
    """Point at a cell. "One cell, one marker": a taken cell can't even be selected."""
    _require_guesser_to_act(state, seat)
    cell = board_of(state.settings).canonical(action.cell)
    if cell is None:
        raise RuleError(CELL_UNKNOWN, "That is not a cell of the board.", cell=action.cell)
    _require_free(state, cell)
    state.round.selections[seat] = cell


def confirm(state: State, seat: str, action: Confirm, now: float, events) -> None:
    """Place the marker on the selected cell: select, then confirm."""
    _require_guesser_to_act(state, seat)
    cell = state.round.selections.get(seat)
    if cell is None:
        raise RuleError(NOTHING_SELECTED, "Select a cell first.")
    _require_free(state, cell)
    place_marker(state, seat, cell, events)
    after_marker(state, now, events)


def place_marker(state: State, seat: str, cell: str, events: list[Event]) -> None:
    rnd = state.round
    guess = 1 if state.phase is Phase.GUESS1 else 2
    rnd.markers.append(Marker(seat, cell, guess))
    rnd.selections.pop(seat, None)
    rnd.confirmed.append(seat)
    if seat not in rnd.guessing_order:
        rnd.guessing_order.append(seat)
    visible = state.settings.markers is MarkerVisibility.VISIBLE
    events.append(
        Event("marker.placed", {"seat": seat, "guess": guess, "cell": cell if visible else None})
    )


def after_marker(state: State, now: float, events: list[Event]) -> None:
    """Move to the next guesser (turns) or on, "If everyone confirms early" (simultaneous)."""
    if state.settings.guess_mode is GuessMode.TURNS:
        next_turn(state, now, events)
    elif all(g in state.round.confirmed for g in waiting_guessers(state)):
        end_guessing(state, now, events)


def _require_guesser_to_act(state: State, seat: str) -> None:
    rnd = state.round
    if seat == rnd.giver:
        raise RuleError(GIVER_CANNOT_GUESS, "The clue giver doesn't place markers.")
    if seat not in rnd.guessers:
        raise RuleError(NOT_PLAYING_YET, "You play from the next round.")
    if seat in rnd.confirmed:
        raise RuleError(ALREADY_PLACED, "Your marker for this guess is already on the board.")
    if state.settings.guess_mode is GuessMode.TURNS and seat != current_turn(state):
        raise RuleError(
            base.NOT_YOUR_TURN, "It's not your turn to guess.", turn=current_turn(state)
        )


def _require_free(state: State, cell: str) -> None:
    if cell in occupied(state.round):
        # "An occupied cell can't take another marker, not even your own second one."
        raise RuleError(CELL_TAKEN, "That cell already has a marker.", cell=cell)


def next_round(state: State, seat: str, action: NextRound, now: float, events) -> None:
    """The next giver may leave the reveal early (anyone here, if it has no clock and the next
    giver is away: ``who_may_start_next_round``)."""
    if seat not in who_may_start_next_round(state):
        raise RuleError(base.NOT_YOUR_TURN, "The next clue giver starts the next round.")
    finish_round(state, now, events)


def ready(state: State, seat: str, action: Ready, now: float, events) -> None:
    """ "Ready": this player has seen the reveal; once everyone here has, the next round
    starts without waiting for the clock (``everyone_has_seen_the_reveal``)."""
    if seat not in state.round.ready:
        state.round.ready.append(seat)
    if everyone_has_seen_the_reveal(state):
        finish_round(state, now, events)


def timeout(state: State, seat: None, action: Timeout, now: float, events) -> None:
    """The clock ran out: force the move or just warn, as the host chose."""
    clock = state.clock
    force = state.settings.on_timeout is OnTimeout.FORCE
    if clock is Clock.REVEAL:
        finish_round(state, now, events)
    elif clock is Clock.GIVER_AWAY:
        # "Without the first clue, the turn moves on; with it, the round continues without a
        # second clue."
        if state.phase is Phase.CLUE2:
            forfeit_second_clue(state, now, events)
        else:
            skip_turn(state, now, events, "giver_away")
    elif not force:
        events.append(Event("clock.expired", {"clock": clock.value, "forced": False}))
        state.overtime = True
        set_clock(state, Clock.NONE, 0, now)
    elif clock is Clock.CLUE:
        events.append(Event("clock.expired", {"clock": clock.value, "forced": True}))
        if state.phase is Phase.CLUE2:
            forfeit_second_clue(state, now, events)
        else:
            skip_turn(state, now, events, "clue_timeout")
    elif clock is Clock.GUESS:
        events.append(Event("clock.expired", {"clock": clock.value, "forced": True}))
        force_guesses(state, now, events)


def force_guesses(state: State, now: float, events: list[Event]) -> None:
    """ "a selected but unconfirmed guess is confirmed if the cell is free" """
    rnd = state.round
    if state.settings.guess_mode is GuessMode.TURNS:
        seat = current_turn(state)
        pending = [seat] if seat is not None else []
    else:
        pending = [g for g in rnd.guessers if g not in rnd.confirmed]
    for seat in pending:
        cell = rnd.selections.get(seat)
        if cell is not None and cell not in occupied(rnd):
            place_marker(state, seat, cell, events)
        else:  # nothing to place: say so, or the player learns it only at the reveal
            events.append(Event("guess.missed", {"seat": seat}))
    if state.settings.guess_mode is GuessMode.TURNS:
        next_turn(state, now, events)
    else:
        end_guessing(state, now, events)


def may_chat(state: State, seat: str) -> bool:
    """ "the clue giver can't chat until the reveal" """
    giving = state.phase in CLUE_PHASES or state.phase in GUESS_PHASES
    return not (giving and seat == state.round.giver)


_HANDLERS: dict[type, base.Handler] = {
    ChooseTarget: choose_target,
    GiveClue: give_clue,
    PassClue: pass_clue,
    SelectCell: select_cell,
    Confirm: confirm,
    NextRound: next_round,
    Ready: ready,
    Timeout: timeout,
    Join: join,
    Drop: drop,
    Return: return_,
    Leave: leave,
    base.Host: base.ignore,  # Pitacor lets the host decide nothing during a match
}

# "apply(state, seat, action, now) -> (State, events)": the contract's entry point (base.py);
# a replayed clue (judge_text=False) is not looked up in the word lists again; each action
# changes a fork of the state, not a whole copy.
apply = base.apply_with(_HANDLERS, PHASE_ACTIONS, SEATS, judging={GiveClue}, copy=fork)
