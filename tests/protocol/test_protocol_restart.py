"""A server that stops and starts again (docs/protocol.md): the ``server.restarting`` notice,
the rejoin with ``resume``, and a game clock (Pitacor's: the tiny game is not installed in
the package the child process runs) that ran out while the server was down, which gets a
grace: "the view's `deadline` is the new one" in the first push after the resume. The real
``tertulia serve`` as a child process, stopped with SIGTERM."""

from __future__ import annotations

import signal
import time

import pytest
from raw_client import Clients, run
from server_harness import ProcessServer, free_port

GRACE = 5.0  # --restart-grace (20 s by default)


@pytest.mark.covers("server.restarting", "notice", "join_room.resume", "clock.extended")
def test_a_restart_is_announced_and_a_clock_that_ran_out_meanwhile_gets_a_grace(tmp_path):
    db, port = tmp_path / "tertulia.sqlite3", free_port()
    options = ("--restart-grace", str(GRACE), "--plain-logs")
    first = ProcessServer(db, port, *options).start()
    try:

        async def before() -> tuple[str, list[str], float]:
            async with Clients(first.ws, "127.0.0.2") as clients:
                ana = await clients.hello("ana")
                code = (await ana.ok("create_room", game="pitacor", nickname="Ana"))["room"]
                others = [await clients.hello(name) for name in ("bo", "cy")]
                for raw, name in zip(others, ("Bo", "Cy"), strict=True):
                    await raw.ok("join_room", code=code, nickname=name)
                await ana.ok("update_settings", settings={"clue_seconds": 1})
                await ana.ok("start_match")
                held = await ana.push(lambda held: held.view is not None)
                assert held.view["deadline"] is not None
                first.signal(signal.SIGTERM)
                for raw in (ana, *others):
                    notice = await raw.wait_for(lambda f: f["type"] == "notice")
                    assert notice["code"] == "server.restarting" and notice["params"] == {}
                    await raw.closed()
                return code, ana.token, held.view["deadline"]

        code, token, deadline = run(before())
        assert first.process is not None and first.process.wait(timeout=15) == 0
        while time.time() < deadline:  # the turn's clock runs out while the server is down
            time.sleep(0.1)
    finally:
        first.stop()
    second = ProcessServer(db, port, *options).start()
    try:

        async def after() -> None:
            async with Clients(second.ws, "127.0.0.2") as clients:
                ana = await clients.hello("ana", token=token)
                assert ana.welcome["room"] == code
                now = (await ana.ok("ping"))["now"]
                await ana.ok("join_room", code=code, nickname="Ana", resume=True)
                held = await ana.push(lambda held: held.view is not None)
                assert held.view["deadline"] > deadline  # a later deadline, not a time-out
                assert held.view["deadline"] <= now + GRACE
                assert held.view["phase"] == "choose"  # "the view's deadline is the new one"

        run(after())
    finally:
        second.stop()
