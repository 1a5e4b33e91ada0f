"""Writes ``data/old_log.json``: a Pintó match logged by the code of before marks were kept
(commit f152431), with the state that code folded it to. ``test_pinto_verdicts`` replays it
with today's code. Made once, with that commit's code first on the path::

    git archive f152431 src tests/games/pinto | tar -x -C /tmp/old
    cp tests/games/pinto/old_log_maker.py /tmp/old/tests/games/pinto/
    PYTHONPATH=/tmp/old/src .venv/bin/python /tmp/old/tests/games/pinto/old_log_maker.py \\
        tests/games/pinto/data/old_log.json
"""

from __future__ import annotations

import sys

import msgspec
from pinto_driver import Match

from tertulia.games.pinto.state import Interpret, Phase


def main(path: str) -> None:
    match = Match(4, seed=7, rounds=2, first_artist="first_seat")
    # Round 1: a same word, a plural, a synonym, a typo, a blank, a wrong guess, and a draft
    # left in the box when the clock ends phase B (it counts).
    titles = {"p1": "cat", "p2": "red apple", "p3": "snowman", "p4": "doctor"}
    for seat, title in titles.items():
        match.draw(seat, title)
    readings = {
        ("p1", "p2"): "apples",
        ("p1", "p3"): "snow man",
        ("p1", "p4"): "physician",
        ("p2", "p1"): "cat",
        ("p2", "p3"): "snowmann",
        ("p2", "p4"): "",
        ("p3", "p1"): "dog",
        ("p3", "p2"): "apple",
        ("p3", "p4"): "doctors",
        ("p4", "p2"): "tomato",
        ("p4", "p3"): "snowman",
    }
    for (reader, artist), text in readings.items():
        match.act(reader, Interpret(artist, text))
    match.act("p4", Interpret("p1", "kitty", draft=True))
    match.timeout()
    assert match.phase is Phase.JUDGE
    match.judge_all({("p1", "p3"): True})
    # Round 2: everyone reads everything; a draft saved over, then the clocks run out.
    titles = {"p1": "boats", "p2": "a tree", "p3": "moon", "p4": "nurse"}
    for seat, title in titles.items():
        match.draw(seat, title)
    match.act("p2", Interpret("p1", "ship", draft=True))
    match.act("p2", Interpret("p1", "boat"))
    match.act("p3", Interpret("p2", "trees"))
    match.act("p4", Interpret("p3", "the moon", draft=True))
    while match.phase is not Phase.ENDED:
        match.timeout()
    log = [[seat, action, now] for seat, action, now in match.log]
    with open(path, "wb") as out:
        out.write(
            msgspec.json.format(
                msgspec.json.encode(
                    {
                        "settings": match.settings,
                        "seed": match.seed,
                        "log": log,
                        "state": match.state,
                    }
                )
            )
        )


if __name__ == "__main__":
    main(sys.argv[1])
