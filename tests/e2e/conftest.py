"""Fixtures for the browser tests: the real server as a subprocess, and Debian's Chromium.

Every test that uses ``browser`` (directly or through ``player``) fails, saying what to
install, when ``/usr/bin/chromium`` is missing; ``make test`` installs it, and Playwright with
the test extra. A skipped browser test has not passed. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from e2e_actions import LAPTOP
from playwright.sync_api import Browser, Page, sync_playwright

# A game's browser steps live with its other tests (tests/games/<name>/<name>_steps.py: a game
# is a folder on the tests' side too); the browser tests import them by name.
GAME_TESTS = Path(__file__).resolve().parents[1] / "games"
sys.path.extend(str(folder) for folder in sorted(GAME_TESTS.iterdir()) if folder.is_dir())

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

# --------------------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=2) as response:
        return json.load(response)


class Server:
    """`tertulia serve` as a subprocess on a free port, with its own database; from
    `python_path` (a copy of the package) when given."""

    def __init__(self, tmp_path: Path, python_path: Path | None = None) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / "server.log"
        self.command = [
            sys.executable, "-m", "tertulia", "serve",
            "--port", str(self.port), "--db", str(tmp_path / "t.db"),
        ]  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None
        self.env = None if python_path is None else {**os.environ, "PYTHONPATH": str(python_path)}

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def start(self) -> None:
        """Start it and wait until /healthz answers."""
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process, without waiting for it to answer."""
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                self.command, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, env=self.env
            )

    def wait_ready(self) -> None:
        """Wait until the launched process answers /healthz."""
        assert self.process is not None, "launch() it first"
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.output()}")
            try:
                if _get_json(f"{self.url}/healthz").get("status") == "ok":
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.process.kill()
                pytest.fail(f"the server did not answer /healthz in 20 s:\n{self.output()}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class NextServer:
    """Launches the next test's server while this test runs, and lets a used one finish
    stopping while the next test runs, so that no test waits for a server to start or stop
    (about a second each; stopping waits for a room's language data still loading, up to
    10 s for Polish on a busy machine). Each test still gets a server of its own, with an
    empty database, that nobody else has used."""

    def __init__(self, folders: pytest.TempPathFactory) -> None:
        self.folders = folders
        self.waiting: Server | None = None
        self.stopping: list[Server] = []

    def take(self) -> Server:
        """A started server for this test; the next one is launched before this returns."""
        if self.waiting is None:
            self.waiting = self._launched()
        running, self.waiting = self.waiting, None
        running.wait_ready()
        self.waiting = self._launched()
        return running

    def retire(self, server: Server) -> None:
        """Ask a used server to stop (SIGTERM), without waiting for it to be gone."""
        if server.process is not None and server.process.poll() is None:
            server.process.terminate()
            self.stopping.append(server)
        self.stopping = [s for s in self.stopping if s.process and s.process.poll() is None]

    def _launched(self) -> Server:
        server = Server(self.folders.mktemp("server"))
        server.launch()
        return server

    def close(self) -> None:
        for server in [*self.stopping, self.waiting]:
            if server is not None:
                server.stop()  # waits (and kills after 10 s): nothing outlives the tests
        self.stopping, self.waiting = [], None


@pytest.fixture(scope="session")
def next_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NextServer]:
    servers = NextServer(tmp_path_factory)
    try:
        yield servers
    finally:
        servers.close()


@pytest.fixture
def server(next_server: NextServer) -> Iterator[Server]:
    """The real server for one test (its own process and database); terminated at the end."""
    running = next_server.take()
    try:
        yield running
    finally:
        next_server.retire(running)


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per test module; each player gets a context of their own.

    Not per session: Playwright's sync API keeps an event loop running while it is started,
    and the other test folders call asyncio.run(), which refuses to run inside one. A
    missing browser fails the tests that need it (`make test` installs it): a skipped browser
    test has not passed."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Players:
    """Opens one browser context per player and checks that no page had a script error."""

    browser: Browser
    server: Server
    pages: list[Page] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __call__(self, viewport: dict[str, int] | None = None, locale: str = "en-US") -> Page:
        context = self.browser.new_context(viewport=viewport or LAPTOP, locale=locale)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        self.pages.append(page)
        page.goto(self.server.url + "/")
        return page

    def close(self) -> None:
        for page in self.pages:
            page.context.close()


@pytest.fixture
def player(browser: Browser, server: Server) -> Iterator[Callable[..., Page]]:
    """`player()` opens the home page in a fresh browser context (a new person)."""
    players = Players(browser, server)
    try:
        yield players
    finally:
        players.close()
    assert not players.errors, "script errors in the page:\n" + "\n".join(players.errors)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
