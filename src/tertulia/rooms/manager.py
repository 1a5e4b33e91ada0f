"""All live rooms: creating them with a fresh code, finding them, listing the public ones,
closing idle ones, and bringing every room back after a restart."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import msgspec

from ..bots.base import DecisionRunner
from ..games.base import RuleError
from ..protocol import PublicRoom
from ..store import FinishedMatch, LiveRoom, RoomExists, Store
from .codes import new_code
from .config import RoomConfig
from .match_page import match_page
from .replay import replay_room
from .room import Room
from .room_data import RoomModel, new_room
from .timers import LoopTimers, Timers
from .views import listed_in_order, summary

log = logging.getLogger("tertulia.rooms")

# Match pages kept built (a link shared in a chat is opened many times): the latest, up to
# this many bytes in all (a Pintó match's drawings make its page the largest, about 1 MB).
PAGES_KEPT_BYTES = 16 * 1024 * 1024


@contextlib.contextmanager
def _collections_paused() -> Iterator[None]:
    """No cyclic garbage collection while the rooms are rebuilt, one after: the rebuild makes
    hundreds of thousands of objects that all live on, so each collection during it scans
    them again and frees nothing (a quarter of a 1,000-room restart's time,
    benchmarks/README.md, "Restart"). Nothing else runs then: the server does not listen
    yet. (``gc.freeze`` would skip the last collection too, but a room's objects are freed by
    the collector when it closes, and frozen ones never would be.)"""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        # Once now, before the server listens: otherwise the first collection, soon after,
        # would scan all of it as the players come back (0.3 s for 1,000 rooms).
        gc.collect()


@dataclass(frozen=True)
class ManagerConfig:
    idle_seconds: float = 30 * 60  # a room nobody is connected to closes after this
    housekeeping_seconds: float = 30.0
    # Finished matches and closed rooms are removed this long after they ended (--keep-days);
    # None keeps them for ever.
    keep_seconds: float | None = None
    room: RoomConfig = field(default_factory=RoomConfig)


class RoomManager:
    def __init__(
        self,
        store: Store,
        games: dict[str, ModuleType],
        config: ManagerConfig = ManagerConfig(),
        clock: Callable[[], float] = time.time,
        bot_runner: DecisionRunner | None = None,
        timers: Timers | None = None,
    ) -> None:
        self.store = store
        self.games = games
        # Every room's computer players decide in this one runner's worker process, started
        # on the first decision (a server whose rooms have no bots never starts it).
        self.bot_runner = bot_runner or DecisionRunner()
        self._owns_runner = bot_runner is None
        self.config = config
        # Every room's clocks' time, and ``clock``: the event loop's and ``clock``, unless
        # ``timers`` (tests move time by hand: ``timers.HandTimers``).
        self.timers = timers if timers is not None else LoopTimers(clock)
        self.clock = self.timers.now
        self.rooms: dict[str, Room] = {}
        # Who opened each live room (opaque keys the caller gives: an address, a player), so
        # the caller can cap how many one of them holds. Rooms restored after a restart count
        # for nobody.
        self._opened_by: dict[str, set[str]] = {}
        self._opener_keys: dict[str, tuple[str, ...]] = {}
        self._pending = itertools.count()
        self._housekeeping: asyncio.Task | None = None
        # Cluster mode (``cluster/node.py``): a new room is created in the shared log by the
        # node, under its lease's fence (False: another node holds the code), and a room
        # whose append the log refused under a newer owner's fence is let go.
        self.create_owned: Callable[[str, str, bool], Awaitable[bool]] | None = None
        self.on_lost: Callable[[str], None] | None = None
        # The latest match pages built, by id (see ``match_page``).
        self._pages: collections.OrderedDict[str, tuple[bytes, bool]] = collections.OrderedDict()

    async def start(self, restore: bool = True) -> int:
        """Rebuild every live room from its log, resume its clocks (with the restart grace for
        a deadline the downtime ate); returns how many. In a cluster (``restore=False``) a
        node restores nothing at start: a room is taken over when someone comes for it."""
        with _collections_paused():
            await self._restore_all(await self.store.load_live_rooms() if restore else [])
        self._housekeeping = asyncio.get_running_loop().create_task(self._keep_house())
        log.info("restored %d rooms", len(self.rooms))
        return len(self.rooms)

    async def _restore_all(self, lives: list[LiveRoom]) -> None:
        for live in lives:
            if live.room.game not in self.games:
                log.error(
                    "room %s plays unknown game %s; left closed", live.room.code, live.room.game
                )
                continue
            try:  # from its snapshot, if it has one this code wrote (see replay.py)
                model, seq, snapshot_seq = await replay_room(self.store, live, self.games)
            except Exception:  # one unreadable room must not keep every other one down
                log.exception("room %s could not be restored; left as it is", live.room.code)
                continue
            if model is None:
                continue
            self.open_restored(model, seq, snapshot_seq)

    async def create(self, game: str, public: bool, opened_by: tuple[str, ...] = ()) -> Room:
        """A new room with a fresh code, counted for each of ``opened_by`` while it lives."""
        if game not in self.games:
            raise RuleError("room.unknown_game", "There is no such game.", game=game)
        # Counted before the first wait, so two requests at once cannot both pass a cap that
        # has room for one; given back if no room comes of it.
        pending = f"+{next(self._pending)}"  # not a room code (those have no "+")
        self._count_opener(pending, opened_by)
        try:
            for _ in range(20):
                code = new_code()
                if code in self.rooms:
                    continue
                try:
                    if self.create_owned is None:
                        await self.store.create_room(
                            code, game, public=public, created_at=self.clock()
                        )
                    elif not await self.create_owned(code, game, public):
                        continue  # another node's room
                except RoomExists:
                    continue
                model = new_room(code, public, game, self.games)
                model.last_activity = self.clock()
                self._forget_opener(pending)
                self._count_opener(code, opened_by)
                return self._open(self._room(model, 0))
        finally:
            self._forget_opener(pending)
        raise RuleError("server.error", "Could not find a free room code; try again.")

    def rooms_opened_by(self, key: str) -> int:
        """How many live rooms ``key`` (one of ``create``'s ``opened_by``) opened."""
        return len(self._opened_by.get(key, ()))

    def _count_opener(self, code: str, keys: tuple[str, ...]) -> None:
        self._opener_keys[code] = keys
        for key in keys:
            self._opened_by.setdefault(key, set()).add(code)

    def _forget_opener(self, code: str) -> None:
        for key in self._opener_keys.pop(code, ()):
            codes = self._opened_by.get(key)
            if codes is not None:
                codes.discard(code)
                if not codes:
                    del self._opened_by[key]

    def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        return room if room is not None and not room.closed else None

    async def find(self, code: str) -> Room | None:
        """The live room with ``code`` (in a cluster, wherever it is owned: see
        ``cluster.node.ClusterRooms.find``)."""
        return self.get(code)

    def open_restored(self, model: RoomModel, seq: int, snapshot_seq: int = 0) -> Room:
        """Open a room rebuilt from its log (after a restart, or taken over in a cluster);
        ``snapshot_seq``: the seq of the snapshot it started from (0: none)."""
        room = self._room(model, seq)
        room.commits.snapshot_seq = snapshot_seq
        return self._open(room, restored=True)

    async def let_go(self, room: Room) -> None:
        """Stop a room without closing it: its log stays live for whoever owns it next."""
        await room.stop(moving=True)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self._forget_opener(room.code)

    def _room(self, model: RoomModel, seq: int) -> Room:
        return Room(
            model,
            self.store,
            seq,
            self.config.room,
            self.clock,
            on_fenced=self._fenced,
            bot_runner=self.bot_runner,
            timers=self.timers,
        )

    def _fenced(self, code: str) -> None:
        if self.on_lost is not None:
            self.on_lost(code)

    def seated_rooms(self, player: str) -> dict[str, float]:
        """The open rooms of this process where ``player`` has a seat: code → last activity."""
        return {
            room.code: room.model.last_activity
            for room in self.rooms.values()
            if not room.closed and any(s.player == player for s in room.model.seats)
        }

    async def seated_room(self, player: str) -> str | None:
        """The code of the open room where ``player`` has a seat and was last active (in a
        cluster, on whichever node: see ``cluster.node.ClusterRooms.seated_room``)."""
        seated = self.seated_rooms(player)
        return max(seated, key=seated.__getitem__, default=None)

    def public_rooms(self) -> list[PublicRoom]:
        """Open public rooms someone is connected to (an abandoned one has nobody to play
        with), those waiting for players first."""
        return listed_in_order(
            summary(room.model, len({p.player for p in room.peers}))
            for room in self.rooms.values()
            if room.model.public and room.peers and not room.closed
        )

    async def recent_matches(self, limit: int = 10) -> list[dict[str, Any]]:
        """The latest finished matches of public rooms, as the home page lists them (each
        with its page's ``id``)."""
        matches = await self.store.recent_matches(limit, public_only=True)
        return [_listed(m) for m in matches]

    async def matches_of(
        self, player: str, limit: int = 20, before: float | None = None
    ) -> list[dict[str, Any]]:
        """The finished matches ``player`` played, newest first, as "Your matches" lists them:
        public and private alike (only their own player may ask), with their result."""
        matches = await self.store.matches_of(player, limit, before=before)
        listed = []
        for match in matches:
            line = _listed(match)
            line.pop("room")  # a private room's code is for those still in it
            mine = next((p for p in match.players if p.get("id") == player), {})
            line["you"] = {k: mine.get(k) for k in ("place", "score", "winner")}
            listed.append(line)
        return listed

    async def match_page(self, public_id: str) -> tuple[bytes, bool] | None:
        """The page of the finished match ``public_id`` as JSON, and whether it is public;
        None if no kept match has that id. Built from its kept records in a thread (folding a
        whole match is work the event loop should not wait for), and kept for the next
        readers (the latest pages, ``PAGES_KEPT_BYTES`` in all): a kept match never changes."""
        cached = self._pages.get(public_id)
        if cached is not None:
            self._pages.move_to_end(public_id)
            return cached
        kept = await self.store.load_match(public_id)
        if kept is None:
            return None
        page = await asyncio.to_thread(lambda: msgspec.json.encode(match_page(kept, self.games)))
        built = (page, bool(kept.match.extra.get("public")))
        self._pages[public_id] = built
        while sum(len(page) for page, _ in self._pages.values()) > PAGES_KEPT_BYTES:
            self._pages.popitem(last=False)
        return built

    async def close_idle(self) -> list[str]:
        """Close rooms nobody has been connected to for ``idle_seconds``."""
        now = self.clock()

        # Idle means nobody connected for that long: a room's own clock keeps writing records
        # (a Pitacor match skipping turns forever), so records are no sign of life.
        def still_idle(room: Room) -> bool:
            return (
                room.idle
                and room.empty_since is not None
                and now - room.empty_since > self.config.idle_seconds
            )

        closed = []
        for room in [room for room in self.rooms.values() if still_idle(room)]:
            # Asked again right before closing it: while earlier rooms were being closed,
            # someone may have come into this one.
            if still_idle(room):
                await self.close(room, "idle")
                closed.append(room.code)
        return closed

    async def close(self, room: Room, reason: str) -> None:
        await room.stop(closing=True)
        self.rooms.pop(room.code, None)
        self._forget_opener(room.code)
        await self.store.close_room(room.code, reason, at=self.clock())
        log.info("room %s closed (%s)", room.code, reason)

    async def shutdown(self) -> None:
        if self._housekeeping is not None:
            self._housekeeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._housekeeping
        # All at once: a room waits for its save under way (``Room.stop``), up to a bound, and
        # a store in trouble must not make a thousand rooms wait one after the other.
        stops = await asyncio.gather(
            *(room.stop() for room in list(self.rooms.values())), return_exceptions=True
        )
        for error in stops:
            if isinstance(error, BaseException):
                log.error("a room failed to stop cleanly: %r", error)
        # Every room's state as it stops, so the restart folds no record (a crash folds at
        # most replay.SNAPSHOT_EVERY a room); all at once, so the writer groups them.
        rooms = list(self.rooms.values())
        await asyncio.gather(*(room.commits.save_snapshot() for room in rooms))
        if self._owns_runner:  # in a thread: it waits for the worker to end
            await asyncio.get_running_loop().run_in_executor(None, self.bot_runner.close)

    def _open(self, room: Room, restored: bool = False) -> Room:
        self.rooms[room.code] = room
        room.start(restored=restored)
        return room

    async def remove_expired(self, batch: int = 500) -> int:
        """Retention: remove what ended longer than ``keep_seconds`` ago (finished matches,
        closed rooms), ``batch`` rows per write, so the rooms' saves queued meanwhile go
        between two of them instead of waiting for the whole clean-up. How many rows went."""
        if self.config.keep_seconds is None:
            return 0
        before = self.clock() - self.config.keep_seconds
        total = 0
        while removed := await self.store.remove_older_than(before, limit=batch):
            total += removed
        if total:
            log.info("removed %d rows that ended before the retention time", total)
        return total

    async def _keep_house(self) -> None:
        while True:
            await asyncio.sleep(self.config.housekeeping_seconds)
            try:
                await self.close_idle()
                await self.remove_expired()
            except Exception:
                log.exception("housekeeping failed")


def _listed(match: FinishedMatch) -> dict[str, Any]:
    """A finished match as the lists give it: the store's fields, its page's id as ``id``."""
    line = msgspec.to_builtins(match)
    line["id"] = line.pop("public_id")
    return line
