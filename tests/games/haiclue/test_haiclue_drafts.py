"""Issue 17 point 14: "A clue not finished when the clock runs out is skipped, though the
player's draft has valid tiles: keep drafts on the server (they are that player's secret) and
take a draft of two or more tiles as the clue at the deadline."""

from __future__ import annotations

import msgspec
import pytest
from haiclue_driver import Match

from tertulia.games.base import RuleError, decode_action
from tertulia.games.haiclue import Action, rules, views_changed_by
from tertulia.games.haiclue.state import Guess, Phase, SubmitClue
from tertulia.games.haiclue.views import view


def draft(match: Match, seat: str, words: list[str]) -> None:
    match.act(seat, SubmitClue(words, draft=True))


def test_a_draft_of_two_or_more_tiles_is_taken_as_the_clue_at_the_deadline():
    match = Match(4, clue_seconds=60)
    match.clue("p1")
    words = match.rack("p2")[3:6][::-1]  # the author's order stands
    draft(match, "p2", words)
    match.timeout()
    assert match.phase is Phase.GUESS
    assert sorted(match.state.reading_order) == ["p1", "p2"]
    assert rules.clue_words(match.state, "p2") == words
    assert any(
        e.kind == "clue.taken_from_draft" and e.data == {"seats": ["p2"]} for e in match.events
    )


def test_a_draft_of_one_tile_is_still_skipped_at_the_deadline():
    match = Match(4, clue_seconds=60)
    match.clue("p1")
    draft(match, "p2", match.rack("p2")[:1])
    match.timeout()
    assert match.state.reading_order == ["p1"]
    skipped = next(e for e in match.events if e.kind == "clue.skipped")
    assert skipped.data == {"seats": ["p2", "p3", "p4"]}


def test_a_draft_counts_against_the_hosts_minimum_of_tiles():
    """ "the host may raise it": a draft shorter than the room's minimum is no clue."""
    match = Match(3, clue_seconds=60, min_clue_tiles=3)
    draft(match, "p1", match.rack("p1")[:2])
    draft(match, "p2", match.rack("p2")[:3])
    match.timeout()
    assert match.state.reading_order == ["p2"]


def test_the_latest_draft_is_the_one_taken_and_an_empty_draft_takes_it_back():
    match = Match(3, clue_seconds=60)
    draft(match, "p1", match.rack("p1")[:2])
    draft(match, "p1", match.rack("p1")[4:7])
    draft(match, "p2", match.rack("p2")[:2])
    draft(match, "p2", [])
    assert "p2" not in match.state.drafts
    match.timeout()
    assert match.state.reading_order == ["p1"]
    assert rules.clue_words(match.state, "p1") == match.rack("p1")[4:7]


def test_a_draft_finishes_nothing_and_the_build_waits_on():
    match = Match(3)
    for seat in match.ids:
        draft(match, seat, match.rack(seat)[:3])
    assert match.phase is Phase.BUILD and not match.state.clues
    assert all(not p["finished"] for p in view(match.state, "p1")["players"])


def test_finishing_the_clue_replaces_the_draft():
    match = Match(3)
    draft(match, "p1", match.rack("p1")[:3])
    words = match.clue("p1", 2)
    assert "p1" not in match.state.drafts
    assert view(match.state, "p1")["my_draft"] is None
    assert view(match.state, "p1")["my_clue"] == words
    with pytest.raises(RuleError) as refused:
        draft(match, "p1", match.rack("p1")[:4])
    assert refused.value.code == "clue.already_submitted"


@pytest.mark.parametrize(
    ("words", "code"),
    [
        (["nope"], "clue.not_your_tile"),
        (["black0"], "clue.wrong_side"),
        (None, "clue.tile_twice"),
    ],
)
def test_a_draft_is_refused_like_a_clue_and_changes_nothing(words, code):
    match = Match(3)
    rack = match.rack("p1")
    draft(match, "p1", rack[:2])
    before = msgspec.json.encode(match.state)
    if words is None:
        words = [rack[0], rack[0]]
    elif words == ["black0"]:
        words = [match.rack("p1")[0].replace("white", "black")]
    with pytest.raises(RuleError) as refused:
        match.act("p1", SubmitClue(words, draft=True))
    assert refused.value.code == code
    assert msgspec.json.encode(match.state) == before


def test_a_draft_is_only_its_authors_to_see():
    """ "keep drafts on the server (they are that player's secret)"."""
    match = Match(4)
    words = match.rack("p2")[:3]
    draft(match, "p2", words)
    assert view(match.state, "p2")["my_draft"] == words
    for seat in ("p1", "p3", "p4", None):
        raw = msgspec.json.encode(view(match.state, seat))
        assert not any(f'"{w}"'.encode() in raw for w in words), seat


def test_a_draft_changes_only_its_authors_view():
    match = Match(4)
    before = {seat: view(match.state, seat) for seat in [*match.ids, None]}
    action = SubmitClue(match.rack("p2")[:2], draft=True)
    match.act("p2", action)
    assert views_changed_by("p2", action) == frozenset({"p2"})
    for seat in ("p1", "p3", "p4", None):
        assert view(match.state, seat) == before[seat]
    assert view(match.state, "p2") != before["p2"]
    assert views_changed_by("p2", SubmitClue(match.rack("p2")[:2])) is None
    assert views_changed_by("p2", Guess("red")) is None  # type: ignore[arg-type]


def test_drafts_end_with_the_build():
    match = Match(3, clue_seconds=60)
    draft(match, "p1", match.rack("p1")[:2])
    draft(match, "p2", match.rack("p2")[:1])
    match.timeout()
    assert match.state.drafts == {}
    assert view(match.state, "p2")["my_draft"] is None


def test_a_dropped_players_draft_is_their_clue_when_the_build_ends_without_them():
    """A player who dropped is not waited for; what they had built is read like a clue the
    clock ran out on."""
    match = Match(3)
    draft(match, "p3", match.rack("p3")[:2])
    match.drop("p3")
    match.clue("p1")
    match.clue("p2")
    assert match.phase is Phase.GUESS and "p3" in match.state.reading_order


def test_a_timeout_in_an_old_log_with_no_drafts_folds_as_before():
    """Fold rules never change under an existing log: actions as old clients sent them
    (no ``draft`` field) replay to the same state, the unfinished clues skipped."""
    match = Match(4, clue_seconds=60)
    old_log = [
        ("p1", {"type": "submit_clue", "words": match.rack("p1")[:2]}),
        (None, {"type": "timeout"}),
    ]
    state = match.state
    for seat, raw in old_log:
        action = decode_action(Action, raw)
        state, _ = rules.apply(state, seat, action, match.state.deadline or 0.0)
    assert state.reading_order == ["p1"] and state.drafts == {}
    assert set(state.clues) == {"p1"}
