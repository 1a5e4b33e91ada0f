"""One node of the cluster: the rooms it owns, the rooms it reaches through their owners, and
the beat that keeps its leases (``ClusterRooms``: what a session asks the room manager for,
in cluster mode).

Finding a room (``find``):

1. this node owns it: the local ``Room``;
2. another live node holds its lease: a ``RemoteRoom`` that relays to that owner;
3. nobody holds it (its owner died or let it go) and the shared log has it live: this node
   takes the lease, claims the room in the log with the lease's fence, replays it and owns
   it from then on — clocks resume with the restart grace, as after a single node's restart
   (unless the room was just handed to another node: then it waits for that one);
4. otherwise there is no such room.

While this node lets a room go, a find waits until it has (it would otherwise claim the
room back from itself). With ``follow_players`` a node hands a room, between matches, to a
node that holds more of its connections than it does (``placement.py``).

A node whose lease is lost (it was paused past the lease, Redis was unreachable too long) or
whose append the log refused under a newer fence stops the room at once, without a word to
the log, and sends its connections to the new owner; it never writes for that room again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import secrets
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

import msgspec

from ..games.base import RuleError
from ..protocol import PublicRoom
from ..rooms.manager import RoomManager
from ..rooms.replay import replay_room
from ..rooms.room import Room
from ..rooms.room_data import Status
from ..rooms.views import listed_in_order
from ..store.base import FencedStore
from ..store.errors import FencedOut, UnknownRoom
from . import wire
from .bus import Bus
from .connect import refusal
from .inbound import Inbound
from .keys import Keys
from .leases import Leases, Owner
from .placement import Placement
from .relay import RelayedPeer, Relays, RemoteRoom
from .seats import SeatIndex, seats_of

log = logging.getLogger("tertulia.cluster")

FIND_TRIES = 40  # × up to a quarter of the lease: a dead owner's lease lapses within these
SEATED_LOOKUP_SECONDS = 1.0  # past this, a welcome says only what this node knows

_public_rooms = msgspec.json.Decoder(list[PublicRoom])  # a node's published lines


def _stale(remote: RemoteRoom, owner: str, fence: int) -> bool:
    """Whether ``remote`` no longer reaches the room's owner: another node owns it now, or
    the same node under a newer lease (it let the room go and took it back meanwhile)."""
    return remote.owner != owner or remote.fence < fence


def node_name() -> str:
    """Unique per process start: a restarted node is a new node (its old leases lapse)."""
    host = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname())[:40] or "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterRooms:
    """This node's rooms, and the way to every other node's (``rooms.seams.Rooms``; what other
    nodes send it is read by its ``inbound.Inbound``)."""

    def __init__(
        self,
        manager: RoomManager,
        redis: Any,
        *,
        node: str | None = None,
        namespace: str = "tertulia",
        lease_seconds: float = 4.0,
        follow_players: bool = False,
    ) -> None:
        self.manager = manager
        self.store = manager.store
        # The log every node shares, which fences a former owner's writes (PostgreSQL). A
        # store that does not (tests' relaying nodes, each with a SQLite log of its own) can
        # relay to other nodes' rooms but never take one over.
        self.fenced = self.store if isinstance(self.store, FencedStore) else None
        self.games = manager.games
        self.redis = redis
        self.node = node or node_name()
        self.keys = Keys(namespace)  # every Redis key of this site
        self.leases = Leases(redis, self.node, ttl=lease_seconds, namespace=namespace)
        # Rooms handed to the node their players are on, and left to it meanwhile (every node
        # honours a hand-over); with ``follow_players``, this node makes them too.
        self.placement = Placement(2 * lease_seconds)
        self.follow_players = follow_players
        self._letting_go: dict[str, asyncio.Future[None]] = {}  # code → done when let go
        self.bus = Bus(
            redis, self.node, namespace, self._on_message, self._unreachable, self._heard
        )
        self.seats = SeatIndex(redis, namespace)
        self.remote: dict[str, RemoteRoom] = {}  # code → the room as reached through its owner
        # conn → this node's session in a remote room, and the owner it is attached through
        self.relaying: dict[str, tuple[Any, str]] = {}
        # conn → its frames' ids that owners owe answers, with whether Redis said they heard
        # each; and frames of an owner given up before it said so (``relay.py``)
        self.awaiting: dict[str, dict[int, bool]] = {}
        self.in_doubt: dict[tuple[str, int], Any] = {}
        self.relayed: dict[str, tuple[RelayedPeer, Room]] = {}  # conn → (peer, room) owned here
        self._conn_ids = itertools.count(1)
        self._takeovers: dict[str, asyncio.Future[Room | Literal[False] | None]] = {}
        self.inbound = Inbound(
            self.bus,
            Relays(self.remote, self.relaying, self.awaiting, self.in_doubt, self.relayed),
            room_here=lambda code: self.manager.get(code),
            loading=self._takeovers.get,
            spawn=self._spawn,
            find_again=self._find_again,
            owned_now=self._owned_now,
            heir_named=self._heir_named,
        )
        # code → set when another node says it took the room over (``wire.Owned``), for
        # the finds waiting on a dead owner's lease; with how many wait on each.
        self._owned: dict[str, tuple[asyncio.Event, int]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._public: list[PublicRoom] = []  # every node's public rooms, as last read
        self._live_nodes: set[str] = {self.node}
        # node → when a publish to it reached nobody: dead, though its last beat is still in
        # date for up to a lease time; alive again only if it beats after that.
        self._gone: dict[str, float] = {}
        self._beat: asyncio.Task | None = None
        self._renewed_at = time.monotonic()  # when the leases were last known to be ours
        self.healthy = False
        # Told why, when Redis refuses this node (credentials, ACL, certificate): a
        # configuration error that trying again will not mend (``connect.refusal``).
        self.on_refused: Callable[[str], None] | None = None
        manager.on_lost = self._lost  # a fenced-out append, from the room's commit path

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Join the cluster. With Redis unreachable the node still starts (``/healthz`` says
        503, new rooms are refused) and keeps trying; if Redis refuses it, the first beat
        says so (``on_refused``) once the node is running."""
        try:
            await self._beat_once()
        except Exception as error:
            if refusal(error) is None:
                log.exception("the cluster's Redis cannot be reached; trying again")
        self._beat = asyncio.get_running_loop().create_task(self._keep_beating())

    async def drain(self) -> None:
        """Hand every room this node owns to the others (SIGTERM): each is stopped with its log
        as it is, its lease given back, and the nodes relaying its connections told to find
        the new owner; then stop listening."""
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        # All at once, each bounded: one room's trouble (a save that does not answer, which
        # its room waits for) must not keep the rest.
        await asyncio.gather(
            *(asyncio.wait_for(self._let_go(code), 5) for code in list(self.manager.rooms)),
            return_exceptions=True,
        )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._leave(), 2)
        await self.bus.stop()
        self.healthy = False

    async def _leave(self) -> None:
        await self.redis.zrem(self.keys.nodes, self.node)
        await self.redis.delete(self.keys.public(self.node))

    def _on_message(self, message: wire.ToNode) -> None:
        self.inbound.on_message(message)

    def _heard(self, frame: wire.Frame) -> None:
        self.inbound.heard(frame)

    # ------------------------------------------------------------------ what sessions ask

    def conn_of(self, session: Any) -> str:
        conn = getattr(session, "cluster_conn", None)
        if conn is None:
            conn = session.cluster_conn = f"{self.node}/{next(self._conn_ids)}"
        return conn

    async def create(self, game: str, public: bool, opened_by: tuple[str, ...] = ()) -> Room:
        if not self.healthy:
            raise RuleError(
                "server.cluster", "This server cannot open rooms right now; try again soon."
            )
        room = await self.manager.create(game, public, opened_by)
        await self._say_game(room)
        return room

    async def find(self, code: str) -> Room | RemoteRoom | None:
        """The live room with ``code``, wherever it is owned (the module's docstring)."""
        for _ in range(FIND_TRIES):
            leaving = self._letting_go.get(code)
            if leaving is not None:  # until it is let go: then find where it went
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(leaving), self.leases.renew_every)
                continue
            room = self.manager.get(code)
            if room is not None:
                return room
            remote = self.remote.get(code)
            if remote is not None and not remote.closed and remote.owner in self._live_nodes:
                return await self._with_game(remote)
            owner = await self.leases.owner(code)
            if owner is None and self.placement.held(code):
                await self._until_free_or_owned(code)  # its heir says it has it, or lets it be
                continue
            if owner is None or owner.node == self.node:
                taken = await self._take_over(code)
                if taken is not False:
                    return taken  # a Room, or None: the log has no such live room
                continue
            if owner.node in self._live_nodes or await self._is_live(owner.node):
                return await self._with_game(self._remote(code, owner))
            # Its owner died: its lease lapses within one lease time.
            await self._until_free_or_owned(code)
        raise RuleError("server.busy", "That room cannot be reached right now; try again.")

    async def _until_free_or_owned(self, code: str) -> None:
        """Wait until a dead owner's lease on ``code`` lapses (Redis says when) or another
        node says it has taken the room over (``wire.Owned``), whichever comes first: the
        room is then found at once, not at a poll's next turn."""
        wait = self.leases.renew_every
        left = await self.leases.time_left(code)
        if left is not None:
            wait = min(left + 0.01, wait)
        event, waiting = self._owned.get(code, (asyncio.Event(), 0))
        self._owned[code] = (event, waiting + 1)
        try:
            await asyncio.wait_for(event.wait(), wait)
        except TimeoutError:
            pass
        finally:
            event, waiting = self._owned.get(code, (event, 1))
            if waiting <= 1:
                self._owned.pop(code, None)
            else:
                self._owned[code] = (event, waiting - 1)

    def _owned_now(self, code: str, owner: str, fence: int = 0) -> None:
        """``owner`` says it has just taken ``code`` over: whoever waits to find it looks now,
        and a way to it through a former owner is given up (its sessions follow the room)."""
        waiting = self._owned.pop(code, None)
        if waiting is not None:
            waiting[0].set()
        remote = self.remote.get(code)
        if remote is not None and not remote.closed and _stale(remote, owner, fence):
            del self.remote[code]
            # Another node: the one reached died or lost the room. The same node under a newer
            # lease: it let the room go and answered what reached it before (``give_up``).
            for session in remote.give_up(owner_died=remote.owner != owner):
                self._find_again(session, code)

    def rooms_opened_by(self, key: str) -> int:
        return self.manager.rooms_opened_by(key)

    async def seated_room(self, player: str) -> str | None:
        """Where ``player`` has a seat, on any node (``seats.py``); with Redis slow or away,
        where they have one on this node."""
        here = self.manager.seated_rooms(player)
        try:
            return await asyncio.wait_for(
                self.seats.seated_room(player, set(self.manager.rooms), here),
                SEATED_LOOKUP_SECONDS,
            )
        except Exception:
            log.warning("could not read where %s has a seat; this node's rooms only", player)
            return max(here, key=here.__getitem__, default=None)

    async def _with_game(self, remote: RemoteRoom) -> RemoteRoom:
        """A room reached through its owner, with its game known before anyone attaches."""
        if remote.game is None:
            with contextlib.suppress(Exception):
                name = await self.seats.game_of(remote.code)
                remote.game = self.games.get(name) if name else None
        return remote

    async def _say_game(self, room: Room) -> None:
        try:
            await self.seats.set_game(room.code, room.game.NAME)
        except Exception:  # the room works without it; other nodes only cannot say its game
            log.warning("could not record the game of room %s", room.code)

    def public_rooms(self) -> list[PublicRoom]:
        return self._public

    async def recent_matches(self, limit: int = 10) -> list[dict[str, Any]]:
        return await self.manager.recent_matches(limit)

    async def matches_of(
        self, player: str, limit: int = 20, before: float | None = None
    ) -> list[dict[str, Any]]:
        """A player's matches: the log every node shares has every node's."""
        return await self.manager.matches_of(player, limit, before)

    async def match_page(self, public_id: str) -> tuple[bytes, bool] | None:
        """Any match's page, whichever node its room was on (the log is shared)."""
        return await self.manager.match_page(public_id)

    # ------------------------------------------------------------------ owning

    async def _take_over(self, code: str) -> Room | Literal[False] | None:
        """Own the room if its lease is free: the Room, None if the log has no such live room,
        False if another node was quicker (look again)."""
        running = self._takeovers.get(code)
        if running is not None:
            return await asyncio.shield(running)
        future = asyncio.get_running_loop().create_future()
        self._takeovers[code] = future
        try:
            result = await self._claim(code)
            future.set_result(result)
            return result
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # nobody else may be waiting: not an unretrieved error
            raise
        finally:
            del self._takeovers[code]

    async def _claim(self, code: str) -> Room | Literal[False] | None:
        owner = await self.leases.acquire(code)
        if owner.node != self.node:
            return False
        try:
            if self.fenced is None:  # a store without fences cannot share a log: nothing to take
                raise UnknownRoom(code)
            try:
                live = await self.fenced.claim(code, owner.fence)
            except FencedOut as behind:
                if behind.stored_fence is None:
                    raise
                # Redis forgot its counter (it keeps nothing on disk): start above the log's.
                await self.leases.release(code)
                owner = await self.leases.acquire(code, floor=behind.stored_fence)
                if owner.node != self.node:
                    return False
                live = await self.fenced.claim(code, owner.fence)
        except UnknownRoom:
            await self.leases.release(code)
            return None
        except FencedOut:  # a still newer owner claimed it meanwhile: look again
            await self.leases.release(code)
            return False
        except Exception:
            await self.leases.release(code)
            raise
        if live.room.game not in self.games:
            await self.leases.release(code)
            return None
        model, seq, snapshot_seq = await replay_room(self.store, live, self.games)
        if model is None:  # closed meanwhile
            await self.leases.release(code)
            return None
        log.info("took over room %s (fence %d)", code, owner.fence)
        room = self.manager.open_restored(model, seq, snapshot_seq)
        for node in self._live_nodes - {self.node}:  # their connections to it come now
            self.bus.send(node, wire.Owned(code, self.node, owner.fence))
        await self._say_game(room)
        return room

    async def create_owned(self, code: str, game: str, public: bool) -> bool:
        """For the manager creating a room: take ``code``'s lease and create the room in the
        shared log under its fence (``RoomExists`` if a live room has it); False if another
        node holds the code."""
        owner = await self.leases.acquire(code)
        if owner.node != self.node:
            return False
        at = self.manager.clock()
        if self.fenced is not None:  # a log shared by nodes checks fences
            await self.fenced.create_room(
                code, game, public=public, created_at=at, fence=owner.fence
            )
        else:
            await self.store.create_room(code, game, public=public, created_at=at)
        return True

    def _lost(self, code: str) -> None:
        """The log refused this node's append for ``code`` (a newer owner claimed it)."""
        self.leases.forget(code)
        self._spawn(self._let_go(code, lost=True))

    async def _let_go(self, code: str, lost: bool = False, heir: str = "") -> None:
        """Stop owning ``code``: its log stays as it is, for its next owner (``heir``, if this
        node hands it to one). Once only: a second call waits for the first."""
        running = self._letting_go.get(code)
        if running is not None:  # (a drain, or a lost lease, during a hand-over)
            await asyncio.shield(running)
            return
        room = self.manager.rooms.get(code)
        if room is None:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._letting_go[code] = done
        followers: list[Any] = []
        try:
            self.seats.leaving(code)
            # This node's own connections hold their messages from now on (never "not in a
            # room"), and follow the room once its lease is free or taken. A copy of the
            # peers: a shared screen leaves the room at once (it reconnects by itself).
            followers = [
                self._follower(peer, code)
                for peer in list(room.peers)
                if not isinstance(peer, RelayedPeer)
            ]
            await self._stop_owning(room, code, lost, heir)
        finally:
            if heir:  # left to the heir from the moment the lease is free
                self.placement.hold(code)
            del self._letting_go[code]
            done.set_result(None)
            for work in followers:
                if work is not None:
                    self._spawn(work)
        log.info("let room %s go (%s)", code, "lost" if lost else "handed over")

    async def _stop_owning(self, room: Room, code: str, lost: bool, heir: str = "") -> None:
        await self.manager.let_go(room)
        if not lost:
            try:  # before the lease goes: the next owner's writes come after these
                await self.seats.hand_over(code, seats_of(room))
            except Exception:
                log.warning("could not write the seats of room %s as it moved", code)
            await self.leases.release(code)
        else:
            self.leases.forget(code)
            self.seats.forget(code)
        if self.fenced is not None:
            self.fenced.release(code)
        by_node: dict[str, list[str]] = {}
        for conn, (peer, held) in list(self.relayed.items()):
            if held is room:
                del self.relayed[conn]
                by_node.setdefault(peer.node, []).append(conn)
        for node, conns in by_node.items():
            self.bus.send(node, wire.Released(code, conns, self.node, heir=heir))

    # ------------------------------------------------------------------ reaching others

    def _remote(self, code: str, owner: Owner) -> RemoteRoom:
        """The room as reached through ``owner``. One reached through a former owner is given
        up first: the lease moved on while sessions were attached or attaching through it,
        and nothing else would ever answer them (its owner's death is looked for among the
        rooms reached now). Like a death, nobody can say whether the former owner applied what
        it had not answered yet. The same node under a newer lease let the room go in between,
        having answered what reached it before (``RemoteRoom.give_up``)."""
        remote = self.remote.get(code)
        if remote is not None and not remote.closed and _stale(remote, owner.node, owner.fence):
            del self.remote[code]
            for session in remote.give_up(owner_died=remote.owner != owner.node):
                self._find_again(session, code)
            remote = None
        if remote is None or remote.closed:
            remote = RemoteRoom(
                code,
                owner.node,
                self.games,
                self.bus,
                self.conn_of,
                self.relaying,
                self.awaiting,
                attach_timeout=2 * self.leases.ttl_ms / 1000,
                in_doubt=self.in_doubt,
                fence=owner.fence,
            )
            self.remote[code] = remote
        return remote

    def _find_again(self, session: Any, code: str) -> None:
        """Move a session of this node to wherever ``code`` is owned now (its seat is kept);
        its room messages are held until it is there."""
        work = self._follower(session, code)
        if work is not None:
            self._spawn(work)

    @staticmethod
    def _follower(session: Any, code: str) -> Any:
        """The work that moves ``session`` after its room (``Session.room_moves``), which
        holds its messages from this moment; None if it is not in that room."""
        follow = getattr(session, "room_moves", None)
        return follow(code) if follow is not None else None

    def _spawn(self, work: Any) -> None:
        """Run ``work`` in its own task, kept until it ends (a task nobody holds may be
        collected mid-way)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _unreachable(self, node: str, unheard: list[Any]) -> None:
        """Publishes reached nobody: ``node`` is gone (it is not live again until it beats
        again: until then its rooms wait for their leases to lapse, and are taken over,
        rather than being relayed to it over and over). The frames it never got were applied
        by nobody: each goes to the room's next owner with the messages its connection holds
        meanwhile (or, if the connection is no longer following that room, is answered
        ``room.moved``: nothing was applied, send it again)."""
        frames = [self.inbound.unheard(m) for m in unheard if isinstance(m, wire.Frame)]
        self._live_nodes.discard(node)
        self._gone[node] = time.time()
        self._node_gone(node)  # its rooms' sessions hold their messages from now on
        for frame in frames:
            if frame is not None:
                self.inbound.hold_again(*frame)

    def _beating(self, node: str, score: float, now: float) -> bool:
        """Whether a node whose beat says ``score`` (the time its last beat lasts until) is
        live: that beat is in date, and was made after any publish found the node gone (both
        are wall-clock times: the nodes' clocks must agree, as for the leases)."""
        gone = self._gone.get(node)
        return score > now and (gone is None or score - self.leases.ttl_ms / 1000 > gone)

    def _node_gone(self, node: str) -> None:
        for conn, (peer, room) in list(self.relayed.items()):
            if peer.node == node:
                del self.relayed[conn]
                room.detach(peer)
        for code, remote in list(self.remote.items()):
            if remote.owner == node:
                del self.remote[code]
                for session in remote.give_up(owner_died=True):
                    self._find_again(session, code)

    async def _is_live(self, node: str) -> bool:
        score = await self.redis.zscore(self.keys.nodes, node)
        return score is not None and self._beating(node, score, time.time())

    # ------------------------------------------------------------------ the beat

    async def _keep_beating(self) -> None:
        while True:
            await asyncio.sleep(self.leases.renew_every)
            try:
                await self._beat_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                why = refusal(error)
                if why is not None and self.on_refused is not None:
                    self.healthy = False
                    self.on_refused(f"Redis refused this node: {why}")
                    return
                if self.healthy:
                    log.exception("the cluster's Redis cannot be reached")
                self.healthy = False
                await self._give_up_unfenced()

    async def _beat_once(self) -> None:
        if not self.bus.started:
            await self.bus.start()
        await self._heartbeat()
        self._renewed_at = time.monotonic()
        self.healthy = self.bus.healthy
        if self.follow_players and self.healthy:
            try:  # a room that cannot be placed must not count as Redis being away
                self._follow_players()
            except Exception:
                log.exception("could not hand the rooms to their players' nodes")

    # ------------------------------------------------------------------ following players

    def _follow_players(self) -> None:
        """Hand each room that has more connections on one other node than here to that node
        (between matches, once it has led for two beats: ``placement.py``)."""
        rooms: dict[str, tuple[bool, int, Counter[str]]] = {}
        for code, room in self.manager.rooms.items():
            if room.closed or code in self._letting_go:
                continue  # already on its way (a stop may take longer than a beat)
            elsewhere = Counter(p.node for p in room.peers if isinstance(p, RelayedPeer))
            here = len(room.peers) - sum(elsewhere.values())
            rooms[code] = (room.model.status is not Status.PLAYING, here, elsewhere)
        for code, node in self.placement.moves(rooms, self._live_nodes - {self.node}).items():
            self._spawn(self._hand_over(code, node))

    def _heir_named(self, code: str, heir: str) -> None:
        """The room's owner handed it to ``heir``: take it at once if that is this node (a
        hand-over of its own a moment ago no longer holds it back), else leave it to that one."""
        if heir == self.node:
            self.placement.release(code)
        else:
            self.placement.hold(code)

    async def _hand_over(self, code: str, heir: str) -> None:
        room = self.manager.get(code)
        # Looked at again: a match may have started since the beat. From here to the room's
        # stop (``Room.stop`` closes it before it first waits) nothing else runs.
        if room is None or room.model.status is Status.PLAYING or code in self._letting_go:
            return
        log.info("handing room %s to %s, where more of its players are", code, heir)
        await self._let_go(code, heir=heir)  # (held for its heir once the lease is free)

    async def _give_up_unfenced(self) -> None:
        """Without Redis this node cannot renew its leases: once they may have lapsed,
        another node may own its rooms, so it keeps none (it would only be refused by the
        log's fence, but its players would wait for answers that never come)."""
        if time.monotonic() - self._renewed_at < self.leases.ttl_ms / 1000:
            return
        codes = list(self.manager.rooms)
        for code in codes:
            self.leases.forget(code)
        await asyncio.gather(*(self._let_go(code, lost=True) for code in codes))

    async def _heartbeat(self) -> None:
        """Say this node is alive, keep its leases (letting go of those it lost), publish its
        public rooms and read everyone's, and forget nodes that stopped beating."""
        # All at once: each waits for its save under way (``Room.stop``), and the beat must
        # not run past the leases it keeps.
        lost = await self.leases.renew()
        await asyncio.gather(*(self._let_go(code, lost=True) for code in lost))
        now = time.time()
        lease = self.leases.ttl_ms / 1000
        public = msgspec.json.encode(self.manager.public_rooms())
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self.keys.nodes, {self.node: now + lease})
        pipe.zremrangebyscore(self.keys.nodes, "-inf", now - 60)
        pipe.set(self.keys.public(self.node), public, px=int(lease * 3000))
        pipe.zrangebyscore(self.keys.nodes, now, "+inf", withscores=True)
        *_, alive = await pipe.execute()
        beats = ((n.decode() if isinstance(n, bytes) else n, score) for n, score in alive)
        live = {name for name, score in beats if self._beating(name, score, now)}
        live.add(self.node)
        self._gone = {node: at for node, at in self._gone.items() if at > now - 60}
        for node in self._live_nodes - live:
            self._node_gone(node)
        self._live_nodes = live
        others = sorted(live)
        values = await self.redis.mget([self.keys.public(node) for node in others])
        rooms: list[PublicRoom] = []
        for value in values:
            if value:
                rooms.extend(_public_rooms.decode(value))
        self._public = listed_in_order(rooms)
        await self.seats.publish(self.manager.rooms.values())
