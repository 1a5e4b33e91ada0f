"""Pintó, rule by rule (shared/rules/pinto.txt), with the rulebook's scoring examples."""

from __future__ import annotations

import msgspec
import pytest
from pinto_driver import DOODLE, Match

from tertulia.games import base
from tertulia.games.base import Player, RuleError
from tertulia.games.pinto import rules
from tertulia.games.pinto.drawing import Stroke
from tertulia.games.pinto.settings import FirstArtist, Language, Matching, Settings
from tertulia.games.pinto.state import (
    ConfirmMarks,
    FlagDrawing,
    Interpret,
    Judge,
    Phase,
    RevealDrawing,
    SetTitle,
    VoidDrawing,
)
from tertulia.games.pinto.views import view, views_changed_by


def test_3_to_8_players():
    for count in (2, 9):
        with pytest.raises(RuleError) as error:
            rules.start(Settings(), [Player(f"x{i}", f"X{i}") for i in range(count)], 1, 0.0)
        assert error.value.code == "match.player_count"


def test_the_game_is_played_in_3_rounds_and_the_host_may_change_it():
    assert Settings().rounds == 3
    match = Match(3, rounds=2)
    for _ in range(2):
        match.create({p: f"thing{i}" for i, p in enumerate(match.ids)}, {})
        match.judge_all()
    assert match.phase is Phase.ENDED and match.state.end_reason == "rounds_played"


def test_reveal_the_card_from_the_top_of_the_deck_a_category_each_round():
    match = Match(3)
    first = match.state.category
    assert first
    match.create({p: f"x{i}" for i, p in enumerate(match.ids)}, {})
    match.judge_all()
    assert match.state.round == 2 and match.state.category != first


def test_custom_categories_are_shuffled_in_with_the_deck():
    settings = {"custom_categories": ["Our cat Mimi"], "rounds": 1}
    seen = {Match(3, seed=s, **settings).state.category for s in range(120)}
    assert "Our cat Mimi" in seen


def test_you_cannot_use_the_name_of_the_category_in_any_form():
    match = Match(3, language=Language.PT_BR)
    forms = match.state.category_forms
    word = forms[-1]
    with pytest.raises(RuleError) as error:
        match.act("p1", SetTitle(f"um {word.upper()}"))
    assert error.value.code == "title.category_name"


def test_the_category_name_joined_by_a_hyphen_is_still_its_name() -> None:
    """ "You cannot use the name of the category to describe your drawing": not as part of a
    hyphenated word either ("beach-ball" at the beach). A saved title is not judged again
    on replay, so one accepted before this check still replays."""
    match = Match(3)
    word = match.state.category_forms[0]
    for title in (f"{word}-ball", f"ball-{word}"):
        with pytest.raises(RuleError) as error:
            match.act("p1", SetTitle(title))
        assert error.value.code == "title.category_name"
    replayed = rules.set_title  # what a replay does: the text is not judged again
    replayed(match.state, "p1", SetTitle(f"{word}-ball"), match.now, [], judge_text=False)
    assert match.state.works["p1"].title == f"{word}-ball"


def test_title_is_secret_and_changeable_until_the_drawing_is_revealed():
    match = Match(3)
    match.act("p1", SetTitle("moon"))
    match.act("p1", SetTitle("full moon"))
    match.act("p1", RevealDrawing(DOODLE))
    with pytest.raises(RuleError) as error:
        match.act("p1", SetTitle("sun"))
    assert error.value.code == "title.locked"
    assert match.state.works["p1"].title == "full moon"


def test_once_revealed_you_cannot_modify_your_drawing():
    match = Match(3)
    match.draw("p1", "moon")
    with pytest.raises(RuleError) as error:
        match.act("p1", RevealDrawing(DOODLE))
    assert error.value.code == "drawing.locked"


def test_each_player_does_phase_b_in_order_regardless_of_the_others():
    match = Match(3)
    match.draw("p2", "kite")
    with pytest.raises(RuleError) as error:  # p1 has not revealed yet
        match.act("p1", Interpret("p2", "kite"))
    assert error.value.code == "interpret.reveal_first"
    match.draw("p1", "moon")
    match.act("p1", Interpret("p2", "kite"))  # while p3 is just starting
    assert match.phase is Phase.CREATE and match.state.works["p3"].title is None


def test_you_can_leave_empty_spaces_counted_as_wrong():
    match = Match(3)
    match.create({"p1": "moon", "p2": "kite", "p3": "boat"}, {("p2", "p1"): "moon"})
    judgement = rules.current(match.state)
    blanks = [s for s, m in judgement.marks.items() if m.reason == "blank"]
    assert all(not judgement.marks[s].right for s in blanks) and blanks


def test_once_everyone_has_finished_phase_b_interpretation_begins():
    match = Match(3)
    match.create({"p1": "moon", "p2": "kite"}, {})
    assert match.phase is Phase.CREATE
    match.draw("p3", "boat")
    for reader in ("p1", "p2"):
        match.act(reader, Interpret("p3", ""))
    assert match.phase is Phase.CREATE  # p3 has not interpreted yet
    match.act("p3", Interpret("p1", ""))
    match.act("p3", Interpret("p2", ""))
    assert match.phase is Phase.JUDGE


def test_in_clockwise_order_each_opponent_reads_and_every_artist_is_judged_in_turn():
    match = Match(4, first_artist="first_seat")
    match.create({p: f"t{i}" for i, p in enumerate(match.ids)}, {})
    assert match.state.artists == ["p1", "p2", "p3", "p4"]
    assert rules.current(match.state).order == ["p2", "p3", "p4"]
    match.accept_all()
    assert rules.current(match.state).order == ["p3", "p4", "p1"]


def test_lucas_guessed_anas_drawing_right_three_guessed_wrong_both_gain_3():
    """ "Lucas (red) guessed Ana's (yellow) drawing right. 3 players guessed wrong, so Lucas and
    Ana gain 3 points each." """
    match = Match(5, first_artist="first_seat")  # p1 Lucas, p2 Ana, p3 Nico, p4 Eva, p5 Bo
    titles = {p: f"thing{i}" for i, p in enumerate(match.ids)}
    titles["p2"] = "sunflower"
    match.create(titles, {("p1", "p2"): "sunflower", ("p3", "p2"): "daisy"})
    match.accept_all()  # Lucas's own drawing: nobody right, Lucas −1
    judgement = rules.current(match.state)
    assert judgement.artist == "p2"
    match.accept_all()
    assert judgement.artist == "p2" and match.state.judgements[1].points == {"p2": 3, "p1": 3}


def test_everyone_guessed_lucas_drawing_right_everyone_else_gains_1():
    match = Match(4, first_artist="first_seat")
    readings = {(r, "p1"): "rocket" for r in ("p2", "p3", "p4")}
    match.create({"p1": "rocket", "p2": "a", "p3": "b", "p4": "c"}, readings)
    match.accept_all()
    assert match.state.judgements[0].points == {"p2": 1, "p3": 1, "p4": 1}


def test_no_one_guessed_nicos_drawing_nico_loses_1():
    match = Match(4, first_artist="first_seat")
    match.create({"p1": "comet", "p2": "a", "p3": "b", "p4": "c"}, {("p2", "p1"): "star"})
    match.accept_all()
    assert match.state.judgements[0].points == {"p1": -1}
    assert match.score("p1") == -1


def test_number_gender_and_synonyms_are_valid_medic_doctor():
    """ "if the title were 'Medic', words like medics, doctor, etc. would be considered correct" """
    match = Match(4, first_artist="first_seat")
    readings = {("p2", "p1"): "medics", ("p3", "p1"): "doctor", ("p4", "p1"): "nurse"}
    match.create({"p1": "Medic", "p2": "a", "p3": "b", "p4": "c"}, readings)
    marks = rules.current(match.state).marks
    assert (marks["p2"].right, marks["p2"].reason) == (True, "number")
    assert (marks["p3"].right, marks["p3"].reason) == (True, "synonym")
    assert not marks["p4"].right


def test_perfect_match_variant():
    match = Match(3, first_artist="first_seat", matching=Matching.PERFECT)
    readings = {("p2", "p1"): "Medic", ("p3", "p1"): "medics"}
    match.create({"p1": "medic", "p2": "a", "p3": "b"}, readings)
    marks = rules.current(match.state).marks
    assert marks["p2"].right and not marks["p3"].right


def test_a_log_saved_before_fair_marks_replays_the_artists_flips_as_before():
    """Fold semantics never change under an existing log: an old log's ``judge`` (the artist
    flips a mark) and ``confirm_marks`` fold as they did when the room replays it."""
    match = Match(4, first_artist="first_seat")
    match.create({"p1": "comet", "p2": "a", "p3": "b", "p4": "c"}, {("p2", "p1"): "shooting star"})
    match.act("p1", Judge("p2", True), replaying=True)  # the artist accepted "shooting star"
    assert rules.current(match.state).marks["p2"].reason == "artist"
    match.act("p1", ConfirmMarks(), replaying=True)
    assert match.state.judgements[0].points == {"p1": 2, "p2": 2}
    assert match.replay() == match.state


def test_in_a_log_saved_before_fair_marks_only_the_artist_judged_unless_gone_then_the_host():
    match = Match(4, first_artist="first_seat", host="p3")
    match.create({"p1": "comet", "p2": "a", "p3": "b", "p4": "c"}, {})
    for seat in ("p2", "p3"):
        with pytest.raises(RuleError) as error:
            match.act(seat, ConfirmMarks(), replaying=True)
        assert error.value.code == "judge.not_artist"
    match.act(None, base.Drop("p1"))
    match.act("p3", ConfirmMarks(), replaying=True)  # the host decided for the absent artist
    assert rules.current(match.state).artist == "p2"


@pytest.mark.parametrize("action", [Judge("p2", True), ConfirmMarks()])
def test_the_artist_alone_no_longer_decides_a_mark(action):
    """ "an artist can mark a wrong answer right or a right one wrong to gain points": a new
    ``judge`` or ``confirm_marks`` is refused, and changes nothing."""
    match = Match(4, first_artist="first_seat")
    match.create({"p1": "comet", "p2": "a", "p3": "b", "p4": "c"}, {("p2", "p1"): "star"})
    before = base.clone(match.state)
    with pytest.raises(RuleError) as error:
        match.act("p1", action)
    assert error.value.code == "judge.by_the_table" and match.state == before


def test_judging_time_up_the_marks_stand():
    match = Match(3, first_artist="first_seat", judging_seconds=30)
    match.create({"p1": "moon", "p2": "a", "p3": "b"}, {("p2", "p1"): "moon"})
    match.timeout()
    assert match.state.judgements[0].points == {"p1": 1, "p2": 1}


def test_drawing_time_up_unrevealed_drawings_sit_out_the_round():
    match = Match(3, drawing_seconds=60)
    match.draw("p1", "moon")
    match.draw("p2", "kite")
    match.timeout()
    assert match.phase is Phase.JUDGE and sorted(match.state.artists) == ["p1", "p2"]


def _moon_and_kite_revealed(**settings) -> Match:
    """Three players; p1 and p2 have revealed "moon" and "kite", p3 has not started."""
    match = Match(3, **settings)
    match.draw("p1", "moon")
    match.draw("p2", "kite")
    return match


def test_drawing_time_up_what_is_in_the_box_counts_as_the_interpretation():
    """ "missing interpretations are blanks" — but a reading still being typed when the clock
    runs out is on the player's screen, so it counts (kept as a draft while typed)."""
    match = _moon_and_kite_revealed(first_artist="first_seat", drawing_seconds=60)
    match.act("p2", Interpret("p1", "mo", draft=True))
    match.act("p2", Interpret("p1", "moon", draft=True))
    match.timeout()
    assert match.phase is Phase.JUDGE
    judgement = rules.current(match.state)
    assert judgement.artist == "p1" and judgement.marks["p2"].right
    assert match.state.works["p2"].drafts == {}


def test_a_draft_does_not_finish_phase_b_under_the_players_fingers():
    """ "Once everyone has finished phase B": typing is not finishing."""
    match = Match(3)
    for seat, title in (("p1", "moon"), ("p2", "kite"), ("p3", "boat")):
        match.draw(seat, title)
    for reader, artist in (("p1", "p2"), ("p1", "p3"), ("p2", "p1"), ("p2", "p3"), ("p3", "p1")):
        match.act(reader, Interpret(artist, "x"))
    match.act("p3", Interpret("p2", "ki", draft=True))
    assert match.phase is Phase.CREATE
    assert not rules.is_done(match.state, "p3")
    match.act("p3", Interpret("p2", "kite"))
    assert match.phase is Phase.JUDGE
    assert match.state.works["p3"].interpretations["p2"] == "kite"


def test_an_interpretation_can_be_changed_until_phase_c_even_while_typing():
    """A saved reading edited again: the newer text in the box is the one that counts."""
    match = _moon_and_kite_revealed(first_artist="first_seat", drawing_seconds=60)
    match.act("p2", Interpret("p1", "sun"))
    match.act("p2", Interpret("p1", "moon", draft=True))
    assert match.state.works["p2"].interpretations["p1"] == "sun"  # not yet
    match.timeout()
    assert rules.current(match.state).marks["p2"].right


def test_typing_back_to_the_saved_reading_leaves_no_draft():
    match = _moon_and_kite_revealed(first_artist="first_seat", drawing_seconds=60)
    match.act("p2", Interpret("p1", "moon"))
    match.act("p2", Interpret("p1", "moonlight", draft=True))
    match.act("p2", Interpret("p1", "moon", draft=True))
    assert match.state.works["p2"].drafts == {}
    match.timeout()
    assert rules.current(match.state).marks["p2"].right


def test_saving_a_reading_clears_its_draft():
    match = _moon_and_kite_revealed(first_artist="first_seat", drawing_seconds=60)
    match.act("p2", Interpret("p1", "moon", draft=True))
    match.act("p2", Interpret("p1", "sun"))
    assert match.state.works["p2"].drafts == {}
    match.timeout()
    assert not rules.current(match.state).marks["p2"].right


@pytest.mark.parametrize(
    ("seat", "artist", "code"),
    [
        ("p1", "p1", "interpret.own"),
        ("p3", "p1", "interpret.reveal_first"),
        ("p1", "p3", "interpret.not_revealed"),
        ("p1", "p9", "interpret.unknown_artist"),
    ],
)
def test_a_draft_is_checked_like_a_reading(seat, artist, code):
    match = _moon_and_kite_revealed()
    before = base.clone(match.state)
    with pytest.raises(RuleError) as refused:
        match.act(seat, Interpret(artist, "x", draft=True))
    assert refused.value.code == code
    assert match.state == before


def test_a_draft_is_seen_by_its_author_alone():
    """ "Complete your screen's chart": a draft is on its author's screen only."""
    match = _moon_and_kite_revealed()
    match.act("p2", Interpret("p1", "mushroom", draft=True))
    assert view(match.state, "p2")["my_drafts"] == {"p1": "mushroom"}
    for seat in ("p1", "p3", None):
        assert b"mushroom" not in msgspec.json.encode(view(match.state, seat))
    assert views_changed_by("p2", Interpret("p1", "x", draft=True)) == {"p2"}
    assert views_changed_by("p2", Interpret("p1", "x")) is None


def test_replaying_a_log_with_drafts_rebuilds_the_state():
    match = _moon_and_kite_revealed(drawing_seconds=60)
    match.act("p2", Interpret("p1", "moo", draft=True))
    assert match.replay() == match.state
    match.timeout()
    assert match.replay() == match.state


def test_a_flagged_drawing_voided_by_the_host_scores_nothing():
    match = Match(3, first_artist="first_seat", host="p3")
    match.draw("p1", "moon")
    with pytest.raises(RuleError) as error:
        match.act("p3", VoidDrawing("p1"))
    assert error.value.code == "drawing.not_flagged"
    match.act("p2", FlagDrawing("p1"))
    with pytest.raises(RuleError) as error:
        match.act("p2", VoidDrawing("p1"))
    assert error.value.code == "room.host_only"
    match.act("p3", VoidDrawing("p1"))
    match.create({"p2": "kite", "p3": "boat"}, {})
    match.act("p2", Interpret("p1", "moon"))
    match.act("p3", Interpret("p1", "moon"))
    match.act("p1", Interpret("p2", ""))
    match.act("p1", Interpret("p3", ""))
    assert "p1" not in [j.artist for j in match.state.judgements]
    match.judge_all()
    assert match.score("p2") == -1 == match.score("p3") and match.score("p1") == 0


def test_a_tie_goes_to_the_most_points_in_a_single_round_then_it_is_shared():
    match = Match(3, rounds=1)
    state = match.state
    a, b, c = state.players
    a.score, a.round_scores = 4, [4, 0]
    b.score, b.round_scores = 4, [2, 2]
    c.score, c.round_scores = 1, [1, 0]
    ranking = rules.ranking(state)
    assert [(p.seat, p.place, p.winner) for p in ranking] == [
        ("p1", 1, True),
        ("p2", 2, False),
        ("p3", 3, False),
    ]
    b.round_scores = [0, 4]
    ranking = rules.ranking(state)
    assert [(p.place, p.winner) for p in ranking[:2]] == [(1, True), (1, True)]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (SetTitle(""), "title.empty"),
        (RevealDrawing(DOODLE), "drawing.no_title"),
        (RevealDrawing([]), "drawing.empty"),
        (Interpret("p1", "me"), "interpret.own"),
        (Interpret("p2", "kite"), "interpret.reveal_first"),
        (Interpret("zz", "kite"), "interpret.unknown_artist"),
        (ConfirmMarks(), "action.wrong_phase"),
    ],
)
def test_bad_input_gets_a_code_and_changes_nothing(action, code):
    match = Match(3)
    if code not in ("drawing.no_title", "title.empty"):
        match.act("p1", SetTitle("moon"))
    before = base.clone(match.state)
    with pytest.raises(RuleError) as error:
        rules.apply(match.state, "p1", action, match.now)
    assert error.value.code == code and match.state == before


@pytest.mark.parametrize(
    ("strokes", "code"),
    [
        ([Stroke("#123456", 5, [1, 2, 3, 4])], "drawing.malformed"),
        ([Stroke("#1d1d1f", 7, [1, 2, 3, 4])], "drawing.malformed"),
        ([Stroke("#1d1d1f", 5, [1, 2, 3])], "drawing.malformed"),
        ([Stroke("eraser", 5, [1, 2, 3, 4])], "drawing.empty"),
        ([Stroke("#1d1d1f", 2, [1, 2] * 200)] * 601, "drawing.too_large"),
        ([Stroke("#1d1d1f", 2, [1, 2] * 31_000)], "drawing.too_large"),
    ],
)
def test_an_oversized_or_malformed_drawing_is_refused(strokes, code):
    match = Match(3)
    match.act("p1", SetTitle("moon"))
    with pytest.raises(RuleError) as error:
        match.act("p1", RevealDrawing(strokes))
    assert error.value.code == code


def test_replaying_the_log_rebuilds_the_state():
    match = Match(4, rounds=2)
    for _ in range(2):
        match.create({p: f"thing{i}" for i, p in enumerate(match.ids)}, {("p2", "p1"): "thing0"})
        match.judge_all({("p1", "p3"): True})
    assert match.replay() == match.state


def test_drawings_travel_as_blobs_seen_by_everyone_once_revealed():
    from tertulia.games.pinto.views import blobs, view

    match = Match(3)
    match.act("p1", SetTitle("moon"))
    assert blobs(match.state, "p2") == {} and view(match.state, "p2")["drawings"] == {}
    match.act("p1", RevealDrawing(DOODLE))
    key = view(match.state, "p2")["drawings"]["p1"]["blob"]
    assert blobs(match.state, "p2")[key][0]["points"] == DOODLE[0].points
    assert blobs(match.state, None) == blobs(match.state, "p3")
    # A connection that has a drawing is not sent it again (nor is it built again).
    assert blobs(match.state, "p2", known={key}) == {}


def test_a_replayed_title_is_not_judged_for_profanity_again():
    """Public rooms filter titles, against word lists that grow between versions: a title
    accepted once stays accepted when the room replays its log (``judge_text=False``)."""
    players = [Player(f"p{i + 1}", name) for i, name in enumerate(["Lucas", "Ana", "Nico"])]
    state = rules.start(Settings(), players, 1, 100.0, public=True)
    with pytest.raises(RuleError) as refused:
        rules.apply(state, "p1", SetTitle("cat_shit"), 100.0)
    assert refused.value.code == "title.profanity"
    replayed, _ = rules.apply(state, "p1", SetTitle("cat_shit"), 100.0, judge_text=False)
    assert view(replayed, "p1")["my_title"] == "cat_shit"


def _first_artist(seed: int, new: tuple[str, ...], first: FirstArtist) -> str:
    match = Match(4, seed=seed, new=new, first_artist=first)
    match.create({seat: f"thing {seat}" for seat in match.ids}, {})
    assert match.phase is Phase.JUDGE
    return match.state.artists[0]


def test_a_first_timer_is_never_the_first_artist_judged_in_the_first_round():
    """ "a first-timer is never the first … artist" (``Player.new``, from the room): at
    random among the others, or the first in the host's order who is not new."""
    random = {_first_artist(seed, ("p1", "p4"), FirstArtist.RANDOM) for seed in range(40)}
    assert random == {"p2", "p3"}
    assert _first_artist(0, ("p1",), FirstArtist.FIRST_SEAT) == "p2"
    assert _first_artist(0, (), FirstArtist.FIRST_SEAT) == "p1"


def _at_version(match: Match, version: int) -> Match:
    match.state.version = version  # as if started then (the room logs it with the start)
    return match


def _first_judged_after_a_void(seed: int, first: FirstArtist, version: int) -> str:
    """p1's drawing is flagged and voided while everyone draws; p2 is new to Pintó."""
    match = _at_version(Match(4, seed=seed, new=("p2",), first_artist=first, host="p3"), version)
    match.draw("p1", "moon")
    match.act("p4", FlagDrawing("p1"))
    match.act("p3", VoidDrawing("p1"))
    match.create({seat: f"thing {seat}" for seat in ("p2", "p3", "p4")}, {})
    for other in ("p2", "p3", "p4"):
        match.act("p1", Interpret(other, ""))
        match.act(other, Interpret("p1", ""))
    assert match.phase is Phase.JUDGE
    return rules.current(match.state).artist


def test_a_first_timer_is_not_judged_first_when_the_drawing_before_them_is_voided():
    """ "a first-timer is never the first … artist": a drawing voided before the judging is
    skipped, so the judging does not start there, or the one after it (here the first-timer
    p2) would be judged first. From match version 3; older matches replay as they did."""
    assert _first_judged_after_a_void(0, FirstArtist.FIRST_SEAT, 3) == "p3"
    assert _first_judged_after_a_void(0, FirstArtist.FIRST_SEAT, 2) == "p2"  # as it was
    firsts = {_first_judged_after_a_void(seed, FirstArtist.RANDOM, 3) for seed in range(30)}
    assert firsts == {"p3", "p4"}


def test_a_player_back_in_the_round_they_left_plays_it_and_is_told_so():
    """ "a newcomer plays from the next round": someone who left and joins again within the
    same round is no newcomer; their title, drawing and readings are still theirs, so they
    play on, and the join says so. A newcomer is told the next round."""
    match = Match(4, first_artist=FirstArtist.FIRST_SEAT)
    match.draw("p1", "moon")
    match.draw("p4", "kite")
    match.act(None, base.Leave("p4"))
    events = match.act(None, base.Join("p4", "Eva"))
    assert [e.data["plays_from"] for e in events if e.kind == "player.joined"] == [1]
    match.act("p4", Interpret("p1", "moon"))  # they play this round
    assert match.state.works["p4"].interpretations == {"p1": "moon"}
    events = match.act(None, base.Join("p5", "Bo"))
    assert [e.data["plays_from"] for e in events if e.kind == "player.joined"] == [2]
    with pytest.raises(RuleError) as error:
        match.act("p5", SetTitle("sun"))
    assert error.value.code == "seat.next_round"


def test_a_tie_in_a_match_cut_short_counts_the_round_it_ended_in() -> None:
    """ "In case of a tie, the player who gained the most points in a single round wins. If
    the tie persists, victory is shared": a match that ends mid-round (too few players)
    counts that round's points so far as a round. From match version 2; older matches
    end as they did (found by an audit of the engine against the rules)."""
    for version, shared in ((2, True), (1, False)):
        match = _at_version(Match(3, first_artist=FirstArtist.FIRST_SEAT, rounds=3), version)
        # Round 1: p1's drawing understood by p2 only (+1 each); the others by nobody.
        match.create({"p1": "moon", "p2": "cloud", "p3": "tree"}, {("p2", "p1"): "moon"})
        match.judge_all()
        # Round 2: p1 drops and sits out; p2's drawing understood by p3 only (+1 each).
        match.act(None, base.Drop("p1"))
        match.draw("p2", "sun")
        match.draw("p3", "boat")
        match.act("p3", Interpret("p2", "sun"))
        match.act("p2", Interpret("p3", ""))
        match.accept_all()
        match.act(None, base.Leave("p3"))  # too few players: the match ends mid-round
        scores = {p.id: p.score for p in match.state.players}
        assert scores["p1"] == scores["p2"]  # tied, each with a best round of +1
        winners = {p.seat for p in match.state.outcome.ranking if p.winner}
        assert winners == ({"p1", "p2"} if shared else {"p1"})


def test_a_player_who_left_for_good_is_ranked_after_those_still_in_and_never_wins() -> None:
    """ "Whoever has the most points wins": a player who leaves gives up the match, as in
    Pitacor and Haiclue; they keep their points, ranked after those still in. From match
    version 2; older matches end as they did."""
    for version in (2, 1):
        match = _at_version(Match(4, rounds=2, first_artist=FirstArtist.FIRST_SEAT), version)
        # Round 1: p1's drawing understood by p2 only (+2 each); the others by nobody.
        match.create(
            {"p1": "moon", "p2": "cloud", "p3": "tree", "p4": "kite"}, {("p2", "p1"): "moon"}
        )
        match.judge_all()
        match.act(None, base.Leave("p1"))
        match.create({"p2": "sun", "p3": "boat", "p4": "cat"}, {})
        match.judge_all()
        ranking = [(p.seat, p.winner) for p in match.state.outcome.ranking]
        if version < 2:
            assert ranking[0] == ("p1", True)
            continue
        assert ranking[-1] == ("p1", False) and ranking[0] == ("p2", True)


def test_when_everyone_is_away_during_drawing_the_round_waits_for_them() -> None:
    """ "Once everyone has finished phase B": with every player away (their connections
    lost), nobody has finished; the round waits for them (or its clock) rather than ending
    at once with nothing drawn. From match version 2; older matches replay as they did."""
    for version in (2, 1):
        match = _at_version(Match(3), version)
        match.act("p1", SetTitle("moon"))
        category = match.state.category
        for seat in ("p1", "p2", "p3"):
            match.act(None, base.Drop(seat))
        if version < 2:
            assert match.state.round == 2  # the old way: round 1 ended, empty
            continue
        assert match.phase is Phase.CREATE
        assert (match.state.round, match.state.category) == (1, category)
        match.act(None, base.Return("p1"))
        assert match.phase is Phase.CREATE and match.state.works["p1"].title == "moon"
