"""Haiclue, rule by rule (shared/rules/haiclue-en.md, translated from haiclue-pl.txt)."""

from __future__ import annotations

import pytest
from haiclue_driver import Match

from tertulia.games import base
from tertulia.games.base import Player, RuleError
from tertulia.games.haiclue import rules
from tertulia.games.haiclue.settings import Settings
from tertulia.games.haiclue.state import Colour, Guess, Phase, Ready, Side, SubmitClue

# ---------------------------------------------------------------- setup


def test_four_target_stacks_next_to_four_colours_each_with_a_symbol():
    """ "On one side of the table place four cards, one in each colour." """
    from tertulia.games.haiclue.views import view

    targets = view(Match(4).state, "p1")["targets"]
    assert [t["colour"] for t in targets] == ["red", "yellow", "green", "blue"]
    assert len({t["symbol"] for t in targets}) == 4  # colour-blind players tell them apart


@pytest.mark.parametrize(
    ("players", "tiles"), [(2, 2), (3, 3), (4, 3), (5, 3), (6, 2), (8, 2), (9, 1), (12, 1)]
)
def test_each_stack_has_this_many_tiles(players, tiles):
    """ "2 players (cooperative): 2 tiles per stack; 3–5: 3; 6–8: 2; 9–12: 1" """
    match = Match(players)
    assert [len(stack) for stack in match.state.stacks] == [tiles] * 4


def test_each_player_draws_15_random_word_tiles_white_side_up():
    match = Match(5)
    racks = match.state.racks
    assert all(len(rack) == 15 for rack in racks.values())
    every_tile = [t for rack in racks.values() for t in rack] + [
        t for stack in match.state.stacks for t in stack
    ]
    assert len(every_tile) == len(set(every_tile))  # targets come from the same pool
    assert match.state.side is Side.WHITE and match.rack("p1")[0].startswith("white")
    assert Match(5, seed=4).state.racks["p1"] != racks["p1"]  # random


def test_2_to_12_players():
    for count in (1, 13):
        with pytest.raises(RuleError) as error:
            rules.start(Settings(), [Player(f"x{i}", f"X{i}") for i in range(count)], 1, 0.0)
        assert error.value.code == "match.player_count"


# ---------------------------------------------------------------- a round


def test_each_player_draws_a_card_naming_one_of_the_four_colours():
    match = Match(6)
    assert set(match.state.cards) == set(match.ids)
    assert all(card in Colour for card in match.state.cards.values())


def test_several_players_may_hold_the_same_colour():
    assert any(len(set(Match(6, seed=s).state.cards.values())) < 6 for s in range(10))


def test_a_clue_must_contain_at_least_two_word_tiles():
    match = Match(4)
    with pytest.raises(RuleError) as error:
        match.act("p1", SubmitClue(match.rack("p1")[:1]))
    assert error.value.code == "clue.too_few_tiles"
    match.clue("p1", 2)
    assert "p1" in match.state.clues


def test_simultaneously_in_any_order_and_the_order_of_tiles_is_the_authors():
    match = Match(3)
    words = match.rack("p3")[:4][::-1]
    match.act("p3", SubmitClue(words))  # p3 first, tiles in reverse rack order
    assert rules.clue_words(match.state, "p3") == words
    match.clue("p1")
    assert match.phase is Phase.BUILD  # still waiting for p2
    match.clue("p2")
    assert match.phase is Phase.GUESS


def test_when_everyone_has_finished_clues_are_read_one_at_a_time_clockwise():
    match = Match(5)
    match.everyone_clues()
    order = match.state.reading_order
    seats = match.ids
    start = seats.index(order[0])
    assert order == seats[start:] + seats[:start]
    read = []
    while match.phase is Phase.GUESS:
        read.append(match.author())
        match.everyone_guesses()
        match.everyone_ready()
    assert read == order  # "until every player's clue has been guessed"


def test_the_clues_author_does_not_guess():
    match = Match(4)
    match.everyone_clues()
    with pytest.raises(RuleError) as error:
        match.guess(match.author(), Colour.RED)
    assert error.value.code == "guess.own_clue"


def test_every_player_who_guessed_correctly_takes_a_point_and_the_author_one_per_correct_guess():
    match = Match(4)
    match.everyone_clues()
    author = match.author()
    others = [s for s in match.ids if s != author]
    match.everyone_guesses(right=set(others[:2]))
    assert match.phase is Phase.REVEAL
    scores = {p.id: p.score for p in match.state.players}
    assert scores == {author: 2, others[0]: 1, others[1]: 1, others[2]: 0}


def test_after_scoring_the_author_discards_their_card():
    match = Match(4)
    match.everyone_clues()
    card = match.card(match.author())
    discards = len(match.state.card_discard)
    match.everyone_guesses()
    assert match.state.card_discard[discards:] == [card]


def test_two_players_score_as_a_team():
    """ "In a two-player game you score as a team: the team gains a point every time a player
    guesses correctly." """
    match = Match(2)
    match.play_round()
    assert match.state.team_score == 2
    assert [p.score for p in match.state.players] == [0, 0]


# ---------------------------------------------------------------- between rounds


def test_after_a_white_round_the_targets_and_all_tiles_flip_to_black():
    match = Match(4)
    targets = [s[0] for s in match.state.stacks]
    rack = list(match.state.racks["p1"])
    match.play_round()
    assert match.state.side is Side.BLACK and match.state.round == 2
    assert [s[0] for s in match.state.stacks] == targets  # the same tiles, other side
    assert match.state.racks["p1"] == rack and match.rack("p1")[0].startswith("black")


def test_after_a_black_round_discard_reveal_four_new_targets_flip_and_pass_left():
    match = Match(4)
    match.play_round()
    racks = {seat: list(match.state.racks[seat]) for seat in match.ids}
    second = [s[1] for s in match.state.stacks]
    match.play_round()
    assert match.state.side is Side.WHITE and match.state.round == 3
    assert [s[0] for s in match.state.stacks] == second  # four new target words
    ids = match.ids
    for index, seat in enumerate(ids):  # each received the rack of the player on their right
        assert match.state.racks[seat] == racks[ids[index - 1]]


def test_two_players_swap_their_word_tiles():
    match = Match(2)
    racks = dict(match.state.racks)
    match.play_round()
    match.play_round()
    assert match.state.racks["p1"] == racks["p2"] and match.state.racks["p2"] == racks["p1"]


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 6), (5, 6), (8, 4), (12, 2)])
def test_when_the_stacks_are_empty_the_game_ends(players, rounds):
    """Each target tile is played twice: 2 × (tiles per stack) rounds."""
    match = Match(players)
    played = 0
    while match.phase is not Phase.ENDED:
        match.play_round()
        played += 1
    assert played == rounds and match.state.stacks == [[], [], [], []]
    assert match.state.end_reason == "stacks_empty"


def test_the_player_with_the_most_points_wins_and_a_tie_wins_together():
    match = Match(3)
    while match.phase is not Phase.ENDED:
        match.play_round()  # everyone always right: everyone ties
    assert sorted(
        match.state.outcome and [p.seat for p in match.state.outcome.ranking if p.winner]
    ) == ["p1", "p2", "p3"]
    lopsided = Match(3)
    while lopsided.phase is not Phase.ENDED:
        lopsided.play_round(right={"p1"})
    ranking = lopsided.state.outcome.ranking
    assert [p.seat for p in ranking if p.winner] == [ranking[0].seat]


@pytest.mark.parametrize(("right", "won"), [(None, True), ({"p1"}, False)])
def test_two_players_must_score_six_to_win_and_eight_is_perfect(right, won):
    match = Match(2)
    while match.phase is not Phase.ENDED:
        match.play_round(right=right)
    expected = 8 if right is None else 4
    assert match.state.team_score == expected
    assert all(p.winner is won for p in match.state.outcome.ranking)
    assert rules.COOP_GOAL == 6 and rules.COOP_PERFECT == 8


# ---------------------------------------------------------------- clocks and seats


def test_an_author_without_a_clue_when_time_is_up_is_skipped():
    match = Match(4, clue_seconds=60)
    match.clue("p1")
    match.clue("p2")
    match.timeout()
    assert match.phase is Phase.GUESS and sorted(match.state.reading_order) == ["p1", "p2"]


def test_a_guess_not_made_in_time_scores_nothing():
    match = Match(4, guess_seconds=30)
    match.everyone_clues()
    author = match.author()
    guesser = next(s for s in match.ids if s != author)
    match.guess(guesser, match.card(author))
    match.timeout()
    assert match.phase is Phase.REVEAL and match.state.results[-1].points[author] == 1


def test_nobody_waits_for_a_player_who_dropped():
    match = Match(4)
    match.drop("p4")
    for seat in ("p1", "p2", "p3"):
        match.clue(seat)
    assert match.phase is Phase.GUESS and "p4" not in match.state.reading_order


def test_latecomers_watch_this_match():
    match = Match(4)
    with pytest.raises(RuleError) as error:
        match.act(None, base.Join("late", "Zed"))
    assert error.value.code == "seat.no_joining"


def test_the_match_ends_when_too_few_players_remain():
    match = Match(3)
    match.leave("p3")
    assert match.phase is Phase.BUILD  # two players carry on
    match.leave("p2")
    assert match.phase is Phase.ENDED and match.state.end_reason == "too_few_players"


def test_nobody_chats_while_a_clue_is_being_guessed():
    match = Match(3)
    assert rules.may_chat(match.state, "p1")
    match.everyone_clues()
    assert not rules.may_chat(match.state, "p1")
    match.everyone_guesses()
    assert rules.may_chat(match.state, "p1")


# ---------------------------------------------------------------- bad input


def _refused(match: Match, seat, action, code: str) -> None:
    before = base.clone(match.state)
    with pytest.raises(RuleError) as error:
        rules.apply(match.state, seat, action, match.now)
    assert error.value.code == code
    assert match.state == before


def test_tiles_that_are_not_yours():
    match = Match(4)
    _refused(
        match, "p1", SubmitClue([match.rack("p2")[0], match.rack("p1")[0]]), "clue.not_your_tile"
    )
    _refused(match, "p1", SubmitClue(["nonsense", "words"]), "clue.not_your_tile")


def test_tiles_not_on_the_rounds_side():
    match = Match(4)
    mine = match.rack("p1")[0].replace("white", "black")
    _refused(match, "p1", SubmitClue([mine, match.rack("p1")[1]]), "clue.wrong_side")


def test_one_tile_used_twice_a_second_clue_and_a_second_guess():
    match = Match(4)
    word = match.rack("p1")[0]
    _refused(match, "p1", SubmitClue([word, word]), "clue.tile_twice")
    match.clue("p1")
    _refused(match, "p1", SubmitClue(match.rack("p1")[3:5]), "clue.already_submitted")
    match.everyone_clues()
    guesser = next(s for s in match.ids if s != match.author())
    match.guess(guesser, Colour.RED)
    _refused(match, guesser, Guess(Colour.BLUE), "guess.already")


def test_acting_out_of_phase():
    match = Match(4)
    _refused(match, "p1", Guess(Colour.RED), "action.wrong_phase")
    _refused(match, "p1", Ready(), "action.wrong_phase")
    _refused(match, "stranger", SubmitClue(["a", "b"]), "action.not_a_player")


def test_a_first_timers_clue_is_never_the_first_read_in_the_first_round():
    """ "a first-timer is never the first clue giver": their clue is not the first one read
    in round 1 (``Player.new``, from the room); from round 2 anyone's may be."""
    firsts = set()
    for seed in range(40):
        match = Match(4, seed=seed, new=("p2",))
        match.everyone_clues()
        assert match.phase is Phase.GUESS
        firsts.add(match.state.reading_order[0])
    assert "p2" not in firsts and len(firsts) == 3


def test_when_the_author_of_the_clue_being_guessed_leaves_the_others_still_guess_it() -> None:
    """ "Then every player secretly guesses which of the four target words the clue points
    at": the author leaving for good while their clue is guessed does not end its guessing
    (docs/games/haiclue.md: "a clue of theirs already in the reading order is still read and
    scored"); matches started before version 3 replay as they were (revealed at once)."""
    for version in (3, 2):  # from version 3, and before it
        match = Match(4, seed=3)
        match.state.version = version
        match.everyone_clues()
        author = match.author()
        first, *rest = [seat for seat in match.ids if seat != author]
        match.guess(first, match.card(author))
        match.leave(author)
        if version < 3:
            assert match.phase is Phase.REVEAL
            assert set(match.state.results[-1].guesses) == {first}
            continue
        assert match.phase is Phase.GUESS
        for seat in rest:
            match.guess(seat, match.card(author))
        assert match.phase is Phase.REVEAL
        result = match.state.results[-1]
        assert set(result.guesses) == {first, *rest}
        assert result.points[author] == 3  # their points stay on the scoreboard


def test_a_player_who_left_for_good_is_ranked_after_those_still_in_and_never_wins() -> None:
    """ "the player with the most points wins": a player who leaves gives up the match, as in
    Pitacor; they keep their points, ranked after those still in. Matches started before
    version 3 end as they did."""
    for version in (3, 2):  # from version 3, and before it
        match = Match(3, seed=5)
        match.state.version = version
        match.everyone_clues()
        while match.phase is Phase.GUESS:  # p1's clue is read right by all, no one else's
            author, card = match.author(), match.card(match.author())
            wrong = next(colour for colour in Colour if colour is not card)
            for seat in match.ids:
                if seat != author and match.phase is Phase.GUESS:
                    match.guess(seat, card if author == "p1" else wrong)
            match.everyone_ready()
        assert max(p.score for p in match.state.players) == match.state.players[0].score
        match.leave("p1")
        match.leave("p2")  # one left: the match ends
        ranking = [(p.seat, p.place, p.winner) for p in match.state.outcome.ranking]
        if version < 3:
            assert ranking[0] == ("p1", 1, True)
            continue
        assert ranking == [("p3", 1, True), ("p1", 2, False), ("p2", 3, False)]
