"""How a Pitacor round moves along: dealing, turns, clocks, the reveal and the end.

These functions change a state in place and are called by the action handlers in
``rules.py`` and ``seats.py`` (which work on a copy, so a refused action changes nothing).
Each is named after what happens at the table.
"""

from __future__ import annotations

from .. import base
from ..base import Event, Rng, set_clock
from .board import CLASSIC, ULTRA_HARD, Board
from .scoring import add_in_order, round_points
from .settings import EndMode, GuessMode, Settings
from .state import GUESS_PHASES, Clock, Member, Phase, Round, State

# Fixed facts of the game.
NAME = __package__.rpartition(".")[2]  # a game's name is its folder's name
MIN_PLAYERS = 3  # "3 to 10 players, each on their own device."
MAX_PLAYERS = 10
CANDIDATES = 4  # "The game draws four colors"
# "four colors spread across the board": no two candidates closer than this many rings, so
# their 5×5 scoring squares never overlap and a guess can never score for two candidates.
# The draw relaxes it when its first picks leave no room (about 5 % of Ultra Hard draws end
# at 4 rings; docs/games/pitacor.md says why that draw is kept as it is).
MIN_CANDIDATE_DISTANCE = 5
# From this rules version (``rules.VERSION``), a target chosen in a round that is then skipped
# (no clue in time, the giver away or gone) counts as one of the match's targets and is never
# drawn again. Earlier matches drew it again, and replay as they did.
SKIPPED_TARGETS_KEPT = 2


def board_of(settings: Settings) -> Board:
    return ULTRA_HARD if settings.ultra_hard else CLASSIC


def begin_round(state: State, now: float, events: list[Event]) -> None:
    """Deal four candidates to the next giver in line and start the clue clock."""
    number = state.round.number + 1
    giver = state.giver_line[state.giver_index]
    state.round = Round(
        number=number,
        giver=giver,
        candidates=draw_candidates(board_of(state.settings), state.rng, set(state.past_targets)),
        guessers=guessers_for(state, giver, number),
    )
    state.phase = Phase.CHOOSE
    state.overtime = False
    member = find_member(state, giver)
    if member is not None:
        member.turns_given += 1
    events.append(Event("round.started", {"round": number, "giver": giver}))
    start_clue_clock(state, now)


def draw_candidates(board: Board, rng: Rng, past_targets: set[str]) -> list[str]:
    """ "The game draws four colors spread across the board (never repeating a target ...)" """
    cells = [c for c in board.cells() if c not in past_targets]
    rng.shuffle(cells)
    # Greedy over a random order: always ends. On the classic board it finds four at 5 rings
    # in practice; on the 15 × 8 Ultra Hard board about one draw in twenty relaxes to 4.
    # Saved matches replay this exact draw from their seed, so it must not change.
    for spread in range(MIN_CANDIDATE_DISTANCE, -1, -1):
        chosen: list[str] = []
        for cell in cells:
            if all(board.distance(cell, other) >= spread for other in chosen):
                chosen.append(cell)
                if len(chosen) == CANDIDATES:
                    return chosen
    raise RuntimeError("the board has fewer than four unused cells")


def guessers_for(state: State, giver: str, number: int) -> list[str]:
    """Everyone else who plays this round, in lobby order starting at the giver's left."""
    order = [m for m in state.members if not m.left and m.plays_from <= number]
    ids = [m.id for m in order]
    at = ids.index(giver) if giver in ids else 0
    return [i for i in ids[at + 1 :] + ids[:at] if i != giver]


def begin_guessing(state: State, phase: Phase, now: float, events: list[Event]) -> None:
    rnd = state.round
    state.phase = phase
    state.overtime = False
    rnd.confirmed = []
    rnd.selections = {}
    if state.settings.guess_mode is GuessMode.TURNS:
        # "one at a time; the order flips on the second pass"
        rnd.turn_order = list(rnd.guessers) if phase is Phase.GUESS1 else rnd.guessers[::-1]
        rnd.turn_index = -1
        next_turn(state, now, events)
    else:
        set_clock(state, Clock.GUESS, state.settings.guess_seconds, now)
        if not waiting_guessers(state):
            end_guessing(state, now, events)


def next_turn(state: State, now: float, events: list[Event]) -> None:
    """Turns mode: hand the marker to the next guesser who is here; skip those who dropped."""
    rnd = state.round
    rnd.turn_index += 1
    confirmed = set(rnd.confirmed)
    while rnd.turn_index < len(rnd.turn_order) and not _is_waiting_for(
        find_member(state, rnd.turn_order[rnd.turn_index]), confirmed
    ):
        rnd.turn_index += 1
    if rnd.turn_index >= len(rnd.turn_order):
        end_guessing(state, now, events)
        return
    state.overtime = False
    set_clock(state, Clock.GUESS, state.settings.guess_seconds, now)
    events.append(Event("turn.changed", {"seat": rnd.turn_order[rnd.turn_index]}))


def current_turn(state: State) -> str | None:
    rnd = state.round
    if state.phase in GUESS_PHASES and 0 <= rnd.turn_index < len(rnd.turn_order):
        return rnd.turn_order[rnd.turn_index]
    return None


def waiting_guessers(state: State) -> list[str]:
    """Guessers the current guess phase still waits for: here, and not yet confirmed."""
    members = {m.id: m for m in state.members}
    confirmed = set(state.round.confirmed)
    return [g for g in state.round.guessers if _is_waiting_for(members.get(g), confirmed)]


def _is_waiting_for(member: Member | None, confirmed: set[str]) -> bool:
    return base.is_here(member) and member.id not in confirmed


def end_guessing(state: State, now: float, events: list[Event]) -> None:
    """After the first guess comes the second clue; after the second, the reveal."""
    if state.phase is Phase.GUESS1:
        state.phase = Phase.CLUE2
        state.round.confirmed = []
        state.overtime = False
        giver = find_member(state, state.round.giver)
        if giver is None or giver.left:
            forfeit_second_clue(state, now, events)
        else:
            start_clue_clock(state, now)
    else:
        reveal(state, now, events)


def forfeit_second_clue(state: State, now: float, events: list[Event]) -> None:
    """ "Letting the timer run out or dropping from the room counts as passing, but without
    the bonus." """
    state.round.forfeited = True
    events.append(Event("clue.forfeited", {"giver": state.round.giver}))
    reveal(state, now, events)


def skip_turn(state: State, now: float, events: list[Event], reason: str) -> None:
    """ "a clue giver without a clue loses the turn": no scoring, the next giver starts."""
    state.round.void = True
    if state.version >= SKIPPED_TARGETS_KEPT and state.round.target is not None:
        # "never repeating a target from the same match": the giver saw it as the target.
        state.past_targets.append(state.round.target)
    events.append(Event("round.skipped", {"giver": state.round.giver, "reason": reason}))
    finish_round(state, now, events)


def reveal(state: State, now: float, events: list[Event]) -> None:
    """ "Reveal of the target color and scoring." """
    rnd = state.round
    settings = state.settings
    target = rnd.target
    assert target is not None  # the giver chose it before any clue, so before any reveal
    # "a room with exactly 3 players": those playing this round who are still in the match.
    players = sum(1 for seat in [rnd.giver, *rnd.guessers] if not has_left(state, seat))
    rnd.points = round_points(
        board_of(settings),
        target,
        rnd.markers,
        rnd.guessers,
        rnd.giver,
        players,
        rnd.passed,
        settings,
    )
    # "the round's points are added in order (guessers in guessing order, clue giver last)"
    order = rnd.guessing_order + [g for g in rnd.guessers if g not in rnd.guessing_order]
    ordered = [(seat, rnd.points[seat]) for seat in order] + [(rnd.giver, rnd.points[rnd.giver])]
    scores = {m.id: m.score for m in state.members}
    right_away = settings.end_mode is EndMode.RIGHT_AWAY
    playing = {m.id for m in state.members if not m.left}  # who may still cross the goal
    rnd.awarded, first_across = add_in_order(scores, ordered, settings.goal, right_away, playing)
    for member in state.members:
        member.score = scores[member.id]
    state.past_targets.append(target)
    state.goal_reached = state.goal_reached or first_across is not None
    events.append(Event("round.revealed", {"target": rnd.target, "points": dict(rnd.points)}))
    if right_away and first_across is not None:
        end_match(state, "goal", events, winners=[first_across])
    elif settings.end_mode is EndMode.END_OF_ROUND and state.goal_reached:
        end_match(state, "goal", events)
    elif settings.end_mode is EndMode.CLOSE_CYCLE and state.goal_reached and cycle_closes(state):
        end_match(state, "cycle_closed", events)
    else:
        state.phase = Phase.REVEAL
        state.overtime = False
        set_clock(state, Clock.REVEAL, settings.reveal_seconds, now)


def finish_round(state: State, now: float, events: list[Event]) -> None:
    """File the round, pass the clues to the next in line, and start again or end."""
    state.history.append(state.round)
    if (
        state.settings.end_mode is EndMode.CLOSE_CYCLE
        and state.goal_reached
        and cycle_closes(state)
    ):
        end_match(state, "cycle_closed", events)
        return
    if _cells_never_a_target(state) < CANDIDATES:
        # "never repeating a target from the same match": a long match on the 120 cells of
        # Ultra Hard can run out of colours to deal (a draw needs four); it ends there.
        end_match(state, "colours_used_up", events)
        return
    state.giver_index = _index_of_next_giver(state)
    begin_round(state, now, events)


def _cells_never_a_target(state: State) -> int:
    return board_of(state.settings).size - len(set(state.past_targets))


def upcoming_giver(state: State) -> str:
    return state.giver_line[_index_of_next_giver(state)]


def who_may_start_next_round(state: State) -> list[str]:
    """ "the next clue giver may start the next round earlier" (``docs/games/pitacor.md``).

    A reveal with no clock (``reveal_seconds`` 0) ends only when someone moves on: if the
    next giver is away, anyone still here may, or the match would wait for an absent player
    for ever. (With a clock the reveal ends by itself, and only the next giver cuts it short.)
    """
    giver = upcoming_giver(state)
    if state.deadline is not None or base.is_here(find_member(state, giver)):
        return [giver]
    return [m.id for m in state.members if base.is_here(m)]


def everyone_has_seen_the_reveal(state: State) -> bool:
    """ "When every person at the table has seen a reveal ("Ready"), the next round starts,
    whoever the next giver is": everyone here (and someone is) has said so. Computer players
    say so as soon as they have looked, so they never make people wait."""
    here = [m.id for m in state.members if base.is_here(m)]
    return bool(here) and all(seat in state.round.ready for seat in here)


def cycle_closes(state: State) -> bool:
    """ "until everyone has given clues the same number of times": the round's giver is the
    last one still playing in the clue-giver line, or everyone still playing has given clues
    as often. The second happens only when a player who had given left and came back during
    the cycle: they went to the end of the line, and waiting for them would give them a
    second turn before anyone else's (only such matches fold otherwise on replay)."""
    playing = [seat for seat in state.giver_line if not has_left(state, seat)]
    if not playing:
        return False
    if state.round.giver == playing[-1]:
        return True
    given = {member.turns_given for seat in playing if (member := find_member(state, seat))}
    return len(given) == 1


def _index_of_next_giver(state: State) -> int:
    """ "The turn goes around everyone in lobby order": the next in line who has not left."""
    line = state.giver_line
    for step in range(1, len(line) + 1):
        index = (state.giver_index + step) % len(line)
        if not has_left(state, line[index]):
            return index
    return state.giver_index


def end_match(
    state: State, reason: str, events: list[Event], winners: list[str] | None = None
) -> None:
    """ "A tie is a shared victory. The podium shows up at the end." """
    if state.round not in state.history and state.round.number > 0:
        state.history.append(state.round)
    state.phase = Phase.ENDED
    state.winners = base.finish_match(state, reason, final_ranking(state, winners), events)


def final_ranking(state: State, winners: list[str] | None) -> list[base.Placing]:
    """The podium: the players still in the match, ranked by score (``winners``, or else the
    top score, win); then those who left for good, ranked among themselves by the score they
    left with, never winners. "A player who left for good can win the podium" was issue 17:
    a player who leaves gives up the match, whatever their score (``docs/games/pitacor.md``)."""
    rows = [(m.id, m.nickname, m.score) for m in state.members]
    return base.rank_leavers_last(rows, {m.id for m in state.members if m.left}, winners)


def start_clue_clock(state: State, now: float) -> None:
    """The giver's clock; if the giver is away, the wait for them comes first."""
    giver = find_member(state, state.round.giver)
    state.clue_seconds_left = float(state.settings.clue_seconds) or None
    if giver is not None and not giver.online:
        set_clock(state, Clock.GIVER_AWAY, state.settings.giver_drop_wait_seconds, now)
    else:
        set_clock(state, Clock.CLUE, state.settings.clue_seconds, now)


def has_left(state: State, seat: str) -> bool:
    return not base.is_playing(find_member(state, seat))


# Who plays: the members, 3 to 10 of them; joins, drops, returns and leaves in ``seats.py``.
SEATS: base.Seating[State, Member] = base.Seating(
    lambda state: state.members, MIN_PLAYERS, MAX_PLAYERS, Phase.ENDED, end_match
)
find_member = SEATS.find  # the member a seat names, also one who has left; None: a spectator
