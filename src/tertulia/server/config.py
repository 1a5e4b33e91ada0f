"""Server settings, from flags or environment variables (flags win)."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .addresses import Network, default_origins, origin_of, parse_networks
from .guard import Limits

DEFAULT_DATA_DIR = Path("data")
DB_NAME = "tertulia.sqlite3"
LOG_LEVELS = ("debug", "info", "warning", "error")


def default_db_path(env: dict[str, str]) -> Path:
    """Where the database goes when nobody says (``--db``, ``TERTULIA_DB``): the folder
    systemd made for us (``StateDirectory=``, given as ``STATE_DIRECTORY``), else ``data/``
    in the folder the server was started from. Absolute either way, so the start-up line says
    exactly where it is (a relative path under systemd, with no working directory, would land
    in ``/data``)."""
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    folder = Path(state) if state else DEFAULT_DATA_DIR
    return (folder / DB_NAME).absolute()


def parse_delay(text: str) -> tuple[float, float]:
    """ "0.8-2.5" (seconds, between the two) or "1" (always that)."""
    try:
        low, _, high = text.strip().partition("-")
        return float(low), float(high or low)
    except ValueError:
        raise ValueError(f"--bot-delay must be MIN-MAX seconds, got {text!r}") from None


def read_secret(path: str, variable: str) -> str:
    """A password kept in a file of its own (compose secrets, systemd credentials): the
    file's text without its trailing newline."""
    try:
        text = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ValueError(f"{variable}: cannot read {path}: {reason}") from None
    if not text:
        raise ValueError(f"{variable}: {path} is empty")
    return text


def _yes(value: str) -> bool:
    """An environment switch: 1, true, yes or on (any case) turn it on."""
    return value.strip().lower() in ("1", "true", "yes", "on")


def without_password(url: str) -> str:
    """``url`` fit to print: its password, if it has one, replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{parts.username or ''}:***@{host}").geturl()


@dataclass(frozen=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 8000
    db_path: Path = DEFAULT_DATA_DIR / "tertulia.sqlite3"
    public_url: str | None = None  # how players reach us, e.g. https://play.example.org
    idle_minutes: float = 30.0
    drop_grace_seconds: float = 5.0
    restart_grace_seconds: float = 20.0
    max_frame_bytes: int = 64 * 1024
    allowed_origins: tuple[str, ...] = ()
    # Proxies whose X-Forwarded-For is believed (see server/addresses.py); none by default.
    trusted_proxies: tuple[Network, ...] = ()
    # With a token, /metrics asks for it (Authorization: Bearer …); without one, it answers
    # only clients on this machine.
    metrics_token: str | None = None
    limits: Limits = field(default_factory=Limits)
    log_json: bool = True
    # Cluster mode (docs/architecture.md, "Several nodes as one site"): with both, rooms are
    # owned through leases in Redis and the log is PostgreSQL's. Redis alone (no database)
    # is only for the relay's own tests: nodes with logs of their own cannot take over.
    redis_url: str | None = None
    database_url: str | None = None
    redis_namespace: str = "tertulia"  # every key's prefix: several sites may share a Redis
    # A room's lease lapses this long after its owner last renewed it: how soon another node
    # may take over the rooms of one that died, and how long a paused one keeps them.
    lease_seconds: float = 4.0
    # Hand a room, between matches, to a node that holds more of its connections than its
    # owner (cluster/placement.py): for a proxy that routes by room (docs/cluster.md).
    rooms_follow_players: bool = False
    database_schema: str | None = None  # the log's tables in this PostgreSQL schema
    # Passwords read from files (TERTULIA_REDIS_PASSWORD_FILE, TERTULIA_DATABASE_PASSWORD_FILE:
    # compose secrets) rather than written in the URLs; never printed.
    redis_password: str | None = field(default=None, repr=False)
    database_password: str | None = field(default=None, repr=False)
    log_level: str = "info"  # one of LOG_LEVELS
    access_log: bool = False  # one log line per HTTP request (uvicorn's)
    # Finished matches and closed rooms are removed this many days after they ended; 0 keeps
    # them for ever (see RoomManager's housekeeping and Store.remove_older_than).
    keep_days: float = 90.0
    # Seconds a computer player waits before it moves, drawn between the two (--bot-delay
    # "0.8-2.5"; tests make it short).
    bot_delay: tuple[float, float] = (0.8, 2.5)

    @property
    def cluster(self) -> bool:
        return self.redis_url is not None

    def __post_init__(self) -> None:
        if self.log_level not in LOG_LEVELS:
            raise ValueError(f"--log-level must be one of {', '.join(LOG_LEVELS)}")
        if self.keep_days < 0:
            raise ValueError("--keep-days must be 0 (keep for ever) or more")
        low, high = self.bot_delay
        if not 0 <= low <= high <= 60:
            raise ValueError("--bot-delay must be MIN-MAX seconds, 0 <= MIN <= MAX <= 60")

    @property
    def key_path(self) -> Path:
        """The identity key lives beside the database: keep (and back up) them together."""
        return self.db_path.with_name(self.db_path.name + ".key")

    @property
    def base_url(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    def origins(self) -> frozenset[str]:
        """The ``Origin`` a browser page of ours sends: the public URL's (scheme included), or,
        without one, this host's and port's (see ``addresses.default_origins``); and the
        extra allowed origins. Never whatever the request's own ``Host`` header says."""
        own = (
            {origin_of(self.public_url)}
            if self.public_url
            else set(default_origins(self.host, self.port))
        )
        return frozenset(own | {origin_of(o) for o in self.allowed_origins})

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Config:
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}  # Config's fields by name, checked as it is built
        if "TERTULIA_HOST" in env:
            values["host"] = env["TERTULIA_HOST"]
        if "TERTULIA_PORT" in env:
            values["port"] = int(env["TERTULIA_PORT"])
        values["db_path"] = (
            Path(env["TERTULIA_DB"]) if env.get("TERTULIA_DB") else default_db_path(env)
        )
        if "TERTULIA_PUBLIC_URL" in env:
            values["public_url"] = env["TERTULIA_PUBLIC_URL"]
        if "TERTULIA_IDLE_MINUTES" in env:
            values["idle_minutes"] = float(env["TERTULIA_IDLE_MINUTES"])
        if "TERTULIA_DROP_GRACE" in env:
            values["drop_grace_seconds"] = float(env["TERTULIA_DROP_GRACE"])
        if "TERTULIA_RESTART_GRACE" in env:
            values["restart_grace_seconds"] = float(env["TERTULIA_RESTART_GRACE"])
        if "TERTULIA_ALLOWED_ORIGINS" in env:
            values["allowed_origins"] = tuple(env["TERTULIA_ALLOWED_ORIGINS"].split())
        if "TERTULIA_TRUSTED_PROXIES" in env:
            values["trusted_proxies"] = env["TERTULIA_TRUSTED_PROXIES"]
        if env.get("TERTULIA_REDIS_URL"):
            values["redis_url"] = env["TERTULIA_REDIS_URL"]
        if env.get("TERTULIA_REDIS_NAMESPACE"):
            values["redis_namespace"] = env["TERTULIA_REDIS_NAMESPACE"]
        if env.get("TERTULIA_LEASE_SECONDS"):
            values["lease_seconds"] = float(env["TERTULIA_LEASE_SECONDS"])
        if "TERTULIA_ROOMS_FOLLOW_PLAYERS" in env:
            values["rooms_follow_players"] = _yes(env["TERTULIA_ROOMS_FOLLOW_PLAYERS"])
        if env.get("TERTULIA_DATABASE_SCHEMA"):
            values["database_schema"] = env["TERTULIA_DATABASE_SCHEMA"]
        if env.get("TERTULIA_DATABASE_URL"):
            values["database_url"] = env["TERTULIA_DATABASE_URL"]
        for name, variable in (
            ("redis_password", "TERTULIA_REDIS_PASSWORD_FILE"),
            ("database_password", "TERTULIA_DATABASE_PASSWORD_FILE"),
        ):
            if env.get(variable):
                values[name] = read_secret(env[variable], variable)
        if env.get("TERTULIA_METRICS_TOKEN"):
            values["metrics_token"] = env["TERTULIA_METRICS_TOKEN"]
        if "TERTULIA_LOG_LEVEL" in env:
            values["log_level"] = env["TERTULIA_LOG_LEVEL"].lower()
        if "TERTULIA_ACCESS_LOG" in env:
            values["access_log"] = _yes(env["TERTULIA_ACCESS_LOG"])
        if "TERTULIA_KEEP_DAYS" in env:
            values["keep_days"] = float(env["TERTULIA_KEEP_DAYS"])
        if env.get("TERTULIA_BOT_DELAY"):
            values["bot_delay"] = env["TERTULIA_BOT_DELAY"]
        connections = overrides.pop("max_connections_per_address", None)
        if connections is None and "TERTULIA_MAX_CONNECTIONS_PER_ADDRESS" in env:
            connections = int(env["TERTULIA_MAX_CONNECTIONS_PER_ADDRESS"])
        if connections is not None:
            values["limits"] = dataclasses.replace(
                Limits(), connections_per_address=int(connections)
            )
        values.update({k: v for k, v in overrides.items() if v is not None})
        # Absolute, resolved once at start: what the start-up line prints is where it is.
        values["db_path"] = Path(values["db_path"]).expanduser().absolute()
        if isinstance(values.get("bot_delay"), str):
            values["bot_delay"] = parse_delay(str(values["bot_delay"]))
        if isinstance(values.get("trusted_proxies"), str):
            values["trusted_proxies"] = parse_networks(values["trusted_proxies"])
        config = cls(**values)
        if (config.redis_url is None) != (config.database_url is None):
            raise ValueError(
                "cluster mode needs both --redis-url and --database-url (or neither, for one "
                "process with its SQLite file)"
            )
        if config.database_url is not None and not config.database_url.startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("--database-url must be a postgresql:// URL")
        if config.redis_url is not None and not config.redis_url.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ValueError("--redis-url must be a redis:// (or rediss://, with TLS) URL")
        for url, password, flag, variable in (
            (config.redis_url, config.redis_password, "--redis-url", "REDIS"),
            (config.database_url, config.database_password, "--database-url", "DATABASE"),
        ):
            if url is not None and password is not None and urlsplit(url).password is not None:
                raise ValueError(
                    f"a password in {flag} and in TERTULIA_{variable}_PASSWORD_FILE: give one"
                )
        return config
