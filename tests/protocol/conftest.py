"""The conformance suite's servers: real ones on loopback with a real SQLite file, started
with ``tests/server``'s harness (the tiny example game beside the shipped ones).

Most tests of a module share one server with the default limits (``shared``): each test opens its
connections from a loopback address of its own (``address``; all of 127.0.0.0/8 is this
machine), so the per-address limits are each test's own and tests do not disturb each
other. Tests that need other limits start a server of their own.

The servers' computer players never move (``StillBots``): the suite checks what the
protocol says of bots (their seats, the host's messages, the refusals), not how they play,
and a bot's first decision would start a worker process and load its word model.
"""

from __future__ import annotations

import itertools

import pytest
from protocol_servers import protocol_server


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "covers(*names): the messages and codes of docs/protocol.md this test checks "
        "(test_protocol_contract.py fails for a documented one that no test covers)",
    )


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One server per module for the tests that do not disturb each other, with the default
    limits. Not one for the whole run: a server left running into ``tests/server`` keeps its
    rooms alive there, where a test counts every live room object of the process."""
    with protocol_server(tmp_path_factory.mktemp("shared") / "tertulia.sqlite3") as server:
        yield server


_addresses = (f"127.0.{n // 250 + 10}.{n % 250 + 1}" for n in itertools.count())


@pytest.fixture
def address() -> str:
    """A loopback address no other test of this run connects from."""
    return next(_addresses)


@pytest.fixture
def another_address() -> str:
    return next(_addresses)
