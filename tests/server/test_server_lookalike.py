"""Names that look alike, and bidirectional controls, through a real server and WebSocket."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_harness import run

from tertulia.client import Client, ClientError

CYRILLIC_O = "\u043e"
RLO, PDF, RLI, PDI, LRM = "\u202e", "\u202c", "\u2067", "\u2069", "\u200e"


async def _refusal(coro) -> ClientError:
    with pytest.raises(ClientError) as refused:
        await coro
    return refused.value


def test_a_nickname_that_looks_like_one_in_the_room_is_refused_with_its_own_code(server):
    """Joining or renaming to a look-alike of someone's nickname: ``nickname.looks_alike``,
    with the nickname it looks like in params; the same name in another case stays
    ``nickname.taken``."""

    async def go():
        bob = await Client.connect(server.ws)
        code = await bob.create_room("tiny", "Bob")
        other = await Client.connect(server.ws)
        for impostor in [f"B{CYRILLIC_O}b", "\uff22\uff4f\uff42", "Bob\u3164", "B0b"]:
            refused = await _refusal(other.join_room(code, impostor))
            assert (refused.code, refused.params) == ("nickname.looks_alike", {"name": "Bob"})
        assert (await _refusal(other.join_room(code, "bob"))).code == "nickname.taken"
        await other.join_room(code, "Ana")
        refused = await _refusal(other.request("set_nickname", nickname="\uff22\uff4f\uff42"))
        assert refused.code == "nickname.looks_alike"
        assert [s["nickname"] for s in bob.latest["room"]["seats"]] == ["Bob", "Ana"]

    run(go())


def test_a_nickname_mixing_scripts_in_a_word_makes_no_room(server):
    """ "Bоb" (Cyrillic о) is refused on its own, before anyone called Bob is there."""

    async def go():
        ana = await Client.connect(server.ws)
        refused = await _refusal(ana.create_room("tiny", f"B{CYRILLIC_O}b"))
        assert refused.code == "nickname.mixed_scripts"
        assert server.state.manager.rooms == {}
        code = await ana.create_room("tiny", "Иван")  # wholly Cyrillic is fine
        bo = await Client.connect(server.ws)
        refused = await _refusal(bo.join_room(code, f"B{CYRILLIC_O}b"))
        assert refused.code == "nickname.mixed_scripts"

    run(go())


def test_accented_latin_and_emoji_nicknames_stay_allowed_over_the_wire(server):
    async def go():
        ana = await Client.connect(server.ws)
        code = await ana.create_room("tiny", "Żaneta")
        for name in ["João", "\U0001f469\u200d\U0001f4bb"]:  # 👩‍💻 keeps its joiner
            client = await Client.connect(server.ws)
            await client.join_room(code, name)
        push = await ana.wait_for(lambda p: len(p["room"]["seats"]) == 3)
        assert [s["nickname"] for s in push["room"]["seats"]] == [
            "Żaneta",
            "João",
            "\U0001f469\u200d\U0001f4bb",
        ]

    run(go())


async def _chat_line(client: Client, count: int) -> dict:
    for _ in range(200):
        if len(client.chat) >= count:
            return client.chat[count - 1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no chat line {count}")


def test_bidi_controls_are_removed_from_chat_clues_titles_and_categories(server):
    """Whatever a client sends loses its bidirectional controls, written as characters (the
    Python client's frames) or as JSON escapes in a text frame (``"\\u202e"``)."""

    async def go():
        lucas, ana, nico = [await Client.connect(server.ws) for _ in range(3)]
        code = await lucas.create_room("pinto", f"{RLO}Lucas{PDF}")
        await ana.join_room(code, f"Ana{LRM}")
        await nico.join_room(code, "Nico")
        seats = await lucas.wait_for(lambda p: len(p["room"]["seats"]) == 3)
        assert [s["nickname"] for s in seats["room"]["seats"]] == ["Lucas", "Ana", "Nico"]

        await lucas.say(f"{RLI}hello{PDI} there")
        escaped = json.dumps({"type": "chat", "id": 999, "text": f"good {RLO}luck"})
        assert "\\u202e" in escaped
        await ana.send_raw(escaped)  # a text frame, the control as a JSON escape
        lines = [await _chat_line(nico, 1), await _chat_line(nico, 2)]
        assert [line["text"] for line in lines] == ["hello there", "good luck"]

        categories = [f"Our cat {RLO}Mimi", f"{RLI}Grandma{PDI}"]
        await lucas.request("update_settings", settings={"custom_categories": categories})
        push = await nico.wait_for(lambda p: p["room"]["settings"]["custom_categories"] != [])
        assert push["room"]["settings"]["custom_categories"] == ["Our cat Mimi", "Grandma"]

        await lucas.request("start_match")
        await lucas.wait_for(lambda p: p["view"] is not None)
        await lucas.act({"type": "set_title", "text": f"spi{RLO}ral"})
        push = await lucas.wait_for(lambda p: p["view"]["my_title"] is not None)
        assert push["view"]["my_title"] == "spiral"

    run(go())


def test_bidi_controls_are_removed_from_pitacor_and_haiclue_clues(server):
    async def go():
        players = [await Client.connect(server.ws) for _ in range(3)]
        code = await players[0].create_room("pitacor", "Ana")
        for client, name in zip(players[1:], ["Bo", "Cy"], strict=True):
            await client.join_room(code, name)
        await players[0].request("start_match")
        await players[0].wait_for(lambda p: p["view"] is not None)
        giver = next(c for c in players if c.player == players[0].view["giver"])
        await giver.wait_for(lambda p: p["view"]["you"]["to_do"] == "choose_target")
        await giver.act({"type": "choose_target", "index": 0})
        await giver.act({"type": "give_clue", "text": f"oc{RLO}ean"})
        push = await giver.wait_for(lambda p: p["view"]["clues"] != [])
        assert "ocean" in json.dumps(push["view"]["clues"])
        assert RLO not in json.dumps(push["view"]["clues"], ensure_ascii=False)

        players = [await Client.connect(server.ws) for _ in range(3)]
        code = await players[0].create_room("haiclue", "Ana")
        for client, name in zip(players[1:], ["Bo", "Cy"], strict=True):
            await client.join_room(code, name)
        await players[0].request("start_match")
        author = players[0]
        rack = (await author.wait_for(lambda p: p["view"] and p["view"]["rack"]))["view"]["rack"]
        await author.act({"type": "submit_clue", "words": [f"{RLI}{rack[0]}{PDI}", rack[1]]})
        push = await author.wait_for(lambda p: p["view"]["my_clue"] is not None)
        assert push["view"]["my_clue"] == rack[:2]

    run(go())
