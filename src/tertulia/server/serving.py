"""uvicorn's options for a Tertulia app, in one place for ``tertulia serve``, the tests and the
benchmarks (so what is measured and tested is what runs)."""

from __future__ import annotations

from typing import Any

import uvicorn

from .config import Config
from .http import BoundedHttpToolsProtocol
from .websocket import TertuliaWebSocket


def uvicorn_config(app: Any, config: Config, **overrides: Any) -> uvicorn.Config:
    options: dict[str, Any] = {
        "host": config.host,
        "port": config.port,
        "log_config": None,
        "access_log": False,
        # Frames past the room's limit are refused with a message; past this one they are not
        # even read (1009).
        "ws_max_size": max(config.max_frame_bytes * 16, 1 << 20),
        "lifespan": "on",
        # uvicorn would believe X-Forwarded-For from 127.0.0.1 by default, so any local
        # process could pick its own address; our gate believes it only from the proxies
        # the operator names (--trusted-proxies).
        "proxy_headers": False,
        # Lighter per connection than uvicorn's default, with a small deflate state (why:
        # websocket.py).
        "ws": TertuliaWebSocket,
        # A request's head is bounded as it is read (431 past it; why: http.py).
        "http": BoundedHttpToolsProtocol,
    }
    options.update(overrides)
    return uvicorn.Config(app, **options)
