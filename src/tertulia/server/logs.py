"""Structured logs: one JSON object per line, easy to grep and to ship."""

from __future__ import annotations

import json
import logging
import time


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            entry.update(extra)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure(
    json_lines: bool = True, level: int | str = logging.INFO, access_log: bool = False
) -> None:
    """Every log line to stderr, where journald and ``docker logs`` look: JSON objects, or
    (``--plain-logs``) text. ``level``: a logging level or its name (``"info"``);
    ``access_log``: uvicorn's line per request, whatever the level (asked for, so shown)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter(PLAIN))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper() if isinstance(level, str) else level)
    # uvicorn's own loggers pass their lines to ours (one format for every line).
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.INFO if access_log else logging.NOTSET)
