"""One live room: a single asyncio task that owns the room and does one thing at a time.

Each message from a connection, each clock that runs out and each drop after its grace period
goes through the bounded inbox. For each, in this order: build a record, fold it into the
model (a refusal stops here and changes nothing), append it to the store, and only when the
store says it is durable, answer the sender and push each connection its own view. A failed
append rebuilds the room from the store, so memory never runs ahead of the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from ..games.base import Event, RuleError
from ..protocol import (
    Ack,
    Chat,
    ChatLine,
    Check,
    ClientMessage,
    Error,
    Notice,
    RoomUpdate,
    ServerMessage,
)
from ..store import FinishedMatch, LogEntry, Store
from .commands import record_for
from .limits import TokenBucket
from .model import (
    Chatted,
    GameMove,
    HostPassed,
    Joined,
    Kicked,
    Left,
    MatchStarted,
    Presence,
    Record,
    RoomModel,
    Seated,
    Status,
    check_move,
    check_new,
    fold,
    record_encoder,
)
from .views import game_blobs, game_part, game_view, game_views, lobby_view, views_kept

log = logging.getLogger("tertulia.room")

INBOX_SIZE = 256
# A resume into a room without your seat: worded for "no such room" as well, which gets the
# same answer (a stranger must not tell the two apart; see server/session.py).
NO_SEAT = "You have no seat in a room with that code."
RESUME_TAB_ALLOWANCE = 4  # see _refusal_for
CLOCK_RETRY_MAX = 30.0  # seconds between tries to save a timeout while the store fails
_BUILD_VIEW = object()  # _update_for builds the seat's view itself unless it is given one


class Peer(Protocol):
    """A connection as a room sees it; the server implements it."""

    player: str
    chat_bucket: TokenBucket

    def send(self, message: ServerMessage) -> None:
        """Queue a message for this connection; never blocks."""
        ...


@dataclass(frozen=True)
class RoomConfig:
    drop_grace_seconds: float = 5.0  # a closed connection counts as a drop after this
    # A host away this long after their drop (so ~35 s gone) hands hosting to someone here:
    # long enough for a phone to come back from a locked screen or a server restart, short
    # enough that a lobby is not stuck with nobody able to start.
    host_grace_seconds: float = 30.0
    # After a restart, a match's deadline that passed while the server was down, or falls
    # sooner than this, moves to this long from now: the drop grace plus time for phones to
    # reconnect, since nobody could act while it was down. 0: clocks resume as they were.
    restart_grace_seconds: float = 20.0
    # Every connection in a room gets every push: without caps, one browser opening the room
    # in a hundred tabs would multiply the room's work a hundredfold.
    max_tabs_per_player: int = 4
    max_connections: int = 64
    # Told of every message handled: its type, seconds from arrival until every seat's
    # update was queued, and the refusal code if it was refused (metrics live elsewhere).
    observe: Callable[[str, float, str | None], None] | None = None


@dataclass(frozen=True)
class _FromPeer:
    peer: Peer
    message: ClientMessage
    received: float


@dataclass(frozen=True)
class _Attach:
    peer: Peer
    nickname: str
    msg_id: int
    done: asyncio.Future
    resume: bool = False  # only back into a seat the player still has


@dataclass(frozen=True)
class _Detach:
    peer: Peer


@dataclass(frozen=True)
class _LastViews:
    """Each player's encoded view as the change numbered ``seq`` left them."""

    seq: int
    model: RoomModel
    views: dict[str, msgspec.Raw | None]


@dataclass(frozen=True)
class _Pushes:
    """A change's pushes, built before it is saved: a chat line, or the shared parts of a
    room update and each player's encoded view."""

    line: ChatLine | None = None
    shared: tuple[msgspec.Raw, msgspec.Raw] | None = None
    views: dict[str, msgspec.Raw | None] = field(default_factory=dict)


@dataclass
class _Change:
    """A change folded into memory whose save is under way (or could not start)."""

    record: Record
    answer: tuple[Peer, int] | None
    was: Status
    saving: Awaitable[None] | None = None
    pushes: _Pushes | None = None
    # Memory may be ahead of the log: rebuild, then raise this (the bug, or "not saved").
    unsaved: Exception | None = None
    told: bool = False  # durable, counted and pushed to everyone


@dataclass(frozen=True)
class _Started:
    """A client's change started at once (see ``Room.submit``), for the room task to finish."""

    item: _FromPeer
    change: _Change


@dataclass(frozen=True)
class _ClockRanOut:
    deadline: float


@dataclass(frozen=True)
class _RestartGrace:
    """A restored room's deadline is due within the restart grace: move it first."""


@dataclass(frozen=True)
class _GraceOver:
    player: str


@dataclass(frozen=True)
class _HostAway:
    host: str  # the host grace of this host ran out


@dataclass(frozen=True)
class _FollowUp:
    """A record the room itself decided on after a change (a spectator takes a free seat)."""

    record: Record


def _not_saved() -> RuleError:
    return RuleError("server.store", "Your move could not be saved; try again.")


class Room:
    """The single writer of one room."""

    def __init__(
        self,
        model: RoomModel,
        store: Store,
        seq: int,
        config: RoomConfig = RoomConfig(),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.model = model
        self.store = store
        self.seq = seq
        # Pushes carry the room's version; it must only grow, also across a restart (browsers
        # ignore an older version), so it continues from the log's length.
        self.version = seq
        self.config = config
        self.clock = clock
        self.peers: set[Peer] = set()
        # The blob keys each connection already has (see RoomUpdate.blobs): the room's, as a
        # connection may be in two rooms for a moment while it moves from one to the other.
        self._sent_blobs: dict[Peer, set[str]] = {}
        self.closed = False
        # When the last connection left (for idle closing); a restored room starts empty.
        self.empty_since: float | None = clock()
        # Memory may be ahead of the log (a failed save whose rebuild failed too): refuse all.
        self.broken = False
        # Unbounded so the room's own events (clocks, graces, detaches) are never lost; clients'
        # messages are refused past INBOX_SIZE instead (see _put).
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._timer: asyncio.TimerHandle | None = None
        self._graces: dict[str, asyncio.TimerHandle] = {}
        self._task: asyncio.Task | None = None
        self._working = False  # the task is handling an item (the room is not idle)
        self._current: Any = None  # that item (a _Started once a message's save began)
        self._clock_failures = 0  # timeouts in a row the store could not save
        self._grace_owed = False  # restored with a deadline to move before its clock may fire
        self._host_timer: asyncio.TimerHandle | None = None
        self._last_views: _LastViews | None = None

    @property
    def code(self) -> str:
        return self.model.code

    # ------------------------------------------------------------------ life

    def start(self, restored: bool = False) -> None:
        """Start the writer task; after a restart, give everyone their grace and resume clocks
        (``restored``: a deadline the downtime ate, or nearly, first gets the restart grace)."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.code}")
        for seat in self.model.seats:
            if seat.online:
                self._start_grace(seat.player)
        deadline = self._deadline()
        grace = self.config.restart_grace_seconds
        if restored and grace > 0 and deadline is not None and deadline < self.clock() + grace:
            # First in the inbox, so it is the first thing this room commits; the clock is
            # scheduled once the new deadline is saved (_give_restart_grace).
            self._grace_owed = True
            self._inbox.put_nowait(_RestartGrace())
        else:
            self._schedule_clock()
        self._watch_host()
        _warm_up(self.model.game, self.model.settings)

    @property
    def idle(self) -> bool:
        """Nobody connected and nothing to do: closing it now would cut nobody off."""
        return not self.peers and not self._working and self._inbox.empty()

    async def stop(self, closing: bool = False) -> None:
        """Stop the room's task and clocks. Every message still waiting is answered (the room
        has closed); with ``closing``, whoever is still connected is told so too — a server
        shutting down (not ``closing``) keeps the room in the log for its restart."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._host_timer is not None:
            self._host_timer.cancel()
        for handle in self._graces.values():
            handle.cancel()
        current = self._current  # taken before the task's cancellation clears it
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        waiting = [current] if current is not None else []
        while not self._inbox.empty():
            waiting.append(self._inbox.get_nowait())
        for item in waiting:  # nobody may wait forever on a closed room
            _refuse_closed(item)
        if closing:
            for peer in list(self.peers):
                peer.send(Notice("room.closed", "The room was closed."))
            self.peers.clear()
            self._sent_blobs.clear()

    # ------------------------------------------------------------------ the inbox

    def submit(self, peer: Peer, message: ClientMessage) -> None:
        """Handle a message from ``peer``: at once if the room has nothing else to do,
        otherwise behind what is queued (a full inbox answers "busy" at once)."""
        # Older work first: tell every room whose save the writer has already confirmed
        # before starting something new (under load, those answers otherwise wait until the
        # loop has handled every frame it read this turn).
        self.store.settle_answered()
        item = _FromPeer(peer, message, time.perf_counter())
        if self._task is None or self._working or not self._inbox.empty() or self.closed:
            self._put(item, peer, message.id)
            return
        # Idle: check, fold and start saving now, rather than a turn of the event loop later
        # (under load that turn waited behind every other room's work); the room's task
        # finishes it — waits for the disk, then tells everyone — like any other item.
        started = self._start(item)
        if started is not None:
            self._inbox.put_nowait(started)

    async def attach(self, peer: Peer, nickname: str, msg_id: int, resume: bool = False) -> None:
        """Seat ``peer`` (join, or resume the seat its player has; with ``resume``, only the
        latter). Raises ``RuleError``."""
        done = asyncio.get_running_loop().create_future()
        self._put(_Attach(peer, nickname, msg_id, done, resume), peer, msg_id)
        await done

    def detach(self, peer: Peer) -> None:
        """The connection left the room (closed, or went to another room): not a leave.

        Out of the room at once, so nothing more is pushed to it from here; the grace before
        it counts as a drop is the room task's business."""
        self.peers.discard(peer)
        self._sent_blobs.pop(peer, None)
        if not self.peers:
            self.empty_since = self.clock()
        self._put(_Detach(peer), None, None)

    def _put(self, item: Any, peer: Peer | None, msg_id: int | None) -> None:
        from_client = isinstance(item, (_FromPeer, _Attach))
        if self.closed and from_client:
            refusal = RuleError("room.unknown", "This room has closed.")
        elif from_client and self._inbox.qsize() >= INBOX_SIZE:
            refusal = RuleError("room.busy", "The room is busy; try again.")
        else:
            self._inbox.put_nowait(item)
            return
        if isinstance(item, _Attach):
            item.done.set_exception(refusal)
        elif peer is not None:
            peer.send(Error(msg_id, refusal.code, refusal.message))

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            self._working, self._current = True, item
            try:
                await self._handle(item)
            except Exception:  # our bug: log it, answer plainly, keep the room alive
                log.exception("room %s failed on %s", self.code, type(item).__name__)
                if isinstance(item, _Started):
                    item = item.item
                if isinstance(item, _FromPeer):
                    item.peer.send(Error(item.message.id, "server.error", "Something went wrong."))
                elif isinstance(item, _Attach) and not item.done.done():
                    item.done.set_exception(RuleError("server.error", "Something went wrong."))
            finally:
                self._working, self._current = False, None

    async def _handle(self, item: Any) -> None:
        if isinstance(item, _Started):
            await self._finish_started(item)
        elif isinstance(item, _FromPeer):
            started = self._start(item)
            if started is not None:
                self._current = started  # its answer now depends on the save
                await self._finish_started(started)
        elif isinstance(item, _Attach):
            await self._attach(item)
        elif isinstance(item, _Detach):
            if not any(p.player == item.peer.player for p in self.peers):
                self._start_grace(item.peer.player)
        elif isinstance(item, _ClockRanOut):
            if self.model.match is not None and self._deadline() == item.deadline:
                at = max(self.clock(), item.deadline)
                try:
                    await self._commit(GameMove(at=at, seat=None, action={"type": "timeout"}))
                    self._clock_failures = 0
                except Exception:
                    self._clock_failures += 1
                    raise
                finally:  # a failed save must not stop the clock for good
                    self._schedule_clock()
        elif isinstance(item, _RestartGrace):
            await self._give_restart_grace()
        elif isinstance(item, _HostAway):
            self._host_timer = None
            await self._pass_hosting(item.host)
        elif isinstance(item, _FollowUp):
            with contextlib.suppress(RuleError):  # things changed meanwhile: no longer needed
                await self._commit(msgspec.structs.replace(item.record, at=self.clock()))
        elif isinstance(item, _GraceOver):
            self._graces.pop(item.player, None)
            seat = self.model.seat(item.player)
            if seat is not None and seat.online and not self._connected(item.player):
                try:
                    await self._commit(Presence(at=self.clock(), player=item.player, online=False))
                except Exception:
                    self._start_grace(item.player)  # try again after another grace
                    raise

    # ------------------------------------------------------------------ messages

    async def _attach(self, item: _Attach) -> None:
        peer = item.peer
        if self.broken:  # what memory holds was never saved: show it to nobody
            item.done.set_exception(RuleError("server.store", "This room can't be opened now."))
            return
        if item.resume and self.model.seat(peer.player) is None:
            item.done.set_exception(RuleError("room.no_seat", NO_SEAT, code=self.code))
            return
        if peer not in self.peers:
            refusal = self._refusal_for(peer, item.resume)
            if refusal is not None:
                item.done.set_exception(refusal)
                return
            self._sent_blobs[peer] = set()  # a new stay: it has none of this room's blobs
        # In the room before the change is told, so everyone's push counts the newcomer online.
        self.peers.add(peer)
        self.empty_since = None
        try:
            seat = self.model.seat(peer.player)
            if seat is None:
                await self._commit(
                    Joined(at=self.clock(), player=peer.player, nickname=item.nickname)
                )
            elif not seat.online:
                await self._commit(Presence(at=self.clock(), player=peer.player, online=True))
        except BaseException as error:  # not seated: not in the room either
            self.peers.discard(peer)
            self._sent_blobs.pop(peer, None)
            if not self.peers:
                self.empty_since = self.clock()
            if not isinstance(error, RuleError):
                raise  # our bug or a cancellation; _run or stop answers it
            item.done.set_exception(error)
            return
        self._cancel_grace(peer.player)
        # The picture first, then the ack: when a request resolves, its result is on screen.
        peer.send(self._update_for(peer, with_chat=True))
        peer.send(Ack(item.msg_id, {"room": self.code}))
        item.done.set_result(None)

    def _refusal_for(self, peer: Peer, resume: bool = False) -> RuleError | None:
        """Why a new connection may not come in (the room's caps), or None. A tab coming back
        by itself (``resume``) may go past the tab cap a little: its own old connections may
        not be known dead yet (a phone whose network came and went a few times leaves sockets
        the server only gives up on at the next ping timeout)."""
        tabs = sum(1 for p in self.peers if p.player == peer.player)
        if tabs >= self.config.max_tabs_per_player + (RESUME_TAB_ALLOWANCE if resume else 0):
            return RuleError(
                "room.too_many_tabs",
                "This room is already open in too many of your tabs; close one first.",
                max=self.config.max_tabs_per_player,
            )
        if len(self.peers) >= self.config.max_connections:
            return RuleError(
                "room.crowded",
                "This room has as many connections as it can take; try again later.",
                max=self.config.max_connections,
            )
        return None

    def _start(self, item: _FromPeer) -> _Started | None:
        """Everything about a client's message that needs no waiting: a refusal or a check
        is answered here (None); a change is folded and its save started."""
        peer, message = item.peer, item.message
        try:
            if isinstance(message, Check):
                check_move(self.model, peer.player, message.action, self.clock())
                peer.send(Ack(message.id))
                self._observe(item, None)
                return None
            if isinstance(message, Chat) and not peer.chat_bucket.take():
                raise RuleError("chat.too_fast", "Slow down a little.")
            record = record_for(message, peer.player, self.clock())
            return _Started(item, self._begin(record, answer=(peer, message.id)))
        except RuleError as error:
            peer.send(Error(message.id, error.code, error.message, error.params))
            self._observe(item, error.code)
            return None

    async def _finish_started(self, started: _Started) -> None:
        peer, message = started.item.peer, started.item.message
        refused: str | None = None
        try:
            await self._finish(started.change)
        except RuleError as error:
            refused = error.code
            peer.send(Error(message.id, error.code, error.message, error.params))
        self._observe(started.item, refused)

    def _observe(self, item: _FromPeer, refused: str | None) -> None:
        if self.config.observe is not None:
            kind = type(item.message).__struct_config__.tag
            self.config.observe(str(kind), time.perf_counter() - item.received, refused)

    async def _commit(self, record: Record, answer: tuple[Peer, int] | None = None) -> None:
        """Fold, persist, then tell: the one path every change takes."""
        await self._finish(self._begin(record, answer))

    def _begin(self, record: Record, answer: tuple[Peer, int] | None) -> _Change:
        """Fold the record and start saving it; build the pushes while the disk writes (the
        fsync is most of an action's wait). Nobody is told anything here. Raises
        ``RuleError`` for a refusal, which changed nothing."""
        if self.broken:
            raise RuleError("server.store", "This room can't save anything right now.")
        was = self.model.status
        check_new(self.model, record)  # live only: replay trusts what was saved
        try:
            events = fold(self.model, record)  # a RuleError here changed nothing
        except RuleError:
            raise
        except Exception as bug:  # our bug, maybe half-applied: back to what the log says
            log.exception("room %s: fold failed; rebuilding from the store", self.code)
            return _Change(record, answer, was, unsaved=bug)
        entry = LogEntry(self.seq + 1, record.at, record_encoder.encode(record))
        change = _Change(record, answer, was)
        try:
            change.saving = self.store.start_append(
                self.code, entry, on_durable=lambda error: self._durable(change, error)
            )
        except Exception:
            log.exception("room %s: append failed; rebuilding from the store", self.code)
            return _Change(record, answer, was, unsaved=_not_saved())
        try:
            change.pushes = self._prepare(record, events)
        except Exception:  # our bug; the change stands all the same (see _tell)
            log.exception(
                "room %s: building the pushes failed; trying each seat once saved", self.code
            )
        return change

    async def _finish(self, change: _Change) -> None:
        """Wait until the change is durable, then tell everyone; or rebuild if it is not."""
        if change.unsaved is not None:
            await self._rebuild()
            raise change.unsaved
        assert change.saving is not None
        try:
            await change.saving
        except Exception:
            log.exception("room %s: append failed; rebuilding from the store", self.code)
            await self._rebuild()
            raise _not_saved() from None
        if not change.told:  # the store did not call back (it need not)
            self._tell(change)

    def _durable(self, change: _Change, error: BaseException | None) -> None:
        """Called by the store the moment the change is durable, before this task could wake
        (under load that wake-up waited behind every other room's work): tell everyone now.
        A failure is left to ``_finish``, which rebuilds."""
        if error is None and not change.told and not self.closed:
            self._tell(change)

    def _tell(self, change: _Change) -> None:
        """The change is durable: count it, push it to everyone, answer the sender.

        It stands whatever happens here, so the sender always gets its ``ack`` — an error
        would say "nothing was changed" (docs/protocol.md), and a player who believed it
        would do it again. A bug while telling is logged; a seat whose push could not be
        built ahead gets one built now, on its own, so one seat's trouble spares the rest."""
        change.told = True
        self.seq += 1
        self.version += 1
        self._clock_failures = 0  # the store saves again: clocks keep their own time
        record = change.record
        try:
            if isinstance(record, MatchStarted):
                for sent in self._sent_blobs.values():  # a new match may reuse the last's keys
                    sent.clear()
            if change.pushes is not None:
                self._broadcast(record, change.pushes)
            else:
                self._broadcast_one_by_one(record)
        except Exception:
            log.exception("room %s: telling change %d failed; it is saved", self.code, self.seq)
        if change.answer is not None:
            change.answer[0].send(Ack(change.answer[1]))
        try:
            self._after_change(record, change.was)
        except Exception:
            log.exception("room %s: after change %d", self.code, self.seq)

    def _broadcast_one_by_one(self, record: Record) -> None:
        """Everyone's update built now, each on its own: the pushes built ahead failed."""
        for peer in list(self.peers):
            try:
                if isinstance(record, Chatted):
                    peer.send(ChatLine(self.model.chat[-1]))
                else:
                    peer.send(self._update_for(peer))
            except Exception:
                log.exception("room %s: no update for %s", self.code, peer.player)
        if isinstance(record, (Left, Kicked)):
            self._part(record)

    def _prepare(self, record: Record, events: list[Event]) -> _Pushes:
        """What each connection will be told of this change, encoded as far as it can be
        before the change is saved (the version and new blobs are added when it is)."""
        if isinstance(record, Chatted):
            return _Pushes(line=ChatLine(self.model.chat[-1]))
        wire_events = [{"kind": e.kind, **e.data} for e in events]
        players = list(dict.fromkeys(p.player for p in self.peers))
        kept = self._views_kept(record)
        views = game_views(self.model, [p for p in players if p not in kept])
        encoded: dict[int, msgspec.Raw] = {}  # seats that see the same view share its bytes
        for view in views.values():
            if view is not None and id(view) not in encoded:
                encoded[id(view)] = msgspec.Raw(record_encoder.encode(view))
        by_player = {p: encoded[id(v)] if v is not None else None for p, v in views.items()}
        by_player.update((p, kept[p]) for p in players if p in kept)
        self._last_views = _LastViews(self.seq + 1, self.model, by_player)
        return _Pushes(shared=self._shared(wire_events), views=by_player)

    def _views_kept(self, record: Record) -> dict[str, msgspec.Raw | None]:
        """The encoded views of the change just before this one that this one leaves as they
        were (see ``views_kept``); only if that change was told (its seq is the room's) and
        the room was not rebuilt since."""
        last = self._last_views
        if (
            last is None
            or last.seq != self.seq
            or last.model is not self.model
            or not isinstance(record, GameMove)
            or record.seat is None
        ):
            return {}
        return views_kept(self.model, record.seat, record.action, last.views)

    def _broadcast(self, record: Record, pushes: _Pushes) -> None:
        if pushes.line is not None:
            for peer in self.peers:
                peer.send(pushes.line)
            return
        # Connections can only have left since _prepare (joining goes through the inbox).
        for peer in list(self.peers):
            peer.send(self._update_for(peer, pushes.shared, view=pushes.views[peer.player]))
        if isinstance(record, (Left, Kicked)):
            self._part(record)

    def _part(self, record: Left | Kicked) -> None:
        """The player who left (or was removed) gets no more pushes from this room."""
        for peer in [p for p in self.peers if p.player == record.player]:
            self.peers.discard(peer)
            self._sent_blobs.pop(peer, None)
            if isinstance(record, Kicked):
                peer.send(Notice("room.kicked", "The host removed you from the room."))
        if not self.peers and self.empty_since is None:
            self.empty_since = self.clock()  # the last one here left: the idle time starts

    def _after_change(self, record: Record, was: Status) -> None:
        self._schedule_clock()
        self._watch_host()
        self._seat_spectators()
        _warm_up(self.model.game, self.model.settings)
        if was is Status.PLAYING and self.model.status is Status.ENDED:
            # Taken now: a rematch may clear the match before the task runs.
            outcome = self.model.game.outcome(self.model.match)
            task = asyncio.get_running_loop().create_task(
                self._keep_finished_match(outcome, record.at)
            )
            _background.add(task)
            task.add_done_callback(_background.discard)

    async def _keep_finished_match(self, outcome: Any, at: float) -> None:
        players = [
            {
                "id": p.seat,
                "name": p.nickname,
                "score": p.score,
                "place": p.place,
                "winner": p.winner,
                "colour": self._colour_of(p.seat),
            }
            for p in outcome.ranking
        ]
        match = FinishedMatch(
            room=self.code,
            game=self.model.game.NAME,
            ended_at=at,
            players=players,
            # Only public rooms' matches are shown to everyone (a private room's code and
            # players are for those who were there).
            extra={"reason": outcome.reason, "public": self.model.public},
        )
        try:
            await self.store.record_finished_match(match)
        except Exception:
            log.exception("room %s: could not keep the finished match", self.code)

    def _shared(self, events: list[dict]) -> tuple[msgspec.Raw, msgspec.Raw]:
        """What every seat's push has in common, encoded once: the room and the events."""
        room = lobby_view(self.model) | {"online": self._online_players()}
        return msgspec.Raw(record_encoder.encode(room)), msgspec.Raw(record_encoder.encode(events))

    def _update_for(
        self,
        peer: Peer,
        shared: tuple[msgspec.Raw, msgspec.Raw] | None = None,
        with_chat: bool = False,
        view: Any = _BUILD_VIEW,  # a dict, its encoded bytes (msgspec.Raw) or None
    ) -> RoomUpdate:
        room, events = shared if shared is not None else self._shared([])
        return RoomUpdate(
            version=self.version,
            room=room,
            view=game_view(self.model, peer.player) if view is _BUILD_VIEW else view,
            events=events,
            chat=list(self.model.chat) if with_chat else None,
            blobs=self._new_blobs(peer),
        )

    def _new_blobs(self, peer: Peer) -> dict[str, Any] | None:
        """The game's blobs this seat may see and this connection does not have yet."""
        if game_part(self.model.game, "blobs") is None:
            return None
        sent = self._sent_blobs.setdefault(peer, set())
        fresh = game_blobs(self.model, peer.player, sent)
        sent.update(fresh)
        return fresh or None

    def _colour_of(self, player: str) -> int | None:
        """The seat colour ``player`` has or had in this room (the home page's recent matches
        draw them as the room did)."""
        seat = self.model.seat(player)
        return seat.colour if seat is not None else self.model.former_colours.get(player)

    def _online_players(self) -> list[str]:
        return sorted({p.player for p in self.peers})

    async def _rebuild(self) -> None:
        """Memory back to exactly what the log holds; if that fails, refuse every change
        rather than go on from a state nobody saved."""
        from .replay import rebuild  # late import: replay imports this module's neighbours

        try:
            model, seq = await rebuild(self.store, self.code, self.model.games)
        except Exception:
            log.exception("room %s: rebuild failed; the room refuses changes", self.code)
            model = None
        if model is None:
            self.broken = True
            return
        self.model, self.seq, self.broken = model, seq, False

    # ------------------------------------------------------------------ clocks and graces

    def _deadline(self) -> float | None:
        if self.model.match is None or self.model.status is not Status.PLAYING:
            return None
        return self.model.game.deadline(self.model.match)

    def _schedule_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self._deadline()
        if deadline is None or self.closed:
            return
        item: Any = _ClockRanOut(deadline)
        delay = max(0.0, deadline - self.clock())
        if self._grace_owed:  # not saved yet: try the grace again, never the stale deadline
            item, delay = _RestartGrace(), 0.0
        if self._clock_failures:  # the store is failing: try again, but not in a busy loop
            delay = max(delay, min(CLOCK_RETRY_MAX, 0.1 * 2**self._clock_failures))
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay, self._put, item, None, None)

    async def _give_restart_grace(self) -> None:
        """After a restore, a deadline that passed while the server was down, or falls within
        the restart grace, moves to now + the grace: nobody could act while it was down. A
        logged ``extend`` move, so replay needs no clock; if it cannot be saved, it is tried
        again with the clock's growing pauses, and the old deadline never fires meanwhile."""
        if not self._grace_owed:
            return  # already given (a retry that was queued twice)
        now = self.clock()
        until = now + self.config.restart_grace_seconds
        deadline = self._deadline()
        self._grace_owed = False
        try:
            if deadline is not None and deadline < until:  # (a move since may have reset it)
                move = GameMove(at=now, seat=None, action={"type": "extend", "until": until})
                await self._commit(move)
        except Exception:
            self._grace_owed = True
            self._clock_failures += 1
            raise
        finally:
            self._schedule_clock()

    def _start_grace(self, player: str) -> None:
        self._cancel_grace(player)
        loop = asyncio.get_running_loop()
        self._graces[player] = loop.call_later(
            self.config.drop_grace_seconds, self._put, _GraceOver(player), None, None
        )

    def _cancel_grace(self, player: str) -> None:
        handle = self._graces.pop(player, None)
        if handle is not None:
            handle.cancel()

    def _connected(self, player: str) -> bool:
        return any(p.player == player for p in self.peers)

    # ------------------------------------------------------------------ hosting and seats

    def _watch_host(self) -> None:
        """Start the host grace when the host counts as away (their drop grace over), stop it
        when they are back; see ``_pass_hosting``."""
        host = self.model.seat(self.model.host)
        if host is None or host.online:
            if self._host_timer is not None:
                self._host_timer.cancel()
                self._host_timer = None
            return
        if self._host_timer is None and not self.closed:
            self._host_timer = asyncio.get_running_loop().call_later(
                self.config.host_grace_seconds, self._put, _HostAway(host.player), None, None
            )

    async def _pass_hosting(self, host: str) -> None:
        """The host has been away for the whole host grace: hosting passes to the first one in
        seat order who is connected (a player; during a match, only a player), so the lobby
        is not stuck with nobody able to start, kick or change a setting. It does not come
        back on their return. With nobody here, it waits: the next change watches again."""
        seat = self.model.seat(host)
        if self.model.host != host or seat is None or seat.online or self._connected(host):
            return
        here = [s for s in self.model.seats if s.player != host and self._connected(s.player)]
        players = [s for s in here if not s.spectator]
        if not players and self.model.status is not Status.PLAYING:
            players = here
        if players:
            with contextlib.suppress(RuleError):  # the match ended meanwhile, for one
                await self._commit(HostPassed(at=self.clock(), host=players[0].player))

    def _seat_spectators(self) -> None:
        """In the lobby, a spectator takes a seat as soon as one is free (a player left, or the
        host chose a game for more): the one who waited longest, one record at a time."""
        if self.model.status is not Status.LOBBY:
            return
        if len(self.model.players()) >= self.model.game.MAX_PLAYERS:
            return
        waiting = next((s for s in self.model.seats if s.spectator), None)
        if waiting is not None:
            self._put(_FollowUp(Seated(at=self.clock(), player=waiting.player)), None, None)


_warmed: set[tuple[str, str]] = set()
_background: set[asyncio.Task] = set()  # tasks that must not be garbage-collected mid-way


def _warm_up(game: Any, settings: Any) -> None:
    """Some games load large data lazily (Pintó's dictionaries take seconds): load what these
    settings need in a thread as soon as a room picks them, not during somebody's move."""
    warm = getattr(game, "warm_up", None)
    key = (game.NAME, repr(settings))
    if warm is None or key in _warmed:
        return
    _warmed.add(key)
    asyncio.get_running_loop().run_in_executor(None, warm, settings)


def _refuse_closed(item: Any) -> None:
    """Answer an item the room took in but will never handle: it has closed."""
    refusal = RuleError("room.unknown", "This room has closed.")
    if isinstance(item, _Attach):
        if not item.done.done():
            item.done.set_exception(refusal)
        return
    if isinstance(item, _Started):
        if item.change.told:  # saved and answered before the room closed
            return
        item = item.item
    if isinstance(item, _FromPeer):
        item.peer.send(Error(item.message.id, refusal.code, refusal.message))
