"""The client's translations: the shared files hold the platform's words, each game's files
its own (name, description, settings labels, error sentences, its screen's words), and all
four languages say everything, with no placeholder English never fills in."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "games"))
sys.path.insert(0, str(ROOT / "tests" / "server"))

from error_codes import platform_codes  # noqa: E402

from tertulia.games import GAMES  # noqa: E402
from tertulia.games.base import settings_schema  # noqa: E402

I18N = ROOT / "src" / "tertulia" / "web" / "i18n"
LANGUAGES = ("en", "pt-BR", "es", "pl")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL = re.compile(r"\.(zero|one|two|few|many|other)$")


def _example() -> ModuleType:
    import tiny_game  # the game of docs/adding-a-game.md

    return tiny_game


def _games() -> dict[str, tuple[ModuleType, Path]]:
    """Every game with the folder of its translations: the shipped ones and the example."""
    games = {name: (game, _strings_of(game)) for name, game in GAMES.items()}
    example = _example()
    games[example.NAME] = (example, _strings_of(example))
    return games


def _strings_of(game: ModuleType) -> Path:
    """A game's translations: in its own folder (a game is a folder), web/i18n/."""
    return Path(game.__file__ or "").parent / "web" / "i18n"


def _read(path: Path) -> dict[str, str]:
    return json.loads(path.read_text("utf-8"))


def _shared(lang: str) -> dict[str, str]:
    return _read(I18N / f"{lang}.json")


def _placeholders_english_fills(english: dict[str, str], lang: str, strings: dict[str, str]):
    for key, text in strings.items():
        source = english.get(key) or english.get(PLURAL.sub("", key) + ".other", "")
        extra = set(PLACEHOLDER.findall(text)) - set(PLACEHOLDER.findall(source))
        assert not extra, f"{lang} {key} uses {extra}, which English never fills in"


# --------------------------------------------------------------------------- the shared files


def test_the_four_shared_translations_have_the_same_keys():
    keys = {lang: set(_shared(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES[1:]:
        missing, extra = sorted(keys["en"] - keys[lang]), sorted(keys[lang] - keys["en"])
        assert not missing and not extra, f"{lang}: missing {missing}, extra {extra}"


def test_every_placeholder_of_a_shared_translation_is_one_english_fills_in():
    english = _shared("en")
    for lang in LANGUAGES[1:]:
        _placeholders_english_fills(english, lang, _shared(lang))


def test_every_platform_error_code_has_a_sentence_in_every_language():
    """The codes of docs/protocol.md's table and those games/base.py raises for every game."""
    codes = platform_codes()
    assert {"room.unknown", "action.not_your_turn", "match.player_count"} <= codes
    for lang in LANGUAGES:
        strings = _shared(lang)
        missing = sorted(code for code in codes if f"errors.{code}" not in strings)
        assert not missing, f"{lang}: no errors.<code> for {missing}"


def test_the_shared_files_say_nothing_that_is_one_games():
    """A game's words live in its own files, so adding a game edits no shared file."""
    # Each game's own codes, read once: platform_codes() parses games/*.py, and asking it
    # again for every key of every language took a minute.
    platform = platform_codes()
    own_codes = {name: set(game.ERRORS) - platform for name, (game, _) in _games().items()}
    for lang in LANGUAGES:
        for key in _shared(lang):
            assert not key.startswith("games."), f"{lang} {key}: belongs in the game's files"
            for name, own in own_codes.items():
                assert not key.startswith((f"game.{name}.", f"settings.{name}.")), (
                    f"{lang} {key}: belongs in games/{name}/web/i18n/"
                )
                assert key.removeprefix("errors.") not in own, (
                    f"{lang} {key}: {name}'s error, worded in its files as games.{name}.errors.…"
                )


# --------------------------------------------------------------------------- each game's files


@pytest.mark.parametrize("name", list(_games()))
def test_a_games_four_translations_say_the_same_things(name):
    _, folder = _games()[name]
    english = _read(folder / "en.json")
    forms = {PLURAL.sub("", key) for key in english}
    for lang in LANGUAGES[1:]:
        strings = _read(folder / f"{lang}.json")
        assert {PLURAL.sub("", key) for key in strings} == forms, f"{name} {lang}"
        _placeholders_english_fills(english, lang, strings)


@pytest.mark.parametrize("name", list(_games()))
def test_a_games_files_hold_only_its_own_keys(name):
    """Every key is the game's: ``games.<name>.…`` (what the platform shows of it),
    ``game.<name>.…`` (its screen's) or one of its settings' labels (with choices, hints)."""
    game, folder = _games()[name]
    labels = tuple(_labels(game))
    for key in _read(folder / "en.json"):
        ours = key.startswith((f"games.{name}.", f"game.{name}."))
        assert ours or key in labels or key.startswith(tuple(f"{label}." for label in labels)), key


@pytest.mark.parametrize("name", list(_games()))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_has_a_name_a_description_and_a_label_for_every_setting(name, lang):
    game, folder = _games()[name]
    strings = _read(folder / f"{lang}.json")
    assert strings.get(f"games.{name}.name"), f"{lang}: no name"
    assert strings.get(f"games.{name}.description"), f"{lang}: no description"
    for label, choices in _labels(game).items():
        assert label in strings, f"{lang}: no text for the setting {label}"
        for value in choices:
            assert f"{label}.{value}" in strings, f"{lang}: no text for the choice {value}"


@pytest.mark.parametrize("name", list(_games()))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_a_game_lists_has_a_sentence_in_every_language(name, lang):
    """``ERRORS`` is complete (tests/games/test_game_folders.py checks it against the source),
    so every refusal a game can send is worded in every language."""
    game, folder = _games()[name]
    strings = _read(folder / f"{lang}.json")
    missing = [code for code in game.ERRORS if f"games.{name}.errors.{code}" not in strings]
    assert not missing, f"no games.{name}.errors.<code> for {missing}"


def _labels(game: ModuleType) -> dict[str, list[str]]:
    """Each settings field's label key, with the values of its choices (if it has any)."""
    fields = settings_schema(game.Settings)["$defs"][game.Settings.__name__]["properties"]
    return {field["x-label"]: field.get("enum", []) for field in fields.values()}
