"""The recap of a finished Haiclue match (issue 19, item 9): "each round's clues and cards".
Only the finished match's view carries it, and only what the reveals showed: the clues read,
the authors' cards, who guessed what — never a card whose clue was not read, a rack or a
draft."""

from __future__ import annotations

import msgspec
from haiclue_driver import Match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tertulia.games import base
from tertulia.games.base import RuleError, Timeout
from tertulia.games.haiclue import decks, rules
from tertulia.games.haiclue.state import Colour, Guess, Phase, Ready, SubmitClue
from tertulia.games.haiclue.views import view


def _targets_now(match: Match) -> list[str]:
    return [t["word"] for t in view(match.state, None)["targets"]]


def test_the_end_has_every_round_with_its_targets_clues_cards_and_guesses():
    match = Match(3)
    played = []
    while match.phase is not Phase.ENDED:
        assert view(match.state, "p1")["recap"] is None  # only the finished match's view
        targets, side = _targets_now(match), match.state.side.value
        match.play_round(right={"p2"})
        played.append((targets, side, match.state.history[-1]))
    recap = view(match.state, "p3")["recap"]
    assert [r["round"] for r in recap] == [1, 2, 3, 4, 5, 6]  # "3–5 → 6" rounds
    # "After a white round, flip": the sides alternate, white first.
    assert [r["side"] for r in recap] == ["white", "black"] * 3
    for entry, (targets, side, results) in zip(recap, played, strict=True):
        assert entry["targets"] == targets and entry["side"] == side
        assert [c["author"] for c in entry["clues"]] == [r.author for r in results]
        for clue, result in zip(entry["clues"], results, strict=True):
            assert clue["words"] == result.words and clue["card"] == result.card.value
            assert clue["guesses"] == {s: c.value for s, c in result.guesses.items()}
            assert clue["points"] == result.points
    # Each target word is on its round's side: a black round shows the same tiles flipped.
    deck = decks.load("en")
    white = {t.white: t.black for t in deck}
    assert [white[w] for w in recap[0]["targets"]] == recap[1]["targets"]
    assert recap == view(match.replay(), None)["recap"]  # "matches the log"


def test_a_match_cut_short_keeps_the_clues_scored_in_its_last_round():
    match = Match(3)
    match.play_round()
    match.everyone_clues()
    author = match.author()
    match.everyone_guesses()
    unread = [p for p in match.ids if p != author]
    unread_words = {w for seat in unread for w in rules.clue_words(match.state, seat)}
    match.leave(unread[0])
    match.leave(unread[1])  # one player is too few: the match ends
    assert match.phase is Phase.ENDED
    for seat in ["p1", "p2", "p3", None]:
        recap = view(match.state, seat)["recap"]
        assert [r["round"] for r in recap] == [1, 2]
        assert recap[1]["side"] == "black"
        # The clue scored before the end is there; the clues never read are not, nor are
        # their authors' cards.
        assert [c["author"] for c in recap[1]["clues"]] == [author]
        assert not unread_words & set(_words_in(recap))


def _words_in(recap: list[dict]) -> list[str]:
    return [w for r in recap for c in r["clues"] for w in c["words"]]


def _recap_holds_only_what_was_revealed(match: Match) -> None:
    state = match.state
    deck = decks.load(state.settings.deck.value)
    rounds = [*state.history]
    if state.results and len(rounds) < state.round:
        rounds.append(state.results)
    recaps = [view(state, seat)["recap"] for seat in [p.id for p in state.players] + [None]]
    assert all(r == recaps[0] for r in recaps)  # nobody's secret: the same for every seat
    recap = recaps[0]
    assert [r["round"] for r in recap] == list(range(1, len(rounds) + 1))
    for entry, results in zip(recap, rounds, strict=True):
        revealed = [
            {
                "author": r.author,
                "words": r.words,
                "card": r.card.value,
                "guesses": {s: c.value for s, c in r.guesses.items()},
                "points": r.points,
            }
            for r in results
        ]
        assert entry["clues"] == revealed
        side = entry["side"]
        words = {t.word(side) for t in deck}
        assert set(entry["targets"]) <= words
    # No card of an author whose clue was not scored: every card named is in a result.
    raw = msgspec.json.encode(recap)
    assert b'"card"' not in raw or raw.count(b'"card"') == sum(len(r) for r in rounds)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(min_value=2, max_value=6), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_end_with_a_recap_of_exactly_what_was_revealed(count, seed, data):
    match = Match(count, seed=seed, clue_seconds=90, guess_seconds=30)
    for _ in range(600):
        if match.phase is Phase.ENDED:
            break
        seat = data.draw(st.sampled_from([*match.ids]))
        kind = data.draw(st.integers(0, 19))
        if kind == 0 and match.state.deadline is not None:
            match.now = match.state.deadline
            action, seat = Timeout(), None
        elif kind == 1:
            action, seat = base.Leave(seat), None
        elif match.phase is Phase.BUILD:
            action = SubmitClue(match.rack(seat)[: data.draw(st.integers(2, 4))])
        elif match.phase is Phase.GUESS:
            action = Guess(data.draw(st.sampled_from(list(Colour))))
        else:
            action = Ready()
        try:
            match.act(seat, action)
        except RuleError:
            continue
        if match.phase is not Phase.ENDED:
            assert view(match.state, seat)["recap"] is None
    if match.phase is Phase.ENDED:
        _recap_holds_only_what_was_revealed(match)
        assert view(match.replay(), None)["recap"] == view(match.state, None)["recap"]


def _recap_adds_up_to_the_scores(match: Match) -> None:
    """Issue 30: every number in the recap is what the podium counted — each player's points
    over the recap's clues are their final score (two players: the team's points, the team
    score)."""
    state = match.state
    recap = view(state, None)["recap"]
    totals: dict[str, int] = {}
    for entry in recap:
        for clue in entry["clues"]:
            for seat, points in clue["points"].items():
                totals[seat] = totals.get(seat, 0) + points
    if state.cooperative:
        assert totals.get("team", 0) == state.team_score
    else:
        assert {p.id: totals.get(p.id, 0) for p in state.players} == {
            p.id: p.score for p in state.players
        }


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(min_value=2, max_value=6), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_recaps_add_up_to_the_final_scores(count, seed, data):
    match = Match(count, seed=seed, clue_seconds=90, guess_seconds=30)
    for _ in range(600):
        if match.phase is Phase.ENDED:
            break
        seat = data.draw(st.sampled_from([*match.ids]))
        kind = data.draw(st.integers(0, 29))
        if kind == 0 and match.state.deadline is not None:
            match.now = match.state.deadline
            action, seat = Timeout(), None
        elif kind == 1:
            action, seat = base.Leave(seat), None
        elif match.phase is Phase.BUILD:
            action = SubmitClue(match.rack(seat)[: data.draw(st.integers(2, 4))])
        elif match.phase is Phase.GUESS:
            action = Guess(data.draw(st.sampled_from(list(Colour))))
        else:
            action = Ready()
        try:
            match.act(seat, action)
        except RuleError:
            continue
    if match.phase is Phase.ENDED:
        _recap_adds_up_to_the_scores(match)
