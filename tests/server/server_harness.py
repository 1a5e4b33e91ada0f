"""Real servers for tests: in a thread of this process, or as a subprocess that can be killed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import uvicorn

from tertulia.games import GAMES
from tertulia.server.app import create_app
from tertulia.server.config import Config
from tertulia.server.serving import uvicorn_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


class HandClock:
    """A clock that moves only when the test moves it (``clock.now += 1``): what a server's
    rate limits read instead of the time, so a slow machine refills no bucket by itself."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class ThreadServer:
    """uvicorn in a background thread, with its own event loop."""

    def __init__(
        self,
        db: Path,
        games: dict[str, ModuleType] | None = None,
        uvicorn_options: dict | None = None,
        **config,
    ) -> None:
        self.port = free_port()
        self.config = Config(port=self.port, db_path=db, log_json=False, **config)
        self.app = create_app(self.config, games)
        self.server = uvicorn.Server(
            uvicorn_config(
                self.app,
                self.config,
                log_config=uvicorn.config.LOGGING_CONFIG,
                log_level="warning",
                ws_max_size=1 << 20,
                **(uvicorn_options or {}),
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def state(self):
        return self.app.state.tertulia

    async def call(self, coro):
        """Run ``coro`` on the server's own event loop (from a test's loop) and return it."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.state.loop))

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        wait_healthy(self.base)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@contextlib.contextmanager
def subprocess_server(
    db: Path, port: int | None = None, *extra: str, python_path: Path | None = None
) -> Iterator[ProcessServer]:
    server = ProcessServer(db, port or free_port(), *extra, python_path=python_path)
    try:
        yield server.start()
    finally:
        server.stop()


class ProcessServer:
    """``python -m tertulia serve`` as a child process: the real thing, killable.

    ``python_path``: where to import ``tertulia`` from instead (a copy of the package);
    ``env``: more environment variables; ``log``: a file its output goes to (else a nameless
    temporary file). Either way ``output()`` reads what it wrote. Never a pipe: one read only
    at the end fills up (64 KiB) and a chatty server blocks on its next log line, answering
    nothing. The cluster tests' nodes are these (``tests/cluster``)."""

    def __init__(
        self,
        db: Path,
        port: int,
        *extra: str,
        python_path: Path | None = None,
        env: dict[str, str] | None = None,
        log: Path | None = None,
    ) -> None:
        self.db, self.port, self.extra = db, port, extra
        self.python_path = python_path
        self.env = env or {}
        self.log = log
        # Without a log: a file already unlinked, gone with this object. The child shares its
        # offset, so it is read with pread (which moves nothing) and never seeked.
        self._sink = tempfile.TemporaryFile() if log is None else None  # noqa: SIM115
        if self._sink is not None:
            weakref.finalize(self, self._sink.close)
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 15.0) -> ProcessServer:
        self.launch()
        wait_healthy(self.base, timeout)
        return self

    def launch(self) -> None:
        """Start the process without waiting for it to answer (several start side by side)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        if self.python_path is not None:
            env["PYTHONPATH"] = str(self.python_path)
        sink = self.log.open("ab") if self.log is not None else self._sink
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tertulia",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--drop-grace",
                "1",
                *self.extra,
            ],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        if sink is not self._sink:
            sink.close()  # the child has its own copy

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM (resumed first, if a test paused it) and wait; killed if it takes longer
        than ``timeout``. Its exit code, or None if it never started."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return self.process.returncode

    def output(self) -> str:
        """What it wrote so far (stdout and stderr, as they came)."""
        if self._sink is None:
            assert self.log is not None
            return self.log.read_text(errors="replace")
        fd = self._sink.fileno()
        return os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace")


def games_with_tiny() -> dict[str, ModuleType]:
    import tiny_game

    return {**GAMES, tiny_game.NAME: tiny_game}


def run(coro):
    return asyncio.run(coro)
