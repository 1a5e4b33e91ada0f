"""The Haiclue bot's mind (point 4 of issue 18)."""

from __future__ import annotations

import random

import pytest
from bot_helpers import needs_model, players

from tertulia.bots.base import Level
from tertulia.games import haiclue
from tertulia.games.haiclue import bot, decks
from tertulia.games.haiclue.bot import meanings


def _view(rack: list[str], targets: list[str], card: str, to_do: str = "build_clue") -> dict:
    """A seat's view with only what the bot reads, shaped as ``haiclue.view`` makes it."""
    colours = ["red", "yellow", "green", "blue"]
    return {
        "targets": [{"colour": c, "word": w} for c, w in zip(colours, targets, strict=True)],
        "rack": rack,
        "card": card,
        "reading": None,
        "you": {"seat": "p1", "to_do": to_do},
    }


RACK = "fish ocean huge spoon chair paper lamp key sock rope ring wall hat book door".split()


@needs_model
def test_clue_is_two_or_more_own_tiles_pointing_at_the_cards_word() -> None:
    """ "builds a clue of two or more of its own tiles that points at its secret card's word" """
    view = _view(RACK, ["whale", "candle", "thunder", "cheese"], "red")
    action = bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0))
    assert action["type"] == "submit_clue"
    words = action["words"]
    assert 2 <= len(words) <= bot.MAX_TILES and len(set(words)) == len(words)
    assert set(words) <= set(RACK)
    assert {"fish", "ocean", "huge"} & set(words)


@needs_model
def test_guess_is_the_target_word_the_clue_points_at() -> None:
    """ "guesses which target word each other clue points at" """
    view = _view(RACK, ["whale", "candle", "thunder", "cheese"], "blue", to_do="guess")
    view["reading"] = {"author": "p2", "words": ["loud", "storm", "sky"]}
    action = bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0))
    assert action == {"type": "guess", "colour": "green"}


@needs_model
def test_guesses_in_the_rooms_deck_language() -> None:
    view = _view(RACK, ["pirat", "lustro", "zupa", "latawiec"], "blue", to_do="guess")
    view["reading"] = {"author": "p2", "words": ["skarb", "statek"]}
    assert (
        bot.decide(view, language="pl", level=Level.GOOD, rng=random.Random(0))["colour"] == "red"
    )


@needs_model
def test_beginner_sometimes_builds_a_weaker_clue() -> None:
    """ "beginner makes human-like mistakes (... sometimes a weaker tile)" """
    view = _view(RACK, ["whale", "candle", "thunder", "cheese"], "red")
    good = bot.build_clue(view, Level.GOOD, random.Random(0))
    beginner = [tuple(bot.build_clue(view, Level.BEGINNER, random.Random(s))) for s in range(12)]
    assert tuple(good) in beginner and len(set(beginner)) > 1


def test_without_the_model_the_bot_still_plays_by_the_rules(no_model) -> None:
    view = _view(RACK, ["whale", "candle", "thunder", "cheese"], "red")
    assert bot.decide(view, language="en", level=Level.GOOD, rng=random.Random(0)) == {
        "type": "submit_clue",
        "words": RACK[:2],
    }


def test_ready_after_a_result_and_nothing_for_the_author(no_model) -> None:
    state = haiclue.start(haiclue.Settings(), players(3), 1, 1000.0)
    for seat in ("p1", "p2", "p3"):
        action = bot.decide(
            haiclue.view(state, seat), language="en", level=Level.GOOD, rng=random.Random(0)
        )
        state, _ = haiclue.apply(state, seat, haiclue.state.SubmitClue(action["words"]), 1000.0)
    author = haiclue.rules.current_author(state)
    assert (
        bot.decide(
            haiclue.view(state, author), language="en", level=Level.GOOD, rng=random.Random(0)
        )
        is None
    )


@needs_model
def test_a_clue_has_as_many_tiles_as_the_host_requires() -> None:
    """The host may require more than two tiles ("Fewest tiles in a clue"): the bot builds
    its clue from rows of that many of its tiles."""
    view = _view(RACK, ["whale", "candle", "thunder", "cheese"], "red")
    view["min_clue_tiles"] = 4
    words = bot.build_clue(view, Level.GOOD, random.Random(0))
    assert len(words) >= 4 and len(set(words)) == len(words) and set(words) <= set(RACK)


def test_the_bots_clue_is_accepted_when_the_host_requires_four_tiles(no_model) -> None:
    """A bot decides from its seat's view alone, so the view must say how many tiles a clue
    needs; otherwise the engine refuses the bot's two-tile clue (``clue.too_few_tiles``)."""
    state = haiclue.start(haiclue.Settings(min_clue_tiles=4), players(3), 1, 1000.0)
    action = bot.decide(
        haiclue.view(state, "p1"), language="en", level=Level.GOOD, rng=random.Random(0)
    )
    haiclue.apply(state, "p1", haiclue.state.SubmitClue(action["words"]), 1000.0)


@pytest.mark.parametrize("language", ["pt-BR", "es", "pl"])
def test_every_deck_word_has_one_english_gloss(language: str) -> None:
    """The bot reads a deck through its glosses: a word without one would be read as
    written only, so a deck change must bring its gloss."""
    words = {w for t in decks.load(language) for w in (t.white, t.black)}
    glossed = meanings.glosses(language)
    assert set(glossed) == words
    assert all(g and g.strip() == g for g in glossed.values())


@needs_model
def test_a_clue_of_properties_points_at_what_has_them() -> None:
    """Issue 32: a clue of what the target feels like, does or where it is found beats a
    target that merely sits near one tile (tuning-set shapes, not the frozen cases)."""
    view = _view(RACK, ["penguin", "volcano", "library", "honey"], "blue", to_do="guess")
    view["reading"] = {"author": "p2", "words": ["ice", "swim"]}
    assert bot.guess(view, Level.GOOD, random.Random(0), "en") == "red"
    view = _view(RACK, ["sowa", "wulkan", "książka", "miód"], "blue", to_do="guess")
    view["reading"] = {"author": "p2", "words": ["mądry", "noc"]}
    assert bot.guess(view, Level.GOOD, random.Random(0), "pl") == "red"


def test_the_deck_is_known_from_the_words_whatever_language_is_passed() -> None:
    assert meanings.deck_language(["sowa", "wulkan", "mądry"], "en") == "pl"
    assert meanings.deck_language(["owl", "volcano"], "pl") == "en"
