"""The Starlette application: pages, static files, the WebSocket, health and metrics."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import io
import logging
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import msgspec
import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..games import GAMES
from ..games.base import RuleError, settings_schema
from ..protocol import Notice
from ..rooms.bot_members import has_bots
from ..rooms.codes import normalize_code
from ..rooms.config import RoomConfig
from ..rooms.identity import Identity
from ..rooms.manager import ManagerConfig, RoomManager
from ..rooms.seams import Rooms
from ..store import Store
from ..store.sqlite import SQLiteStore
from ..version import VERSION
from . import memory_report
from .addresses import is_loopback
from .collector import collect_fully_every
from .config import Config
from .frames import Frames
from .gate import CLIENT, LIMIT_KEY, LINE, Gate, Line
from .guard import Guard, codes_run_out
from .match_pages import match_routes
from .metrics import Metrics
from .outlet import Outlet
from .session import Session

if TYPE_CHECKING:
    from ..cluster.node import ClusterRooms

log = logging.getLogger("tertulia.server")

POLICY_VIOLATION = 1008  # the WebSocket close code for a client that broke our rules

WEB = Path(__file__).resolve().parent.parent / "web"


class Tertulia:
    """What the app needs while it runs, built at start-up and closed at shutdown."""

    def __init__(
        self,
        config: Config,
        games: dict[str, ModuleType],
        on_store_lost: Callable[[], None] | None = None,
        on_refused: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        self.games = games
        self.on_store_lost = on_store_lost
        self.on_refused = on_refused
        self.metrics = Metrics(lambda: len(self.manager.rooms))
        self.cluster: ClusterRooms | None = None
        if config.database_url is None:
            self._build(SQLiteStore(config.db_path), Identity.from_file(config.key_path))
        # else: the shared log and key are PostgreSQL's, reached only in ``start``.
        self.sessions: set[Session] = set()
        self._collecting: asyncio.Task[None] | None = None
        self.guard = Guard(config.limits)
        self.origins = config.origins()  # worked out once: it may look up this machine's names

    def _build(self, store: Store, identity: Identity) -> None:
        self.store = store
        self.identity = identity
        self.store.on_writer_lost(self._store_lost)
        room_config = RoomConfig(
            drop_grace_seconds=self.config.drop_grace_seconds,
            restart_grace_seconds=self.config.restart_grace_seconds,
            observe=self.metrics.observe,
            bot_delay=self.config.bot_delay,
        )
        self.manager = RoomManager(
            self.store,
            self.games,
            ManagerConfig(
                idle_seconds=self.config.idle_minutes * 60,
                keep_seconds=self.config.keep_days * 86400 if self.config.keep_days > 0 else None,
                room=room_config,
            ),
        )
        # What sessions ask for rooms: this process's rooms, or in cluster mode every node's.
        self.rooms: Rooms = self.manager
        if self.config.cluster:
            self.cluster = _cluster_rooms(self.config, self.manager)
            self.cluster.on_refused = self._refused
            self.rooms = self.cluster

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.config.database_url is not None:
            from ..store.postgres import PostgresStore

            store = await PostgresStore.open(
                self.config.database_url,
                schema=self.config.database_schema,
                password=self.config.database_password,
            )
            self._build(store, Identity(await store.shared_identity_key()))
        # An operator's look inside (docs/operations.md, "Memory"): only where signals can be
        # had (the main thread of a POSIX process), which is where ``tertulia serve`` runs.
        with contextlib.suppress(AttributeError, NotImplementedError, RuntimeError, ValueError):
            self.loop.add_signal_handler(signal.SIGUSR1, self.report_memory)
            self.loop.add_signal_handler(signal.SIGUSR2, self.trace_memory)
        restored = await self.manager.start(restore=self.cluster is None)
        if self.cluster is not None:
            await self.cluster.start()
        self._collecting = asyncio.create_task(collect_fully_every())  # why: collector.py
        log.info(
            "listening", extra={"fields": {"url": self.config.base_url, "restored_rooms": restored}}
        )

    @property
    def healthy(self) -> str | None:
        """Why this node cannot serve (``/healthz`` answers 503 with it), or None."""
        if not self.store.writable:
            return "store_lost"
        if self.cluster is not None and not self.cluster.healthy:
            return "cluster_unreachable"
        return None

    def report_memory(self) -> dict:
        """Log what this process holds in memory (SIGUSR1; see ``memory_report.py``)."""
        report = memory_report.report(len(self.manager.rooms), len(self.sessions))
        log.info(memory_report.summary(report), extra={"fields": {"memory": report}})
        return report

    def trace_memory(self) -> None:
        """Trace allocations from now on (SIGUSR2), for a later report's top lines."""
        memory_report.trace_from_now()
        log.info("memory: tracing allocations from now on (tracemalloc)")

    async def stop(self) -> None:
        with contextlib.suppress(AttributeError, NotImplementedError, RuntimeError, ValueError):
            self.loop.remove_signal_handler(signal.SIGUSR1)
            self.loop.remove_signal_handler(signal.SIGUSR2)
        if self._collecting is not None:
            self._collecting.cancel()
        if self.cluster is None:
            await self.manager.shutdown()
            await self.store.close()
            return
        # A node that is stopping must stop whatever state the services are in (a supervisor
        # waits for it): each step is bounded, and one that runs out is logged.
        await _bounded("handing the rooms over", self.cluster.drain(), 15)
        await _bounded("stopping the rooms", self.manager.shutdown(), 10)
        await _bounded("closing the store", self.store.close(), 10)
        await _bounded("closing Redis", self.cluster.redis.aclose(), 2)

    def say_restarting(self) -> None:
        """Tell every connection the server is stopping (it will be back: clients reconnect
        by themselves, and every acknowledged change is saved)."""
        notice = Notice("server.restarting", "The server is restarting; you will be reconnected.")
        for session in list(self.sessions):
            session.send(notice)

    def _refused(self, why: str) -> None:
        """Redis refused this node (its password, its ACL, its certificate): it cannot serve,
        and trying again will not mend it. ``tertulia serve`` stops with exit status 78
        (``EX_CONFIG``) for someone to fix the setting; players reconnect to other nodes."""
        log.critical("%s; this node stops: fix its settings and start it again", why)
        self.say_restarting()
        if self.on_refused is not None:
            self.on_refused(why)

    def _store_lost(self) -> None:
        """Nothing can be saved any more, so no change can be accepted: every room refuses
        (``server.store``) and ``/healthz`` fails. ``tertulia serve`` then stops with an error
        for its supervisor to start it again — everything acknowledged is in the log."""
        log.critical("the store's writer process died; this server can no longer save anything")
        self.say_restarting()
        if self.on_store_lost is not None:
            self.on_store_lost()


def create_app(
    config: Config,
    games: dict[str, ModuleType] | None = None,
    on_store_lost: Callable[[], None] | None = None,
    on_refused: Callable[[str], None] | None = None,
) -> Starlette:
    state = Tertulia(config, GAMES if games is None else games, on_store_lost, on_refused)
    client_files = {name: game_client_files(game) for name, game in state.games.items()}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await state.start()
        try:
            yield
        finally:
            await state.stop()

    async def page(request: Request) -> Response:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    async def qr(request: Request) -> Response:
        code = normalize_code(request.path_params["code"])
        if code is None:
            return JSONResponse({"error": "room.unknown"}, status_code=404)
        # /r/CODE/qr.svg joins the room; /tv/CODE/qr.svg opens its shared screen.
        page = "tv" if request.url.path.startswith("/tv/") else "r"
        svg = room_qr_svg(_public_base(request, config), code, page)
        return Response(svg, media_type="image/svg+xml")

    async def games_info(request: Request) -> Response:
        return JSONResponse(
            [
                {
                    "name": name,
                    "min_players": game.MIN_PLAYERS,
                    "max_players": game.MAX_PLAYERS,
                    "bots": has_bots(name),  # the host may seat computer players
                    "settings_schema": settings_schema(game.Settings),
                    "defaults": msgspec.to_builtins(game.Settings()),
                    "static": game.static_data() if hasattr(game, "static_data") else {},
                    "quick_play": quick_play(game),
                    "client": client_files[name],
                }
                for name, game in state.games.items()
            ]
        )

    async def rooms_info(request: Request) -> Response:
        recent = await state.rooms.recent_matches()
        rooms = msgspec.to_builtins(state.rooms.public_rooms())
        return JSONResponse({"rooms": rooms, "recent": recent})

    async def room_info(request: Request) -> Response:
        """Whether a room code is live, and its game (the code is what lets anyone in, so it
        says no more than joining would); a page opened on a dead link says so at once. Codes
        that are not live count against the same per-address limit as ``join_room``'s."""
        key = request.scope.get(LIMIT_KEY, "")
        if not state.guard.may_look_up_codes(key):
            refusal = codes_run_out()
            return JSONResponse(
                {"error": refusal.code, "message": refusal.message}, status_code=429
            )
        code = normalize_code(request.path_params["code"])
        try:
            room = await state.rooms.find(code) if code is not None else None
        except RuleError as error:
            return JSONResponse({"error": error.code, "message": error.message}, status_code=503)
        if room is None:
            state.guard.code_missed(key)
            return JSONResponse(
                {"error": "room.unknown", "message": "There is no room with that code."},
                status_code=404,
            )
        return JSONResponse({"code": room.code, "game": room.game.NAME if room.game else None})

    async def health(request: Request) -> Response:
        trouble = state.healthy
        return JSONResponse(
            {
                "status": trouble or "ok",
                "version": VERSION,
                "rooms": len(state.manager.rooms),
                "connections": len(state.sessions),
            },
            status_code=503 if trouble else 200,
        )

    async def version(request: Request) -> Response:
        return JSONResponse({"name": "tertulia", "version": VERSION})

    async def metrics(request: Request) -> Response:
        refusal = _metrics_refusal(request, config)
        if refusal is not None:
            return refusal
        return Response(state.metrics.render(), media_type="text/plain; version=0.0.4")

    async def websocket(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and origin not in state.origins:
            state.metrics.refused.labels("origin").inc()
            await websocket.close(code=1008)
            return
        await websocket.accept()
        # The handshake's headers are done with (the origin is checked, the gate has read the
        # client's address) and a connection lasts hours: a browser's headers (user agent,
        # languages, cookies) are a KiB or two per player kept for nothing. Starlette caches
        # a Headers object over the same list, so that goes too.
        websocket.scope["headers"] = []
        websocket.__dict__.pop("_headers", None)
        line: Line = websocket.scope.get(LINE) or Line(None)
        outlet = Outlet(
            websocket.send_text,
            lambda code: websocket.close(code=code),
            abort=line.abort,
            write_now=line.write_now(),
        )
        session = Session(
            state.rooms,
            state.identity,
            state.metrics,
            config.max_frame_bytes,
            outlet,
            state.guard,
            address=websocket.scope.get(LIMIT_KEY, ""),
        )
        state.sessions.add(session)
        state.metrics.connections.inc()

        def stop_if_flooding() -> bool:
            if session.flooding:
                _close_flooder(session, line, websocket.scope.get(CLIENT, ""))
            return session.flooding

        frames = Frames.by_call(line.direct(), session.take_frame, stop_if_flooding)
        try:
            if frames is not None:
                # Each message now comes by a call (server/frames.py); the ASGI receive only
                # tells when the connection has ended.
                while (await websocket.receive())["type"] != "websocket.disconnect":
                    pass
                await frames.finish()
            else:  # another ASGI server: each message through ASGI, in the same order
                while True:
                    message = await websocket.receive()
                    if message["type"] == "websocket.disconnect":
                        break
                    frame = message.get("text") or message.get("bytes") or b""
                    waiting = session.take_frame(frame)
                    if waiting is not None:
                        await waiting
                    if stop_if_flooding():
                        break
        except WebSocketDisconnect:
            pass
        finally:
            if outlet.cut_off:
                state.metrics.cut.labels("stopped_reading").inc()
            if frames is not None:
                frames.stop()
            session.closed()
            state.sessions.discard(session)
            state.metrics.connections.dec()

    def _close_flooder(session: Session, line: Line, address: str) -> None:
        """Close a connection that went on sending past its limit (1008, policy), read nothing
        more from it, and keep its address out for a while; see ``Guard.flooded``."""
        penalty = state.guard.flooded(session.address)
        state.metrics.cut.labels("flooding").inc()
        log.warning(
            "closed a flooding connection",
            extra={"fields": {"client": address, "player": session.player, "out_for": penalty}},
        )
        session.outlet.close(POLICY_VIOLATION)
        # After the close: sending it makes uvicorn read again (for the client's answer).
        line.stop_reading()

    routes = [
        Route("/", page),
        Route("/r/{code}", page),
        Route("/r/{code}/qr.svg", qr),
        Route("/tv/{code}", page),  # the room's shared screen (js/tv.js), same page shell
        Route("/tv/{code}/qr.svg", qr),
        Route("/api/games", games_info),
        Route("/api/rooms", rooms_info),
        Route("/api/rooms/{code}", room_info),
        *match_routes(state, WEB / "index.html"),  # /m/{id} and /api/matches/{id}
        Route("/healthz", health),
        Route("/version", version),
        Route("/metrics", metrics),  # /ws: straight from the gate, below
        # Each game's browser side, from its own folder (games/<name>/web/): before /static.
        *(
            Mount(f"/static/games/{name}", StaticFiles(directory=game_web(game), check_dir=False))
            for name, game in state.games.items()
        ),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    gate = Middleware(
        Gate,
        guard=state.guard,
        trusted_proxies=config.trusted_proxies,
        on_refused=lambda reason: state.metrics.refused.labels(reason).inc(),
        websockets=("/ws", lambda scope, receive, send: websocket(WebSocket(scope, receive, send))),
    )
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[gate])
    app.state.tertulia = state
    return app


async def _bounded(what: str, step: Awaitable[object], seconds: float) -> None:
    try:
        await asyncio.wait_for(step, seconds)
    except TimeoutError:
        log.error("gave up %s after %s s", what, seconds)
    except Exception:
        log.exception("failed %s", what)


def _cluster_rooms(config: Config, manager: RoomManager) -> ClusterRooms:
    """Cluster mode's room directory (imported only then: one process needs no Redis)."""
    from ..cluster.connect import client as redis_client
    from ..cluster.node import ClusterRooms

    assert config.redis_url is not None  # (cluster mode is a Redis URL given)
    client = redis_client(config.redis_url, config.redis_password)
    cluster = ClusterRooms(
        manager,
        client,
        namespace=config.redis_namespace,
        lease_seconds=config.lease_seconds,
        follow_players=config.rooms_follow_players,
    )
    manager.create_owned = cluster.create_owned
    return cluster


def quick_play(game: ModuleType) -> dict[str, Any]:
    """What "Play now with computer players" seats and sets (``QUICK_PLAY``, games/__init__.py):
    the game's own choice, else one bot fewer than its minimum (at least one) and its
    defaults."""
    default = {"bots": max(1, game.MIN_PLAYERS - 1), "settings": {}}
    return {**default, **getattr(game, "QUICK_PLAY", {})}


def game_web(game: ModuleType) -> Path:
    """A game's browser side: the ``web/`` folder of its package, served at
    ``/static/games/<name>/`` (js/games/index.js says what goes in it)."""
    return Path(game.__file__ or "").parent / "web"


def game_client_files(game: ModuleType) -> dict[str, bool]:
    """Which of a game's browser files exist, at the paths every game's follow (its screen,
    its stylesheet, its translations, its rules card): the page asks for none that is
    missing, and a game without a screen gets the generic one."""
    web = game_web(game)
    return {
        "screen": (web / "screen.js").is_file(),
        "stylesheet": (web / "style.css").is_file(),
        "strings": (web / "i18n" / "en.json").is_file(),
        # its "how to play" card (js/howto.js): i18n/howto.<lang>.json
        "howto": (web / "i18n" / "howto.en.json").is_file(),
    }


def room_qr_svg(base: str, code: str, page: str = "r") -> bytes:
    """The room link (``page`` "r"; "tv": its shared screen) as a QR code: a whole SVG
    document (with its namespace, or a browser will not show it as an image), dark on white
    so it scans on the dark theme too."""
    out = io.BytesIO()
    segno.make(f"{base}/{page}/{code}", error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False
    )
    return out.getvalue()


def _public_base(request: Request, config: Config) -> str:
    """How players reach us: the configured public URL, else the address this request came
    to (a server listening on 0.0.0.0 for a LAN party is reached at its LAN address)."""
    return config.public_url.rstrip("/") if config.public_url else str(request.base_url).rstrip("/")


def _metrics_refusal(request: Request, config: Config) -> Response | None:
    """Metrics say how busy the server is and which errors clients hit: with a token, only a
    scraper that has it may read them; without one, only a client on this machine (behind a
    reverse proxy on this machine, set a token or --trusted-proxies, or every request looks
    local)."""
    if config.metrics_token:
        given = request.headers.get("authorization", "")
        if hmac.compare_digest(given.encode(), f"Bearer {config.metrics_token}".encode()):
            return None
        return JSONResponse(
            {"error": "metrics.token", "message": "Metrics need the bearer token."},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    if is_loopback(request.scope.get(CLIENT, "")):
        return None
    return JSONResponse(
        {"error": "metrics.local_only", "message": "Metrics are served to this machine only."},
        status_code=403,
    )
