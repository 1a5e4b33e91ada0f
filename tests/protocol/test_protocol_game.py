"""Playing (docs/protocol.md, "Game actions (act)"): ``act`` and ``check``, the platform's
refusals of game actions (``action.*``), a game's own codes, and what a match changes in the
lobby's rules (``chat.not_now``, ``nickname.locked``). Raw frames only, on the shared server:
the tiny example game, and Pitacor and Pintó for their own codes (the page's example error
is Pitacor's)."""

from __future__ import annotations

import doc_contract
import pytest
from raw_client import Clients, room_of, run


async def _tiny_match(clients: Clients, *names: str, **settings):
    """A tiny match under way; returns its code, the players, and whose turn it is."""
    code, players = await room_of(clients, "tiny", *names)
    host = players[0]
    if settings:
        await host.ok("update_settings", settings=settings)
    await host.ok("start_match")
    for raw in players:
        await raw.push(lambda held: held.view is not None)
    turn = host.picture.view["turn"]
    mover = next(p for p in players if p.player == turn)
    return code, players, mover, [p for p in players if p is not mover]


@pytest.mark.covers("act", "patch", "ack")
def test_act_is_acked_and_everyone_gets_a_patch_with_the_games_events(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            code, _players, mover, (other,) = await _tiny_match(clients, "Ana", "Bo")
            version = other.picture.version
            start = len(other.frames)
            answer = await mover.request("act", action={"type": "add", "amount": 2})
            assert answer == {"type": "ack", "re": answer["re"], "data": None}
            patch = await other.wait_for(lambda f: f["type"] == "patch", start)
            assert patch["code"] == code and patch["base"] == version
            assert patch["version"] == version + 1
            assert patch["events"] == [{"kind": "tiny.added", "seat": mover.player, "amount": 2}]
            assert patch["room"] == []  # the lobby did not change
            held = other.picture
            assert held.view["counter"] == 2 and held.view["turn"] == other.player

    run(go())


@pytest.mark.covers("deadline", "ping")
def test_deadlines_in_views_are_on_the_servers_clock(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, _players, mover, _ = await _tiny_match(clients, "Ana", "Bo", turn_seconds=30)
            now = (await mover.ok("ping"))["now"]
            assert 20 < mover.picture.view["deadline"] - now <= 30

    run(go())


@pytest.mark.covers("check", "tiny.amount")
def test_check_answers_as_the_action_would_be_and_changes_nothing(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, players, mover, (other,) = await _tiny_match(clients, "Ana", "Bo")
            version = mover.picture.version
            starts = [len(p.frames) for p in players]
            assert await mover.ok("check", action={"type": "add", "amount": 3}) is None
            would = await mover.refused("check", "tiny.amount", action={"type": "add", "amount": 7})
            assert would["params"] == {"amount": 7}
            await other.refused(
                "check", "action.not_your_turn", action={"type": "add", "amount": 1}
            )
            for raw, start in zip(players, starts, strict=True):
                await raw.settle()
                assert not [f for f in raw.frames[start:] if f["type"] in ("room", "patch")]
            assert mover.picture.version == version  # nobody else heard of it
            did = await mover.refused("act", "tiny.amount", action={"type": "add", "amount": 7})
            assert {k: did[k] for k in ("code", "message", "params")} == {
                k: would[k] for k in ("code", "message", "params")
            }, "check answers with the exact error the action gets"

    run(go())


@pytest.mark.covers(
    "act", "action.malformed", "action.not_your_turn", "action.room_only", "action.*"
)
@pytest.mark.parametrize(
    ("action", "code", "who"),
    [
        ({"type": "fly"}, "action.malformed", "mover"),
        ({"type": "add", "amount": "two"}, "action.malformed", "mover"),
        ({"type": "add"}, "action.malformed", "mover"),
        ({"type": "add", "amount": 1}, "action.not_your_turn", "other"),
        ({"type": "timeout"}, "action.room_only", "mover"),
        ({"type": "leave", "player": "whoever"}, "action.room_only", "mover"),
    ],
)
def test_a_game_action_the_platform_refuses(shared, address, action, code, who):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, _players, mover, (other,) = await _tiny_match(clients, "Ana", "Bo")
            version = mover.picture.version
            sender = mover if who == "mover" else other
            await sender.refused("act", code, action=action)
            await sender.refused("check", code, action=action)
            _, fresh = await mover.sync()
            assert fresh.version == version

    run(go())


@pytest.mark.covers("chat.not_now", "nickname.locked", "set_nickname", "chat")
def test_a_match_closes_what_the_lobby_allows(shared, address):
    """Tiny: the player whose turn it is may not chat; nobody playing renames."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            _, players, mover, (other,) = await _tiny_match(clients, "Ana", "Bo")
            await mover.refused("chat", "chat.not_now", text="hurry up")
            await other.ok("chat", text="take your time")
            for raw in players:
                await raw.refused("set_nickname", "nickname.locked", nickname="Someone")

    run(go())


def _phase(held) -> str | None:
    return held.view["phase"] if held.view is not None else None


async def _pitacor_round(clients: Clients):
    """A Pitacor match of three: the giver, and the two guessers."""
    _, players = await room_of(clients, "pitacor", "Ana", "Bo", "Cy")
    await players[0].ok("start_match")
    held = await players[0].push(lambda held: held.view is not None)
    giver = next(p for p in players if p.player == held.view["giver"])
    return giver, [p for p in players if p is not giver]


@pytest.mark.covers("check", "error", "clue.*", "action.wrong_phase", "act")
def test_pitacor_clue_check_answers_as_the_page_shows(shared, address):
    """The page's example error is Pitacor's answer to a "reddish" clue: the same code,
    English sentence and params."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            giver, _ = await _pitacor_round(clients)
            clue = {"type": "give_clue", "text": "ocean"}
            await giver.refused("act", "action.wrong_phase", action=clue)  # first the target
            await giver.ok("act", action={"type": "choose_target", "index": 0})
            await giver.push(lambda held: _phase(held) == "clue1")
            example = doc_contract.example("error")
            error = await giver.refused(
                "check", example["code"], action={"type": "give_clue", "text": "reddish"}
            )
            assert await giver.ok("check", action=clue) is None
            shown = {k: example[k] for k in ("message", "params")}
            assert {k: error[k] for k in ("message", "params")} == shown, f"the server: {error}"

    run(go())


@pytest.mark.covers("act", "marker.*")
def test_pitacor_marker_codes(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            giver, (guesser, _) = await _pitacor_round(clients)
            await giver.ok("act", action={"type": "choose_target", "index": 0})
            await giver.ok("act", action={"type": "give_clue", "text": "ocean"})
            await guesser.push(lambda held: _phase(held) == "guess1")
            await guesser.refused("act", "marker.nothing_selected", action={"type": "confirm"})
            await guesser.refused(
                "act", "marker.unknown_cell", action={"type": "select_cell", "cell": "Z99"}
            )
            await giver.refused(
                "act", "marker.giver_cannot_guess", action={"type": "select_cell", "cell": "H12"}
            )
            await guesser.ok("act", action={"type": "select_cell", "cell": "H12"})

    run(go())


@pytest.mark.covers("check", "title.*")
def test_pinto_title_codes(shared, address):
    async def go():
        async with Clients(shared.ws, address) as clients:
            _, players = await room_of(clients, "pinto", "Ana", "Bo", "Cy")
            await players[0].ok("start_match")
            await players[1].push(lambda held: held.view is not None)
            await players[1].refused(
                "check", "title.empty", action={"type": "set_title", "text": " "}
            )
            error = await players[1].refused(
                "act", "title.too_long", action={"type": "set_title", "text": "x" * 500}
            )
            assert set(error["params"]) == {"max"}

    run(go())


@pytest.mark.covers("room", "patch", "act", "frame.too_large")
def test_blobs_travel_once_per_connection_and_again_to_a_new_one(shared, address):
    """Pintó: a revealed drawing is a blob the view names by key, sent once per connection
    (keep it until you leave or reconnect); a new connection gets every blob it may see.
    And a room's game may allow larger frames than 64 KiB (a drawing travels in one)."""

    async def go():
        async with Clients(shared.ws, address) as clients:
            code, (ana, bo, cy) = await room_of(clients, "pinto", "Ana", "Bo", "Cy")
            await ana.ok("start_match")
            for raw in (ana, bo, cy):
                await raw.push(lambda held: held.view is not None)
            await ana.ok("act", action={"type": "set_title", "text": "a red boat"})
            stroke = {"colour": "#1d1d1f", "size": 5, "points": [10, 10, 500, 500, 900, 20]}
            start = len(cy.frames)
            await ana.ok("act", action={"type": "reveal_drawing", "strokes": [stroke]})
            held = await cy.push(lambda held: held.view["drawings"].get(ana.player), start)
            key = held.view["drawings"][ana.player]["blob"]
            sent = [f["blobs"] for f in cy.frames[start:] if f.get("blobs")]
            assert len(sent) == 1 and list(sent[0]) == [key]
            assert sent[0][key][0]["points"] == stroke["points"]
            start = len(cy.frames)
            await bo.ok("act", action={"type": "set_title", "text": "a green tree"})
            await bo.ok("act", action={"type": "reveal_drawing", "strokes": [stroke]})
            await cy.push(lambda held: held.view["drawings"].get(bo.player), start)
            again = [f["blobs"] for f in cy.frames[start:] if f.get("blobs")]
            assert all(key not in blobs for blobs in again), "a blob sent twice"
            tab = await clients.hello("cy again", token=cy.token)
            await tab.ok("join_room", code=code, nickname="Cy", resume=True)
            whole = tab.first(lambda f: f["type"] == "room" and f["blobs"])
            assert whole is not None and key in whole["blobs"]
            # Pintó's frames may be larger than the default 64 KiB, up to the game's limit.
            error = await cy.refused("chat", "chat.too_long", text="x" * (100 * 1024))
            assert error["params"] == {"max": 300}
            start, msg_id = len(cy.frames), cy.next_id()
            await cy.send({"type": "chat", "id": msg_id, "text": "x" * (600 * 1024)})
            await cy.settle()
            cy.unanswered(msg_id)  # its re is test_protocol_session's frame.too_large test's
            error = cy.frames[start]
            assert error["code"] == "frame.too_large" and error["params"]["max"] > 64 * 1024

    run(go())
