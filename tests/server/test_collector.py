"""Garbage and the server: a closed connection is freed at once, by reference counting,
leaving nothing in cycles for the rare full collections (``server/collector.py``); cycles
that do remain (a closed room's) are freed on the collector's clock."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sys
import weakref

import pytest
from server_harness import ThreadServer, games_with_tiny, run
from websockets.asyncio.client import connect

from tertulia.server import collector
from tertulia.server.guard import Limits


async def _seated(url: str, nickname: str, code: str | None) -> tuple[object, str]:
    ws = await connect(url)
    await ws.send(json.dumps({"type": "hello", "id": 1}))
    if code is None:
        ask = {"type": "create_room", "id": 2, "game": "tiny", "nickname": nickname}
    else:
        ask = {"type": "join_room", "id": 2, "code": code, "nickname": nickname}
    await ws.send(json.dumps(ask))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message.get("type") == "room":
            code = message["room"]["code"]
        if message.get("re") == 2:
            assert message["type"] == "ack", message
            assert code is not None
            return ws, code


class _Garbage:
    """What full collections find only in cycles, kept for the test to read (not freed) from
    ``begin`` on, so that no automatic collection meanwhile can free it unseen."""

    def begin(self) -> None:
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.garbage.clear()  # (what was there before: the harness's health checks)

    def servers(self) -> list[str]:
        """The server's objects found since ``begin`` (the test's own client objects, in the
        same process, are left out)."""
        try:
            gc.collect()
            return [
                f"{type(o).__module__}.{type(o).__qualname__}"
                for o in gc.garbage
                if type(o).__module__.startswith(
                    ("tertulia.server", "websockets.server", "uvicorn")
                )
            ]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()


@pytest.mark.parametrize("ending", ["closed", "dropped"])
def test_a_closed_connection_leaves_nothing_in_cycles_for_the_garbage_collector(tmp_path, ending):
    """Players who come and go cost no memory once gone, even between the rare full
    collections: the session, its outlet and uvicorn's and websockets' protocol objects of
    a connection are freed as it ends, closed properly or dropped (a phone that lost its
    network: no closing handshake)."""
    limits = Limits(connect_burst=100, rooms_per_address=100, rooms_per_player=100)
    with ThreadServer(tmp_path / "t.sqlite3", games_with_tiny(), limits=limits) as server:
        garbage = _Garbage()

        async def all_ended() -> None:  # the app's part and uvicorn's
            while server.state.sessions or server.server.server_state.connections:
                await asyncio.sleep(0.01)

        async def go():
            first, code = await _seated(server.ws, "Ana", None)
            others = [(await _seated(server.ws, f"P{i}", code))[0] for i in range(5)]
            garbage.begin()
            for ws in [first, *others]:
                if ending == "closed":
                    await ws.close()
                else:
                    ws.transport.abort()
            await asyncio.wait_for(all_ended(), 10)
            return garbage.servers()

        try:
            assert run(go()) == []
        finally:
            gc.set_debug(0)


def test_the_thresholds_make_young_collections_rare_and_keep_the_old_generations_rule():
    before = gc.get_threshold()
    try:
        collector.tune()
        young, middle, old = gc.get_threshold()
        if sys.version_info >= (3, 14):  # "CPython's own are left until they are measured"
            assert (young, middle, old) == before
            return
        assert (young, middle) == (collector.YOUNG, collector.MIDDLE)
        assert young > before[0] and middle > before[1] and old == before[2]
    finally:
        gc.set_threshold(*before)


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_garbage_in_cycles_is_freed_on_the_collectors_clock(caplog):
    """Whatever the thresholds leave alone (a closed room's cycles) is freed by the next
    full collection on the clock, and each one is logged with its pause."""

    async def go():
        gc.disable()  # only the clock may collect here
        try:
            cycle = _Cycle()
            gone = weakref.ref(cycle)
            del cycle
            assert gone() is not None
            task = asyncio.create_task(collector.collect_fully_every(0.01))

            async def freed() -> None:
                while gone() is not None:
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(freed(), 10)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        finally:
            gc.enable()

    with caplog.at_level(logging.INFO, logger="tertulia.collector"):
        asyncio.run(go())
    records = [r for r in caplog.records if r.getMessage() == "full garbage collection"]
    assert records and {"freed", "ms"} <= set(records[0].fields)
