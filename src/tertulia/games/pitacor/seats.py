"""Players coming and going during a match: joins, drops, returns and leaves.

All four are sent by the room (``seat=None``), logged and replayed like any move. Marking the
player, the refusals and "too few players left" are the same in every game (``base.Seating``,
here ``SEATS``); what follows is what Pitacor's rules do about it.
"Joining mid-match: You can join while a match is running: you play from the next round,
start with 0 points and go to the end of the clue-giver line. If you drop and come back on the
same browser, you get your seat and points back."
"""

from __future__ import annotations

from ..base import Drop, Event, Join, Leave, Return, set_clock
from .flow import (
    SEATS,
    current_turn,
    end_guessing,
    everyone_has_seen_the_reveal,
    finish_round,
    forfeit_second_clue,
    next_turn,
    skip_turn,
    waiting_guessers,
)
from .settings import GuessMode
from .state import CLUE_PHASES, GUESS_PHASES, Clock, Member, Phase, State


def join(state: State, seat: None, action: Join, now: float, events) -> None:
    """ "you play from the next round, start with 0 points and go to the end of the
    clue-giver line." """
    plays_from = state.round.number + 1
    member = SEATS.join(state, action, events, plays_from=plays_from, new=Member)
    # A newcomer, or someone who had left and is back with their points: either way they play
    # from the next round, with the nickname they came with, at the end of the line.
    member.nickname, member.plays_from = action.nickname, plays_from
    back_in_line(state, action.player)


def back_in_line(state: State, seat: str) -> None:
    """Put a joiner at the end of the clue-giver line, keeping the line's place.

    ``giver_index`` points at the round's giver, and the next giver is the one after it. So a
    player who had left and is back is taken out of their old place with the index moved
    along when that place was before it (else the index would slide onto the next player and
    skip them); and the round's own giver, who left and came back during their round, keeps
    their place: moving them would skip the one after them, or make them give twice."""
    line = state.giver_line
    if seat not in line:
        line.append(seat)
        return
    at = line.index(seat)
    if at == state.giver_index:
        return
    del line[at]
    if at < state.giver_index:
        state.giver_index -= 1
    line.append(seat)


def drop(state: State, seat: None, action: Drop, now: float, events) -> None:
    if SEATS.drop(state, action, events) is None or state.phase is Phase.ENDED:
        return
    if action.player == state.round.giver and state.phase in CLUE_PHASES:
        giver_went_away(state, now)
    elif state.phase in GUESS_PHASES:
        _stop_waiting_for(state, action.player, now, events)
    elif state.phase is Phase.REVEAL:
        _unless_everyone_else_has_seen_it(state, now, events)


def _unless_everyone_else_has_seen_it(state: State, now: float, events: list[Event]) -> None:
    """Whoever is left has all seen the reveal: the next round need not wait for the one who
    went (they were the last one not ready)."""
    if everyone_has_seen_the_reveal(state):
        finish_round(state, now, events)


def giver_went_away(state: State, now: float) -> None:
    """ "If the clue giver drops, the clock waits about a minute." The clue clock pauses with
    what its deadline leaves (a deadline a restart extended, ``base.Extend``, leaves more)."""
    if state.clock is Clock.CLUE and state.deadline is not None:
        state.clue_seconds_left = max(state.deadline - now, 0.0)
    elif state.clock is Clock.NONE:
        state.clue_seconds_left = None
    set_clock(state, Clock.GIVER_AWAY, state.settings.giver_drop_wait_seconds, now)


def _stop_waiting_for(state: State, seat: str, now: float, events: list[Event]) -> None:
    """A guesser who drops is not waited for: their turn passes, or the others move on."""
    if state.settings.guess_mode is GuessMode.TURNS:
        if current_turn(state) == seat:
            next_turn(state, now, events)
    elif not waiting_guessers(state):
        end_guessing(state, now, events)


def return_(state: State, seat: None, action: Return, now: float, events) -> None:
    """ "If you drop and come back on the same browser, you get your seat and points back." """
    if SEATS.return_(state, action, events) is None:
        return
    if (
        action.player == state.round.giver
        and state.phase in CLUE_PHASES
        and state.clock is Clock.GIVER_AWAY
    ):
        # The giver is back in time: their clue clock resumes where it paused.
        left = state.clue_seconds_left
        # A clock paused at its very end still gets a moment, so the giver can act at all.
        set_clock(state, Clock.CLUE, max(left, 1.0) if left is not None else 0, now)
        if left is None and state.settings.clue_seconds:
            state.overtime = True


def leave(state: State, seat: None, action: Leave, now: float, events) -> None:
    """A player leaves for good: their score stays on the board, their turns are skipped.
    Fewer than three left: the match ends (``SEATS.leave``)."""
    if SEATS.leave(state, action, events) is None:
        return
    rnd = state.round
    if action.player == rnd.giver:
        if state.phase is Phase.CLUE2:
            forfeit_second_clue(state, now, events)
        elif state.phase in (Phase.CHOOSE, Phase.CLUE1):
            skip_turn(state, now, events, "giver_left")
    elif state.phase in GUESS_PHASES:
        _stop_waiting_for(state, action.player, now, events)
    elif state.phase is Phase.REVEAL:
        _unless_everyone_else_has_seen_it(state, now, events)
