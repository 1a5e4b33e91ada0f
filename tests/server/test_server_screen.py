"""The party around the games, through the server: a shared screen (a TV) and quick
reactions (issue 29; docs/protocol.md, "A shared screen", "Reactions")."""

from __future__ import annotations

import asyncio

import pytest
from server_harness import run
from test_server_pitacor import _by_id, _table

from tertulia.client import Client, ClientError


async def _screen(server, code: str, token: str | None = None) -> Client:
    tv = await Client.connect(server.ws, token=token, keep_frames=True)
    data = await tv.request("open_screen", code=code)
    assert data == {"room": code, "screen": True}
    return tv


def test_a_screen_opened_from_the_givers_own_browser_never_receives_the_target(server):
    """ "It never receives a secret: by construction (it is a view with no seat)": even a TV
    opened on the giver's own laptop (the same browser, so the same identity) is shown what a
    spectator sees — checked on the bytes its socket received."""

    async def go():
        clients, code = await _table(server)
        by_id = _by_id(clients)
        giver = by_id[clients[0].view["giver"]]
        tv = await _screen(server, code, token=giver.token)
        assert tv.view["you"]["role"] == "spectator" and tv.view["target"] is None
        seats = [s["id"] for s in tv.latest["room"]["seats"]]
        assert len(seats) == 3  # it took no seat, and is not listed
        await giver.act({"type": "choose_target", "index": 2})
        target = giver.view["target"]
        candidates = [c["cell"] for c in giver.view["candidates"]]
        await giver.act({"type": "give_clue", "text": "ocean"})
        await tv.wait_for(lambda p: p["view"]["clues"] == ["ocean"])
        assert tv.view["target"] is None and tv.view["candidates"] is None
        sent = b"".join(tv.frames)
        for cell in candidates:
            assert f'"{cell}"'.encode() not in sent
        far = iter(c for c in ("A1", "P30", "A30", "P1") if c not in candidates)
        for seat in giver.view["guessers"]:
            await by_id[seat].act({"type": "select_cell", "cell": next(far)})
            await by_id[seat].act({"type": "confirm"})
        await giver.act({"type": "pass_clue"})
        push = await tv.wait_for(lambda p: p["view"]["phase"] == "reveal")
        assert push["view"]["target"] == target  # the reveal shows it to everyone
        await tv.close()

    run(go())


def test_a_screen_only_shows(server):
    async def go():
        _, code = await _table(server)
        tv = await _screen(server, code)
        with pytest.raises(ClientError) as refused:
            await tv.act({"type": "confirm"})
        assert refused.value.code == "screen.read_only"
        with pytest.raises(ClientError) as refused:
            await tv.request("react", kind="clap")
        assert refused.value.code == "screen.read_only"
        version = tv.latest["version"]
        await tv.request("sync")  # its whole picture again, as any client's
        assert tv.latest["version"] == version
        await tv.close()

    run(go())


def test_a_screen_for_a_room_that_does_not_exist_is_refused_like_a_join(server):
    async def go():
        tv = await Client.connect(server.ws)
        with pytest.raises(ClientError) as refused:
            await tv.request("open_screen", code="ZZZZZ")
        assert refused.value.code == "room.unknown"
        await tv.close()

    run(go())


def test_reactions_from_two_seats_reach_everyone_and_the_screen(server):
    async def go():
        clients, code = await _table(server)
        tv = await _screen(server, code)
        giver = _by_id(clients)[clients[0].view["giver"]]
        guessers = [c for c in clients if c is not giver]
        version = tv.latest["version"]
        await guessers[0].request("react", kind="laugh")
        await guessers[1].request("react", kind="fire")
        for client in [*clients, tv]:
            for _ in range(100):
                if len(client.reactions) == 2:
                    break
                await asyncio.sleep(0.02)
            got = [(r["player"], r["kind"]) for r in client.reactions]
            assert got == [(guessers[0].player, "laugh"), (guessers[1].player, "fire")]
        assert tv.latest["version"] == version  # not a change of the room
        await tv.close()

    run(go())


def test_reactions_are_closed_to_the_clue_giver_where_chat_is(server):
    """ "closed to the clue giver where chat is closed (a reaction is a hint channel too)" """

    async def go():
        clients, _ = await _table(server)
        giver = _by_id(clients)[clients[0].view["giver"]]
        with pytest.raises(ClientError) as refused:
            await giver.request("react", kind="wow")
        assert refused.value.code == "reaction.not_now"
        with pytest.raises(ClientError) as refused:
            await clients[0].request("react", kind="shrug")
        assert refused.value.code in ("reaction.unknown", "reaction.not_now")

    run(go())


def test_reactions_are_rate_limited_per_connection(server):
    """A few at once, then one a second: the sixth in a row is refused, nothing else is."""

    async def go():
        clients, _ = await _table(server)
        guesser = next(c for c in clients if c.player != clients[0].view["giver"])
        for _ in range(5):
            await guesser.request("react", kind="clap")
        with pytest.raises(ClientError) as refused:
            await guesser.request("react", kind="clap")
        assert refused.value.code == "reaction.too_fast"
        await guesser.request("ping")  # the connection stays

    run(go())
