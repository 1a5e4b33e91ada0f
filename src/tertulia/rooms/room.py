"""One live room: a single asyncio task that owns the room and does one thing at a time.

The room is put together from parts with one job each:

- ``inbox.py``: the queue every message, clock and grace goes through, and the task that
  takes them one at a time (refusals are answered there and in ``inbox.refuse``);
- ``commit.py``: the path every change takes — check, fold, durable append, tell;
- ``fanout.py``: who is connected, and the pushes each connection gets;
- ``clocks.py``: the game's deadline, the drop graces, the host's absence, the vote running;
- ``hosting.py``: who hosts when the host stays away, which spectator takes a free seat;
- ``votes.py``: votes to remove a player (this module closes them, and keeps a removed
  player's addresses out for a while).

This module says what each item means: who may come in, what a clock running out does, what
follows a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, KeysView
from typing import Any

import msgspec

from ..bots.base import DecisionRunner
from ..games.base import RuleError
from ..protocol import (
    Ack,
    Act,
    Check,
    ClientMessage,
    Notice,
    React,
    Reaction,
    Sync,
)
from ..store import Store
from .bot_driver import BotDriver, BotPeer
from .clocks import Clocks
from .commands import record_for
from .commit import Commits
from .config import RoomConfig
from .fanout import FanOut
from .hosting import away_host, next_host, spectator_to_seat
from .inbox import (
    Attach,
    ClockRanOut,
    Detach,
    FollowUp,
    FromPeer,
    GraceOver,
    HostAway,
    Inbox,
    RestartGrace,
    Started,
    VoteDue,
    refuse,
)
from .live_votes import LiveVotes
from .model import check_move
from .reactions import check_reaction
from .records import GameMove, HostPassed, Joined, Presence, Record, Seated
from .refusals import not_in_room, room_moved
from .room_data import RoomModel, Status
from .seams import Peer
from .timers import LoopTimers, Timers
from .views import finished_match, match_log

log = logging.getLogger("tertulia.room")

RESUME_TAB_ALLOWANCE = 4  # see _refusal_for
# How long a stopping room waits for the save under way to say how it went (``stop``).
SETTLE_SECONDS = 2.0
# A resume into a room without your seat: worded for "no such room" as well, which gets the
# same answer (a stranger must not tell the two apart; see server/session.py).
NO_SEAT = "You have no seat in a room with that code."


class Room:
    """The single writer of one room."""

    def __init__(
        self,
        model: RoomModel,
        store: Store,
        seq: int,
        config: RoomConfig = RoomConfig(),
        clock: Callable[[], float] = time.time,
        on_fenced: Callable[[str], None] | None = None,
        bot_runner: DecisionRunner | None = None,
        timers: Timers | None = None,
    ) -> None:
        self.store = store
        self.config = config
        # Its clocks' time and ``clock``: the event loop's and ``clock``, unless ``timers``.
        self.timers = timers if timers is not None else LoopTimers(clock)
        self.clock = clock = self.timers.now
        self.closed = False
        self.stopped = False  # stop() is over: nothing of it is still under way
        # When the last connection left (for idle closing); a restored room starts empty.
        self.empty_since: float | None = clock()
        self.fanout = FanOut(lambda: self.code)
        self.commits = Commits(
            model,
            store,
            seq,
            self.fanout,
            self._after_change,
            lambda: self.closed,
            on_fenced=(lambda: on_fenced(self.code)) if on_fenced is not None else None,
        )
        self.inbox = Inbox(f"room-{model.code}")
        self.clocks = Clocks(
            self.inbox.put, self.timers, config.drop_grace_seconds, config.host_grace_seconds
        )
        # Computer players' seats (none play without a runner: rooms in tests of other parts).
        self.bots = BotDriver(self, bot_runner, config.bot_delay) if bot_runner else None
        self.votes = LiveVotes(self)

    # The room's state, as the commit path keeps it.
    @property
    def model(self) -> RoomModel:
        return self.commits.model

    @property
    def seq(self) -> int:
        return self.commits.seq

    @property
    def version(self) -> int:
        return self.commits.version

    @property
    def broken(self) -> bool:
        return self.commits.broken

    @property
    def code(self) -> str:
        return self.model.code

    @property
    def peers(self) -> KeysView[Peer]:
        return self.fanout.peers

    @property
    def game(self) -> Any:
        """The game module being played (or chosen) here."""
        return self.model.game

    def has_seat(self, player: str) -> bool:
        return self.model.seat(player) is not None

    # ------------------------------------------------------------------ life

    def start(self, restored: bool = False) -> None:
        """Start the writer task; after a restart, give everyone their grace and resume clocks
        (``restored``: a deadline the downtime ate, or nearly, first gets the restart grace)."""
        self.inbox.start(self._handle)
        for seat in self.model.seats:
            if seat.online and seat.bot is None:  # a bot has no connection to come back
                self.clocks.start_grace(seat.player)
        deadline = self._deadline()
        grace = self.config.restart_grace_seconds
        if restored and grace > 0 and deadline is not None and deadline < self.clock() + grace:
            # First in the inbox, so it is the first thing this room commits; the clock is
            # scheduled once the new deadline is saved (_give_restart_grace).
            self.clocks.grace_owed = True
            self.inbox.put(RestartGrace())
        else:
            self._schedule_clock()
        self._watch_host()
        self.votes.watch()
        _warm_up(self.model.game, self.model.settings)
        self._poke_bots()

    @property
    def idle(self) -> bool:
        """Nobody connected and nothing to do: closing it now would cut nobody off."""
        return not self.peers and not self.inbox.busy

    async def stop(self, closing: bool = False, moving: bool = False) -> None:
        """Stop the room's task and clocks. Every message still waiting is answered (the room
        has closed; with ``moving``, it moved to another node: try again); with ``closing``,
        whoever is still connected is told so too — a server shutting down (not ``closing``)
        keeps the room in the log for its restart, or for the room's next owner."""
        self.closed = True
        refusal = room_moved() if moving else None
        self.inbox.stop_taking(refusal)
        # A change whose save is under way is told first (its sender hears the truth): the
        # room's task may not start another meanwhile (``stop_taking``).
        await self.commits.settle(SETTLE_SECONDS)
        self.clocks.stop()  # after: telling that change may have set a clock
        if self.bots is not None:
            self.bots.stop()
        await self.inbox.close(refusal)
        self.stopped = True
        if closing:
            self.fanout.tell_everyone(Notice("room.closed", "The room was closed."))

    # ------------------------------------------------------------------ what comes in

    def submit(self, peer: Peer, message: ClientMessage) -> None:
        """Handle a message from ``peer``: at once if the room has nothing else to do,
        otherwise behind what is queued (a full inbox answers "busy" at once)."""
        # Older work first: tell every room whose save the writer has already confirmed
        # before starting something new (under load, those answers otherwise wait until the
        # loop has handled every frame it read this turn).
        self.store.settle_answered()
        item = FromPeer(peer, message, time.perf_counter())
        if not self.inbox.running or self.inbox.busy or self.closed:
            self.inbox.offer(item)
            return
        # Idle: check, fold and start saving now, rather than a turn of the event loop later
        # (under load that turn waited behind every other room's work); the room's task
        # finishes it — waits for the disk, then tells everyone — like any other item.
        started = self._start(item)
        if started is not None:
            self.inbox.put(started)

    async def attach(
        self,
        peer: Peer,
        nickname: str,
        msg_id: int | None,
        resume: bool = False,
        screen: bool = False,
        played: tuple[str, ...] = (),
    ) -> None:
        """Seat ``peer`` (join, or resume the seat its player has; with ``resume``, only the
        latter). Raises ``RuleError``. ``msg_id``: the request to acknowledge once seated
        (None: the server's own doing, such as following a room to another node — nothing
        the client asked, so nothing to answer). With ``screen``, ``peer`` is a shared
        screen (a TV): it takes no seat and sees what a spectator sees; its ``player`` is a
        name of its own that no seat has, so no seat's view can ever reach it."""
        done = asyncio.get_running_loop().create_future()
        self.inbox.offer(Attach(peer, nickname, msg_id, done, resume, screen, tuple(played)))
        await done

    def detach(self, peer: Peer) -> None:
        """The connection left the room (closed, or went to another room): not a leave.

        Out of the room at once, so nothing more is pushed to it from here; the grace before
        it counts as a drop is the room task's business."""
        self.fanout.remove(peer)
        if not self.peers:
            self.empty_since = self.clock()
        self.inbox.put(Detach(peer))

    # ------------------------------------------------------------------ one item at a time

    async def _handle(self, item: Any) -> None:
        if isinstance(item, Started):
            await self._finish_started(item)
        elif isinstance(item, FromPeer):
            started = self._start(item)
            if started is not None:
                self.inbox.current = started  # its answer now depends on the save
                await self._finish_started(started)
        elif isinstance(item, Attach):
            await self._attach(item)
        elif isinstance(item, Detach):
            if not self.fanout.connected(item.peer.player):
                self.clocks.start_grace(item.peer.player)
        elif isinstance(item, ClockRanOut):
            await self._time_out(item.deadline)
        elif isinstance(item, RestartGrace):
            await self._give_restart_grace()
        elif isinstance(item, HostAway):
            self.clocks.host_grace_ran_out()
            await self._pass_hosting(item.host)
        elif isinstance(item, VoteDue):
            await self.votes.close(item)
        elif isinstance(item, FollowUp):
            with contextlib.suppress(RuleError):  # things changed meanwhile: no longer needed
                await self.commits.commit(msgspec.structs.replace(item.record, at=self.clock()))
        elif isinstance(item, GraceOver):
            await self._drop(item.player)

    # ------------------------------------------------------------------ connections

    async def _attach(self, item: Attach) -> None:
        peer = item.peer
        if self.broken:  # what memory holds was never saved: show it to nobody
            item.done.set_exception(RuleError("server.store", "This room can't be opened now."))
            return
        if item.screen:
            self._attach_screen(item)
            return
        if item.resume and self.model.seat(peer.player) is None:
            item.done.set_exception(RuleError("room.no_seat", NO_SEAT, code=self.code))
            return
        if peer not in self.peers:
            refusal = self._refusal_for(peer, item.resume)
            if refusal is not None:
                item.done.set_exception(refusal)
                return
        # In the room before the change is told, so everyone's push counts the newcomer online.
        self.fanout.add(peer)
        self.empty_since = None
        try:
            seat = self.model.seat(peer.player)
            if seat is None:
                self.votes.check_address(peer)
                joined = Joined(
                    at=self.clock(),
                    player=peer.player,
                    nickname=item.nickname,
                    played=sorted(set(item.played) & set(self.model.games)),
                )
                await self.commits.commit(joined)
            elif not seat.online:
                await self.commits.commit(
                    Presence(at=self.clock(), player=peer.player, online=True)
                )
        except BaseException as error:  # not seated: not in the room either
            self.fanout.remove(peer)
            if not self.peers:
                self.empty_since = self.clock()
            if not isinstance(error, RuleError):
                raise  # our bug or a cancellation; the inbox or stop answers it
            item.done.set_exception(error)
            return
        if self.closed:
            # The room stopped while the seat was saving (``stop`` told it): the seat is in the
            # log, but this room answers nothing more. Refused as what waits in it is (moved:
            # the client asks where the room is now, and finds its seat there; or closed).
            self.fanout.remove(peer)
            item.done.set_exception(self.inbox.refusal)
            return
        self.clocks.cancel_grace(peer.player)
        self.votes.seen(peer)
        # The picture first, then the ack: when a request resolves, its result is on screen.
        # (A join or a return is a change: its push was this connection's first picture.)
        if not self.fanout.arrived_told(peer):
            peer.send(self.fanout.update_for(peer, self.model, self.version, with_chat=True))
        if item.msg_id is not None:
            peer.send(Ack(item.msg_id, {"room": self.code}))
        item.done.set_result(None)
        self._poke_bots()  # someone to play for: bots waiting for a watcher move again

    def _attach_screen(self, item: Attach) -> None:
        """A shared screen comes in: no record (it takes no seat, and the room's picture
        does not list screens), only the whole picture a spectator sees."""
        peer = item.peer
        if self.model.seat(peer.player) is not None:  # (never: screens have names of their own)
            item.done.set_exception(RuleError("screen.seated", "A screen cannot take a seat."))
            return
        if peer not in self.peers:
            refusal = self._refusal_for(peer)
            if refusal is not None:
                item.done.set_exception(refusal)
                return
        self.fanout.add(peer)
        self.empty_since = None
        peer.send(self.fanout.update_for(peer, self.model, self.version))
        if item.msg_id is not None:
            peer.send(Ack(item.msg_id, {"room": self.code, "screen": True}))
        item.done.set_result(None)
        self._poke_bots()

    def _refusal_for(self, peer: Peer, resume: bool = False) -> RuleError | None:
        """Why a new connection may not come in (the room's caps), or None. A tab coming back
        by itself (``resume``) may go past the tab cap a little: its own old connections may
        not be known dead yet (a phone whose network came and went a few times leaves sockets
        the server only gives up on at the next ping timeout)."""
        tabs = self.fanout.tabs(peer.player)
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

    async def _drop(self, player: str) -> None:
        """``player``'s drop grace ran out: if they are still gone, the room says they dropped."""
        self.clocks.grace_ran_out(player)
        seat = self.model.seat(player)
        if seat is None or not seat.online or self.fanout.connected(player):
            return
        try:
            await self.commits.commit(Presence(at=self.clock(), player=player, online=False))
        except Exception:
            self.clocks.start_grace(player)  # try again after another grace
            raise

    # ------------------------------------------------------------------ clients' messages

    def _start(self, item: FromPeer) -> Started | None:
        """Everything about a client's message that needs no waiting: a refusal or a check
        is answered here (None); a change is folded and its save started."""
        peer, message = item.peer, item.message
        try:
            # A connection that left (leave_room) or was removed is no longer here, whatever
            # it still sends (a computer player is never a connection: it plays from here).
            if peer not in self.peers and not isinstance(peer, BotPeer):
                raise not_in_room()
            if isinstance(message, Check):
                check_move(self.model, peer.player, message.action, self.clock())
                peer.send(Ack(message.id))
                self._observe(item, None)
                return None
            if isinstance(message, React):  # passed on to everyone here, never logged
                check_reaction(self.model, peer.player, message.kind)
                self.fanout.send_all(Reaction(peer.player, message.kind))
                peer.send(Ack(message.id))
                self._observe(item, None)
                return None
            if isinstance(message, Sync):  # a client whose picture does not fit a patch
                peer.send(self.fanout.update_for(peer, self.model, self.version))
                peer.send(Ack(message.id))
                self._observe(item, None)
                return None
            if isinstance(peer, BotPeer) and isinstance(message, Act):
                _still_played_by_bot(self.model, peer.player)
            version = getattr(self.model.game, "VERSION", 0)
            record = record_for(
                message,
                peer.player,
                self.clock(),
                game_version=version,
                room=self.model,
                vote_seconds=self.config.vote_seconds,
            )
            return Started(item, self.commits.begin(record, answer=(peer, message.id)))
        except RuleError as error:
            refuse(peer, message.id, error)
            self._observe(item, error.code)
            return None

    async def _finish_started(self, started: Started) -> None:
        refused: str | None = None
        try:
            await self.commits.finish(started.change)
        except RuleError as error:
            refused = error.code
            refuse(started.item.peer, started.item.message.id, error)
        self._observe(started.item, refused)

    def _observe(self, item: FromPeer, refused: str | None) -> None:
        if self.config.observe is not None:
            kind = type(item.message).__struct_config__.tag
            self.config.observe(str(kind), time.perf_counter() - item.received, refused)

    # ------------------------------------------------------------------ after a change

    def _after_change(self, record: Record, was: Status) -> None:
        self.clocks.failures = 0  # the store saves again: clocks keep their own time
        if not self.peers and self.empty_since is None:
            self.empty_since = self.clock()  # the last one here left: the idle time starts
        self._schedule_clock()
        self._watch_host()
        self.votes.watch()
        self.votes.after(record)
        waiting = spectator_to_seat(self.model)
        if waiting is not None:
            self.inbox.put(FollowUp(Seated(at=self.clock(), player=waiting)))
        _warm_up(self.model.game, self.model.settings)
        self._poke_bots()
        if was is Status.PLAYING and self.model.status is Status.ENDED:
            # Taken now: a rematch may clear the match before the task runs. The log has
            # every record of it already (this change is told: it is durable).
            outcome = self.model.game.outcome(self.model.match)
            match = finished_match(self.model, outcome, record.at)
            _in_background(self._keep_finished_match(match, match_log(self.model, self.seq)))

    async def _keep_finished_match(self, match: Any, kept: Any) -> None:
        try:
            await self.store.record_finished_match(match, kept)
        except Exception:
            log.exception("room %s: could not keep the finished match", self.code)

    def _poke_bots(self) -> None:
        if self.bots is not None:
            self.bots.poke()

    # ------------------------------------------------------------------ clocks

    def _deadline(self) -> float | None:
        if self.model.match is None or self.model.status is not Status.PLAYING:
            return None
        return self.model.game.deadline(self.model.match)

    def _schedule_clock(self) -> None:
        self.clocks.schedule(None if self.closed else self._deadline())

    async def _time_out(self, deadline: float) -> None:
        if self.model.match is None or self._deadline() != deadline:
            return  # the match moved on before the clock ran out
        at = max(self.clock(), deadline)
        try:
            await self.commits.commit(GameMove(at=at, seat=None, action={"type": "timeout"}))
            self.clocks.failures = 0
        except Exception:
            self.clocks.failures += 1
            raise
        finally:  # a failed save must not stop the clock for good
            self._schedule_clock()

    async def _give_restart_grace(self) -> None:
        """After a restore, a deadline that passed while the server was down, or falls within
        the restart grace, moves to now + the grace: nobody could act while it was down. A
        logged ``extend`` move, so replay needs no clock; if it cannot be saved, it is tried
        again with the clock's growing pauses, and the old deadline never fires meanwhile."""
        if not self.clocks.grace_owed:
            return  # already given (a retry that was queued twice)
        now = self.clock()
        until = now + self.config.restart_grace_seconds
        deadline = self._deadline()
        self.clocks.grace_owed = False
        try:
            if deadline is not None and deadline < until:  # (a move since may have reset it)
                move = GameMove(at=now, seat=None, action={"type": "extend", "until": until})
                await self.commits.commit(move)
        except Exception:
            self.clocks.grace_owed = True
            self.clocks.failures += 1
            raise
        finally:
            self._schedule_clock()

    # ------------------------------------------------------------------ hosting

    def _watch_host(self) -> None:
        """Start the host grace when the host counts as away (their drop grace over), stop it
        when they are back; see ``_pass_hosting``."""
        away = away_host(self.model)
        if away is None or not self.closed:
            self.clocks.watch_host(away)

    async def _pass_hosting(self, host: str) -> None:
        """The host has been away for the whole host grace: hosting passes on (see
        ``hosting.next_host``); it does not come back on their return. With nobody here, it
        waits: the next change watches again."""
        successor = next_host(self.model, host, self.fanout.connected)
        if successor is not None:
            with contextlib.suppress(RuleError):  # the match ended meanwhile, for one
                await self.commits.commit(HostPassed(at=self.clock(), host=successor))


_warmed: set[tuple[str, str]] = set()
_background: set[asyncio.Task] = set()  # tasks that must not be garbage-collected mid-way


def _in_background(work: Any) -> None:
    task = asyncio.get_running_loop().create_task(work)
    _background.add(task)
    task.add_done_callback(_background.discard)


def _still_played_by_bot(model: Any, player: str) -> None:
    """A bot's move decided before its stand-in ended (the player came back, or the host
    stopped it) and queued behind that change is dropped: the seat is a person's again."""
    seat = model.seat(player)
    if seat is None or seat.played_by_bot is None:
        raise RuleError("bot.not_playing", "No computer player plays this seat now.")


def _warm_up(game: Any, settings: Any) -> None:
    """Some games load large data lazily (Pintó's dictionaries take seconds): load what these
    settings need in a thread as soon as a room picks them, not during somebody's move."""
    warm = getattr(game, "warm_up", None)
    if warm is None:  # (asked after every change: the settings' repr is work)
        return
    key = (game.NAME, repr(settings))
    if key in _warmed:
        return
    _warmed.add(key)
    # A daemon thread, not the loop's executor: a stopping server joins the executor's
    # threads, and a warm-up nobody needs any more held a shutdown for 10 s under load.
    name = f"warm-up-{game.NAME}"
    threading.Thread(target=warm, args=(settings,), name=name, daemon=True).start()
