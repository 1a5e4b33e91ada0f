"""A game is a folder: the server finds every one by looking, in a stable order, and says
which folder is broken instead of starting without it. Each game lists its error codes."""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from error_codes import GAMES as GAMES_FOLDER
from error_codes import ROOT, base_modules, platform_codes, raised_codes

from tertulia.games import GAME_NAME, GAMES, BrokenGames, discover

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

# The smallest module the contract takes; its name comes from its folder, as every game's.
FAKE_GAME = """
import msgspec

NAME = __name__.rpartition(".")[2]
MIN_PLAYERS, MAX_PLAYERS = 1, 4


class Settings(msgspec.Struct):
    pass


Action = State = Settings


def start(settings, players, seed, now, *, public=False):
    return State()


apply = deadline = view = may_chat = outcome = start
"""


def _package(root: Path, name: str, folders: dict[str, str]) -> tuple[str, list[str]]:
    """A package ``name`` under ``root`` with a folder (``__init__.py`` text) per game."""
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "base.py").write_text("RAISED = 'base is the contract, not a game'\n")
    for folder, text in folders.items():
        (package / folder).mkdir()
        (package / folder / "__init__.py").write_text(textwrap.dedent(text))
    return name, [str(package)]


def test_the_shipped_games_are_found_in_their_list_order():
    assert list(GAMES) == ["pitacor", "haiclue", "pinto"]
    assert all(name == game.NAME for name, game in GAMES.items())


def test_a_games_name_is_its_folders_name():
    for name, (game, folder) in _every_game().items():
        assert name == game.NAME and Path(game.__file__).parent == folder


def test_the_example_game_copied_into_a_games_folder_is_found(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package, paths = _package(tmp_path, "example_games", {})
    shutil.copytree(_every_game()["tiny"][1], tmp_path / package / "counting")
    games = discover(package, paths)
    assert list(games) == ["counting"] and games["counting"].NAME == "counting"


def test_order_decides_then_the_name_and_games_without_an_order_come_last(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package, paths = _package(
        tmp_path,
        "ordered_games",
        {
            "zebra": FAKE_GAME + "ORDER = 1\n",
            "bee": FAKE_GAME + "ORDER = 2\n",
            "ant": FAKE_GAME + "ORDER = 2\n",
            "aardvark": FAKE_GAME,
            "_helpers": "raise RuntimeError('a private folder is not imported')\n",
        },
    )
    (tmp_path / package / "loose.py").write_text("raise RuntimeError('a module is no game')\n")
    assert list(discover(package, paths)) == ["zebra", "ant", "bee", "aardvark"]


def test_a_plain_module_is_never_a_game_even_one_that_meets_the_contract(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package, paths = _package(tmp_path, "module_games", {"real": FAKE_GAME})
    for module in ("seating.py", "_clocks.py"):
        (tmp_path / package / module).write_text(textwrap.dedent(FAKE_GAME))
    assert list(discover(package, paths)) == ["real"]


def test_the_modules_base_gathers_can_never_be_taken_for_games():
    """``games/`` holds ``base.py`` and the modules of shared tools it gathers: plain modules,
    which discovery never imports as games, named with a leading ``_`` so that no game folder
    can have one's name (a folder ``games/seating/`` would be imported in place of a module
    ``games/seating.py``, and base with it)."""
    modules = [path.stem for path in base_modules()]
    assert "base" in modules and len(modules) > 1
    assert all(name == "base" or name.startswith("_") for name in modules), modules
    assert not any(GAME_NAME.match(name) for name in modules if name != "base")
    assert not set(modules) & set(GAMES)
    assert not [p.name for p in GAMES_FOLDER.iterdir() if p.is_dir() and p.name in modules]


def test_a_broken_game_stops_discovery_with_a_message_naming_it_and_why(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package, paths = _package(
        tmp_path,
        "broken_games",
        {
            "fine": FAKE_GAME,
            "typo": FAKE_GAME + "def oops(:\n",
            "crashes": "raise ValueError('no deck file')\n",
            "half": FAKE_GAME + "del apply\n",
            "renamed": FAKE_GAME.replace('NAME = __name__.rpartition(".")[2]', 'NAME = "other"'),
            "crowded": FAKE_GAME.replace("1, 4", "5, 2"),
            "unordered": FAKE_GAME + "ORDER = 'first'\n",
            "codes": FAKE_GAME + "ERRORS = ('ok.code', 'Not a code')\n",
        },
    )
    with pytest.raises(BrokenGames) as caught:
        discover(package, paths)
    problems = caught.value.problems
    assert set(problems) == {
        "typo",
        "crashes",
        "half",
        "renamed",
        "crowded",
        "unordered",
        "codes",
    }
    assert "SyntaxError" in problems["typo"]
    assert "ValueError: no deck file" in problems["crashes"]
    assert "crashes/__init__.py" in problems["crashes"]
    assert "apply" in problems["half"]
    assert "folder's name" in problems["renamed"]
    assert "MAX_PLAYERS" in problems["crowded"]
    assert "ORDER" in problems["unordered"]
    assert "Not a code" in problems["codes"]
    message = str(caught.value)
    assert "games/typo:" in message and "games/crashes:" in message
    assert "games/fine" not in message


def _every_game() -> dict[str, tuple[ModuleType, Path]]:
    """The shipped games and the example of docs/adding-a-game.md, with their folders."""
    import tiny_game

    games = {name: (game, GAMES_FOLDER / name) for name, game in GAMES.items()}
    games[tiny_game.NAME] = (tiny_game, Path(tiny_game.__file__).parent)
    return games


@pytest.mark.parametrize("name", list(_every_game()))
def test_every_error_code_a_game_raises_is_in_its_errors_list(name):
    """``ERRORS`` is the one place that lists a game's codes (the translations test reads
    it): every code its source raises is there or the platform's, and it lists no code the
    game does not raise."""
    game, folder = _every_game()[name]
    raised = raised_codes(folder)
    platform = platform_codes()
    listed = set(game.ERRORS)
    assert not raised - platform - listed, f"{name}: add to ERRORS {raised - platform - listed}"
    assert not listed - raised, f"{name}: ERRORS lists codes it never raises: {listed - raised}"
    assert not listed & platform, f"{name}: the platform's codes are not the game's to list"
    assert len(game.ERRORS) == len(listed), f"{name}: a code listed twice"


def test_the_scan_finds_codes_written_in_the_call_and_in_constants(tmp_path):
    (tmp_path / "rules.py").write_text(
        textwrap.dedent(
            """
            from .base import Event, RuleError
            TAKEN = "cell.taken"
            KIND = "cell.placed"
            UNUSED = "cell.unused"
            def place(cell):
                Event(KIND, {})
                if cell:
                    raise RuleError(TAKEN, "Taken.")
                raise RuleError("cell.empty", "Empty.")
            def check(word):
                return problem(TOO_LONG, word)
            TOO_LONG = "word.too_long"
            """
        )
    )
    assert raised_codes(tmp_path) == {"cell.taken", "cell.empty", "word.too_long"}


def test_the_page_on_adding_a_game_names_every_file_of_the_example_and_shows_them_as_they_are():
    """docs/adding-a-game.md, "the tiny example plus a checklist" in at most 200 lines: it links
    every file of the example (each link a file that exists), and each file it shows in full
    is the file."""
    page = (ROOT / "docs" / "adding-a-game.md").read_text("utf-8")
    assert len(page.splitlines()) <= 200
    example = ROOT / "docs" / "examples" / "tiny"
    files = {
        path.relative_to(ROOT / "docs").as_posix()
        for path in example.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    linked = set(re.findall(r"\]\((examples/[^)\s]+)\)", page))
    assert files <= linked, f"not linked: {sorted(files - linked)}"
    assert all((ROOT / "docs" / path).exists() for path in linked)
    blocks = re.findall(r"^```\w+ (docs/examples/\S+)\n(.*?)^```$", page, re.M | re.S)
    assert {path for path, _ in blocks} == {
        "docs/examples/tiny/games/tiny/web/style.css",
        "docs/examples/tiny/games/tiny/web/i18n/en.json",
    }
    for path, text in blocks:
        assert (ROOT / path).read_text("utf-8") == text, f"{path} differs from the page's copy"
