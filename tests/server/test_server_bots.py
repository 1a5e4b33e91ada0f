"""Computer players in real rooms, over real WebSockets on loopback with a real store file:
the host adds and removes them, they persist over a restart, they see only their seat's view,
whole matches with one person and bots finish, and a bot plays a dropped player's seat until
the player comes back."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest
from person import play_as_person
from server_harness import ThreadServer, run, subprocess_server

from tertulia.client import Client, ClientError
from tertulia.games import GAMES
from tertulia.rooms import records

FAST = (0.02, 0.06)  # the bots' delay here: seconds, not a person's


@pytest.fixture
def server(tmp_path):
    with ThreadServer(tmp_path / "bots.sqlite3", drop_grace_seconds=0.3, bot_delay=FAST) as s:
        yield s


async def _host(server, game: str, **settings) -> tuple[Client, str]:
    ana = await Client.connect(server.ws)
    code = await ana.create_room(game, "Ana")
    if settings:
        await ana.request("update_settings", settings=settings)
    return ana, code


async def _add_bots(client: Client, count: int, level: str = "good") -> list[dict]:
    for _ in range(count):
        await client.request("add_bot", level=level, language="en")
    push = await client.wait_for(lambda p: sum(s["bot"] for s in p["room"]["seats"]) >= count)
    return [s for s in push["room"]["seats"] if s["bot"]]


async def _refusal(client: Client, kind: str, **fields) -> ClientError:
    with pytest.raises(ClientError) as refused:
        await client.request(kind, **fields)
    assert refused.value.message  # a human sentence beside the code
    return refused.value


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def _others_secret_words(room, seat: str) -> set[str]:
    """Haiclue words only other seats may see at this moment: the tiles of their racks and
    drafts that neither a spectator nor this seat is shown."""
    if room.game.NAME != "haiclue":
        return set()
    match = room.model.match
    words: set[str] = set()
    for player in room.model.players():
        if player.player != seat:
            theirs = room.game.view(match, player.player)
            words |= set(theirs["rack"] or []) | set(theirs["my_draft"] or [])
    return words - _strings(room.game.view(match, None)) - _strings(room.game.view(match, seat))


def _watch_inputs(server) -> list[tuple[str, dict, dict, set[str]]]:
    """Every view a bot is given, with the seat's view as the room builds it at that moment
    and the words only other seats may see then: recorded on the server's loop as each
    decision is asked, before the worker gets it."""
    runner = server.state.manager.bot_runner
    asked = runner.decide
    seen: list[tuple[str, dict, dict, set[str]]] = []

    async def decide(game, view, **options):
        seat = view["you"]["seat"]
        for room in server.state.manager.rooms.values():
            if room.model.seat(seat) is not None and room.model.match is not None:
                built = room.game.view(room.model.match, seat)
                seen.append((seat, view, built, _others_secret_words(room, seat)))
        return await asked(game, view, **options)

    runner.decide = decide
    return seen


# ---------------------------------------------------------------------------- the lobby


def test_the_host_adds_and_removes_computer_players(server):
    async def go():
        ana, code = await _host(server, "pitacor")
        bots = await _add_bots(ana, 2)
        seats = ana.latest["room"]["seats"]
        assert [s["bot"] for s in seats] == [False, True, True]
        assert len({s["nickname"] for s in seats}) == 3  # distinct names
        assert len({s["colour"] for s in seats}) == 3  # and colours
        assert all(s["level"] == "good" for s in bots)
        bo = await Client.connect(server.ws)
        await bo.join_room(code, "Bo")
        listed = await bo.wait_for(lambda p: len(p["room"]["seats"]) == 4)
        assert [s["bot"] for s in listed["room"]["seats"]] == [False, True, True, False]
        assert (await _refusal(bo, "add_bot")).code == "room.host_only"
        assert (await _refusal(bo, "remove_bot", player=bots[0]["id"])).code == "room.host_only"
        await ana.request("remove_bot", player=bots[0]["id"])
        after = await bo.wait_for(lambda p: len(p["room"]["seats"]) == 3)
        assert bots[0]["id"] not in [s["id"] for s in after["room"]["seats"]]
        assert (await _refusal(ana, "remove_bot", player=bo.player)).code == "bot.not_a_bot"
        assert (await _refusal(ana, "add_bot", level="expert")).code == "bot.level"

    run(go())


def test_pinto_refuses_computer_players(server):
    async def go():
        ana, _ = await _host(server, "pinto")
        refused = await _refusal(ana, "add_bot")
        assert refused.code == "bot.no_bots" and refused.params == {"game": "pinto"}
        assert ana.latest["room"]["bots"] is False
        await ana.request("choose_game", game="haiclue")
        await _add_bots(ana, 1)
        await ana.request("choose_game", game="pinto")  # the bots go with the game
        gone = await ana.wait_for(lambda p: p["room"]["game"] == "pinto")
        assert [s["nickname"] for s in gone["room"]["seats"]] == ["Ana"]

    run(go())
    with urllib.request.urlopen(f"{server.base}/api/games") as answer:
        listed = {g["name"]: g["bots"] for g in json.load(answer)}
    assert listed == {"pitacor": True, "haiclue": True, "pinto": False}


def test_a_full_room_and_a_running_match_take_no_bot(server):
    async def go():
        ana, _ = await _host(server, "haiclue")
        await _add_bots(ana, GAMES["haiclue"].MAX_PLAYERS - 1)
        assert (await _refusal(ana, "add_bot")).code == "room.full"
        await ana.request("remove_bot", player=ana.latest["room"]["seats"][-1]["id"])
        await ana.request("start_match")  # bots count towards the minimum
        assert (await _refusal(ana, "add_bot")).code == "room.not_in_lobby"

    run(go())


def test_bots_persist_over_a_restart_and_play_on(tmp_path):
    """Bot membership is in the room's log like any lobby change: a killed server comes back
    with the same bots, names and colours, and they play the match it was in."""
    db = tmp_path / "restart.sqlite3"
    with subprocess_server(db, None, "--bot-delay", "0.02-0.05") as first:
        port = first.port

        async def before():
            ana = await Client.connect(first.ws)
            code = await ana.create_room("pitacor", "Ana")
            await _add_bots(ana, 2)
            return ana.token, code, ana.latest["room"]["seats"]

        token, code, seats = run(before())
        first.kill()

    with subprocess_server(db, port, "--bot-delay", "0.02-0.05", "--restart-grace", "0") as again:

        async def after():
            ana = await Client.connect(again.ws, token=token)
            await ana.join_room(code, "Ana", resume=True)
            back = ana.latest["room"]["seats"]
            assert [(s["id"], s["nickname"], s["colour"], s["bot"]) for s in back] == [
                (s["id"], s["nickname"], s["colour"], s["bot"]) for s in seats
            ]
            await ana.request("update_settings", settings={"goal": 2, "reveal_seconds": 0})
            await ana.request("start_match")
            last = await play_as_person(ana, "pitacor", timeout=60)
            assert last["room"]["status"] == "ended"

        run(after())


# ---------------------------------------------------------------------------- matches


def test_a_whole_pitacor_match_with_one_person_and_bots_finishes(server):
    async def go():
        seen = _watch_inputs(server)
        ana, _ = await _host(server, "pitacor", goal=4, reveal_seconds=0, markers="hidden")
        bots = await _add_bots(ana, 2)
        await ana.request("start_match")
        last = await play_as_person(ana, "pitacor")
        assert last["view"]["ranking"]
        bot_ids = {b["id"] for b in bots}
        asked = {seat for seat, *_ in seen}
        assert asked == bot_ids  # both bots played, nobody else was asked
        for seat, given, as_built, _ in seen:
            assert given == as_built  # exactly the seat's own view
            assert given["you"]["seat"] == seat
            # Hidden markers are "shown only at the reveal": a bot sees its own alone.
            if given["phase"] not in ("reveal", "ended"):
                assert {m["seat"] for m in given["markers"]} <= {seat}
                if given["giver"] != seat:
                    assert given["target"] is None and given["candidates"] is None

    run(go())


def test_a_whole_haiclue_game_with_one_person_and_bots_finishes(server):
    async def go():
        seen = _watch_inputs(server)
        ana, _ = await _host(server, "haiclue", reveal_seconds=0)
        bots = await _add_bots(ana, 2)
        await ana.request("start_match")
        last = await play_as_person(ana, "haiclue")
        assert last["view"]["ranking"]
        assert {seat for seat, *_ in seen} == {b["id"] for b in bots}
        for seat, given, as_built, secret in seen:
            assert given == as_built and given["you"]["seat"] == seat
            # Another seat's tiles (its rack, its clue being built) are never in a bot's input.
            assert secret and not secret & _strings(given)

    run(go())


def test_a_room_with_bots_does_not_slow_another_room(server):
    """Bot decisions run in a worker process: another room's pings stay quick meanwhile."""

    async def go():
        ana, _ = await _host(server, "haiclue", reveal_seconds=0)
        await _add_bots(ana, 3)
        await ana.request("start_match")
        cy, _ = await _host(server, "pitacor")
        worst = 0.0
        end = time.monotonic() + 30.0

        def built() -> bool:
            return any(p.get("finished") for p in ana.latest["view"]["players"])

        while not built():  # the bots load the model and build their clues meanwhile
            assert time.monotonic() < end, "no bot built its clue"
            began = time.monotonic()
            await cy.request("ping")
            worst = max(worst, time.monotonic() - began)
            await asyncio.sleep(0.2)  # (a person's pace: well under the rate limit)
        assert worst < 0.5

    run(go())


# ---------------------------------------------------------------------------- leavers


def _moves_by(entries: list, seat: str) -> list[int]:
    return [i for i, r in enumerate(entries) if isinstance(r, records.GameMove) and r.seat == seat]


def test_a_bot_plays_for_a_dropped_player_who_takes_the_seat_back(server):
    async def go():
        ana, code = await _host(
            server, "pitacor", goal=50, clue_seconds=4, guess_seconds=4, reveal_seconds=1
        )
        await _add_bots(ana, 1)
        bo = await Client.connect(server.ws)
        await bo.join_room(code, "Bo")
        await ana.request("start_match")
        await bo.wait_for(lambda p: p["view"] is not None)
        assert (await _refusal(ana, "stand_in", player=bo.player)).code == "bot.player_here"
        token = bo.token
        await bo.close()
        await ana.wait_for(lambda p: not _seat(p, bo.player)["online"])
        assert (await _refusal(ana, "stand_in", player=ana.player)).code == "bot.player_here"
        playing = asyncio.get_running_loop().create_task(play_as_person(ana, "pitacor"))
        await ana.request("stand_in", player=bo.player, level="good", language="en")
        await ana.wait_for(lambda p: _seat(p, bo.player)["stand_in"] == "good")

        async def log():
            live = await server.state.store.load_live_room(code, snapshot=False)
            return [records.record_decoder.decode(e.payload) for e in live.entries]

        for _ in range(300):  # the bot plays Bo's seat: a clue or a marker of Bo's
            if _moves_by(await server.call(log()), bo.player):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the bot never played for Bo")
        back = await Client.connect(server.ws, token=token)
        await back.join_room(code, "Bo", resume=True)  # the same seat, taken back
        assert _seat(back.latest, bo.player)["stand_in"] is None
        assert back.latest["view"]["you"]["seat"] == bo.player
        returned = len(await server.call(log()))
        # The match moves on (clocks and the other bot) until Bo's seat has had its turn to
        # act and nobody took it: two clocks ran out since (the first may be a reveal's).
        for _ in range(1200):
            entries = await server.call(log())
            if len(_timeouts(entries[returned:])) >= 2:
                break
            await asyncio.sleep(0.05)
        assert len(entries) > returned + 1  # the match went on
        assert not [i for i in _moves_by(entries, bo.player) if i >= returned]
        playing.cancel()

    run(go())


def _timeouts(entries: list) -> list:
    return [e for e in entries if isinstance(e, records.GameMove) and e.action["type"] == "timeout"]


def _seat(push: dict, player: str) -> dict:
    return next(s for s in push["room"]["seats"] if s["id"] == player)
