"""Prometheus metrics for one app (its own registry, so tests can run several apps)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self, count_rooms: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("tertulia_rooms", "Live rooms", registry=self.registry)
        self.rooms.set_function(count_rooms)
        self.connections = Gauge(
            "tertulia_connections", "Open WebSocket connections", registry=self.registry
        )
        self.messages = Counter(
            "tertulia_messages_total",
            "Client messages handled, by type",
            ["type"],
            registry=self.registry,
        )
        self.errors = Counter(
            "tertulia_errors_total",
            "Client messages refused, by code",
            ["code"],
            registry=self.registry,
        )
        self.refused = Counter(
            "tertulia_connections_refused_total",
            "WebSocket handshakes refused before any work, by reason",
            ["reason"],
            registry=self.registry,
        )
        self.cut = Counter(
            "tertulia_connections_cut_total",
            "WebSocket connections the server closed on a client, by reason",
            ["reason"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tertulia_action_seconds",
            "From a room message's arrival to every seat's update being queued",
            ["type"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        # A message type's series, remembered: ``labels`` takes a lock and builds a key on
        # every call, and these two are called for every message.
        self._latency_of: dict[str, Any] = {}
        self._messages_of: dict[str, Any] = {}
        self._errors_of: dict[str, Any] = {}

    def observe(self, kind: str, seconds: float, error: str | None) -> None:
        """Called by rooms after each message (the rooms layer knows nothing of Prometheus)."""
        _series(self._latency_of, self.latency, kind).observe(seconds)
        if error is not None:
            self.count_error(error)

    def count_message(self, kind: str) -> None:
        _series(self._messages_of, self.messages, kind).inc()

    def count_error(self, code: str) -> None:
        _series(self._errors_of, self.errors, code).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _series(known: dict[str, Any], metric: Counter | Histogram, label: str) -> Any:
    series = known.get(label)
    if series is None:
        series = known[label] = metric.labels(label)
    return series
