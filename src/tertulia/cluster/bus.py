"""Messages between nodes, over Redis pub/sub: each node listens on its own channel.

Order matters (a seat's patches apply one on top of the other, and an ``Attached`` must come
after the picture it answers), so everything a node sends goes through one queue and one
pipeline at a time on one connection: Redis delivers a publisher's messages to a channel in
the order it published them. Pushes for one node made in the same turn of the event loop
travel as one message (``Pushes``): an action in a room of ten relayed seats is one publish,
not ten.

Pub/sub forgets what nobody hears: a publish that reaches nobody means the node is gone
(its connection to Redis closed when it died), which ``on_unreachable`` is told; a node
that is there but misses a message (a blip of its own connection to Redis) has clients whose
next patch does not fit their version, and they ask for the whole picture again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from . import wire
from .keys import Keys

log = logging.getLogger("tertulia.cluster")


class Bus:
    """This node's end of the messages between nodes."""

    def __init__(
        self,
        redis: Any,
        node: str,
        namespace: str,
        on_message: Callable[[wire.ToNode], None],
        on_unreachable: Callable[[str, list[Any]], None] = lambda node, unheard: None,
        on_heard: Callable[[wire.Frame], None] = lambda frame: None,
    ) -> None:
        self.redis = redis
        self.node = node
        self.keys = Keys(namespace)
        self.on_message = on_message
        self.on_unreachable = on_unreachable
        self.on_heard = on_heard  # a frame's publish reached its node, or may have
        self.healthy = False  # subscribed and reading
        self._out: list[tuple[str, Any]] = []  # (node, message or a list of pushes), in order
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._pubsub: Any = None

    @property
    def started(self) -> bool:
        return bool(self._tasks)

    async def start(self) -> None:
        """Subscribe to this node's channel (raises if Redis cannot be reached)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.keys.channel(self.node))
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        self._pubsub = pubsub
        self.healthy = True
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._write())]

    async def stop(self) -> None:
        """Send what is queued, then stop listening."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flushed(), timeout=2)
        for task in self._tasks:
            task.cancel()
        # Bounded: a node that is stopping must stop, whatever state Redis's sockets are in.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), 2)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), 2)
        self.healthy = False

    # ------------------------------------------------------------------ sending

    def send(self, node: str, message: wire.ToNode) -> None:
        """Queue a message for ``node``; never blocks."""
        self._out.append((node, message))
        self._wake.set()

    def push(self, node: str, conn: str, data: bytes, answers: int | None = None) -> None:
        """Queue an encoded server message for connection ``conn`` of ``node`` (``answers``:
        the id of the request it answers, if it is an ``ack`` or an ``error``)."""
        if self._out and self._out[-1][0] == node and isinstance(self._out[-1][1], list):
            self._out[-1][1].append((conn, data, answers))
        else:
            self._out.append((node, [(conn, data, answers)]))
        self._wake.set()

    async def flushed(self) -> None:
        """Wait until everything queued so far has been published."""
        while self._out or self._wake.is_set():
            await asyncio.sleep(0.005)

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            batch, self._out = self._out, []
            self._wake.clear()
            if not batch:
                continue
            pipe = self.redis.pipeline(transaction=False)
            for node, message in batch:
                if isinstance(message, list):
                    message = wire.Pushes(message, self.node)
                pipe.publish(self.keys.channel(node), wire.encode(message))
            try:
                heard = await pipe.execute()
            except Exception:
                # Lost (the heartbeat notices an outage and says so): an attach waiting for its
                # answer times out, and a client whose patch went missing asks for the picture.
                # A frame may have been published before the error: it counts as heard (it
                # must never be sent to another owner as if nobody had applied it).
                log.exception("could not send %d messages to other nodes", len(batch))
                for _, message in batch:
                    if isinstance(message, wire.Frame):
                        self.on_heard(message)
                continue
            unheard: dict[str, list[Any]] = {}
            for (node, message), listeners in zip(batch, heard, strict=True):
                if not listeners:
                    unheard.setdefault(node, []).append(message)
                elif isinstance(message, wire.Frame):
                    self.on_heard(message)
            for node, messages in unheard.items():
                self.on_unreachable(node, messages)

    # ------------------------------------------------------------------ receiving

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.healthy = False
                log.warning("lost the subscription to other nodes; trying again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(self.keys.channel(self.node))
                    self.healthy = True
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                decoded = wire.decode(message["data"])
            except Exception:
                log.exception("a message from another node could not be read")
                continue
            try:
                self.on_message(decoded)
            except Exception:
                log.exception("failed on %s from another node", type(decoded).__name__)
