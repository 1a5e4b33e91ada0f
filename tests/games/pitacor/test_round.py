"""Pitacor rule sentences about players, the round and markers (shared/rules/pitacor.txt)."""

from __future__ import annotations

import pytest
from pitacor_driver import Match, players

from tertulia.games.base import Player, RuleError
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import GuessMode, MarkerVisibility, Settings
from tertulia.games.pitacor.state import Confirm, GiveClue, Phase, SelectCell


@pytest.mark.parametrize("count", [3, 10])
def test_3_to_10_players_can_play(count: int):
    match = Match(count)
    assert len(match.state.members) == count


@pytest.mark.parametrize("count", [0, 2, 11])
def test_fewer_than_3_or_more_than_10_players_cannot_start(count: int):
    with pytest.raises(RuleError) as error:
        rules.start(Settings(), players(count) if count <= 10 else _eleven(), 1, 0.0)
    assert error.value.code == "match.player_count"


def _eleven():
    from tertulia.games.base import Player

    return [Player(f"x{i}", f"X{i}") for i in range(11)]


def test_one_player_gives_the_clues_and_everyone_else_guesses():
    match = Match(5)
    assert match.giver not in match.guessers
    assert sorted([match.giver, *match.guessers]) == sorted(p.id for p in match.players)


def test_turn_goes_around_everyone_in_lobby_order_starting_with_a_random_player():
    firsts = {Match(4, seed=seed).giver for seed in range(40)}
    assert firsts == {"p1", "p2", "p3", "p4"}  # any player may start
    match = Match(4, seed=3)
    ids = [p.id for p in match.players]
    start = ids.index(match.giver)
    givers = []
    for _ in range(8):
        givers.append(match.giver)
        target = match.choose()
        match.clue(match.fresh_clue())
        match.guess_all(match.around(target, 4))
        match.pass_clue()
        match.next_round()
    assert givers == [ids[(start + i) % 4] for i in range(8)]


def test_guessers_are_in_lobby_order_starting_at_the_givers_left():
    match = Match(5, seed=11)
    ids = [p.id for p in match.players]
    at = ids.index(match.giver)
    assert match.guessers == ids[at + 1 :] + ids[:at]


def test_game_draws_four_colors_spread_across_the_board():
    match = Match(4)
    board = rules.board_of(match.settings)
    for _ in range(12):
        candidates = match.state.round.candidates
        assert len(set(candidates)) == 4
        for a in candidates:
            for b in candidates:
                if a != b:
                    assert board.distance(a, b) >= rules.MIN_CANDIDATE_DISTANCE
        target = match.choose(3)
        match.clue(match.fresh_clue())
        match.guess_all(match.around(target, 5))
        match.pass_clue()
        match.next_round()


def test_candidates_never_repeat_a_target_from_the_same_match():
    match = Match(3, seed=5, ultra_hard=True, goal=200)  # a small board makes repeats likely
    targets: list[str] = []
    for _ in range(40):
        assert not set(match.state.round.candidates) & set(targets)
        targets.append(match.choose(0))
        match.clue(match.fresh_clue())
        match.guess_all(match.around(targets[-1], 6))
        match.pass_clue()
        match.next_round()
    assert len(set(targets)) == 40


def test_clue_giver_picks_one_of_them_and_that_is_the_target():
    match = Match(4)
    candidates = list(match.state.round.candidates)
    assert match.choose(2) == candidates[2]
    assert match.phase is Phase.CLUE1


def test_only_the_clue_giver_picks_the_target():
    match = Match(4)
    with pytest.raises(RuleError) as error:
        match.act(match.guessers[0], rules.ChooseTarget(0))
    assert error.value.code == "action.not_your_turn"


def test_first_clue_is_one_word_then_first_guess():
    match = Match(4)
    match.choose()
    with pytest.raises(RuleError) as error:
        match.clue("calm ocean")
    assert error.value.code == "clue.too_many_words"
    match.clue("ocean")
    assert match.phase is Phase.GUESS1 and match.state.round.clues == ["ocean"]


def test_second_clue_may_be_one_or_two_words():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 3))
    assert match.phase is Phase.CLUE2
    with pytest.raises(RuleError) as error:
        match.clue("still calm lagoon")
    assert error.value.code == "clue.too_many_words"
    match.clue("calm lagoon")
    assert match.phase is Phase.GUESS2 and match.state.round.clues == ["ocean", "calm lagoon"]


def test_second_guess_only_if_there_was_a_second_clue():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 3))
    match.pass_clue()
    assert match.phase is Phase.REVEAL
    assert all(m.guess == 1 for m in match.state.round.markers)


def test_each_guesser_places_a_second_marker_and_the_better_of_the_two_counts():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    guessers = match.guessers
    match.guess_all(
        {
            guessers[0]: target,
            guessers[1]: match.near(target, 3),
            guessers[2]: match.near(target, 2),
        }
    )
    match.clue("tide")
    match.guess_all(
        {
            guessers[0]: match.near(target, 4),
            guessers[1]: match.near(target, 1),
            guessers[2]: match.near(target, 5),
        }
    )
    assert match.phase is Phase.REVEAL
    points = match.state.round.points
    assert points[guessers[0]] == 3  # first marker was exact; the worse second is ignored
    assert points[guessers[1]] == 2  # second marker is better
    assert points[guessers[2]] == 1


def test_one_cell_one_marker_an_occupied_cell_cannot_take_another():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a, b, _ = match.guessers
    match.place(a, "H12")
    with pytest.raises(RuleError) as error:
        match.act(b, SelectCell("h12"))
    assert error.value.code == "marker.cell_taken"


def test_not_even_your_own_second_marker_on_your_first_cell():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    cells = match.around(target, 3)
    match.guess_all(cells)
    match.clue("tide")
    mine = match.guessers[0]
    with pytest.raises(RuleError) as error:
        match.act(mine, SelectCell(cells[mine]))
    assert error.value.code == "marker.cell_taken"


def test_a_cell_taken_between_select_and_confirm_is_refused_at_confirm():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a, b, _ = match.guessers
    match.act(b, SelectCell("C3"))
    match.place(a, "C3")
    with pytest.raises(RuleError) as error:
        match.act(b, Confirm())
    assert error.value.code == "marker.cell_taken"


def test_select_then_confirm_nothing_is_placed_before_confirming():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    a = match.guessers[0]
    match.act(a, SelectCell("D4"))
    match.act(a, SelectCell("D5"))  # a selection may change until confirmed
    assert match.state.round.markers == []
    match.act(a, Confirm())
    assert [(m.seat, m.cell) for m in match.state.round.markers] == [(a, "D5")]
    with pytest.raises(RuleError) as error:
        match.act(a, SelectCell("D6"))
    assert error.value.code == "marker.already_placed"


def test_default_is_simultaneous_and_visible():
    settings = Settings()
    assert settings.guess_mode is GuessMode.SIMULTANEOUS
    assert settings.markers is MarkerVisibility.VISIBLE


def test_simultaneous_everyone_at_once_in_any_order():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    last, middle, first = match.guessers
    for seat, cell in ((first, "A1"), (middle, "A5"), (last, "A9")):
        match.place(seat, cell)
    assert match.phase is Phase.CLUE2
    assert match.state.round.guessing_order == [first, middle, last]


def test_in_turns_one_at_a_time_and_the_order_flips_on_the_second_pass():
    match = Match(4, guess_mode=GuessMode.TURNS)
    target = match.choose()
    match.clue("ocean")
    guessers = match.guessers
    assert rules.current_turn(match.state) == guessers[0]
    with pytest.raises(RuleError) as error:
        match.act(guessers[1], SelectCell("A1"))
    assert error.value.code == "action.not_your_turn"
    firsts = []
    while match.phase is Phase.GUESS1:
        seat = rules.current_turn(match.state)
        firsts.append(seat)
        match.place(seat, match.near(target, 4))
    match.clue("tide")
    seconds = []
    while match.phase is Phase.GUESS2:
        seat = rules.current_turn(match.state)
        seconds.append(seat)
        match.place(seat, match.near(target, 4))
    assert firsts == guessers and seconds == guessers[::-1]


def test_the_clue_giver_does_not_place_markers():
    match = Match(4)
    match.choose()
    match.clue("ocean")
    with pytest.raises(RuleError) as error:
        match.act(match.giver, SelectCell("A1"))
    assert error.value.code == "marker.giver_cannot_guess"


def test_giver_cannot_chat_until_the_reveal():
    """ "While giving clues, the clue giver can't chat until the reveal" """
    match = Match(4)
    giver, guesser = match.giver, match.guessers[0]
    assert not rules.may_chat(match.state, giver) and rules.may_chat(match.state, guesser)
    target = match.choose()
    match.clue("ocean")
    assert not rules.may_chat(match.state, giver)
    match.guess_all(match.around(target, 3))
    assert not rules.may_chat(match.state, giver)
    match.pass_clue()
    assert match.phase is Phase.REVEAL and rules.may_chat(match.state, giver)


def test_a_clue_already_used_in_the_match_is_refused_even_rounds_later():
    match = Match(4)
    target = match.choose()
    match.clue("ocean")
    match.guess_all(match.around(target, 3))
    match.pass_clue()
    match.next_round()
    match.choose()
    before = match.state
    with pytest.raises(RuleError) as error:
        match.act(match.giver, GiveClue("Ocean"))
    assert error.value.code == "clue.already_used"
    assert match.state == before


def test_player_nicknames_are_banned_by_default_and_the_host_may_allow_them():
    match = Match(4)
    match.choose()
    nickname = next(m.nickname for m in match.state.members if m.id != match.giver)
    with pytest.raises(RuleError) as error:
        match.clue(nickname)
    assert error.value.code == "clue.nickname"
    lenient = Match(4, ban_nicknames=False)
    lenient.choose()
    lenient.clue(nickname)
    assert lenient.phase is Phase.GUESS1


def test_public_rooms_always_filter_profanity_even_if_the_setting_is_off():
    match = Match(4, public=True, ban_profanity=False)
    assert match.state.settings.ban_profanity is True
    assert rules.clue_rules(match.state).ban_profanity is True
    private = Match(4, public=False, ban_profanity=False)
    assert rules.clue_rules(private.state).ban_profanity is False


def test_a_replayed_clue_is_not_judged_by_the_word_lists_again():
    """The word lists grow between versions: a clue accepted once stays accepted when the room
    replays its log (``judge_text=False``), for profanity and for the colour, number,
    light/dark and direction lists alike (issue 17 added ordinals and colour compounds); the
    rules that depend on the match alone, such as a clue already used, still hold."""
    match = Match(4, public=True)
    match.choose()
    with pytest.raises(RuleError) as refused:
        match.clue("shit")
    assert refused.value.code == "clue.profanity"
    with pytest.raises(RuleError) as refused:
        match.clue("bluegreen")
    assert refused.value.code == "clue.color_name"
    for saved in ("shit", "bluegreen", "twelfth", "red"):
        replayed, _ = rules.apply(
            match.state, match.giver, GiveClue(saved), match.now, judge_text=False
        )
        assert replayed.phase is Phase.GUESS1 and replayed.round.clues == [saved]
    with pytest.raises(RuleError) as refused:
        rules.apply(match.state, match.giver, GiveClue("K25"), match.now, judge_text=False)
    assert refused.value.code == "clue.coordinate"


def test_a_first_timer_is_never_the_first_clue_giver():
    """ "A first-timer is taught before their first round and never starts as giver" (UI.md):
    the room marks who is new to Pitacor (``Player.new``); anyone else may start, at random."""

    def players(new: set[int]) -> list[Player]:
        return [Player(f"p{i}", f"P{i}", new=i in new) for i in range(4)]

    def giver(new: set[int], seed: int, **version) -> str:
        return rules.start(Settings(), players(new), seed, 0.0, **version).round.giver

    assert {giver({0, 2}, seed) for seed in range(40)} == {"p1", "p3"}
    everyone_new = {giver({0, 1, 2, 3}, seed) for seed in range(40)}
    assert everyone_new == {"p0", "p1", "p2", "p3"}  # then anyone may
    for seed in range(40):  # a match logged before (VERSION 0) deals as it was dealt
        assert giver({0}, seed, version=0) == giver(set(), seed)
