"""A private back channel (issue 33, item 5): nodes reach Redis and PostgreSQL with passwords
and TLS as deploy/compose.yaml's cluster profile sets them up — Redis on a TLS port only, as
the ACL user of make-secrets.sh's file (no default user); a PostgreSQL role with a password
(SCRAM), its certificate checked with ``sslmode=verify-full`` — and serve a room together. A
node that Redis or PostgreSQL refuses (wrong password, none, an untrusted certificate) stops
at once with exit status 78 and says which, instead of trying for ever.

Nothing of the machine changes: the Redis and the PostgreSQL here are the test's own
(``RedisServer``, ``PostgresServer``: Debian's redis-server, initdb and postgres on free
ports, removed after), with the secrets make-secrets.sh makes in a temporary folder. Redis's
options are the compose file's own ``command``, its secrets' paths pointed at that folder."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from cluster_testing import Node, PostgresServer, RedisServer, run
from psycopg import sql

from tertulia import cli
from tertulia.client import Client
from tertulia.cluster import connect as redis_access
from tertulia.rooms.identity import Identity
from tertulia.server.config import Config, without_password
from tertulia.store.postgres import access as postgres_access

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAMESPACE = "tertulia"  # the ACL's key and channel patterns are the default namespace's


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


@dataclass
class Site:
    """The compose profile's back channel, outside any container."""

    secrets: Path
    compose: dict[str, Any]
    package: Path
    redis: RedisServer
    postgres: PostgresServer
    nodes: list[Node] = field(default_factory=list)

    def outside(self, text: str, redis_port: int | None = None) -> str:
        """A value of the compose file with its secrets' paths and its services' addresses
        made this machine's."""
        for name, secret in self.compose["secrets"].items():
            path = self.secrets / Path(secret["file"]).name
            text = text.replace(f"/run/secrets/{name}", str(path))
        text = text.replace("@redis:6379", f"@127.0.0.1:{redis_port or self.redis.port}")
        return text.replace("@postgres:5432", f"@127.0.0.1:{self.postgres.port}")

    def redis_server(self, port: int) -> RedisServer:
        """A Redis with the compose file's options, on ``port``."""
        command = self.compose["services"]["redis"]["command"]
        assert command[0] == "redis-server" and "6379" in command
        args = [str(port) if arg == "6379" else self.outside(arg) for arg in command[1:]]
        return RedisServer(port, *args)

    def environment(self, redis_port: int | None = None) -> dict[str, str]:
        """The cluster nodes' back-channel settings in compose.yaml, made this machine's."""
        node = self.compose["services"]["node-1"]["environment"]
        wanted = [
            "TERTULIA_REDIS_URL",
            "TERTULIA_REDIS_PASSWORD_FILE",
            "TERTULIA_DATABASE_URL",
            "TERTULIA_DATABASE_PASSWORD_FILE",
        ]
        return {key: self.outside(node[key], redis_port) for key in wanted}

    def node(self, tmp: Path, **env: str) -> Node:
        """A node with the compose environment (and ``env`` over it); the ``tertulia``
        namespace its ACL allows, the tables in the database's own schema, a 1 s lease."""
        settings = {**self.environment(), **env}
        made = Node(tmp, "", NAMESPACE, self.package, lease=1.0, env=settings)
        self.nodes.append(made)
        return made

    def password(self, name: str) -> str:
        return (self.secrets / name).read_text().strip()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Any:
    from package_copy import copy_package, install_example
    from server_harness import free_port

    tmp = tmp_path_factory.mktemp("back-channel")
    secrets = tmp / "secrets"
    subprocess.run(["sh", str(DEPLOY / "make-secrets.sh"), str(secrets)], check=True, timeout=60)
    package = copy_package(tmp / "package")
    install_example(package / "tertulia")
    postgres = PostgresServer(
        free_port(), cert=secrets / "postgres.pem", key=secrets / "postgres.key"
    )
    built = Site(secrets, _compose(), package, RedisServer(0), postgres)
    built.redis = built.redis_server(free_port())
    try:
        built.redis.start()
        postgres.start()
        # What the postgres image does with POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD_FILE.
        env = built.compose["services"]["postgres"]["environment"]
        password = Path(built.outside(env["POSTGRES_PASSWORD_FILE"])).read_text().strip()
        user, database = sql.Identifier(env["POSTGRES_USER"]), sql.Identifier(env["POSTGRES_DB"])
        postgres.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}")
            .format(user, sql.Literal(password))
            .as_string()
        )
        postgres.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(database, user).as_string())
        yield built
    finally:
        for node in built.nodes:
            node.stop()
        built.redis.stop()
        postgres.stop()


def _exit_status(node: Node, timeout: float = 60) -> int:
    assert node.process is not None
    try:
        return node.process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running: {node.output()[-3000:]}") from None


def _health(base: str) -> tuple[int, str] | None:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
            return response.status, json.load(response)["status"]
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)["status"]
    except OSError:
        return None


# -- serving, with passwords and TLS ----------------------------------------------------------


def test_two_nodes_serve_a_room_over_passwords_and_tls_and_pg_dump_keeps_it(site, tmp_path) -> None:
    """One node as compose.yaml sets it up (passwords from secret files), the other with the
    passwords in its URLs; Ana plays on one, Bo on the other. Every connection to PostgreSQL
    uses TLS. Then the backup of docs/cluster.md: pg_dump over the same TLS connection,
    restored into a new database, has the room's log and the identity key."""
    redis_password, pg_password = (
        site.password("redis_password"),
        site.password("postgres_password"),
    )
    env = site.environment()
    in_urls = {
        "TERTULIA_REDIS_PASSWORD_FILE": "",
        "TERTULIA_DATABASE_PASSWORD_FILE": "",
        "TERTULIA_REDIS_URL": env["TERTULIA_REDIS_URL"].replace(
            "tertulia@", f"tertulia:{redis_password}@"
        ),
        "TERTULIA_DATABASE_URL": env["TERTULIA_DATABASE_URL"].replace(
            "tertulia@", f"tertulia:{pg_password}@"
        ),
    }
    first, second = site.node(tmp_path), site.node(tmp_path, **in_urls)
    for node in (first, second):
        node.launch()
    for node in (first, second):
        node.wait()
    # The nodes' compose health check says so too.
    kind, *probe = site.compose["services"]["node-1"]["healthcheck"]["test"]
    assert kind == "CMD" and probe[0] == "python"
    probe = [sys.executable, *probe[1:-1], probe[-1].replace("8000", str(first.port))]
    assert subprocess.run(probe, timeout=30).returncode == 0

    async def play() -> None:
        async with await Client.connect(first.ws) as ana, await Client.connect(second.ws) as bo:
            code = await ana.create_room("tiny", "Ana")
            await bo.join_room(code, "Bo")
            await ana.request("update_settings", settings={"turn_seconds": 0})
            await ana.request("start_match")
            view = await bo.wait_for(lambda push: push.get("view") is not None)
            mover, other = (ana, bo) if view["view"]["turn"] == ana.player else (bo, ana)
            await mover.act({"type": "add", "amount": 2})
            await other.wait_for(lambda push: push.get("view", {}).get("counter") == 2)
            await other.act({"type": "add", "amount": 3})
            await mover.wait_for(lambda push: push.get("view", {}).get("counter") == 5)

    run(play)
    ((encrypted, connections),) = site.postgres.execute(
        "SELECT bool_and(s.ssl), count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a"
        " USING (pid) WHERE a.usename = 'tertulia'"
    )
    assert encrypted and connections >= 4  # a writer and a reader each

    # The backup of docs/cluster.md, outside a container: pg_dump's custom format over TLS.
    dump = tmp_path / "tertulia.dump"
    url = site.outside(site.compose["services"]["node-1"]["environment"]["TERTULIA_DATABASE_URL"])
    tools = {"PGPASSWORD": pg_password, "PATH": "/usr/bin:/bin"}
    counts = "SELECT (SELECT count(*) FROM log), (SELECT key FROM identity_key)"
    # The nodes go on writing (the players' drops, a second after they closed): the dump is
    # one moment between these two.
    ((before, key),) = site.postgres.execute(counts, database="tertulia")
    with dump.open("wb") as out:
        subprocess.run(
            [PostgresServer.bin("pg_dump"), "-Fc", url], stdout=out, env=tools, check=True
        )
    ((after, _),) = site.postgres.execute(counts, database="tertulia")
    site.postgres.execute("CREATE DATABASE restored OWNER tertulia")
    subprocess.run(
        [
            PostgresServer.bin("pg_restore"),
            "--no-owner",
            "-d",
            url.replace("/tertulia?", "/restored?"),
            str(dump),
        ],
        env=tools,
        check=True,
        capture_output=True,
    )
    ((restored, restored_key),) = site.postgres.execute(counts, database="restored")
    assert before <= restored <= after and before >= 5  # joined, settings, started, 2 adds
    assert restored_key == key
    for node in (first, second):
        assert node.stop() == 0, node.output()[-3000:]


def test_the_single_node_s_key_carried_into_postgresql_keeps_every_player_s_id(
    site, tmp_path
) -> None:
    """docs/cluster.md, "From one node to two": start a node once (it makes the tables), stop
    it, write the single node's key file into ``identity_key`` (``od`` to hex, then psql's
    UPDATE), start again: a browser's token gives the id it had on the single node."""
    key_file = tmp_path / "tertulia.sqlite3.key"
    single = Identity.from_file(key_file)  # as the single node made it
    token = Identity.new_token()
    node = site.node(tmp_path)
    node.start(timeout=30)
    assert node.stop() == 0
    hex_key = subprocess.run(
        ["sh", "-c", f"od -An -tx1 -v {key_file} | tr -d ' \\n'"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert bytes.fromhex(hex_key) == key_file.read_bytes()
    url = site.environment()["TERTULIA_DATABASE_URL"]
    update = f"UPDATE identity_key SET key = decode('{hex_key}', 'hex')"
    tools = {"PGPASSWORD": site.password("postgres_password"), "PATH": "/usr/bin:/bin"}
    subprocess.run([PostgresServer.bin("psql"), url, "-c", update], env=tools, check=True)
    again = site.node(tmp_path)
    again.start(timeout=30)

    async def player_id() -> str:
        async with await Client.connect(again.ws, token=token) as browser:
            return browser.player

    assert run(player_id) == single.player_id(token)
    assert again.stop() == 0


# -- refused: exit 78, at once, saying which --------------------------------------------------


def _other_ca(tmp: Path) -> Path:
    """A CA that signed none of the site's certificates."""
    subprocess.run(["sh", str(DEPLOY / "make-secrets.sh"), str(tmp / "other")], check=True)
    return tmp / "other" / "ca.pem"


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("redis_password", ("Redis at rediss://tertulia@127.0.0.1", "invalid username-password")),
        ("redis_no_password", ("Redis at rediss://tertulia@127.0.0.1", "refused the credentials")),
        ("redis_untrusted", ("Redis at", "certificate is not trusted")),
        (
            "postgres_password",
            ("PostgreSQL at postgresql://tertulia@127.0.0.1", "password authentication failed"),
        ),
        ("postgres_untrusted", ("PostgreSQL at", "certificate verify failed")),
    ],
)
def test_a_node_refused_by_redis_or_postgres_exits_78_at_once_and_says_why(
    site, tmp_path, case, expected
) -> None:
    wrong = tmp_path / "wrong_password"
    wrong.write_text("not-the-password\n")
    env = site.environment()
    settings = {
        "redis_password": {"TERTULIA_REDIS_PASSWORD_FILE": str(wrong)},
        "redis_no_password": {"TERTULIA_REDIS_PASSWORD_FILE": ""},
        "redis_untrusted": {
            "TERTULIA_REDIS_URL": env["TERTULIA_REDIS_URL"].replace(
                str(site.secrets / "ca.pem"), str(_other_ca(tmp_path))
            )
        },
        "postgres_password": {"TERTULIA_DATABASE_PASSWORD_FILE": str(wrong)},
        "postgres_untrusted": {
            "TERTULIA_DATABASE_URL": env["TERTULIA_DATABASE_URL"].replace(
                str(site.secrets / "ca.pem"), str(_other_ca(tmp_path))
            )
        },
    }[case]
    node = site.node(tmp_path, **settings)
    node.launch()
    assert _exit_status(node) == cli.EXIT_REFUSED  # within a minute: not trying for ever
    output = node.output()
    for words in (*expected, "refused this node", "starting again will not help"):
        assert words in output, output
    assert "not-the-password" not in output and site.password("redis_password") not in output
    assert "Traceback" not in output and "is running" not in output, output


def test_a_running_node_that_redis_comes_up_refusing_stops_with_78(site, tmp_path) -> None:
    """Redis cannot be reached at first: the node starts without it (503), as ever. When a
    Redis answers there and refuses its password, the node stops — telling its connections it
    is restarting, as on SIGTERM — with exit status 78 rather than trying again for ever."""
    from server_harness import free_port

    port = free_port()
    wrong = tmp_path / "wrong_password"
    wrong.write_text("not-the-password")
    url = site.environment(port)["TERTULIA_REDIS_URL"]
    node = site.node(tmp_path, TERTULIA_REDIS_PASSWORD_FILE=str(wrong), TERTULIA_REDIS_URL=url)
    node.launch()
    deadline = time.monotonic() + 30
    while _health(node.base) != (503, "cluster_unreachable"):
        assert time.monotonic() < deadline and node.process.poll() is None, node.output()
        time.sleep(0.1)
    redis = site.redis_server(port)
    try:
        redis.start()
        assert _exit_status(node, timeout=30) == cli.EXIT_REFUSED
    finally:
        redis.stop()
    output = node.output()
    assert "Redis refused this node: it refused the credentials" in output, output
    assert "Tertulia stopped" in output, output


def test_a_postgresql_that_cannot_be_reached_at_start_exits_75_saying_so(site, tmp_path) -> None:
    """Not a refusal: start again later (75, which systemd's Restart=on-failure does)."""
    from server_harness import free_port

    url = site.environment()["TERTULIA_DATABASE_URL"].replace(
        f":{site.postgres.port}/", f":{free_port()}/"
    )
    node = site.node(tmp_path, TERTULIA_DATABASE_URL=url)
    node.launch()
    assert _exit_status(node) == cli.EXIT_TRY_AGAIN
    output = node.output()
    assert "cannot be reached" in output and "Traceback" not in output, output


# -- the pieces, without a node -------------------------------------------------------------


def test_the_compose_health_checks_of_redis_and_postgres_work_on_them(site) -> None:
    """The compose file's health checks, run here against the same servers (their port added:
    in a container each is the only server on the default one). Redis's checks as a user
    that may only PING; a Redis that is down fails it."""
    services = site.compose["services"]
    kind, script = services["redis"]["healthcheck"]["test"]
    assert kind == "CMD-SHELL"
    script = site.outside(script).replace("redis-cli ", f"redis-cli -p {site.redis.port} ", 1)
    assert subprocess.run(["sh", "-c", script], timeout=30).returncode == 0
    down = script.replace(f"-p {site.redis.port}", f"-p {site.redis.port + 1}")
    assert subprocess.run(["sh", "-c", down], capture_output=True, timeout=30).returncode != 0
    kind, program, *args = services["postgres"]["healthcheck"]["test"]
    assert (kind, program) == ("CMD", "pg_isready")
    ready = [PostgresServer.bin(program), *args, "-p", str(site.postgres.port)]
    assert subprocess.run(ready, capture_output=True, timeout=30).returncode == 0


def test_what_counts_as_refused_and_what_as_unreachable(site, tmp_path) -> None:
    """Refused: a wrong password, no password, an ACL that forbids the node's keys, a CA file
    that is missing; for an ACL user and for requirepass. Not refused (the node waits, or
    exits 75): nobody listening."""
    from server_harness import free_port

    env = site.environment()
    redis_url, pg_url = env["TERTULIA_REDIS_URL"], env["TERTULIA_DATABASE_URL"]
    redis_password, pg_password = (
        site.password("redis_password"),
        site.password("postgres_password"),
    )
    redis_access.check(redis_url, NAMESPACE, password=redis_password)
    postgres_access.check(pg_url, password=pg_password)

    def redis_error(url: str, password: str | None, namespace: str = NAMESPACE) -> BaseException:
        with pytest.raises(Exception) as caught:
            redis_access.check(url, namespace, password=password, timeout=2)
        return caught.value

    def postgres_error(url: str, password: str | None) -> BaseException:
        with pytest.raises(psycopg.Error) as caught:
            postgres_access.check(url, password=password, timeout=2)
        return caught.value

    no_ca = redis_url.replace(str(site.secrets / "ca.pem"), str(tmp_path / "none.pem"))
    refused_redis = [
        redis_error(redis_url, "wrong"),
        redis_error(redis_url, None),
        redis_error(redis_url, redis_password, namespace="another-site"),  # the ACL's keys
        redis_error(redis_url.replace("tertulia@", "healthcheck@"), "x"),  # PING only
        redis_error(no_ca, redis_password),
    ]
    for error in refused_redis:
        assert redis_access.refusal(error), repr(error)
    closed = free_port()
    assert redis_access.refusal(redis_error(f"redis://127.0.0.1:{closed}/0", None)) is None
    # requirepass (the default user's password), plain TCP: by the URL or a file's password.
    plain = RedisServer(free_port(), "--requirepass", "pass word").start()
    try:
        url = f"redis://127.0.0.1:{plain.port}/0"
        redis_access.check(url.replace("//", "//:pass%20word@"), NAMESPACE)
        redis_access.check(url, NAMESPACE, password="pass word")
        assert redis_access.refusal(redis_error(url, "wrong"))
        assert redis_access.refusal(redis_error(url, None))
    finally:
        plain.stop()
    assert postgres_access.refusal(postgres_error(pg_url, "wrong"))
    assert postgres_access.refusal(postgres_error(pg_url, None))
    nobody = pg_url.replace(f":{site.postgres.port}/", f":{closed}/")
    assert postgres_access.refusal(postgres_error(nobody, pg_password)) is None


def test_passwords_come_from_files_and_are_never_printed(tmp_path) -> None:
    secret = tmp_path / "password"
    secret.write_text("s3cret\n")
    config = Config.from_env(
        {
            "TERTULIA_REDIS_URL": "rediss://tertulia@redis:6379/0?ssl_ca_certs=/ca.pem",
            "TERTULIA_REDIS_PASSWORD_FILE": str(secret),
            "TERTULIA_DATABASE_URL": "postgresql://tertulia@postgres/tertulia",
            "TERTULIA_DATABASE_PASSWORD_FILE": str(secret),
        }
    )
    assert config.redis_password == config.database_password == "s3cret"
    assert "s3cret" not in repr(config)
    assert without_password("rediss://u:s3cret@h:1/0?x=1") == "rediss://u:***@h:1/0?x=1"
    assert without_password("postgresql://h/db") == "postgresql://h/db"
    with pytest.raises(ValueError, match="give one"):
        Config.from_env(
            {
                "TERTULIA_REDIS_URL": "redis://:other@redis:6379/0",
                "TERTULIA_REDIS_PASSWORD_FILE": str(secret),
                "TERTULIA_DATABASE_URL": "postgresql://tertulia@postgres/tertulia",
            }
        )
    with pytest.raises(ValueError, match="TERTULIA_DATABASE_PASSWORD_FILE: cannot read"):
        Config.from_env({"TERTULIA_DATABASE_PASSWORD_FILE": str(tmp_path / "missing")})
    with pytest.raises(ValueError, match="redis://"):
        Config.from_env(
            {"TERTULIA_REDIS_URL": "http://redis", "TERTULIA_DATABASE_URL": "postgresql://h/d"}
        )
    assert shutil.which("openssl"), "make-secrets.sh needs openssl"
