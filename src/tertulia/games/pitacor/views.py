"""What one seat may see of a Pitacor match: the only door secrets could leave by.

Secrets, and who may see them before the reveal:
- the four candidates and the target: the clue giver only ("only they can see it");
- hidden markers: their owner only ("shown only at the reveal");
- a selected but unconfirmed cell: its owner only;
- in Ultra Hard, the board's real colours: nobody ("each cell displays only its hex code").

Each view is plain JSON-able data; the room sends it as it is. Tests compare the bytes.
"""

from __future__ import annotations

from typing import Any

from .. import base
from ..base import podium
from .board import CLASSIC, ULTRA_HARD
from .rules import (
    CANDIDATES,
    NAME,
    board_of,
    current_turn,
    may_chat,
    upcoming_giver,
    waiting_guessers,
    who_may_start_next_round,
)
from .settings import GuessMode, MarkerVisibility
from .state import CLUE_PHASES, GUESS_PHASES, Member, Phase, Round, SelectCell, State
from .state import PitacorAction as Action

_REVEALED = frozenset({Phase.REVEAL, Phase.ENDED})


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see now, and nothing more."""
    return views_for(state, [seat])[seat]


def views_for(state: State, seats: list[str | None]) -> dict[str | None, dict[str, Any]]:
    """``view`` for several seats at once: what they all share is built once."""
    shared = _shared(state)
    rnd = state.round
    revealed = state.phase in _REVEALED
    # Worked out once for every seat: a broadcast builds a view per seat, so anything here
    # that scans the members per seat would make each action cost seats² (see benchmarks/).
    members = {m.id: m for m in state.members}
    waiting = set(shared["waiting_for"])
    # Who may start the next round: the next giver, or anyone here if they are away.
    movers = set(who_may_start_next_round(state)) if state.phase is Phase.REVEAL else set()
    views: dict[str | None, dict[str, Any]] = {}
    for seat in seats:
        sees_target = seat == rnd.giver or revealed
        member = members.get(seat) if seat is not None else None
        views[seat] = {
            **shared,
            "candidates": _candidates(state) if sees_target else None,
            "target": rnd.target if sees_target else None,
            "markers": _markers(state, rnd, seat, revealed),
            "selection": rnd.selections.get(seat) if seat is not None else None,
            "you": _you(state, seat, member, waiting, movers),
        }
    return views


def _shared(state: State) -> dict[str, Any]:
    """The part of the view that is the same for every seat."""
    rnd = state.round
    revealed = state.phase in _REVEALED
    board = board_of(state.settings)
    return {
        "game": NAME,
        "phase": state.phase.value,
        "round": rnd.number,
        "board": {
            # The colours themselves are static: the client has them from static_data().
            "id": "ultra_hard" if state.settings.ultra_hard else "classic",
            "cols": board.cols,
            "rows": board.rows,
            # Ultra Hard: "no color is shown ... The real colors appear at the reveal."
            "show_colours": not state.settings.ultra_hard or revealed,
        },
        "players": [_player(m) for m in state.members],
        "giver": rnd.giver,
        "next_giver": upcoming_giver(state) if state.phase is not Phase.ENDED else None,
        "clues": list(rnd.clues),
        "passed": rnd.passed,
        "forfeited": rnd.forfeited,
        "guessers": list(rnd.guessers),
        "confirmed": list(rnd.confirmed),
        "waiting_for": _waiting_for(state),
        "turn": current_turn(state),
        "turn_order": list(rnd.turn_order),
        "clock": state.clock.value,
        "deadline": state.deadline,
        "overtime": state.overtime,
        "points": dict(rnd.points) if revealed else None,
        "awarded": dict(rnd.awarded) if revealed else None,
        "history": [_filed_summary(r) for r in state.history],
        "winners": list(state.winners),
        "end_reason": state.end_reason or None,
        "ranking": podium(state.outcome),
    }


def views_changed_by(seat: str | None, action: Action) -> frozenset[str] | None:
    """Whose views an accepted ``action`` by ``seat`` can change, if not everyone's.

    Selecting a cell only records the selection, which its owner alone sees ("a selected but
    unconfirmed cell: its owner only"), and it is the most frequent action of a match: the
    other seats' views stay exactly as they were, so the room need not rebuild them. Anything
    else may change what everyone sees."""
    if isinstance(action, SelectCell) and seat is not None:
        return frozenset({seat})
    return None


def static_data() -> dict[str, Any]:
    """What never changes: each board's cell colours (hex, row by row), sent once per client
    rather than in every view. Public: the board is the same for everyone."""
    return {
        "boards": {
            name: {"cols": b.cols, "rows": b.rows, "cells": list(b.palette())}
            for name, b in (("classic", CLASSIC), ("ultra_hard", ULTRA_HARD))
        }
    }


def _player(member: Member) -> dict[str, Any]:
    return base.seat_view(member, plays_from=member.plays_from)


def _candidates(state: State) -> list[dict[str, str]]:
    board = board_of(state.settings)
    cells = state.round.candidates[:CANDIDATES]
    return [{"cell": cell, "hex": board.hex(cell)} for cell in cells]


def _markers(state: State, rnd: Round, seat: str | None, revealed: bool) -> list[dict[str, Any]]:
    hidden = state.settings.markers is MarkerVisibility.HIDDEN and not revealed
    return [
        {"seat": m.seat, "cell": m.cell, "guess": m.guess}
        for m in rnd.markers
        if not hidden or m.seat == seat
    ]


def _waiting_for(state: State) -> list[str]:
    """Who the match waits for now: "Every wait shows who we wait for." """
    if state.phase in CLUE_PHASES:
        return [state.round.giver]
    if state.phase in GUESS_PHASES:
        if state.settings.guess_mode is GuessMode.TURNS:
            turn = current_turn(state)
            return [turn] if turn is not None else []
        return waiting_guessers(state)
    if state.phase is Phase.REVEAL:  # everyone here who has not said "Ready" yet
        ready = state.round.ready
        return [m.id for m in state.members if base.is_here(m) and m.id not in ready]
    return []


def _filed_summary(rnd: Round) -> dict[str, Any]:
    """``_summary`` of a filed round, made once: a filed round never changes again
    (``fork.py``), and every view of every change lists every one of them (a long match's
    history was most of a view's cost, and of a restart's). Kept beside the round, never
    stored nor compared (``Round`` has room for it, like ``occupied``'s index); the views
    only read it."""
    kept = rnd.__dict__.get("_summary")
    if kept is None:
        kept = rnd.__dict__["_summary"] = _summary(rnd)
    return kept


def _summary(rnd: Round) -> dict[str, Any]:
    """A finished round, as the scoreboard's history shows it (everything is public by now)."""
    return {
        "round": rnd.number,
        "giver": rnd.giver,
        "target": rnd.target if not rnd.void else None,
        "clues": list(rnd.clues),
        "void": rnd.void,
        "passed": rnd.passed,
        "points": dict(rnd.points),  # what the markers earned
        # What was added to the scores, every seat the round scored included: "Right away"
        # stops adding at the winner, so those after them count 0 (issue 30: the recap and its
        # image add these up, as the podium did, not the round's raw points).
        "awarded": {seat: rnd.awarded.get(seat, 0) for seat in rnd.points},
        # The match ended during it (too few players left): never scored.
        "unfinished": not rnd.void and not rnd.points,
        "markers": _recap_markers(rnd),
    }


def _recap_markers(rnd: Round) -> dict[str, list[str | None]]:
    """Every marker of a filed round, for the recap's small board: seat → its cells by
    guess, ``[first, second]`` (``None`` for a guess the clock took). Public: a round is
    filed at its reveal, or at the end of the match, which shows every marker ("shown only
    at the reveal"). Compact, since the history is in every view: one short list a seat."""
    cells: dict[str, list[str | None]] = {}
    for marker in rnd.markers:
        row = cells.setdefault(marker.seat, [])
        row.extend([None] * (marker.guess - len(row)))
        row[marker.guess - 1] = marker.cell
    return cells


def _you(
    state: State, seat: str | None, member: Member | None, waiting: set[str], movers: set[str]
) -> dict[str, Any]:
    """The seat's own role and what it should do now (the line at the top of the screen)."""
    if seat is None or not base.is_playing(member):  # (a spectator's seat is None)
        return base.you(seat)
    rnd = state.round
    if seat == rnd.giver:
        role = "giver"
    elif seat in rnd.guessers:
        role = "guesser"
    else:
        role = "waiting"  # joined mid-round: "you play from the next round"
    return base.you(seat, role, may_chat(state, seat), _to_do(state, seat, role, waiting, movers))


def _to_do(state: State, seat: str, role: str, waiting: set[str], movers: set[str]) -> str | None:
    """The action this seat is expected to take now, if any (an i18n key suffix)."""
    phase = state.phase
    if role == "giver" and phase in CLUE_PHASES:
        return {
            Phase.CHOOSE: "choose_target",
            Phase.CLUE1: "give_clue",
            Phase.CLUE2: "give_clue_or_pass",
        }[phase]
    if role == "guesser" and phase in GUESS_PHASES and seat in waiting:
        return "place_marker"
    if phase is Phase.REVEAL and seat in movers:
        return "next_round"
    if phase is Phase.REVEAL and seat in waiting:
        return "ready"
    return None
