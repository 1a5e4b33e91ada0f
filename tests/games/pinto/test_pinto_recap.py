"""The album at the end of a Pintó match (issue 19, item 9): "every drawing with its title and
interpretations". ``past_rounds`` carries every round that is over; a match that ends during
a round (too few players left) ends that round too, with the drawings judged in it — and the
titles and readings of the drawings never judged stay hidden."""

from __future__ import annotations

import msgspec
from pinto_driver import Match

from tertulia.games import base
from tertulia.games.pinto import rules
from tertulia.games.pinto.state import Phase
from tertulia.games.pinto.views import blobs, view


def _cut_short_after_one_drawing() -> tuple[Match, str, list[str]]:
    match = Match(3, rounds=2, first_artist="first_seat")
    match.create({"p1": "moon", "p2": "kite", "p3": "boat"}, {})
    match.judge_all()
    match.create({"p1": "comet", "p2": "tulip", "p3": "anchor"}, {("p2", "p1"): "comet"})
    judged = rules.current(match.state).artist
    match.accept_all()  # the first drawing of round 2 is judged, its title revealed
    # The next drawing's judging has begun (its title is on show); the last one's has not.
    shown = rules.current(match.state).artist
    never = next(a for a in ("p1", "p2", "p3") if a not in (judged, shown))
    match.act(None, base.Leave(shown))  # two players are too few: the match ends
    assert match.phase is Phase.ENDED
    return match, judged, [never]


def test_the_album_keeps_the_round_the_end_cut_short():
    match, judged, unjudged = _cut_short_after_one_drawing()
    titles = {"p1": "comet", "p2": "tulip", "p3": "anchor"}
    for seat in ("p1", "p2", "p3", None):
        seen = view(match.state, seat)
        assert [p["round"] for p in seen["past_rounds"]] == [1, 2]
        cut = seen["past_rounds"][1]
        assert [j["artist"] for j in cut["judged"]] == [judged]
        assert cut["judged"][0]["title"] == titles[judged]
        # Every drawing of the round was revealed, so it is in the album's drawings; the
        # titles of those never judged are not anywhere in the view.
        assert set(cut["drawings"]) == {"p1", "p2", "p3"}
        raw = msgspec.json.encode(seen)
        for artist in unjudged:
            if artist != seat:
                assert f'"{titles[artist]}"'.encode() not in raw
        # The drawings' strokes come as blobs under the keys the album names.
        fresh = blobs(match.state, seat)
        assert {d["blob"] for d in cut["drawings"].values()} <= set(fresh)


def test_a_match_played_to_the_end_has_each_round_once():
    match = Match(3, rounds=2, first_artist="first_seat")
    for r in range(2):
        match.create({p: f"thing{r}{p}" for p in match.ids}, {})
        match.judge_all()
    assert match.phase is Phase.ENDED
    rounds = view(match.state, "p2")["past_rounds"]
    assert [p["round"] for p in rounds] == [1, 2]
    assert view(match.replay(), "p2")["past_rounds"] == rounds  # "matches the log"


def test_a_round_cut_short_before_any_judging_is_not_in_the_album():
    match = Match(3, rounds=2, first_artist="first_seat")
    match.create({"p1": "moon", "p2": "kite", "p3": "boat"}, {})
    match.judge_all()
    match.draw("p1", "comet")
    match.act(None, base.Leave("p2"))
    assert match.phase is Phase.ENDED
    seen = view(match.state, "p3")
    assert [p["round"] for p in seen["past_rounds"]] == [1]
    assert b'"comet"' not in msgspec.json.encode(seen)
