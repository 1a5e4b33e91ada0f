"""Match pages in a cluster (issue 31): "in cluster mode every node serves every match page
(the log is shared)" — a match played in a room one node owns is listed and served, the same,
by every node, from PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

from cluster_testing import cluster, run

from tertulia.client import Client


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.getheaders()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as refused:
        return refused.code, {k.lower(): v for k, v in refused.headers.items()}, refused.read()


def test_every_node_serves_every_match_and_lists_its_players_matches(tmp_path) -> None:
    with cluster(tmp_path) as (owner, other):

        async def go() -> None:
            ana = await Client.connect(owner.ws)
            bo = await Client.connect(other.ws)
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")  # Bo's socket is on the other node
            await ana.request("update_settings", settings={"target": 3, "turn_seconds": 0})
            await ana.request("start_match")
            view = await bo.wait_for(lambda push: push.get("view") is not None)
            first = ana if view["view"]["turn"] == ana.player else bo
            await first.act({"type": "add", "amount": 3})
            podium = await bo.wait_for(lambda push: push["room"]["status"] == "ended")
            page_id = podium["room"]["match_page"]
            assert page_id
            for _ in range(100):  # kept by the owner as the match ends
                mine = (await bo.request("my_matches"))["matches"]
                if mine:
                    break
                await asyncio.sleep(0.1)
            assert [m["id"] for m in mine] == [page_id]
            assert [m["id"] for m in (await ana.request("my_matches"))["matches"]] == [page_id]
            pages = []
            for node in (owner, other):
                status, headers, body = _get(f"{node.base}/api/matches/{page_id}")
                assert status == 200 and headers["x-robots-tag"] == "noindex"
                pages.append(json.loads(body))
                status, headers, _ = _get(f"{node.base}/m/{page_id}")
                assert status == 200 and headers["x-robots-tag"] == "noindex"
                status, _, body = _get(f"{node.base}/api/matches/{'z' * 16}")
                assert status == 404 and json.loads(body)["error"] == "match.unknown"
            assert pages[0] == pages[1]
            assert pages[0]["recap"]["counter"] == 3 and pages[0]["replay"]["steps"]
            await ana.close()
            await bo.close()

        run(go)
