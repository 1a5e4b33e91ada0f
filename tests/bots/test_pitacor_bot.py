"""The Pitacor bot's mind, rule by rule (point 3 of issue 18)."""

from __future__ import annotations

import random

import pytest
from bot_helpers import players

from tertulia.bots.base import LANGUAGES, Level
from tertulia.games import base, pitacor
from tertulia.games.pitacor import bot, clues
from tertulia.games.pitacor.bot import colours
from tertulia.games.pitacor.bot.reading import clue_colour
from tertulia.games.pitacor.state import ChooseTarget, Confirm, GiveClue, SelectCell

BOARD = colours.board("classic")


def _match(count: int = 4, **settings):
    return pitacor.start(pitacor.Settings(goal=200, **settings), players(count), 11, 1000.0)


def _giver_view(state):
    return pitacor.view(state, state.round.giver)


def _to_clue1(state, index: int = 0):
    state, _ = pitacor.apply(state, state.round.giver, ChooseTarget(index), 1000.0)
    return state


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lexicon_name_passes_the_real_clue_checker(language: str) -> None:
    """ "gives a first clue that the real clue checker accepts": every name, with every ban
    on, is a valid one-word clue."""
    strictest = clues.ClueRules()
    names = [n for t in colours.things() for n in t.names[language]]
    assert len(names) >= 150
    refused = [n for n in names if clues.clue_problems(n, 1, strictest)]
    assert refused == []


def test_lexicon_things_are_fruit_nature_materials_and_food() -> None:
    """ "from a colour lexicon of things — fruit, nature, materials, food": those kinds,
    plus the everyday objects (taxi) and shade names the checker allows (burgundy) that
    people write at the table."""
    kinds = [t.kind for t in colours.things()]
    assert set(kinds) == {"fruit", "nature", "material", "food", "object", "shade"}
    assert sum(k in {"fruit", "nature", "material", "food"} for k in kinds) >= 0.9 * len(kinds)


def test_lexicon_reads_plurals_people_write() -> None:
    assert colours.lookup("Cherries") == colours.lookup("cherry")
    assert colours.lookup("limones") == colours.lookup("limón")
    assert colours.lookup("cytryny") == colours.lookup("cytryna")
    assert colours.lookup("buraki") == colours.lookup("burak")
    assert colours.lookup("xylophone") == ()


@pytest.mark.parametrize("language", LANGUAGES)
def test_giver_picks_a_target_and_gives_an_accepted_word_near_it(language: str) -> None:
    """ "as clue giver it picks one of its four colours, gives a first clue" """
    state = _match()
    view = _giver_view(state)
    action = bot.decide(view, language=language, level=Level.GOOD, rng=random.Random(1))
    assert action["type"] == "choose_target" and 0 <= action["index"] < 4
    state, _ = pitacor.apply(state, view["you"]["seat"], ChooseTarget(action["index"]), 1000.0)
    action = bot.decide(
        _giver_view(state), language=language, level=Level.GOOD, rng=random.Random(1)
    )
    assert action["type"] == "give_clue" and len(action["text"].split()) == 1
    assert action["text"] in {n for t in colours.things() for n in t.names[language]}
    state, _ = pitacor.apply(state, state.round.giver, GiveClue(action["text"]), 1000.0)
    landed = BOARD.nearest(clue_colour(action["text"]))
    assert BOARD.rings(landed, BOARD.index_of(state.round.target)) <= 2


def test_giver_never_repeats_a_clue_of_the_match() -> None:
    """ "Not allowed: ... a clue already used in the match." """
    state = _to_clue1(_match())
    first = bot.first_clue(_giver_view(state), "en", Level.GOOD, random.Random(0))
    view = _giver_view(state)
    view["history"] = [{"clues": [first]}]
    assert bot.first_clue(view, "en", Level.GOOD, random.Random(0)) != first


def test_giver_never_says_a_players_nickname() -> None:
    """ "The host can also ban ... player nicknames. They're banned by default." """
    state = _to_clue1(_match())
    view = _giver_view(state)
    first = bot.first_clue(view, "en", Level.GOOD, random.Random(0))
    view["players"][1]["nickname"] = first.capitalize()
    assert bot.first_clue(view, "en", Level.GOOD, random.Random(0)) != first


def _after_first_guesses(cells: list[str] | None):
    """A round in CLUE2 whose guessers put their markers on ``cells`` (None: on the target)."""
    state = _to_clue1(_match())
    state, _ = pitacor.apply(state, state.round.giver, GiveClue("ocean"), 1000.0)
    target = state.round.target
    row, col = BOARD.index_of(target) // 30, BOARD.index_of(target) % 30
    near = [BOARD.name(row * 30 + c) for c in range(max(0, col - 1), col + 2)]
    for seat, cell in zip(state.round.guessers, cells or near, strict=False):
        state, _ = pitacor.apply(state, seat, SelectCell(cell), 1000.0)
        state, _ = pitacor.apply(state, seat, Confirm(), 1000.0)
    return state


def test_giver_passes_when_the_markers_already_hit() -> None:
    """ "gives a second clue or passes depending on where the markers are": all hit, so the
    pass (which doubles the giver's points) is worth more than any clue."""
    view = _giver_view(_after_first_guesses(None))
    action = bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0))
    assert action == {"type": "pass_clue"}


def test_giver_gives_a_second_clue_when_the_markers_are_far() -> None:
    state = _after_first_guesses(None)
    target = BOARD.index_of(state.round.target)
    far = [c for c in range(len(BOARD.labs)) if BOARD.rings(c, target) >= 8][:3]
    state = _after_first_guesses([BOARD.name(c) for c in far])
    view = _giver_view(state)
    action = bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0))
    assert action["type"] == "give_clue" and 1 <= len(action["text"].split()) <= 2
    clues.check_clue(action["text"], 2, bot.strictest_rules(view))


def test_guesser_turns_a_clue_into_its_colour() -> None:
    """ "as guesser turns a clue into a colour and places its markers near it" """
    state = _to_clue1(_match())
    state, _ = pitacor.apply(state, state.round.giver, GiveClue("banana"), 1000.0)
    seat = state.round.guessers[0]
    action = bot.decide(
        pitacor.view(state, seat), language="en", level=Level.GOOD, rng=random.Random(0)
    )
    banana = BOARD.nearest(colours.to_lab("#F4D23C"))
    assert action["type"] == "select_cell"
    assert BOARD.rings(BOARD.index_of(action["cell"]), banana) == 0
    state, _ = pitacor.apply(state, seat, SelectCell(action["cell"]), 1000.0)
    action = bot.decide(
        pitacor.view(state, seat), language="en", level=Level.GOOD, rng=random.Random(0)
    )
    assert action == {"type": "confirm"}


def test_guesser_avoids_taken_cells() -> None:
    """ "One cell, one marker": the nearest free cell instead."""
    state = _to_clue1(_match())
    state, _ = pitacor.apply(state, state.round.giver, GiveClue("banana"), 1000.0)
    first, second = state.round.guessers[:2]
    cell = bot.decide(
        pitacor.view(state, first), language="en", level=Level.GOOD, rng=random.Random(0)
    )["cell"]
    state, _ = pitacor.apply(state, first, SelectCell(cell), 1000.0)
    state, _ = pitacor.apply(state, first, Confirm(), 1000.0)
    other = bot.decide(
        pitacor.view(state, second), language="en", level=Level.GOOD, rng=random.Random(0)
    )
    assert other["cell"] != cell
    assert BOARD.rings(BOARD.index_of(other["cell"]), BOARD.index_of(cell)) == 1


def test_beginner_guesses_are_noisier_than_good_ones() -> None:
    """ "beginner makes human-like mistakes (noisier colour ...)" """
    state = _to_clue1(_match())
    state, _ = pitacor.apply(state, state.round.giver, GiveClue("lavender"), 1000.0)
    view = pitacor.view(state, state.round.guessers[0])
    lavender = BOARD.nearest(colours.to_lab("#B57EDC"))

    def off(level: Level) -> float:
        cells = [
            bot.decide(view, language="en", level=level, rng=random.Random(s))["cell"]
            for s in range(40)
        ]
        return sum(BOARD.rings(BOARD.index_of(c), lavender) for c in cells) / len(cells)

    assert off(Level.GOOD) == 0
    assert 0.3 < off(Level.BEGINNER) < 3


def test_a_bot_with_nothing_to_do_returns_none() -> None:
    state = _match()
    guesser = state.round.guessers[0]
    assert (
        bot.decide(
            pitacor.view(state, guesser), language="en", level=Level.GOOD, rng=random.Random(0)
        )
        is None
    )


def test_the_bots_action_dicts_decode_as_a_browsers_messages() -> None:
    state = _match()
    action = bot.decide(_giver_view(state), language="en", level=Level.GOOD, rng=random.Random(0))
    assert isinstance(base.decode_action(pitacor.Action, action), ChooseTarget)
