"""A request's head is bounded as it is read: a huge header, or a great many, is answered 431
and the connection closed, before the app or the gate parses or walks it (server/http.py)."""

from __future__ import annotations

import contextlib
import socket

import pytest
from server_harness import ThreadServer, games_with_tiny

from tertulia.server.http import MAX_HEAD_BYTES, MAX_HEADERS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ThreadServer(tmp_path_factory.mktemp("head") / "t.sqlite3", games_with_tiny()) as s:
        yield s


def _ask(server: ThreadServer, head: bytes) -> bytes:
    """Send ``head`` as it is over a fresh connection; what the server answers, until it
    closes or has said a whole response."""
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        # (It may stop reading us part way: its answer is already on the way.)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head)
        answer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer and b"connection: close" not in answer.lower():
                break
    return answer


def _request(*headers: bytes) -> bytes:
    return b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + b"".join(headers) + b"\r\n"


def test_an_ordinary_request_is_answered(server) -> None:
    assert _ask(server, _request(b"Connection: close\r\n")).startswith(b"HTTP/1.1 200")


def test_a_header_of_100_kb_is_refused_431(server) -> None:
    """(An outside test saw "a 100 KB header … answered 200 OK".)"""
    answer = _ask(server, _request(b"X-Big: " + b"a" * 100_000 + b"\r\n"))
    assert answer.startswith(b"HTTP/1.1 431")


def test_twenty_thousand_headers_are_refused_431(server) -> None:
    headers = [b"X-%d: 1\r\n" % i for i in range(20_000)]
    assert _ask(server, _request(*headers)).startswith(b"HTTP/1.1 431")


def test_the_bounds_are_where_the_docs_say(server) -> None:
    """Just inside both bounds is answered; one header more is not."""
    filler = b"X-Fill: " + b"b" * (MAX_HEAD_BYTES - 200) + b"\r\n"
    assert _ask(server, _request(filler, b"Connection: close\r\n")).startswith(b"HTTP/1.1 200")
    many = [b"X-%d: 1\r\n" % i for i in range(MAX_HEADERS - 2)]
    assert _ask(server, _request(*many, b"Connection: close\r\n")).startswith(b"HTTP/1.1 200")
    too_many = [b"X-%d: 1\r\n" % i for i in range(MAX_HEADERS)]
    assert _ask(server, _request(*too_many)).startswith(b"HTTP/1.1 431")
