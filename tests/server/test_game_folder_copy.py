"""A game is a folder, proved: copy a game's folder under a new name and change nothing else,
and a real server lists it, serves its files and plays it to the end, with people and with
its computer players; install the example of
docs/adding-a-game.md the way its page says, and it plays too; a broken game folder stops the
server at start, naming it.

Each test copies the package to a temporary folder (never writing into ``src/``) and runs
``python -m tertulia serve`` from the copy.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from package_copy import copy_game, copy_package, install_example
from person import play_as_person
from server_harness import free_port, run, subprocess_server

from tertulia.client import Client
from tertulia.games import GAMES


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


def _games(base: str) -> list[dict]:
    return json.loads(_get(f"{base}/api/games")[1])


async def _seat(server, game: str, names: list[str], **settings) -> tuple[list[Client], str]:
    """Everyone in a public room of ``game``; the host sets ``settings`` and starts."""
    clients = [await Client.connect(server.ws) for _ in names]
    code = await clients[0].create_room(game, names[0], public=True)
    for client, name in zip(clients[1:], names[1:], strict=True):
        await client.join_room(code, name)
    if settings:
        await clients[0].request("update_settings", settings=settings)
    await clients[0].request("start_match")
    for client in clients:
        await client.wait_for(lambda p: p["view"] is not None)
    return clients, code


async def _close(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


def test_a_copied_game_folder_is_a_new_game_listed_served_and_played_to_its_end(tmp_path):
    root = copy_package(tmp_path / "copy")
    made = copy_game(root / "tertulia", "pitacor", "hues")
    assert {p.name for p in made.iterdir()} >= {"bot", "web", "__init__.py"}  # all of it

    fast_bots = ("--bot-delay", "0.02-0.06")
    with subprocess_server(tmp_path / "t.sqlite3", None, *fast_bots, python_path=root) as server:
        games = _games(server.base)
        # Its ORDER is Pitacor's (first), so the name decides between the two.
        assert [g["name"] for g in games] == ["hues", *GAMES]
        hues = games[0]
        assert hues["client"] == {
            "screen": True,
            "stylesheet": True,
            "strings": True,
            "howto": True,
        }
        assert hues["settings_schema"] == games[1]["settings_schema"]
        assert hues["bots"]  # its computer players came with the folder
        for path in (
            "screen.js",
            "board.js",  # the screen's parts
            "style.css",
            *(f"i18n/{lang}.json" for lang in ("en", "pt-BR", "es", "pl")),
            "i18n/howto.en.json",
            "img/howto/pick.svg",
        ):
            assert _get(f"{server.base}/static/games/hues/{path}")[0] == 200, path

        async def play():
            clients, code = await _seat(server, "hues", ["Ana", "Bo", "Cy"], goal=1)
            assert clients[0].latest["room"]["game"] == "hues"
            assert clients[0].view["game"] == "hues"
            by_id = {c.player: c for c in clients}
            giver = by_id[clients[0].view["giver"]]
            await giver.wait_for(lambda p: p["view"]["you"]["to_do"] == "choose_target")
            await giver.act({"type": "choose_target", "index": 0})
            target = giver.view["target"]
            await giver.act({"type": "give_clue", "text": "ocean"})
            for seat in giver.view["guessers"]:
                await by_id[seat].act({"type": "select_cell", "cell": target})
                await by_id[seat].act({"type": "confirm"})
                target = _beside(target)  # one marker per cell
            await giver.act({"type": "pass_clue"})
            end = await giver.wait_for(lambda p: p["room"]["status"] == "ended")
            ranking = end["view"]["ranking"]
            assert ranking[0]["winner"] and ranking[0]["score"] >= 1
            await _close(clients)
            return code

        code = run(play())
        # The finished match is archived after its last push went out: give it a moment.
        deadline = time.monotonic() + 5
        while not (recent := json.loads(_get(f"{server.base}/api/rooms")[1])["recent"]):
            assert time.monotonic() < deadline, "the finished match never reached the list"
            time.sleep(0.05)
        assert (recent[0]["room"], recent[0]["game"]) == (code, "hues")

        async def play_with_bots():
            ana = await Client.connect(server.ws)
            await ana.create_room("hues", "Ana")
            await ana.request("update_settings", settings={"goal": 4, "reveal_seconds": 0})
            for _ in range(2):
                await ana.request("add_bot", level="good", language="en")
            await ana.request("start_match")
            last = await play_as_person(ana, "hues", mind="pitacor")
            bots = {s["id"] for s in last["room"]["seats"] if s["bot"]}
            assert len(bots) == 2 and last["view"]["ranking"][0]["winner"]
            # The copy's own bots played: each gave clues or placed markers.
            moved = {rnd["giver"] for rnd in last["view"]["history"] if rnd["clues"]}
            for rnd in last["view"]["history"]:
                moved |= {seat for seat, cells in rnd["markers"].items() if any(cells)}
            assert bots <= moved, "a computer player of the copy never moved"
            await ana.close()

        run(play_with_bots())


def _beside(cell: str) -> str:
    row, col = cell[0], int(cell[1:])
    return f"{row}{col + 1 if col < 30 else col - 1}"


def test_the_example_game_installed_as_its_page_says_is_found_and_played(tmp_path):
    root = copy_package(tmp_path / "copy")
    install_example(root / "tertulia")

    with subprocess_server(tmp_path / "t.sqlite3", python_path=root) as server:
        games = _games(server.base)
        assert [g["name"] for g in games] == [*GAMES, "tiny"]  # its ORDER is after theirs
        assert games[-1]["client"] == {
            "screen": True,
            "stylesheet": True,
            "strings": True,
            "howto": True,
        }

        async def play():
            clients, _ = await _seat(server, "tiny", ["Ana", "Bo"], turn_seconds=0)
            by_id = {c.player: c for c in clients}
            view = clients[0].view
            while view["winner"] is None:
                mover = by_id[view["turn"]]
                await mover.act({"type": "add", "amount": 3})
                view = (await mover.wait_for(lambda p, n=view["counter"]: _moved(p, n)))["view"]
            assert view["counter"] >= 10 and view["ranking"][0]["winner"]
            await _close(clients)

        run(play())


def _moved(push: dict, counter: int) -> bool:
    return push["view"] is not None and push["view"]["counter"] > counter


def test_a_broken_game_folder_stops_the_server_at_start_naming_it(tmp_path):
    root = copy_package(tmp_path / "copy")
    broken = root / "tertulia" / "games" / "wobbly"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise RuntimeError('the deck file is missing')\n")
    command = [sys.executable, "-m", "tertulia", "serve", "--port", str(free_port())]
    done = subprocess.run(
        [*command, "--db", str(tmp_path / "t.sqlite3")],
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 70, done.stdout + done.stderr  # EX_SOFTWARE
    assert "games/wobbly" in done.stderr
    assert "RuntimeError: the deck file is missing" in done.stderr
    assert "Tertulia is running" not in done.stdout
    assert not Path(tmp_path / "t.sqlite3").exists()
