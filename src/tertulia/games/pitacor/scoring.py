"""Pitacor's sums: what each player earns in a round, and how it is added to the scores.

"Points depend on the distance between each guesser's best marker and the target color.
Diagonals count as neighbours." Distances are in rings (see ``Board.distance``): 0 the exact
cell, 1 its 8 neighbours, 2 the next ring out (the 5×5 square). A ring cut off by the board's
edge simply has fewer cells; nothing wraps around.
"""

from __future__ import annotations

from collections.abc import Collection

from .board import Board
from .settings import Settings
from .state import Marker


def guesser_points(distance: int | None, settings: Settings) -> int:
    """ "3 on the exact cell, 2 on one of its 8 neighbours, 1 on the next ring out" """
    if distance is None:
        return 0
    return {0: settings.exact_points, 1: settings.neighbour_points, 2: settings.ring_points}.get(
        distance, 0
    )


def best_distance(board: Board, target: str, markers: list[Marker], seat: str) -> int | None:
    """ "The better of the two counts": the seat's marker closest to the target, if any."""
    distances = [board.distance(m.cell, target) for m in markers if m.seat == seat]
    return min(distances) if distances else None


def giver_points(hits: int, players: int, passed: bool, settings: Settings) -> int:
    """The clue giver's round points.

    "1 point per guesser who hit the cell or a neighbour. In a room with exactly 3 players,
    it's 2 points per guesser." "If the clue giver chose to pass the second clue, their points
    for the round are multiplied (×2 by default)."
    """
    per_hit = settings.giver_points_three_players if players == 3 else settings.giver_points
    points = hits * per_hit
    return points * settings.pass_multiplier if passed else points


def round_points(
    board: Board,
    target: str,
    markers: list[Marker],
    guessers: list[str],
    giver: str,
    players: int,
    passed: bool,
    settings: Settings,
) -> dict[str, int]:
    """Every seat's points for the round, guessers first, the giver last."""
    points: dict[str, int] = {}
    hits = 0
    for seat in guessers:
        distance = best_distance(board, target, markers, seat)
        points[seat] = guesser_points(distance, settings)
        if distance is not None and distance <= 1:
            hits += 1
    points[giver] = giver_points(hits, players, passed, settings)
    return points


def add_in_order(
    scores: dict[str, int],
    points: list[tuple[str, int]],
    goal: int,
    stop_at_goal: bool,
    may_win: Collection[str],
) -> tuple[dict[str, int], str | None]:
    """Add ``points`` to ``scores`` one seat at a time, in the given order.

    With ``stop_at_goal`` ("Right away"), "the first to cross the goal wins on the spot": adding
    stops there and the rest of the round's points are not added. Returns what was added and
    the winner, if someone crossed (reached) the goal. Only seats in ``may_win`` (those still
    in the match) cross it: points a player earned before leaving for good are added, but a
    player who left cannot win (``docs/games/pitacor.md``, "Leaving for good").
    """
    awarded: dict[str, int] = {}
    winner: str | None = None
    for seat, gained in points:
        scores[seat] += gained
        awarded[seat] = gained
        if winner is None and gained > 0 and scores[seat] >= goal and seat in may_win:
            winner = seat
            if stop_at_goal:
                break
    return awarded, winner
