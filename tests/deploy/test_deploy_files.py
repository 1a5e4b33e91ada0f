"""deploy/ and the lean install (issue 20, points 1 and 5): the systemd unit passes
``systemd-analyze verify``; the compose file, the Dockerfile and the proxy snippets say what
Tertulia understands (every setting, flag and path they name is a real one); the commands they
document start a working server on this machine, outside any container; ``make run`` installs
no test tool and constraints.txt pins everything either installs."""

from __future__ import annotations

import ast
import configparser
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


def test_the_systemd_unit_restarts_on_failure_keeps_state_and_is_hardened():
    """StateDirectory (found by the server as $STATE_DIRECTORY), Restart=on-failure but not
    for the exit statuses that would fail again, no privileges."""
    service = _unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "tertulia"
    prevented = set(service["RestartPreventExitStatus"].split())
    assert prevented == {"2", str(cli.EXIT_BROKEN_GAME)}
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


# -- the compose file and the Dockerfile ------------------------------------------------------


def _config_keys() -> set[str]:
    """Every TERTULIA_* variable the server reads."""
    source = (ROOT / "src/tertulia/server/config.py").read_text()
    return set(re.findall(r'"(TERTULIA_[A-Z_]+)"', source))


def test_the_compose_file_is_valid_and_names_only_what_tertulia_reads():
    """One node behind Caddy: it builds deploy/Dockerfile, keeps /data (the Dockerfile's
    volume) in a named volume, sets only variables the server reads, and believes
    X-Forwarded-For from exactly the subnet Caddy is on. With Docker's compose plugin at
    hand, ``docker compose config`` must accept it too."""
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
        done = subprocess.run(
            [docker, "compose", "-f", str(DEPLOY / "compose.yaml"), "config", "-q"],
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
