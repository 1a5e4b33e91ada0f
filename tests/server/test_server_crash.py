"""Crash: SIGKILL the server mid-match, start it again: "every acknowledged action is there,
clients resume, timers continue"."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time

import pytest
from server_harness import run, subprocess_server

from tertulia.cli import EXIT_TRY_AGAIN
from tertulia.client import Client, ClientError


async def _until_noticed(client: Client, timeout: float = 30.0) -> None:
    """Until the server has told ``client`` something unasked (or ``timeout`` passes: a long
    one, as a loaded machine is slow; the wait ends as soon as the notice is in)."""
    end = time.monotonic() + timeout
    while not client.notices and time.monotonic() < end:
        await asyncio.sleep(0.02)


async def _connect_all(ws: str, tokens: list[str], code: str) -> list[Client]:
    clients = [await Client.connect(ws, token=token) for token in tokens]
    for client in clients:
        await client.join_room(code, "again")
    return clients


async def _three_in_pitacor(ws: str, **settings: object) -> tuple[list[Client], str]:
    """Ana, Bo and Cy in a new Pitacor room's lobby, with these settings."""
    clients = [await Client.connect(ws) for _ in range(3)]
    code = await clients[0].create_room("pitacor", "Ana")
    for client, name in zip(clients[1:], ["Bo", "Cy"], strict=True):
        await client.join_room(code, name)
    await clients[0].request("update_settings", settings=settings)
    return clients, code


def test_sigkill_mid_match_loses_nothing_acknowledged(tmp_path):
    db = tmp_path / "crash.sqlite3"
    launched = time.monotonic()
    with subprocess_server(db) as first:
        port = first.port
        # The guess clock must outlast what follows the clue (three moves, the kill, a whole
        # restart, three reconnections) to be seen running after the restart: sized from how
        # long this start took (under a second on a quiet machine, so 4 s; longer on a
        # loaded one, where the restart is as slow).
        guess_seconds = max(4, math.ceil(2 * (time.monotonic() - launched) + 2))

        async def before() -> tuple[list[str], str, dict]:
            clients, code = await _three_in_pitacor(first.ws, guess_seconds=guess_seconds)
            await clients[0].say("good luck")
            await clients[0].request("start_match")
            by_id = {c.player: c for c in clients}
            giver = by_id[(await clients[0].wait_for(lambda p: p["view"]))["view"]["giver"]]
            await giver.act({"type": "choose_target", "index": 2})
            await giver.act({"type": "give_clue", "text": "ocean"})
            guesser = by_id[giver.view["guessers"][0]]
            await guesser.act({"type": "select_cell", "cell": "A1"})
            await guesser.act({"type": "confirm"})  # acknowledged: must survive
            other = by_id[giver.view["guessers"][1]]
            await other.act({"type": "select_cell", "cell": "P30"})  # selected, not confirmed
            seen = giver.view | {"version": giver.latest["version"]}
            return [c.token for c in clients], code, seen

        tokens, code, seen = run(before())
        first.kill()

    # Without the restart grace: the clock resumes exactly as it was (the grace has its own test).
    with subprocess_server(db, port, "--restart-grace", "0") as second:

        async def after() -> None:
            clients = await _connect_all(second.ws, tokens, code)
            view = clients[0].view
            assert view["phase"] == "guess1" and view["clues"] == ["ocean"]
            # Versions only grow, across the restart too: browsers ignore older pushes.
            assert clients[0].latest["version"] >= seen["version"]
            assert [(m["cell"]) for m in view["markers"]] == ["A1"]
            assert view["deadline"] == seen["deadline"]  # the same clock, on the server's time
            assert [line["text"] for line in clients[0].chat] == ["good luck"]
            giver = next(c for c in clients if c.player == view["giver"])
            assert giver.view["target"] == seen["target"]
            # The guess clock runs out after the restart: the unconfirmed P30 is forced in.
            push = await giver.wait_for(
                lambda p: p["view"]["phase"] == "clue2", timeout=guess_seconds + 15
            )
            assert sorted(m["cell"] for m in push["view"]["markers"]) == ["A1", "P30"]
            for client in clients:
                await client.close()

        run(after())


def test_a_clue_giver_whose_clock_ran_out_while_the_server_was_down_keeps_the_turn(tmp_path):
    """ "Deadlines that passed while the server was down get a grace after a restart": the
    giver's 2-second clue clock runs out while the server is dead; restarted, the server moves
    it to 20 s from then (the default restart grace) instead of skipping the giver's turn."""
    db = tmp_path / "grace.sqlite3"
    with subprocess_server(db) as first:
        port = first.port

        async def before() -> tuple[list[str], str, dict]:
            clients, code = await _three_in_pitacor(first.ws, clue_seconds=2)
            await clients[0].request("start_match")
            view = (await clients[0].wait_for(lambda p: p["view"]))["view"]
            return [c.token for c in clients], code, view

        tokens, code, seen = run(before())
        first.kill()
    while time.time() < seen["deadline"] + 0.5:  # the clue clock runs out while it is down
        time.sleep(0.1)

    launched = time.time()  # the restore comes after this, however slow the start is
    with subprocess_server(db, port) as second:

        async def after() -> None:
            clients = await _connect_all(second.ws, tokens, code)
            giver = next(c for c in clients if c.player == seen["giver"])
            view = giver.view
            assert (view["round"], view["giver"], view["phase"]) == (1, seen["giver"], "choose")
            # 20 s from the restore, which came between the launch and now.
            assert launched + 20 <= view["deadline"] <= time.time() + 20
            await giver.act({"type": "choose_target", "index": 0})
            await giver.act({"type": "give_clue", "text": "ocean"})
            assert giver.view["phase"] == "guess1" and giver.view["round"] == 1
            for client in clients:
                await client.close()

        run(after())


def test_a_clean_stop_and_start_resumes_rooms_too(tmp_path):
    db = tmp_path / "restart.sqlite3"
    with subprocess_server(db) as first:
        port = first.port

        async def before():
            ana = await Client.connect(first.ws)
            code = await ana.create_room("pitacor", "Ana")
            await ana.request("update_settings", settings={"goal": 40})
            return ana.token, code

        token, code = run(before())
    with subprocess_server(db, port) as second:

        async def after():
            ana = await Client.connect(second.ws, token=token)
            await ana.join_room(code, "Ana")
            assert ana.latest["room"]["settings"]["goal"] == 40
            assert ana.latest["room"]["host"] == ana.player
            await asyncio.sleep(0)
            await ana.close()

        run(after())


def test_a_stopping_server_tells_everyone_it_is_restarting(tmp_path):
    """Players see why the connection drops: "The server is restarting; you will be
    reconnected." comes before the socket closes."""
    with subprocess_server(tmp_path / "stop.sqlite3") as server:

        async def go() -> None:
            ana = await Client.connect(server.ws)
            await ana.create_room("pitacor", "Ana")
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            await _until_noticed(ana)
            assert [n["code"] for n in ana.notices] == ["server.restarting"]

        run(go())


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def test_when_the_store_writer_dies_the_server_says_so_and_stops_for_a_restart(tmp_path):
    """Nothing acknowledged is lost, and nothing more is accepted that could not be saved: with
    its writer process gone the server refuses changes, tells everyone it is restarting, and
    exits with status 75 ("try again") for its supervisor; started again, it has everything
    that was acknowledged."""
    db = tmp_path / "writer.sqlite3"
    with subprocess_server(db) as first:
        port = first.port

        async def before() -> tuple[str, str]:
            ana = await Client.connect(first.ws)
            code = await ana.create_room("pitacor", "Ana")
            await ana.say("saved before")
            assert first.process is not None
            (writer,) = _children(first.process.pid)
            os.kill(writer, signal.SIGKILL)
            try:  # the change that finds it gone is refused...
                await ana.say("never saved")
                pytest.fail("a change was accepted with no writer to save it")
            except ClientError as refused:
                assert refused.code == "server.store"
            except ConnectionError:
                pass  # ...unless the server saw its writer go first and is already leaving
            await _until_noticed(ana)
            assert [n["code"] for n in ana.notices] == ["server.restarting"]
            return ana.token, code

        token, code = run(before())
        assert first.process is not None
        assert first.process.wait(timeout=20) == EXIT_TRY_AGAIN

    with subprocess_server(db, port) as second:

        async def after() -> None:
            ana = await Client.connect(second.ws, token=token)
            await ana.join_room(code, "Ana", resume=True)
            assert [line["text"] for line in ana.chat] == ["saved before"]
            await ana.close()

        run(after())
