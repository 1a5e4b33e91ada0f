"""deploy/ and the lean install (issue 20, points 1 and 5): the systemd unit passes
``systemd-analyze verify``; the compose file, the Dockerfile and the proxy snippets say what
Tertulia understands (every setting, flag and path they name is a real one); the commands they
document start a working server on this machine, outside any container; ``make run`` installs
no test tool and constraints.txt pins everything either installs."""

from __future__ import annotations

import ast
import configparser
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tertulia import cli
from tertulia.server.config import Config

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TERTULIA = Path(sys.executable).with_name("tertulia")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(base: str, process: subprocess.Popen, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    while True:
        assert process.poll() is None, process.stdout.read().decode()
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                return json.loads(response.read())
        except OSError:
            assert time.monotonic() < end, "the server never became healthy"
            time.sleep(0.1)


def _stop(process: subprocess.Popen) -> tuple[int, str]:
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return code, process.stdout.read().decode()


def _unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keys are case-sensitive in systemd
    unit.read(DEPLOY / "tertulia.service")
    return unit


def _dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of deploy/Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def _env_of(value: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in shlex.split(value))


# -- the systemd unit ------------------------------------------------------------------------


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    """``systemd-analyze verify`` finds nothing to say about the unit (an unknown option or
    value is only a warning to it, so any output fails this), with ExecStart pointed at this
    machine's tertulia. `make test` installs systemd where it is missing."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: `make test` installs it (apt-get install systemd)"
    text = (DEPLOY / "tertulia.service").read_text()
    unit = tmp_path / "tertulia.service"
    unit.write_text(text.replace("/opt/tertulia/bin/tertulia", str(TERTULIA)))
    done = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout == done.stderr == "", done.stdout + done.stderr


def test_the_cluster_drop_in_passes_systemd_analyze_verify_and_names_real_settings(tmp_path):
    """deploy/cluster.conf, as a drop-in of the unit: `systemd-analyze verify` accepts it
    (its %d is the credentials folder), and its variables are ones the server reads, with
    the passwords as credentials (never in the unit)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: `make test` installs it (apt-get install systemd)"
    text = (DEPLOY / "tertulia.service").read_text()
    (tmp_path / "tertulia.service").write_text(
        text.replace("/opt/tertulia/bin/tertulia", str(TERTULIA))
    )
    (tmp_path / "tertulia.service.d").mkdir()
    shutil.copy(DEPLOY / "cluster.conf", tmp_path / "tertulia.service.d" / "cluster.conf")
    done = subprocess.run(
        [analyze, "verify", str(tmp_path / "tertulia.service")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"},
    )
    assert done.returncode == 0 and done.stdout == done.stderr == "", done.stdout + done.stderr
    lines = [
        line.split("=", 1)
        for line in (DEPLOY / "cluster.conf").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    ]  # (systemd repeats keys, which configparser does not take)
    credentials = {value.split(":")[0] for key, value in lines if key == "LoadCredential"}
    env = {k: v for key, value in lines if key == "Environment" for k, v in _env_of(value).items()}
    assert set(env) <= _config_keys()
    for variable in ("TERTULIA_REDIS_PASSWORD_FILE", "TERTULIA_DATABASE_PASSWORD_FILE"):
        folder, name = env[variable].split("/")
        assert folder == "%d" and name in credentials


def test_the_systemd_unit_restarts_on_failure_keeps_state_and_is_hardened():
    """StateDirectory (found by the server as $STATE_DIRECTORY), Restart=on-failure but not
    for the exit statuses that would fail again, no privileges."""
    service = _unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "tertulia"
    prevented = set(service["RestartPreventExitStatus"].split())
    assert prevented == {"2", str(cli.EXIT_BROKEN_GAME), str(cli.EXIT_REFUSED)}
    assert str(cli.EXIT_TRY_AGAIN) not in prevented
    for option in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateDevices"):
        assert service[option] == "yes", option
    assert service["ProtectSystem"] == "strict" and service["DynamicUser"] == "yes"
    assert service["CapabilityBoundingSet"] == ""
    # The writer talks over a socket pair: AF_UNIX must stay allowed.
    assert "AF_UNIX" in service["RestrictAddressFamilies"].split()
    program, *args = shlex.split(service["ExecStart"])
    assert program == "/opt/tertulia/bin/tertulia"
    cli.build_parser().parse_args(args)
    for key in _env_of(service["Environment"]):
        assert key in _config_keys(), key


def test_every_exit_status_of_the_command_is_in_the_operations_table():
    """docs/operations.md's "Exit statuses" has a row for each status `tertulia` exits with
    (the EXIT_* constants, 2 for settings and 3 for listening)."""
    table = (ROOT / "docs" / "operations.md").read_text().split("## Exit statuses", 1)[1]
    rows = set(re.findall(r"(?m)^\| (\d+) \|", table))
    statuses = {str(v) for k, v in vars(cli).items() if k.startswith("EXIT_")}
    assert statuses | {"0", "2", "3"} <= rows, statuses - rows


# -- the compose file and the Dockerfile ------------------------------------------------------


def _config_keys() -> set[str]:
    """Every TERTULIA_* variable the server reads."""
    source = (ROOT / "src/tertulia/server/config.py").read_text()
    return set(re.findall(r'"(TERTULIA_[A-Z_]+)"', source))


def test_the_compose_file_is_valid_and_names_only_what_tertulia_reads():
    """One node behind Caddy (the default profile): it builds deploy/Dockerfile, keeps /data
    (the Dockerfile's volume) in a named volume, sets only variables the server reads, and
    believes X-Forwarded-For from exactly the subnet Caddy is on. With Docker's compose
    plugin at hand, ``docker compose config`` must accept it too, with either profile."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    tertulia, caddy = compose["services"]["tertulia"], compose["services"]["caddy"]
    build = tertulia["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    volume, mount = tertulia["volumes"][0].split(":")
    assert volume in compose["volumes"] and mount == "/data"
    assert ("VOLUME", "/data") in _dockerfile()
    assert "ports" not in tertulia  # only through Caddy
    environment = tertulia["environment"]
    assert set(environment) <= _config_keys()
    (subnet,) = [c["subnet"] for c in compose["networks"]["front"]["ipam"]["config"]]
    assert environment["TERTULIA_TRUSTED_PROXIES"] == subnet
    config = Config.from_env({k: v.replace("${TERTULIA_DOMAIN:-localhost}", "x.org")
                              for k, v in environment.items()})  # fmt: skip
    assert config.public_url == "https://x.org" and len(config.trusted_proxies) == 1
    assert tertulia["restart"] == caddy["restart"] == "unless-stopped"
    caddyfile = caddy["volumes"][0].split(":")[0]
    assert (DEPLOY / caddyfile).is_file()
    assert caddy["environment"]["TERTULIA_UPSTREAM"] == "tertulia:8000"
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        for profile in ([], ["--profile", "cluster"]):
            done = subprocess.run(
                [docker, "compose", "-f", str(DEPLOY / "compose.yaml"), *profile, "config", "-q"],
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr


def test_the_dockerfile_is_small_not_root_and_checks_healthz():
    """Two stages (no compiler or wheel cache in the image), a non-root user, the database in
    the /data volume, a healthcheck on /healthz, and only files that exist are copied."""
    steps = _dockerfile()
    froms = [args for op, args in steps if op == "FROM"]
    assert len(froms) == 2 and all("slim" in f for f in froms)
    (user,) = [args for op, args in steps if op == "USER"]
    assert user not in ("root", "0")
    env = _env_of(" ".join(args for op, args in steps if op == "ENV"))
    assert env["TERTULIA_DB"].startswith("/data/") and set(env) - {"PYTHONUNBUFFERED"} <= (
        _config_keys()
    )
    (health,) = [args for op, args in steps if op == "HEALTHCHECK"]
    assert "/healthz" in health
    for op, args in steps:
        if op == "COPY" and not args.startswith("--from"):
            *sources, _ = args.split()
            for source in sources:
                assert (ROOT / source).exists(), source
    (cmd,) = [json.loads(args) for op, args in steps if op == "CMD"]
    assert cmd[0] == "tertulia"
    cli.build_parser().parse_args(cmd[1:])
    ignored = (ROOT / ".dockerignore").read_text()
    assert "!src/" in ignored and "!constraints.txt" in ignored


# -- the compose file's cluster profile ------------------------------------------------------


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _profiles(compose: dict) -> dict[str, set[str]]:
    profiles: dict[str, set[str]] = {}
    for name, service in compose["services"].items():
        for profile in service.get("profiles", [""]):
            profiles.setdefault(profile, set()).add(name)
    return profiles


def test_the_default_profile_is_one_node_and_the_cluster_profile_two_behind_a_proxy():
    """deploy/.env makes a plain `docker compose up` start the one node and its Caddy (the
    "single" profile); `--profile cluster` starts PostgreSQL, Redis, two nodes and a Caddy in
    front instead. No service is in both, and none is in neither (a service without a profile
    would start with either)."""
    compose = _compose()
    dotenv = dict(
        line.split("=", 1)
        for line in (DEPLOY / ".env").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    assert dotenv == {"COMPOSE_PROFILES": "single"}
    assert _profiles(compose) == {
        "single": {"tertulia", "caddy"},
        "cluster": {"node-1", "node-2", "proxy", "postgres", "redis"},
    }
    services = compose["services"]
    proxy, caddy = services["proxy"], services["caddy"]
    assert proxy["image"] == caddy["image"] and proxy["ports"] == caddy["ports"]
    assert proxy["volumes"] == caddy["volumes"]  # the same Caddyfile and certificates
    port = _env_of(" ".join(args for op, args in _dockerfile() if op == "ENV"))["TERTULIA_PORT"]
    upstreams = proxy["environment"]["TERTULIA_UPSTREAM"].split()
    assert upstreams == [f"node-1:{port}", f"node-2:{port}"]
    assert set(proxy["depends_on"]) == {"node-1", "node-2"}
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    # A room's sockets (/ws?room=CODE) to one node, anything else round robin: with nodes
    # whose rooms follow their players, nothing is relayed (docs/cluster.md).
    for needed in (
        "lb_policy query room",
        "fallback round_robin",
        "health_uri /healthz",
        "lb_try_duration",
    ):
        assert needed in caddyfile, needed
    caddy_program = shutil.which("caddy")
    if caddy_program:  # with Caddy at hand, it must read the file as two upstreams
        done = subprocess.run(
            [caddy_program, "adapt", "--config", str(DEPLOY / "Caddyfile")],
            capture_output=True,
            text=True,
            env={**os.environ, "TERTULIA_UPSTREAM": " ".join(upstreams)},
        )
        assert done.returncode == 0, done.stderr
        handler = json.loads(done.stdout)["apps"]["http"]["servers"]["srv0"]["routes"][0]
        text = json.dumps(handler)
        assert '"policy": "query"' in text and '"key": "room"' in text
        assert '"policy": "round_robin"' in text and '"uri": "/healthz"' in text
        assert all(f'"dial": "{u}"' in text for u in upstreams)


def test_the_cluster_nodes_are_set_up_as_docs_cluster_md_says(tmp_path):
    """Both nodes: the image with the cluster extra, both URLs (TLS on both, the certificate
    checked against our CA), the passwords from secret files, the lease, the public URL and
    the proxy's subnet trusted; they start once PostgreSQL and Redis are healthy, are
    healthy themselves when /healthz says so, and reach the back end on a network of its own
    that leads nowhere else. Config accepts the whole environment."""
    compose = _compose()
    services = compose["services"]
    node = services["node-1"]
    assert services["node-2"] == node
    assert node["build"]["args"]["EXTRAS"] == "[cluster]"
    assert ("ARG", 'EXTRAS=""') in _dockerfile()
    assert any(op == "RUN" and '".${EXTRAS}"' in args for op, args in _dockerfile())
    assert node["image"] != services["tertulia"]["image"]
    environment = node["environment"]
    assert set(environment) <= _config_keys()
    for key in ("TERTULIA_REDIS_URL", "TERTULIA_DATABASE_URL", "TERTULIA_LEASE_SECONDS"):
        assert key in environment, key
    assert Config.from_env(
        {"TERTULIA_ROOMS_FOLLOW_PLAYERS": environment["TERTULIA_ROOMS_FOLLOW_PLAYERS"]}
    ).rooms_follow_players  # behind the proxy that routes by room
    redis_url, database_url = (
        environment["TERTULIA_REDIS_URL"],
        environment["TERTULIA_DATABASE_URL"],
    )
    assert redis_url.startswith("rediss://") and "ssl_ca_certs=/run/secrets/" in redis_url
    assert "sslmode=verify-full" in database_url and "sslrootcert=/run/secrets/" in database_url
    # Each secret file the environment names is mounted; stand-ins here, to parse it all.
    local = {}
    for name in node["secrets"]:
        (tmp_path / name).write_text(f"{name}-value\n")
        local[f"/run/secrets/{name}"] = str(tmp_path / name)
    for value in environment.values():
        for path in re.findall(r"/run/secrets/\w+", value):
            assert path in local, f"{path} is not one of the node's secrets"

    def here(value: str) -> str:
        for path, there in local.items():
            value = value.replace(path, there)
        return value.replace("${TERTULIA_DOMAIN:-localhost}", "x.org")

    config = Config.from_env({key: here(value) for key, value in environment.items()})
    assert config.cluster and config.lease_seconds == 4.0
    assert config.redis_password == "redis_password-value"
    assert config.database_password == "postgres_password-value"
    assert config.public_url == "https://x.org"
    (subnet,) = [c["subnet"] for c in compose["networks"]["front"]["ipam"]["config"]]
    assert environment["TERTULIA_TRUSTED_PROXIES"] == subnet
    assert node["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    assert "/healthz" in " ".join(node["healthcheck"]["test"])
    assert node["restart"] == "unless-stopped" and node["stop_grace_period"] == "30s"
    assert set(node["networks"]) == {"front", "back"}
    assert compose["networks"]["back"]["internal"] is True
    for backend in ("postgres", "redis"):
        assert services[backend]["networks"] == ["back"] and "ports" not in services[backend]


def test_postgres_and_redis_have_health_checks_passwords_and_tls():
    """PostgreSQL: pg_isready over TCP, the user and database of the nodes' URL, its password
    a secret file, TLS on with its own certificate. Redis: `redis-cli ping` over TLS as a
    PING-only user, a TLS port and no plain one, the ACL file of make-secrets.sh, nothing
    on disk. (tests/cluster/test_back_channel.py runs these commands, outside containers.)"""
    compose = _compose()
    services = compose["services"]
    postgres, redis = services["postgres"], services["redis"]
    url = urlsplit(services["node-1"]["environment"]["TERTULIA_DATABASE_URL"])
    environment = postgres["environment"]
    assert (url.hostname, url.port, url.path) == (
        "postgres",
        5432,
        f"/{environment['POSTGRES_DB']}",
    )
    assert url.username == environment["POSTGRES_USER"]
    assert environment["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert "pg_isready" in postgres["healthcheck"]["test"]
    assert "127.0.0.1" in postgres["healthcheck"]["test"]
    script = " ".join(postgres["command"])
    for needed in ("ssl=on", "ssl_cert_file=/run/secrets/postgres_cert", "docker-entrypoint.sh"):
        assert needed in script, needed
    assert "postgres-data:/var/lib/postgresql/data" in postgres["volumes"]
    command = redis["command"]
    option = dict(zip(command[1::2], command[2::2], strict=True))
    assert command[0] == "redis-server" and option["--port"] == "0"
    assert urlsplit(services["node-1"]["environment"]["TERTULIA_REDIS_URL"]).port == int(
        option["--tls-port"]
    )
    assert option["--aclfile"] == "/run/secrets/redis_users"
    assert option["--save"] == "" and option["--appendonly"] == "no"
    check = " ".join(redis["healthcheck"]["test"])
    assert "redis-cli --tls" in check and "ping" in check and "grep -q PONG" in check
    for service in (postgres, redis):
        for path in re.findall(r"/run/secrets/\w+", json.dumps(service)):
            assert path.rsplit("/", 1)[1] in service["secrets"], path
        assert service["restart"] == "unless-stopped"


def test_no_secret_is_written_in_the_compose_file():
    """Every password is a file of deploy/secrets/ (made by make-secrets.sh, ignored by git)
    mounted as a Compose secret: no URL with a password in it, no variable that holds one
    (a *PASSWORD* variable must be a *_FILE naming a secret), no requirepass."""
    compose = _compose()
    assert set(compose["secrets"]) >= {"redis_password", "postgres_password", "redis_users"}
    for name, secret in compose["secrets"].items():
        assert secret["file"].startswith("./secrets/"), name
        ignored = subprocess.run(
            ["git", "check-ignore", "-q", str(DEPLOY / secret["file"])], cwd=ROOT
        )
        assert ignored.returncode == 0, f"{secret['file']} is not ignored by git"
    for name, service in compose["services"].items():
        for key, value in (service.get("environment") or {}).items():
            for url in re.findall(r"[a-z]+://\S+", value):
                assert urlsplit(url).password is None, (name, key)
            if re.search("PASSWORD|SECRET|TOKEN", key):
                assert key.endswith("_FILE") and value.startswith("/run/secrets/"), (name, key)
        # (redis-cli's `--pass healthcheck` is for a user with no password: any will do)
        assert "requirepass" not in json.dumps(service), name


def test_make_secrets_makes_what_the_compose_file_mounts(tmp_path):
    """deploy/make-secrets.sh (openssl): every file the compose file's secrets name, in a
    folder only its owner enters; Redis's ACL with the password's SHA-256 (not the password)
    and the default namespace's keys and channels; certificates signed by the CA for the
    compose services' names (and 127.0.0.1); a second run changes nothing."""
    folder = tmp_path / "secrets"
    subprocess.run(["sh", str(DEPLOY / "make-secrets.sh"), str(folder)], check=True, timeout=60)
    compose = _compose()
    wanted = {Path(secret["file"]).name for secret in compose["secrets"].values()}
    assert wanted <= {path.name for path in folder.iterdir()}
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "ca.key").stat().st_mode & 0o777 == 0o600
    password = (folder / "redis_password").read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", password)
    acl = (folder / "redis_users.acl").read_text()
    digest = hashlib.sha256(password.encode()).hexdigest()
    assert f"user tertulia on #{digest} ~tertulia:* &tertulia:*" in acl and password not in acl
    assert "user default off" in acl
    for name in ("redis", "postgres"):
        for host in (["-verify_hostname", name], ["-verify_ip", "127.0.0.1"]):
            done = subprocess.run(
                ["openssl", "verify", "-CAfile", str(folder / "ca.pem"), *host,
                 str(folder / f"{name}.pem")],
                capture_output=True,
                text=True,
            )  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    subprocess.run(["sh", str(DEPLOY / "make-secrets.sh"), str(folder)], check=True, timeout=60)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


# -- the proxy snippets -----------------------------------------------------------------------


def _documented_serve(path: Path) -> list[str]:
    (line,) = [line for line in path.read_text().splitlines() if "tertulia serve" in line]
    return shlex.split(line.split("tertulia", 1)[1])


@pytest.mark.parametrize("snippet", ["Caddyfile", "nginx.conf"])
def test_the_proxy_snippets_pass_websockets_and_the_flags_they_document_work(snippet):
    """Each snippet proxies to the port Tertulia listens on, upgrades WebSockets, sends the
    client's address, and documents a ``tertulia serve`` line with --public-url and
    --trusted-proxies that the server accepts and that believes the proxy."""
    text = (DEPLOY / snippet).read_text()
    args = cli.build_parser().parse_args(_documented_serve(DEPLOY / snippet))
    config = Config.from_env({}, public_url=args.public_url, trusted_proxies=args.trusted_proxies)
    assert config.public_url.startswith("https://") and config.trusted_proxies
    assert "127.0.0.1:8000" in text
    if snippet == "nginx.conf":
        for needed in (
            "proxy_http_version 1.1;",
            "proxy_set_header Upgrade $http_upgrade;",
            "proxy_set_header Connection $connection_upgrade;",
            "proxy_set_header X-Forwarded-For $remote_addr;",
            "ssl_certificate ",
            "return 301 https://",
        ):
            assert needed in text, needed
        assert text.count("{") == text.count("}")
    else:
        assert "reverse_proxy" in text and text.count("{") == text.count("}")


# -- the documented commands, outside a container ---------------------------------------------


def test_the_documented_commands_start_a_working_server_outside_a_container(tmp_path):
    """The systemd unit's ExecStart and Environment, with $STATE_DIRECTORY as systemd sets
    it, start a server that keeps its database there; the Dockerfile's healthcheck command
    says it is healthy; SIGTERM (what both send) stops it with status 0; `tertulia backup`
    (docs/operations.md) copies the database it left."""
    service = _unit()["Service"]
    port = _free_port()
    env = {
        **os.environ,
        **_env_of(service["Environment"]),
        "TERTULIA_PORT": str(port),
        "STATE_DIRECTORY": str(tmp_path / "state"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("TERTULIA_DB", None)
    (tmp_path / "state").mkdir()
    _, *args = shlex.split(service["ExecStart"])
    process = subprocess.Popen(
        [str(TERTULIA), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        health = _wait_healthy(f"http://127.0.0.1:{port}", process)
        assert health["status"] == "ok"
        (health_cmd,) = [a for op, a in _dockerfile() if op == "HEALTHCHECK"]
        exec_form = json.loads(health_cmd.split("CMD", 1)[1])
        assert exec_form[0] == "python"
        probe = [sys.executable, exec_form[1], exec_form[2].replace("8000", str(port))]
        assert subprocess.run(probe, timeout=30).returncode == 0
    finally:
        code, output = _stop(process)
    assert code == 0, output
    db = tmp_path / "state" / "tertulia.sqlite3"
    assert db.is_file() and Path(f"{db}.key").is_file()
    assert str(db) in output  # the start-up line says where the data is
    done = subprocess.run(
        [str(TERTULIA), "backup", str(tmp_path / "backup.sqlite3"), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and (tmp_path / "backup.sqlite3").is_file(), done.stderr


# -- a lean run, a pinned install ---------------------------------------------------------------


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _make_n(target: str, tmp_path: Path) -> str:
    # What the Makefile's targets name (axe-core's pins among them), as on a fresh clone.
    for name in (
        "Makefile",
        "pyproject.toml",
        "constraints.txt",
        "tests/e2e/axe/package.json",
        "tests/e2e/axe/package-lock.json",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    done = subprocess.run(
        ["make", "-n", target, "PYTHON=python3"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_installs_only_the_runtime_and_make_test_adds_the_test_tools(tmp_path):
    """On a fresh clone, `make run` installs Tertulia and its runtime dependencies only;
    `make test` installs the "test" extra too. Both with constraints.txt."""
    run = _make_n("run", tmp_path)
    assert "pip install --quiet -c constraints.txt -e ." in run
    assert "[test]" not in run and "tertulia serve" in run
    test = _make_n("test", tmp_path)
    assert "pip install --quiet -c constraints.txt -e '.[test]'" in test
    assert "pytest -q" in test
    pins = [line for line in (run + test).splitlines() if "pip install" in line]
    assert pins and all("-c constraints.txt" in line for line in pins)


def test_constraints_pin_every_dependency_within_its_range():
    """Every runtime and test dependency, and what they depend on in turn here, is pinned in
    constraints.txt, and each pin is inside pyproject.toml's range."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    project = _pyproject()["project"]
    extras = project["optional-dependencies"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    wanted += [Requirement(r) for r in extras["test"]]
    seen: set[str] = set()
    while wanted:
        requirement = wanted.pop()
        name = canonicalize_name(requirement.name)
        if name == "tertulia":  # the test extra takes in other extras of ours: their packages
            wanted += [Requirement(r) for extra in requirement.extras for r in extras[extra]]
            continue
        if name in seen or (requirement.marker and not requirement.marker.evaluate()):
            continue
        seen.add(name)
        assert name in pins, f"{name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])
        assert not requirement.extras, f"{name}: name the extra's packages instead"
        for sub in metadata.requires(requirement.name) or []:
            sub_requirement = Requirement(sub)
            if sub_requirement.marker is None or sub_requirement.marker.evaluate({"extra": ""}):
                wanted.append(sub_requirement)


def test_the_server_imports_only_runtime_dependencies():
    """What src/ imports comes from pyproject.toml's dependencies (or theirs), never from a
    test tool: a `make run` install has only those."""
    runtime: set[str] = set()
    todo = [Requirement(r) for r in _pyproject()["project"]["dependencies"]]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in runtime:
            continue
        runtime.add(name)
        for sub in metadata.requires(requirement.name) or []:
            sub_requirement = Requirement(sub)
            if sub_requirement.marker is None or sub_requirement.marker.evaluate({"extra": ""}):
                todo.append(sub_requirement)
    # An optional extra's packages (cluster mode's) may be imported by the
    # modules that need them, and elsewhere only inside a function (when the extra is used).
    optional: set[str] = set()
    todo = [
        Requirement(r)
        for extra in ("cluster",)
        for r in _pyproject()["project"]["optional-dependencies"][extra]
    ]
    while todo:  # and what those depend on
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name not in optional:
            optional.add(name)
            for sub in metadata.requires(requirement.name) or []:
                sub_requirement = Requirement(sub)
                if sub_requirement.marker is None or sub_requirement.marker.evaluate({"extra": ""}):
                    todo.append(sub_requirement)
    optional_modules = ("cluster/", "store/postgres", "bots/")
    providers = metadata.packages_distributions()
    stdlib = sys.stdlib_module_names
    for path in (ROOT / "src" / "tertulia").rglob("*.py"):
        tree = ast.parse(path.read_text())
        relative = path.relative_to(ROOT / "src" / "tertulia").as_posix()
        lazy_ok = relative.startswith(optional_modules)
        module_level = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in stdlib or top == "tertulia" or top == "__future__":
                    continue
                dists = {canonicalize_name(d) for d in providers.get(top, [])}
                if dists & optional and (lazy_ok or id(node) not in module_level):
                    continue
                assert dists & runtime, f"{path.relative_to(ROOT)} imports {top} ({dists})"
