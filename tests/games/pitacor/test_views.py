"""What each seat sees: "that's the target color, and only they can see it", hidden markers,
Ultra Hard's hex codes. Views are checked as the bytes the room would send."""

from __future__ import annotations

import msgspec
from pitacor_driver import Match

from tertulia.games.pitacor.settings import MarkerVisibility
from tertulia.games.pitacor.state import Phase, SelectCell
from tertulia.games.pitacor.views import static_data, view


def _bytes(match: Match, seat: str | None) -> bytes:
    return msgspec.json.encode(view(match.state, seat))


def test_only_the_clue_giver_can_see_the_target_and_the_candidates():
    match = Match(4)
    target = match.choose(1)
    giver_view = view(match.state, match.giver)
    assert giver_view["target"] == target
    assert [c["cell"] for c in giver_view["candidates"]] == match.state.round.candidates
    for seat in [*match.guessers, None]:
        seen = view(match.state, seat)
        assert seen["target"] is None and seen["candidates"] is None
        for cell in match.state.round.candidates:
            assert f'"{cell}"'.encode() not in _bytes(match, seat)


def test_everyone_sees_the_target_at_the_reveal():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 3))
    match.pass_clue()
    for seat in [*match.guessers, None]:
        seen = view(match.state, seat)
        assert seen["target"] == target and seen["points"] == match.state.round.points


def test_visible_markers_everyone_sees_markers_as_they_land():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a, b, _ = match.guessers
    match.place(a, "G7")
    assert {"seat": a, "cell": "G7", "guess": 1} in view(match.state, b)["markers"]
    assert view(match.state, None)["markers"] == [{"seat": a, "cell": "G7", "guess": 1}]


def test_hidden_markers_are_shown_only_at_the_reveal():
    match = Match(4, markers=MarkerVisibility.HIDDEN)
    target = match.choose()
    match.clue("ocean")
    a, b, c = match.guessers
    match.place(a, "G7")
    assert view(match.state, a)["markers"] == [{"seat": a, "cell": "G7", "guess": 1}]
    for seat in (b, c, match.giver, None):
        assert view(match.state, seat)["markers"] == []
        assert b'"G7"' not in _bytes(match, seat)
    assert a in view(match.state, b)["confirmed"]  # who has placed is public, not where
    match.place(b, match.near(target, 2))
    match.place(c, match.near(target, 3))
    match.pass_clue()
    assert len(view(match.state, None)["markers"]) == 3


def test_a_selection_is_seen_only_by_its_owner():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a, b, _ = match.guessers
    match.act(a, SelectCell("K9"))
    assert view(match.state, a)["selection"] == "K9"
    assert view(match.state, b)["selection"] is None
    assert b'"K9"' not in _bytes(match, b)


def test_guessers_views_do_not_depend_on_which_candidate_is_the_target():
    """Whatever the giver picks, a guesser's screen is byte for byte the same until the reveal."""
    worlds = [Match(5, seed=21) for _ in range(4)]
    for index, match in enumerate(worlds):
        match.choose(index)
    for step in ("clue", "guess", "clue2", "guess2"):
        for match in worlds:
            if step == "clue":
                match.clue("ocean")
            elif step == "clue2":
                match.clue("calm tide")
            else:
                cells = ["B2", "C9", "N20", "F30"] if step == "guess" else ["H1", "J5", "L7", "P2"]
                match.guess_all(dict(zip(match.guessers, cells, strict=True)))
        if worlds[0].phase is Phase.REVEAL:
            break
        for seat in [*worlds[0].guessers, None]:
            assert len({_bytes(match, seat) for match in worlds}) == 1, (step, seat)
    assert all(match.phase is Phase.REVEAL for match in worlds)
    assert len({_bytes(match, None) for match in worlds}) == 4  # the reveal tells them apart


def test_ultra_hard_shows_hex_codes_only_to_everyone_then_the_real_colours_at_the_reveal():
    match = Match(4, ultra_hard=True)
    for seat in [match.giver, *match.guessers, None]:
        board = view(match.state, seat)["board"]
        assert (board["id"], board["cols"], board["rows"]) == ("ultra_hard", 15, 8)
        assert board["show_colours"] is False  # "The clue giver only sees the codes too."
    cells = static_data()["boards"]["ultra_hard"]["cells"]
    assert len(cells) == 120 and all(c.startswith("#") and len(c) == 7 for c in cells)
    target = match.choose()
    assert view(match.state, match.giver)["candidates"][0]["hex"].startswith("#")
    match.clue("ocean")
    match.guess_all(match.around(target, 1))
    match.pass_clue()
    assert view(match.state, None)["board"]["show_colours"] is True
    assert match.state.round.points[match.giver] == 3 * 2  # "Same rules, same points."


def test_each_seat_is_told_what_to_do_now():
    match = Match(4)
    assert view(match.state, match.giver)["you"]["to_do"] == "choose_target"
    assert view(match.state, match.guessers[0])["you"]["to_do"] is None
    assert view(match.state, match.guessers[0])["waiting_for"] == [match.giver]
    match.choose()
    match.clue("ocean")
    guesser = view(match.state, match.guessers[0])["you"]
    assert guesser == {
        "seat": match.guessers[0],
        "role": "guesser",
        "may_chat": True,
        "to_do": "place_marker",
    }
    assert view(match.state, match.giver)["you"]["may_chat"] is False
    assert view(match.state, None)["you"]["role"] == "spectator"


def test_past_rounds_say_what_was_added_and_which_round_the_match_cut_short():
    """The history shows each finished round; "the match ends" mid-round (too few players
    left) files that round unscored, and the view says so rather than "nobody scored"."""
    match = Match(3, goal=99)
    giver = match.giver
    match.play_round(dict(zip(match.guessers, ["A1", "A2"], strict=True)))
    match.next_round()
    (first,) = view(match.state, giver)["history"]
    assert first["unfinished"] is False and first["awarded"] == first["points"]
    match.choose()
    match.clue("meadow")
    match.leave(match.guessers[0])
    assert match.phase is Phase.ENDED
    last = view(match.state, match.giver)["history"][-1]
    assert last["round"] == 2 and last["unfinished"] is True
    assert last["points"] == {} and last["clues"] == ["meadow"]
