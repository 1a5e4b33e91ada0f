"""The bare server's durable floor (``bare_server.py --durable``, ``bare_log_writer.py``): an
action is told only once its bytes are in the log file and synced, every action is told, in
the order it came, and a writer that goes away stops the server instead of spinning."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import select
import socket
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def _module(name: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # bare_server imports bare_log_writer
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(count: int, size: int = 40) -> list[bytes]:
    return [f"{n:08d}".encode() + b"x" * (size - 8) for n in range(count)]


def _read(path: Path, limit: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(limit)


def test_an_action_is_told_only_once_it_is_in_the_log_file(tmp_path, monkeypatch):
    bare = _module("bare_server", monkeypatch)
    records = _records(200)
    told: list[int] = []
    in_file_when_told: list[bool] = []
    log_path = tmp_path / "log" / "actions.log"

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log")
        everyone_told = asyncio.Event()

        def then(n: int) -> None:
            in_file_when_told.append(records[n] in _read(log_path, 100_000))
            told.append(n)
            if len(told) == len(records):
                everyone_told.set()

        try:
            for n, record in enumerate(records[:120]):  # one turn of the loop
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
    assert log_path.stat().st_size == bare.LOG_BYTES  # made at its full size, never grown
    data, offset = _read(log_path, 100_000), 0  # length-prefixed, in order, from the start
    for record in records:
        size = int.from_bytes(data[offset : offset + 4], "big")
        assert data[offset + 4 : offset + 4 + size] == record
        offset += 4 + size


class _Recorded:
    """The writer's end of the socket, noting each answer among the writes and syncs."""

    def __init__(self, sock: socket.socket, events: list[tuple[str, int]], ready: bytes) -> None:
        self.sock, self.events, self.ready = sock, events, ready

    def recv(self, size: int) -> bytes:
        return self.sock.recv(size)

    def sendall(self, data: bytes) -> None:
        if data != self.ready:
            self.events.append(("answer", int.from_bytes(data, "big")))
        self.sock.sendall(data)


def test_the_log_writer_answers_records_only_after_the_sync_that_holds_them(tmp_path, monkeypatch):
    writer = _module("bare_log_writer", monkeypatch)
    events: list[tuple[str, int]] = []
    pwrite, fdatasync = os.pwrite, os.fdatasync

    def noted_pwrite(fd, data, offset):
        written = pwrite(fd, data, offset)
        events.append(("write", written))
        return written

    def noted_sync(fd):
        fdatasync(fd)
        events.append(("sync", 0))

    monkeypatch.setattr(os, "pwrite", noted_pwrite)
    monkeypatch.setattr(os, "fdatasync", noted_sync)
    ours, theirs = socket.socketpair()
    size = 256 * 1024  # small, so that 2,000 records of 200 bytes go round it
    thread = threading.Thread(
        target=writer.serve, args=(_Recorded(theirs, events, writer.READY), tmp_path / "log", size)
    )
    thread.start()
    ours.settimeout(30)  # a writer that stops answering fails the test, not hangs it
    try:
        assert ours.recv(1) == writer.READY
        events.clear()  # the file's making
        records = _records(2000, 200)
        framed = b"".join(writer.LENGTH.pack(len(r)) + r for r in records)
        for start in range(0, len(framed), 7777):  # records cut across sends
            ours.sendall(framed[start : start + 7777])
        answered = 0
        while answered < len(records):
            answered += int.from_bytes(ours.recv(4, socket.MSG_WAITALL), "big")
    finally:
        ours.close()
        thread.join(30)
        theirs.close()
    assert answered == len(records)
    # Each answer comes after a sync, and each sync after the writes it covers.
    kinds = [kind for kind, _ in events]
    for i, kind in enumerate(kinds):
        if kind == "answer":
            assert kinds[i - 1] == "sync", kinds[max(0, i - 4) : i + 1]
        if kind == "sync":
            assert kinds[i - 1] == "write", kinds[max(0, i - 4) : i + 1]
    assert sum(n for kind, n in events if kind == "write") == len(framed)
    assert (tmp_path / "log").stat().st_size == size  # went round, never grew
    assert records[-1] in _read(tmp_path / "log", size)


def test_every_action_is_told_in_order_when_the_socket_takes_them_in_parts(tmp_path, monkeypatch):
    """A send the socket takes only in part keeps the rest for when it can take more."""
    bare = _module("bare_server", monkeypatch)
    records = _records(20_000, 1000)
    told: list[int] = []

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log", size=4 * 1024 * 1024)
        log.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        done = asyncio.Event()

        def then(n: int) -> None:
            told.append(n)
            if len(told) == len(records):
                done.set()

        try:
            for n, record in enumerate(records):  # 20 MB in one turn of the loop
                log.append(record, lambda n=n: then(n))
            await asyncio.wait_for(done.wait(), 60)
            assert log.out == bytearray()  # all of it went, in parts
        finally:
            log.close()

    asyncio.run(main())
    assert told == list(range(len(records)))


def test_a_log_writer_that_goes_away_stops_the_server_once(tmp_path, monkeypatch):
    """Nothing more can be made durable: the server is told to stop, and its loop does not
    keep waking for a socket that has closed."""
    bare = _module("bare_server", monkeypatch)
    stops: list[str] = []
    monkeypatch.setattr(bare, "stop_this_server", lambda: stops.append("stop"))
    told: list[int] = []

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log")
        try:
            log.append(b"first", lambda: told.append(1))
            await _until(lambda: told)
            log.process.kill()
            log.process.wait(10)
            log.append(b"second", lambda: told.append(2))
            await _until(lambda: log.gone)
            # Its socket is no longer watched: the loop does not wake for it again.
            assert not asyncio.get_running_loop().remove_reader(log.sock.fileno())
            log.append(b"third", lambda: told.append(3))
        finally:
            log.close()

    asyncio.run(main())
    assert told == [1]
    assert stops == ["stop"]


async def _until(condition, seconds: float = 30) -> None:
    async def polled() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(polled(), seconds)


def test_answers_already_there_are_read_as_the_next_action_comes_in(tmp_path, monkeypatch):
    """As ours' ``Room.submit`` settles the writer's answers first: an action whose answer
    is in the socket is told by ``settle``, without waiting for the loop to poll it."""
    bare = _module("bare_server", monkeypatch)
    told: list[int] = []

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log")
        try:
            log.append(b"first", lambda: told.append(1))
            await asyncio.sleep(0)  # the turn ends: the batch goes to the writer
            assert not told
            # The answer is in the socket; the loop has not had a turn to read it.
            readable, _, _ = select.select([log.sock], [], [], 30)
            assert readable
            log.settle()
            assert told == [1]
        finally:
            log.close()

    asyncio.run(main())


def test_a_failing_callback_leaves_every_other_action_told_once_in_order(tmp_path, monkeypatch):
    bare = _module("bare_server", monkeypatch)
    told: list[int] = []

    def then(n: int) -> None:
        told.append(n)
        if n == 0:
            raise RuntimeError("a bug while telling the first")

    async def main() -> None:
        log = bare.DurableLog(tmp_path / "log")
        try:
            for n in range(50):
                log.append(b"action %d" % n, lambda n=n: then(n))
            await asyncio.sleep(0)
            for n in range(50, 100):
                log.append(b"action %d" % n, lambda n=n: then(n))
            await _until(lambda: len(told) >= 100)
            for _ in range(5):  # a later answer must not tell any of them again
                log.append(b"more", lambda: told.append(-1))
            await _until(lambda: len(told) >= 105)
        finally:
            log.close()

    asyncio.run(main())
    assert told == list(range(100)) + [-1] * 5
