"""``tertulia``: the one command-line entry point (``tertulia serve``, ``python -m tertulia``)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from .server.config import LOG_LEVELS, Config, without_password
from .version import VERSION

if TYPE_CHECKING:
    import uvicorn

# sysexits.h's EX_TEMPFAIL: a temporary failure, start again (the store's writer died).
EXIT_TRY_AGAIN = 75
# sysexits.h's EX_SOFTWARE: a game folder could not be loaded; starting again will not help.
EXIT_BROKEN_GAME = 70
# sysexits.h's EX_CANTCREAT: ``tertulia backup`` could not read the database or write the copy.
EXIT_BACKUP_FAILED = 73
# sysexits.h's EX_CONFIG: in cluster mode, Redis or PostgreSQL refused this node (its password,
# user, ACL or TLS settings); starting again will not help until the setting is fixed.
EXIT_REFUSED = 78


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    if args.command == "backup":
        return _backup(args)
    if args.command == "version":
        print(VERSION)
        return 0
    return 2


def build_parser() -> argparse.ArgumentParser:
    """Every command and flag (tests/deploy checks the documented commands against it)."""
    parser = argparse.ArgumentParser(prog="tertulia", description="Tertulia party-games server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the server")
    serve.add_argument("--host", help="address to listen on (TERTULIA_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (TERTULIA_PORT, default 8000)")
    serve.add_argument(
        "--db",
        type=Path,
        help="SQLite file (TERTULIA_DB; default $STATE_DIRECTORY/tertulia.sqlite3 under "
        "systemd, else data/tertulia.sqlite3 where the server starts)",
    )
    serve.add_argument("--public-url", help="address players use (TERTULIA_PUBLIC_URL)")
    serve.add_argument("--idle-minutes", type=float, help="close rooms idle this long")
    serve.add_argument(
        "--drop-grace", type=float, help="seconds before a lost connection is a drop"
    )
    serve.add_argument(
        "--restart-grace",
        type=float,
        help="seconds a clock that ran out while the server was down gets after a restart",
    )
    serve.add_argument(
        "--trusted-proxies",
        help="reverse proxies whose X-Forwarded-For is believed: addresses or CIDRs, "
        "space- or comma-separated (TERTULIA_TRUSTED_PROXIES, default none)",
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=int,
        help="WebSocket connections one client address may hold at once, 0 for no cap "
        "(TERTULIA_MAX_CONNECTIONS_PER_ADDRESS, default 64)",
    )
    serve.add_argument(
        "--metrics-token",
        help="ask /metrics for this bearer token (TERTULIA_METRICS_TOKEN; without one, "
        "/metrics answers only this machine)",
    )
    serve.add_argument(
        "--redis-url",
        help="cluster mode: Redis for room leases and relaying, e.g. redis://127.0.0.1:6379/0 "
        "or rediss://user:password@host:6379/0?ssl_ca_certs=/path/ca.pem "
        "(TERTULIA_REDIS_URL; with --database-url)",
    )
    serve.add_argument(
        "--database-url",
        help="cluster mode: the shared PostgreSQL log, postgresql://user:password@host/db"
        "?sslmode=verify-full&sslrootcert=/path/ca.pem (TERTULIA_DATABASE_URL; with "
        "--redis-url)",
    )
    serve.add_argument(
        "--rooms-follow-players",
        action="store_true",
        default=None,
        help="cluster mode: hand a room, between matches, to a node that holds more of its "
        "connections than its owner; for a proxy that routes by room "
        "(TERTULIA_ROOMS_FOLLOW_PLAYERS=1; default off)",
    )
    serve.add_argument(
        "--keep-days",
        type=float,
        help="remove finished matches and closed rooms this many days after they ended, 0 "
        "to keep them for ever (TERTULIA_KEEP_DAYS, default 90)",
    )
    serve.add_argument(
        "--bot-delay",
        help="seconds a computer player waits before it moves, MIN-MAX "
        "(TERTULIA_BOT_DELAY, default 0.8-2.5)",
    )
    serve.add_argument("--plain-logs", action="store_true", help="human-readable logs")
    serve.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        help="the least important lines logged (TERTULIA_LOG_LEVEL, default info)",
    )
    serve.add_argument(
        "--access-log",
        action="store_true",
        default=None,
        help="one log line per HTTP request (TERTULIA_ACCESS_LOG=1; default off)",
    )
    backup = commands.add_parser(
        "backup",
        help="copy the live database (and its key) to PATH, safely while the server runs",
    )
    backup.add_argument("path", type=Path, help="the copy to write (it must not exist)")
    backup.add_argument("--db", type=Path, help="SQLite file (as for serve)")
    commands.add_parser("version", help="print the version")
    return parser


def _backup(args: argparse.Namespace) -> int:
    from .store.sqlite.backup import BackupError, backup

    config = Config.from_env(db_path=args.db)
    try:
        copied = backup(config.db_path, args.path, key=config.key_path)
    except BackupError as error:
        print(f"tertulia backup: {error}", file=sys.stderr)
        return EXIT_BACKUP_FAILED
    for path in copied:
        print(f"wrote {path}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .games import BrokenGames

    try:
        from .games import GAMES  # every game folder is imported here, before anything starts
    except BrokenGames as error:
        print(f"tertulia serve: {error}", file=sys.stderr)
        return EXIT_BROKEN_GAME
    from .server import collector, logs
    from .server.app import create_app
    from .server.serving import uvicorn_config

    try:
        config = Config.from_env(
            host=args.host,
            port=args.port,
            db_path=args.db,
            public_url=args.public_url,
            idle_minutes=args.idle_minutes,
            drop_grace_seconds=args.drop_grace,
            restart_grace_seconds=args.restart_grace,
            trusted_proxies=args.trusted_proxies,
            max_connections_per_address=args.max_connections_per_address,
            metrics_token=args.metrics_token,
            redis_url=args.redis_url,
            database_url=args.database_url,
            keep_days=args.keep_days,
            bot_delay=args.bot_delay,
            log_json=False if args.plain_logs else None,
            log_level=args.log_level,
            access_log=args.access_log,
            rooms_follow_players=args.rooms_follow_players,
        )
    except ValueError as error:
        print(f"tertulia serve: {error}", file=sys.stderr)
        return 2
    logs.configure(json_lines=config.log_json, level=config.log_level, access_log=config.access_log)
    log = logging.getLogger("tertulia")
    if config.cluster:
        status = _check_back_channel(config, log)
        if status is not None:
            return status
    store_lost = []
    refused: list[str] = []

    def stop_for_a_restart() -> None:
        # What uvicorn does on SIGTERM: close connections (clients reconnect by themselves)
        # and shut down; then the exit status asks a supervisor to start us again.
        store_lost.append(True)
        server.should_exit = True

    def stop_misconfigured(why: str) -> None:
        refused.append(why)  # Redis refused us while we ran: stop as on SIGTERM, exit 78
        server.should_exit = True

    app = create_app(config, GAMES, on_store_lost=stop_for_a_restart, on_refused=stop_misconfigured)
    server_class = _server_class(app.state.tertulia.say_restarting)
    # Where the data is: the SQLite file, or in cluster mode the PostgreSQL every node shares.
    data = str(config.db_path)
    if config.database_url is not None:
        data = without_password(config.database_url)
    log.info(
        "Tertulia %s is running: open %s/ (Ctrl+C stops it)",
        VERSION,
        config.base_url,
        extra={"fields": {"version": VERSION, "url": config.base_url, "db": data}},
    )
    if config.database_url is None:
        log.info("data: %s (back it up with: tertulia backup PATH)", data)
    else:
        log.info("data: PostgreSQL at %s (back it up with pg_dump: docs/cluster.md)", data)
    # uvicorn handles SIGINT and SIGTERM: it stops accepting, closes sockets, runs shutdown.
    server = server_class(uvicorn_config(app, config, access_log=config.access_log))
    # After a signal, uvicorn raises it again once it has shut down (with the handler that was
    # there before): SIGINT as KeyboardInterrupt, SIGTERM as _Stopped below, so a stop that
    # was asked for (Ctrl+C, systemctl stop, docker stop) exits 0 rather than "killed".
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    collector.tune()  # the garbage collector as a long-lived server needs it (collector.py)
    try:
        with contextlib.suppress(KeyboardInterrupt, _Stopped):
            server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    if refused:
        log.error("Tertulia stopped: %s. Fix the setting, then start it again.", refused[0])
        return EXIT_REFUSED
    if store_lost:
        log.error("Tertulia stopped: its store's writer process died; start it again.")
        return EXIT_TRY_AGAIN
    if not server.started:
        return 3  # as uvicorn.run: it could not start (the port is taken, for one)
    return 0


def _check_back_channel(config: Config, log: logging.Logger) -> int | None:
    """Before a cluster node listens: may it use its PostgreSQL and its Redis? A server that
    refuses it (password, user, ACL, TLS) is a configuration error: say which and exit 78
    rather than try for ever. A PostgreSQL that cannot be reached exits 75 (a supervisor
    starts the node again); a Redis that cannot be reached is waited for (the node starts,
    answers 503 and joins once Redis answers). None: go on."""
    from .cluster import connect as redis_access
    from .store.postgres import access as postgres_access

    assert config.redis_url is not None and config.database_url is not None
    database, redis = without_password(config.database_url), without_password(config.redis_url)
    try:
        postgres_access.check(config.database_url, password=config.database_password)
    except Exception as error:
        why = postgres_access.refusal(error)
        if why is not None:
            print(
                f"tertulia serve: PostgreSQL at {database} refused this node: {why}. Check the "
                "user, password and TLS settings (--database-url, "
                "TERTULIA_DATABASE_PASSWORD_FILE); starting again will not help.",
                file=sys.stderr,
            )
            return EXIT_REFUSED
        first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        print(
            f"tertulia serve: PostgreSQL at {database} cannot be reached ({first}); "
            "start the node again once it answers.",
            file=sys.stderr,
        )
        return EXIT_TRY_AGAIN
    try:
        redis_access.check(config.redis_url, config.redis_namespace, password=config.redis_password)
    except Exception as error:
        why = redis_access.refusal(error)
        if why is not None:
            print(
                f"tertulia serve: Redis at {redis} refused this node: {why}. Check the user, "
                "password, ACL and TLS settings (--redis-url, TERTULIA_REDIS_PASSWORD_FILE); "
                "starting again will not help.",
                file=sys.stderr,
            )
            return EXIT_REFUSED
        log.warning("Redis at %s cannot be reached yet (%s); starting without it", redis, error)
    return None


class _Stopped(Exception):
    """SIGTERM, raised again by uvicorn once it has shut down."""


def _raise_stopped(signum: int, frame: object) -> None:
    raise _Stopped


def _server_class(say_restarting: Callable[[], None]) -> type[uvicorn.Server]:
    import asyncio

    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, which first tells every connection that we are restarting."""

        telling = False  # the first signal's notice is on its way

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit or self.telling:  # a second signal: as uvicorn does
                super().handle_exit(sig, frame)
                return
            # In a signal handler, which may run between any two steps of uvicorn's own loop
            # (even between its look at should_exit and its closing of the connections): the
            # event loop says we are restarting first, and only then lets uvicorn stop. The
            # notice is written to each socket at once (outlet.py), ahead of the close.
            self.telling = True

            def tell_then_stop() -> None:
                try:
                    say_restarting()
                finally:
                    uvicorn.Server.handle_exit(self, sig, frame)

            asyncio.get_running_loop().call_soon_threadsafe(tell_then_stop)

    return Server


if __name__ == "__main__":
    sys.exit(main())
