"""Issue 17, point 11: "keep every past round in the views (after its reveal, visible to
all) so the end of the game can show every round"; a reload (a fresh view) still shows them."""

from __future__ import annotations

from pinto_driver import DOODLE, Match

from tertulia.games import base
from tertulia.games.pinto.state import FlagDrawing, Phase, VoidDrawing
from tertulia.games.pinto.views import blobs, view


def two_rounds() -> Match:
    match = Match(3, rounds=2, first_artist="first_seat")
    match.create({"p1": "moon", "p2": "kite", "p3": "boat"}, {("p2", "p1"): "moon"})
    match.judge_all()
    assert match.state.round == 2 and match.phase is Phase.CREATE
    return match


def test_titles_and_interpretations_of_past_rounds_stay_in_every_view():
    match = two_rounds()
    for seat in ("p1", "p2", "p3", None):  # visible to all, spectators too
        (past,) = view(match.state, seat)["past_rounds"]
        assert past["round"] == 1 and past["category"]
        titles = {j["artist"]: j["title"] for j in past["judged"]}
        assert titles == {"p1": "moon", "p2": "kite", "p3": "boat"}
        moon = next(j for j in past["judged"] if j["artist"] == "p1")
        assert moon["interpretations"] == {"p2": "moon", "p3": ""}
        assert moon["points"] == {"p1": 1, "p2": 1}
        assert moon["marks"]["p2"]["right"] and not moon["marks"]["p3"]["right"]
    # The round's results, which used to lose their titles, have them too.
    assert {j["title"] for j in view(match.state, "p2")["last_round"]} == {"moon", "kite", "boat"}


def test_a_reload_a_fresh_view_still_shows_the_past_rounds_drawings():
    """A new connection knows no blob: it is sent every past round's drawing again."""
    match = two_rounds()
    (past,) = view(match.state, "p3")["past_rounds"]
    fresh = blobs(match.state, "p3")  # what a reloaded page is sent
    for artist, drawing in past["drawings"].items():
        assert fresh[drawing["blob"]][0]["points"] == DOODLE[0].points, artist
    assert blobs(match.state, "p3", known=set(fresh)) == {}  # and only once


def test_the_end_of_the_game_shows_every_round():
    match = Match(3, rounds=3, first_artist="first_seat")
    for r in range(3):
        match.create({p: f"thing{r}{p}" for p in match.ids}, {})
        match.judge_all()
    assert match.phase is Phase.ENDED
    rounds = view(match.state, None)["past_rounds"]
    assert [p["round"] for p in rounds] == [1, 2, 3]
    assert {j["title"] for j in rounds[2]["judged"]} == {f"thing2{p}" for p in match.ids}
    assert match.replay() == match.state


def test_a_title_never_revealed_is_not_kept_for_view():
    """ "after its reveal": a drawing voided before its turn never had its title shown, so a
    past round does not show it either."""
    match = Match(3, rounds=2, first_artist="first_seat", host="p2")
    match.create({"p1": "moon", "p2": "kite", "p3": "boat"}, {})
    match.act("p1", FlagDrawing("p3"))
    match.act("p2", VoidDrawing("p3"))
    match.judge_all()
    (past,) = view(match.state, "p1")["past_rounds"]
    assert {j["artist"] for j in past["judged"]} == {"p1", "p2"}
    assert "boat" not in str(view(match.state, "p1"))
    assert past["drawings"]["p3"]["void"] is True


def test_a_player_who_leaves_keeps_their_rounds_in_the_views():
    match = Match(4, rounds=2, first_artist="first_seat")
    match.create({p: f"thing{p}" for p in match.ids}, {})
    match.judge_all()
    match.act(None, base.Leave("p4"))
    (past,) = view(match.state, "p1")["past_rounds"]
    assert any(j["artist"] == "p4" and j["title"] == "thingp4" for j in past["judged"])
