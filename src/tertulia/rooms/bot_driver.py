"""Plays a room's computer players: after each change, every seat a bot plays (a bot's own,
or a dropped player's the host handed over) is given its seat's view — the very view that
seat's browser is sent, built by the same function — and the bot's answer goes through the
room as a person's message would (``Room.submit``): same checks, same clocks, same log.

- **Off the loop.** A decision runs in the ``DecisionRunner``'s worker process; the room's
  task never waits for it, so a room with bots blocks neither itself nor any other room.
- **Like a person.** The bot acts after a short delay (``RoomConfig.bot_delay``, counted
  from when it started looking, so thinking time is part of it); a second move right after
  its own (confirm after select) comes sooner.
- **Never on a stale view.** Before it sends, the bot's seat's view is built again: if it
  changed meanwhile (another marker landed, a clock ran out), the decision is dropped and
  the bot looks again. A refused move (a hidden marker on that cell: ``marker.cell_taken``)
  is asked again with a new seed, up to ``MAX_REFUSALS`` in a row.
- **For people.** Bots play only while someone is connected to the room; a room nobody
  watches waits (its clocks still run), and the next person to come in wakes them.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

from ..bots.base import DecisionRunner, Level
from ..protocol import Ack, Act, ClientMessage, Error, ServerMessage
from .room_data import RoomModel, Status
from .views import game_view

if TYPE_CHECKING:
    from .seams import Peer


class BotsRoom(Protocol):
    """What of the live room (``room.Room``) its computer players use."""

    @property
    def code(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    @property
    def model(self) -> RoomModel: ...

    @property
    def game(self) -> Any: ...

    @property
    def peers(self) -> Collection[Peer]: ...

    def submit(self, peer: Peer, message: ClientMessage) -> None: ...


log = logging.getLogger("tertulia.bots")

MAX_REFUSALS = 20  # refused moves in a row before a bot gives up on a view (a bug)
MAX_NO_OPS = 3  # accepted moves in a row that changed nothing its seat sees (a bug)
MAX_FAILURES = 3  # decisions in a row that raised (the worker died…) before it gives up
FAILURE_PAUSE = 1.0  # seconds between those tries
SOON = (0.4, 0.8)  # a second move right after its own: this share of the delay's low end


class BotPeer:
    """A bot's seat as the room sees a connection: its player, and a way to be answered.
    It is never added to the room's connections, so it is sent no push: the bot reads its
    seat's view from the room, as the push would carry it."""

    def __init__(self, player: str) -> None:
        self.player = player
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[ServerMessage]] = {}

    def send(self, message: ServerMessage) -> None:
        if isinstance(message, (Ack, Error)) and message.re is not None:
            future = self._waiting.pop(message.re, None)
            if future is not None and not future.done():
                future.set_result(message)

    def expect(self) -> tuple[int, asyncio.Future[ServerMessage]]:
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[msg_id] = future
        return msg_id, future


class BotDriver:
    """The bots of one room."""

    def __init__(
        self, room: BotsRoom, runner: DecisionRunner, delay: tuple[float, float] = (0.8, 2.5)
    ) -> None:
        self._room = room
        self._runner = runner
        self._delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._peers: dict[str, BotPeer] = {}
        self._rng = random.Random(secrets.randbits(64))

    def poke(self) -> None:
        """Something changed (or someone came in): every seat a bot plays gets looked at."""
        room = self._room
        model = room.model
        if room.closed or not room.peers or model.status is not Status.PLAYING:
            return
        for seat in model.seats:
            if seat.played_by_bot is None or seat.spectator or seat.player in self._tasks:
                continue
            task = asyncio.get_running_loop().create_task(
                self._play(seat.player), name=f"bot-{model.code}-{seat.player}"
            )
            self._tasks[seat.player] = task
            task.add_done_callback(functools.partial(self._ended, seat.player))

    def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        self._tasks.clear()

    @property
    def playing(self) -> list[str]:
        """The seats whose bot is looking or about to move (for tests and metrics)."""
        return sorted(self._tasks)

    # ------------------------------------------------------------------ one seat

    def _ended(self, player: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(player) is task:
            del self._tasks[player]
        if not task.cancelled() and task.exception() is not None:
            log.error("room %s: bot %s failed", self._room.code, player, exc_info=task.exception())

    def _level(self, player: str) -> Level | None:
        """The level of the bot playing ``player``'s seat now, or None (nobody's bot: a
        person took it back, the bot was removed, no match runs, nobody is watching)."""
        room = self._room
        seat = room.model.seat(player)
        if room.closed or not room.peers or room.model.status is not Status.PLAYING:
            return None
        if seat is None or seat.spectator or seat.played_by_bot is None:
            return None
        return Level(seat.played_by_bot)

    def _view(self, player: str) -> dict[str, Any] | None:
        """Exactly what this seat's browser is sent as its game view."""
        return game_view(self._room.model, player)

    async def _play(self, player: str) -> None:
        """Look, decide off the loop, wait like a person, send; until there is nothing to do."""
        loop = asyncio.get_running_loop()
        refusals = failures = no_ops = 0
        soon = False  # the bot's own move was just accepted: the next one comes sooner
        while (level := self._level(player)) is not None:
            view = self._view(player)
            if view is None:
                return
            seat = self._room.model.seat(player)
            assert seat is not None
            started = loop.time()
            try:
                action = await self._runner.decide(
                    self._room.game.NAME,
                    view,
                    language=seat.bot_language,
                    level=level,
                    seed=self._rng.getrandbits(63),
                )
            except Exception:
                failures += 1
                log.exception("room %s: bot %s could not decide", self._room.code, player)
                if failures >= MAX_FAILURES:
                    return  # the next change tries again
                await asyncio.sleep(FAILURE_PAUSE)
                continue
            failures = 0
            if action is None:
                if self._level(player) is None or self._view(player) == view:
                    return  # nothing to do until the next change pokes us
                continue
            await asyncio.sleep(max(0.0, self._draw_delay(soon) - (loop.time() - started)))
            if self._level(player) is None or self._view(player) != view:
                soon = True  # the view moved on: look again, without the whole wait
                continue
            error = await self._send(player, action)
            if error is None:
                refusals, soon = 0, True
                # A move that changes nothing its seat sees would be chosen again for ever.
                no_ops = no_ops + 1 if self._view(player) == view else 0
                if no_ops >= MAX_NO_OPS:
                    log.error("room %s: bot %s's moves change nothing", self._room.code, player)
                    return
                continue
            refusals, soon = refusals + 1, True
            if error.code != "marker.cell_taken":
                log.warning(
                    "room %s: bot %s's %s was refused: %s",
                    self._room.code,
                    player,
                    action.get("type"),
                    error.code,
                )
            if refusals >= MAX_REFUSALS:
                log.error("room %s: bot %s refused %d times", self._room.code, player, refusals)
                return

    def _draw_delay(self, soon: bool) -> float:
        low, high = self._delay
        if soon:
            return self._rng.uniform(low * SOON[0], low * SOON[1])
        return self._rng.uniform(low, high)

    async def _send(self, player: str, action: dict[str, Any]) -> Error | None:
        """Through the room, as a person's ``act`` goes; the refusal, or None if accepted."""
        peer = self._peers.setdefault(player, BotPeer(player))
        msg_id, answer = peer.expect()
        self._room.submit(peer, Act(id=msg_id, action=action))
        reply = await answer
        return reply if isinstance(reply, Error) else None
