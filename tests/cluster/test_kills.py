"""A few kills at random moments (``kills.py`` runs the issue's 50): nothing acknowledged is
lost, and every room is playable again within 5 s of each kill."""

from __future__ import annotations

import asyncio

from kills import run_kills


def test_nodes_killed_at_random_moments_lose_no_acknowledged_move(tmp_path) -> None:
    report = asyncio.run(run_kills(tmp_path, kills=4, max_seconds=120, rooms=2, seed=7))
    assert report.kills == 4
    assert report.lost == []
    assert report.moves > 20
    assert report.worst_stall <= 5.0, f"a room waited {report.worst_stall:.1f} s after a kill"
    assert report.worst_recovery <= 5.0, f"a room was back after {report.worst_recovery:.1f} s"
