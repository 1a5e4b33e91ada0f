"""A room's commit path, the one every change takes: check, fold, durable append, tell.

The record is folded into memory (a refusal changes nothing) and its append started (the
SQLite store sends it as this turn of the loop ends, with the turn's other appends); the
pushes are built while the disk writes (the fsync is most of an action's wait). Only when the
store says the append is durable is anyone told: every connection its push, then the sender
its ``ack``. The store calls back (``on_durable``) the moment the writer answers, and the
pushes go out right there, without waiting for the room's task to wake. A failed append
rebuilds the room from the store, so memory never runs ahead of the log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games.base import RuleError
from ..protocol import Ack
from ..store import LogEntry, Store
from ..store.errors import FencedOut
from .fanout import FanOut, Pushes
from .model import check_new, fold, note_seq, with_verdicts
from .records import MatchStarted, Record, record_encoder
from .refusals import room_moved
from .replay import SNAPSHOT_EVERY, rebuild, snapshot_of
from .room_data import RoomModel, Status

if TYPE_CHECKING:
    from .seams import Peer

log = logging.getLogger("tertulia.room")

Answer = tuple["Peer", int]  # who sent the change, and their message's id


def not_saved() -> RuleError:
    return RuleError("server.store", "Your move could not be saved; try again.")


@dataclass
class Change:
    """A change folded into memory whose save is under way (or could not start)."""

    record: Record
    answer: Answer | None
    was: Status
    saving: Awaitable[None] | None = None
    pushes: Pushes | None = None
    # Memory may be ahead of the log: rebuild, then raise this (the bug, or "not saved").
    unsaved: Exception | None = None
    told: bool = False  # durable, counted and pushed to everyone


class Commits:
    """The room's state as the log has it (the model and its length), and the path that
    changes it. ``on_told(record, was)`` runs after each change is told (clocks, hosting…);
    ``closed()`` says whether the room has closed (then nobody is told any more)."""

    def __init__(
        self,
        model: RoomModel,
        store: Store,
        seq: int,
        fanout: FanOut,
        on_told: Callable[[Record, Status], None],
        closed: Callable[[], bool],
        on_fenced: Callable[[], None] | None = None,
    ) -> None:
        self.model = model
        self.store = store
        self.seq = seq  # records in the log
        # Pushes carry the room's version; it must only grow, also across a restart (browsers
        # ignore an older version), so it continues from the log's length.
        self.version = seq
        # The seq of the latest snapshot this room saved or was restored from (see replay.py).
        self.snapshot_seq = 0
        # The model holds a change the log does not (folded, its save under way or failed):
        # no snapshot may be taken of it then, it would not be the state after ``seq``.
        self.ahead = False
        # Memory may be ahead of the log (a failed save whose rebuild failed too): refuse all.
        self.broken = False
        # The change whose save is under way and not told yet (one at a time: see Room.submit).
        self.in_flight: Change | None = None
        self._fanout = fanout
        self._on_told = on_told
        self._closed = closed
        self._on_fenced = on_fenced

    @property
    def code(self) -> str:
        return self.model.code

    async def commit(self, record: Record, answer: Answer | None = None) -> None:
        """Fold, persist, then tell. Raises ``RuleError`` for a refusal (nothing changed)."""
        await self.finish(self.begin(record, answer))

    def begin(self, record: Record, answer: Answer | None) -> Change:
        """Fold the record and start saving it; build the pushes while the disk writes.
        Nobody is told anything here. Raises ``RuleError`` for a refusal, which changed
        nothing."""
        if self.broken:
            raise RuleError("server.store", "This room can't save anything right now.")
        was = self.model.status
        check_new(self.model, record)  # live only: replay trusts what was saved
        record = with_verdicts(self.model, record)  # live only: replay reuses them
        self.ahead = True
        try:
            events = fold(self.model, record)  # a RuleError here changed nothing
        except RuleError:
            self.ahead = False
            raise
        except Exception as bug:  # our bug, maybe half-applied: back to what the log says
            log.exception("room %s: fold failed; rebuilding from the store", self.code)
            return Change(record, answer, was, unsaved=bug)
        note_seq(self.model, record, self.seq + 1)
        entry = LogEntry(self.seq + 1, record.at, record_encoder.encode(record))
        change = Change(record, answer, was)
        try:
            change.saving = self.store.start_append(
                self.code, entry, on_durable=lambda error: self._durable(change, error)
            )
        except Exception:
            log.exception("room %s: append failed; rebuilding from the store", self.code)
            return Change(record, answer, was, unsaved=not_saved())
        self.in_flight = change
        try:
            change.pushes = self._fanout.prepare(self.model, self.seq + 1, record, events)
        except Exception:  # our bug; the change stands all the same (see _tell)
            log.exception(
                "room %s: building the pushes failed; trying each seat once saved", self.code
            )
        return change

    async def finish(self, change: Change) -> None:
        """Wait until the change is durable, then tell everyone; or rebuild if it is not."""
        if change.unsaved is not None:
            await self.rebuild()
            raise change.unsaved
        assert change.saving is not None
        try:
            await change.saving
        except FencedOut:
            # Another node owns the room now (this one was paused past its lease): memory is
            # ahead of a log that will never have this change. Write nothing more; the room
            # is let go and its connections sent to the new owner.
            self._landed(change)
            log.warning("room %s: another node owns it now; letting it go", self.code)
            self.broken = True
            if self._on_fenced is not None:
                self._on_fenced()
            raise room_moved() from None
        except Exception:
            self._landed(change)
            log.exception("room %s: append failed; rebuilding from the store", self.code)
            await self.rebuild()
            raise not_saved() from None
        if not change.told:  # the store did not call back (it need not)
            self._tell(change)

    def _landed(self, change: Change) -> None:
        """``change``'s save has an outcome: it is no longer the one in flight."""
        if self.in_flight is change:
            self.in_flight = None

    async def settle(self, seconds: float) -> None:
        """The room is stopping (handed on, shut down, closed): wait up to ``seconds`` for
        the change whose save is under way, and tell it if it is durable. Stopping the
        room's task does not withdraw a write the store has queued, so without this its
        sender would be answered "nothing was changed" (``room.moved``) for a change the log
        has, and would make it twice. If the save fails, or takes longer, the inbox answers
        it (``inbox.refuse_item``: nothing changed, or the outcome is unknown)."""
        change = self.in_flight
        if change is None or change.told or not asyncio.isfuture(change.saving):
            return
        saving = change.saving
        try:
            await asyncio.wait_for(asyncio.shield(saving), seconds)
        except asyncio.CancelledError:
            if not saving.cancelled():  # we were cancelled, not the save
                raise
            return
        except Exception:
            return  # not saved (the room's task answers it), or not known yet
        if not change.told:
            self._tell(change)

    def _durable(self, change: Change, error: BaseException | None) -> None:
        """Called by the store the moment the change is durable, before the room's task
        could wake (under load that wake-up waited behind every other room's work): tell
        everyone now. A failure is left to ``finish``, which rebuilds."""
        if error is None and not change.told and not self._closed():
            self._tell(change)

    def _tell(self, change: Change) -> None:
        """The change is durable: count it, push it to everyone, answer the sender.

        It stands whatever happens here, so the sender always gets its ``ack`` — an error
        would say "nothing was changed" (docs/protocol.md), and a player who believed it
        would do it again. A bug while telling is logged; a seat whose push could not be
        built ahead gets one built now, on its own, so one seat's trouble spares the rest."""
        change.told = True
        self._landed(change)
        self.seq += 1
        self.version += 1
        self.ahead = False
        record = change.record
        try:
            if isinstance(record, MatchStarted):
                self._fanout.new_match()
            if change.pushes is not None:
                self._fanout.broadcast(self.model, self.version, record, change.pushes)
            else:
                self._fanout.broadcast_one_by_one(self.model, self.version, record)
        except Exception:
            log.exception("room %s: telling change %d failed; it is saved", self.code, self.seq)
        if change.answer is not None:
            change.answer[0].send(Ack(change.answer[1]))
        if self.seq % SNAPSHOT_EVERY == 0:  # before on_told, which may start the next change
            self._snapshot()
        try:
            self._on_told(record, change.was)
        except Exception:
            log.exception("room %s: after change %d", self.code, self.seq)

    def _snapshot(self) -> None:
        """Save the model as it is after record ``seq`` (durable: we are telling it), so a
        restart folds at most ``SNAPSHOT_EVERY`` records of this room (see ``replay``). Encoded
        now, while the model is exactly that (the next change may be folded before the save
        runs); saved in the background and only a cache: if it fails, replay starts earlier."""
        taken = self._take_snapshot()
        if taken is not None:
            in_background(self._save(*taken))

    async def save_snapshot(self) -> None:
        """Save a snapshot at ``seq`` unless the latest is there already. The server stopping
        saves one for every room (``RoomManager.shutdown``), so a planned restart folds no
        record at all. Never raises: a snapshot that is not saved costs replay time only."""
        taken = self._take_snapshot()
        if taken is not None:
            await self._save(*taken)

    def _take_snapshot(self) -> tuple[int, bytes, float] | None:
        seq = self.seq
        if seq == 0 or seq <= self.snapshot_seq or self.broken or self.ahead:
            return None
        try:
            return seq, snapshot_of(self.model), self.model.last_activity
        except Exception:
            log.exception("room %s: could not encode a snapshot at %d", self.code, seq)
            return None

    async def _save(self, seq: int, payload: bytes, at: float) -> None:
        try:
            await self.store.save_snapshot(self.code, seq, payload, at=at)
        except Exception as error:  # the room closed meanwhile, or the disk: replay folds more
            log.warning("room %s: snapshot at %d not saved (%r)", self.code, seq, error)
            return
        self.snapshot_seq = max(self.snapshot_seq, seq)

    async def rebuild(self) -> None:
        """Memory back to exactly what the log holds; if that fails, refuse every change
        rather than go on from a state nobody saved."""
        try:
            model, seq = await rebuild(self.store, self.code, self.model.games)
        except Exception:
            log.exception("room %s: rebuild failed; the room refuses changes", self.code)
            model = None
        if model is None:
            self.broken = True
            return
        self.model, self.seq, self.broken, self.ahead = model, seq, False, False


_background: set[asyncio.Task] = set()  # tasks that must not be garbage-collected mid-way


def in_background(work: Any) -> None:
    task = asyncio.get_running_loop().create_task(work)
    _background.add(task)
    task.add_done_callback(_background.discard)
