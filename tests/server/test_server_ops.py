"""Operations: health, metrics, the games API, pages, QR codes, and the command line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from server_harness import run, subprocess_server

from tertulia.client import Client, ClientError
from tertulia.server.app import room_qr_svg
from tertulia.server.config import Config
from tertulia.version import VERSION


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


def test_healthz_counts_rooms_and_connections(server):
    async def go():
        async with await Client.connect(server.ws) as ana:
            await ana.create_room("tiny", "Ana")
            status, _, body = _get(f"{server.base}/healthz")
            assert status == 200
            assert json.loads(body) == {
                "status": "ok",
                "version": VERSION,
                "rooms": 1,
                "connections": 1,
            }
            status, _, body = _get(f"{server.base}/version")
            assert status == 200 and json.loads(body) == {"name": "tertulia", "version": VERSION}

    run(go())


def test_healthz_fails_once_the_store_can_no_longer_save(server):
    """An operator's probe must not say "ok" about a server that refuses every change."""

    async def go():
        async with await Client.connect(server.ws) as ana:
            await ana.create_room("tiny", "Ana")
            store = server.app.state.tertulia.store
            os.kill(store._writer._process.pid, signal.SIGKILL)
            with contextlib.suppress(ClientError):
                await ana.say("lost")  # the first save after it died finds out
            with pytest.raises(urllib.error.HTTPError) as failed:
                _get(f"{server.base}/healthz")
            assert failed.value.code == 503
            assert json.loads(failed.value.read())["status"] == "store_lost"

    run(go())


def test_looking_up_room_codes_is_rate_limited(server):
    """/api/rooms/CODE answers whether a code is live; trying codes one after another is
    someone looking for private rooms, and is slowed down."""
    statuses = []
    for _ in range(15):
        try:
            statuses.append(_get(f"{server.base}/api/rooms/QQQQ")[0])
        except urllib.error.HTTPError as refused:
            statuses.append(refused.code)
    assert statuses[:10] == [404] * 10 and 429 in statuses[10:]


def test_metrics_in_prometheus_format(server):
    async def go():
        async with await Client.connect(server.ws) as ana:
            await ana.create_room("tiny", "Ana")
            await ana.say("hi")
            with contextlib.suppress(ClientError):
                await ana.request("update_settings", settings={"target": 999})  # refused
            _, kind, body = _get(f"{server.base}/metrics")
        text = body.decode()
        assert kind.startswith("text/plain")
        assert "tertulia_rooms 1.0" in text
        assert 'tertulia_messages_total{type="chat"} 1.0' in text
        assert 'tertulia_errors_total{code="settings.invalid"} 1.0' in text
        assert 'tertulia_action_seconds_count{type="chat"} 1.0' in text
        assert "tertulia_connections" in text

    run(go())


def test_games_api_gives_each_games_settings_schema(server):
    _, _, body = _get(f"{server.base}/api/games")
    games = {g["name"]: g for g in json.loads(body)}
    pitacor = games["pitacor"]
    assert (pitacor["min_players"], pitacor["max_players"]) == (3, 10)
    assert pitacor["defaults"]["goal"] == 25
    fields = pitacor["settings_schema"]["$defs"]["Settings"]["properties"]
    assert fields["goal"]["x-advanced"] is True
    assert fields["guess_mode"]["enum"] == ["simultaneous", "turns"]  # inline, no $ref
    assert len(pitacor["static"]["boards"]["classic"]["cells"]) == 480


def test_pages_and_the_room_link_and_its_qr_code(server):
    async def go():
        async with await Client.connect(server.ws) as ana:
            code = await ana.create_room("tiny", "Ana")
        status, kind, _ = _get(f"{server.base}/r/{code}")
        assert status == 200 and kind.startswith("text/html")
        status, kind, svg = _get(f"{server.base}/r/{code}/qr.svg")
        assert status == 200 and kind == "image/svg+xml"
        # A whole SVG document (a browser shows no image without the namespace), and it holds
        # the link this browser used to reach the server.
        assert svg.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
        assert svg == room_qr_svg(server.base, code)
        # The room's shared screen (a TV): the same page, and a QR code of its own link.
        status, kind, _ = _get(f"{server.base}/tv/{code}")
        assert status == 200 and kind.startswith("text/html")
        status, kind, svg = _get(f"{server.base}/tv/{code.lower()}/qr.svg")
        assert status == 200 and kind == "image/svg+xml"
        assert svg == room_qr_svg(server.base, code, "tv") != room_qr_svg(server.base, code)

    run(go())


def test_tertulia_serve_prints_the_address_and_stops_cleanly_on_sigint(tmp_path):
    with subprocess_server(tmp_path / "cli.sqlite3") as server:
        server.process.send_signal(signal.SIGINT)
        code = server.process.wait(timeout=10)
        output = server.output()
    assert code == 0
    assert f"open http://127.0.0.1:{server.port}/" in output
    assert "Traceback" not in output
    # The start-up banner is a log line like the rest, naming the version and the database.
    (banner,) = [json.loads(line) for line in output.splitlines() if "is running" in line]
    assert banner["level"] == "info" and banner["version"] == VERSION
    assert banner["db"] == str((tmp_path / "cli.sqlite3").absolute())


def test_the_data_folder_is_absolute_and_follows_systemds_state_directory(tmp_path):
    """ "The data folder is an absolute path resolved at start": without --db it is
    $STATE_DIRECTORY (systemd's StateDirectory=) or data/ where the server starts, made
    absolute; a relative --db is made absolute too."""
    under_systemd = Config.from_env({"STATE_DIRECTORY": "/var/lib/tertulia"})
    assert under_systemd.db_path == Path("/var/lib/tertulia/tertulia.sqlite3")
    assert under_systemd.key_path == Path("/var/lib/tertulia/tertulia.sqlite3.key")
    plain = Config.from_env({})
    assert plain.db_path == Path.cwd() / "data" / "tertulia.sqlite3"
    assert Config.from_env({}, db_path="x/t.sqlite3").db_path == Path.cwd() / "x" / "t.sqlite3"
    assert Config.from_env({"TERTULIA_DB": "/srv/t.db"}).db_path == Path("/srv/t.db")


def test_log_level_and_access_log_switches(tmp_path):
    """--log-level warning keeps info lines out (the banner among them); --access-log adds
    one line per HTTP request. Both also from the environment."""
    assert Config.from_env({"TERTULIA_LOG_LEVEL": "DEBUG"}).log_level == "debug"
    assert Config.from_env({"TERTULIA_ACCESS_LOG": "1"}).access_log is True
    with pytest.raises(ValueError, match="--log-level"):
        Config.from_env({"TERTULIA_LOG_LEVEL": "loud"})
    extra = ("--log-level", "warning", "--access-log")
    with subprocess_server(tmp_path / "quiet.sqlite3", None, *extra) as server:
        _get(f"{server.base}/healthz")
        _get(f"{server.base}/version")
        server.process.send_signal(signal.SIGINT)
        server.process.wait(timeout=10)
        output = server.output()
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    assert not any(line["level"] == "info" and line["logger"] == "tertulia" for line in lines)
    access = [line["msg"] for line in lines if line["logger"] == "uvicorn.access"]
    assert any("GET /version" in msg for msg in access), output
    with subprocess_server(tmp_path / "default.sqlite3") as server:
        _get(f"{server.base}/version")
        server.process.send_signal(signal.SIGINT)
        server.process.wait(timeout=10)
        output = server.output()
    assert "uvicorn.access" not in output and "is running" in output


def test_a_server_that_logs_far_more_than_a_pipe_holds_keeps_answering(tmp_path):
    """Whatever a server writes, it never waits for the test to read it (``ProcessServer``):
    a pipe read only at the end holds 64 KiB, and then the server's next log line blocks it.
    Here each request logs its own 8 KB path (the access log): 40 fill more than four pipes."""
    with subprocess_server(tmp_path / "chatty.sqlite3", None, "--access-log") as server:
        for n in range(40):
            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(f"{server.base}/nowhere-{n}-{'x' * 8000}", timeout=10)
            assert missing.value.code == 404
        assert _get(f"{server.base}/healthz")[0] == 200
        output = server.output()
    written = len(output.encode())
    assert written > 4 * 64 * 1024
    assert all(f"/nowhere-{n}-x" in output for n in range(40)), "output() lost some of it"
