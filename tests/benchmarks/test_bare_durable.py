"""The bare server's durable floor (``bare_server.py --durable``): an action is told only once
its bytes are in the log file, and every action is told, in the order it came."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bare_server():
    spec = importlib.util.spec_from_file_location("bare_server", ROOT / "benchmarks/bare_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_action_is_told_only_once_it_is_in_the_log_file(tmp_path):
    bare = _bare_server()
    records = [f'{{"type":"select_cell","id":{n},"cell":"A{n % 30}"}}'.encode() for n in range(200)]
    told: list[int] = []
    in_file_when_told: list[bool] = []
    log_path = tmp_path / "log" / "actions.log"

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log")
        everyone_told = asyncio.Event()

        def then(n: int) -> None:
            # What is on the disk's way by now: the file's bytes (a write the process made).
            in_file_when_told.append(records[n] in log_path.read_bytes()[:100_000])
            told.append(n)
            if len(told) == len(records):
                everyone_told.set()

        try:
            for n, record in enumerate(records[:120]):  # one turn of the loop: one batch
                log.append(record, lambda n=n: then(n))
            assert told == []  # never at once: only after the process has synced it
            await asyncio.sleep(0)
            for n, record in enumerate(records[120:], start=120):
                log.append(record, lambda n=n: then(n))
            await asyncio.wait_for(everyone_told.wait(), 30)
        finally:
            log.close()

    asyncio.run(main())
    assert told == list(range(len(records)))
    assert all(in_file_when_told)
    # Length-prefixed, in order, from the start of the file.
    data, offset = log_path.read_bytes(), 0
    for record in records:
        size = int.from_bytes(data[offset : offset + 4], "big")
        assert data[offset + 4 : offset + 4 + size] == record
        offset += 4 + size
