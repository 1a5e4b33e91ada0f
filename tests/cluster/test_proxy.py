"""Several nodes behind a real reverse proxy (nginx, round robin, no sticky sessions): a
match played across them goes on to its end when the node owning its room is killed."""

from __future__ import annotations

import asyncio
import json
import urllib.request

from cluster_testing import cluster, nginx_in_front, run
from websockets.exceptions import ConnectionClosed

from tertulia.client import Client, ClientError


def _owner(nodes, code: str):
    for node in nodes:
        with urllib.request.urlopen(f"{node.base}/healthz", timeout=2) as response:
            if json.load(response)["rooms"]:
                return node
    raise AssertionError(f"nobody owns {code}")


async def _back(url: str, gone: Client, code: str, name: str) -> Client:
    """A player whose socket died comes back through the proxy, to their seat."""
    for _ in range(50):
        try:
            again = await Client.connect(url, token=gone.token)
            await again.join_room(code, name, resume=True)
            return again
        except (ClientError, OSError, ConnectionError):
            await asyncio.sleep(0.1)
    raise AssertionError(f"{name} could not come back")


def test_three_players_through_nginx_finish_the_match_after_its_owner_is_killed(
    tmp_path,
) -> None:
    with cluster(tmp_path, count=3) as nodes, nginx_in_front(tmp_path, nodes) as url:

        async def go() -> None:
            names = ["Ana", "Bo", "Cy"]
            players = {name: await Client.connect(url) for name in names}
            code = await players["Ana"].create_room("tiny", "Ana")
            for name in names[1:]:
                await players[name].join_room(code, name)
            await players["Ana"].request("update_settings", settings={"turn_seconds": 0})
            await players["Ana"].request("start_match")
            await players["Cy"].wait_for(lambda push: push.get("view") is not None)
            moves = 0

            async def one_move() -> None:
                nonlocal moves
                for _ in range(100):
                    for player in players.values():
                        view = player.view
                        if view and view["winner"] is None and view["turn"] == player.player:
                            try:
                                await player.act({"type": "add", "amount": 1})
                                moves += 1
                                return
                            except (ClientError, ConnectionError, ConnectionClosed):
                                pass  # refused while the room moved, or the socket died
                    await asyncio.sleep(0.05)
                raise AssertionError("nobody could move")

            for _ in range(4):
                await one_move()
            _owner(nodes, code).kill()
            for name, player in list(players.items()):
                if player.socket.close_code is not None or player.socket.state.name != "OPEN":
                    players[name] = await _back(url, player, code, name)
            while True:
                views = [p.view for p in players.values() if p.view]
                if any(v["winner"] is not None for v in views):
                    break
                try:
                    await asyncio.wait_for(one_move(), 15)
                except AssertionError:
                    # A socket that died with the node is noticed on its next use.
                    for name, player in list(players.items()):
                        if player.socket.state.name != "OPEN":
                            players[name] = await _back(url, player, code, name)
            ended = await players["Bo"].wait_for(lambda push: push["view"]["winner"] is not None)
            assert ended["view"]["counter"] >= 10 and moves >= 10
            for player in players.values():
                await player.close()

        run(go)
