"""Rebuilding rooms from the store: the same fold that ran live, over the persisted log.

A restart would otherwise fold every live room's whole log, so a room also saves a
**snapshot** of its model every ``SNAPSHOT_EVERY`` records (``Commits._tell``), and replay
starts from the latest one and folds only the records after it. A snapshot is a cache, never
the truth: the log is kept whole beside it, and a snapshot this code cannot read exactly
(written by another version, or of a game whose state types changed since) is ignored and
the whole log is folded instead (``replay_room``). Because fold rules never change under an
existing log (docs/architecture.md), a snapshot taken by this code after record N is exactly
what folding records 1..N gives — the property tests/rooms/test_room_snapshots.py checks.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import logging
from types import ModuleType
from typing import Any

import msgspec

from ..games.base import RuleError
from ..store import LiveRoom, Store
from ..version import VERSION
from .model import fold, note_seq
from .records import record_decoder
from .room_data import CHAT_HISTORY, RoomModel, Seat, Status, VoteBook, new_room

log = logging.getLogger("tertulia.replay")

# A restart folds at most this many records per room after its snapshot; a snapshot costs one
# encode of the model and one row rewritten, so taking one every 100 records is cheap.
SNAPSHOT_EVERY = 100

# Bump when RoomSnapshot's own fields change meaning.
SNAPSHOT_FORMAT = 3  # 2: seats know which games their player has played; 3: votes, pages


class RoomSnapshot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ``RoomModel`` as bytes. The game's settings and match travel as their own msgpack,
    decoded with the game's ``Settings`` and ``State`` types (the contract of games/base.py
    says both are msgspec Structs), so each comes back as the very types the fold made."""

    fingerprint: str  # what wrote it: see ``fingerprint``
    game: str
    settings: bytes
    match: bytes | None
    host: str | None
    seats: list[Seat]
    status: Status
    chat: list[dict[str, Any]]
    last_activity: float
    former_colours: dict[str, int]
    removed: list[str]
    votes: VoteBook
    match_page: str
    match_started_at: float
    opening: bytes | None
    hidden_names: list[str]
    match_seq: int
    match_chat: list[int]


_encode = msgspec.msgpack.Encoder().encode
_snapshot_decoder = msgspec.msgpack.Decoder(RoomSnapshot)


@functools.cache
def fingerprint(game: ModuleType) -> str:
    """Names this code's way of writing a room of ``game``: the snapshot format, the
    package's version and the game's ``Settings`` and ``State`` types, field by field. A
    snapshot with another fingerprint may not decode to what replay would give (a field
    added since would take its default), so it is not used."""
    shape = repr(
        (
            SNAPSHOT_FORMAT,
            VERSION,
            game.NAME,
            msgspec.inspect.multi_type_info([game.Settings, game.State]),
        )
    )
    return hashlib.sha256(shape.encode()).hexdigest()[:16]


def snapshot_of(model: RoomModel) -> bytes:
    """The room's whole state, as ``restore`` reads it back."""
    return _encode(
        RoomSnapshot(
            fingerprint=fingerprint(model.game),
            game=model.game.NAME,
            settings=_encode(model.settings),
            match=None if model.match is None else _encode(model.match),
            host=model.host,
            seats=model.seats,
            status=model.status,
            chat=list(model.chat),
            last_activity=model.last_activity,
            former_colours=model.former_colours,
            removed=sorted(model.removed),
            votes=model.votes,
            match_page=model.match_page,
            match_started_at=model.match_started_at,
            opening=model.opening,
            hidden_names=sorted(model.hidden_names),
            match_seq=model.match_seq,
            match_chat=model.match_chat,
        )
    )


def restore(
    code: str, public: bool, payload: bytes, games: dict[str, ModuleType]
) -> RoomModel | None:
    """The model a snapshot holds, or None if this code did not write it that way (another
    version, a game whose types changed, a game that is gone): then fold the whole log."""
    try:
        snap = _snapshot_decoder.decode(payload)
    except msgspec.DecodeError:
        return None
    game = games.get(snap.game)
    if game is None or snap.fingerprint != fingerprint(game):
        return None
    try:
        settings = msgspec.msgpack.decode(snap.settings, type=game.Settings)
        match = None if snap.match is None else msgspec.msgpack.decode(snap.match, type=game.State)
    except msgspec.DecodeError:
        return None
    return RoomModel(
        code=code,
        public=public,
        game=game,
        games=games,
        settings=settings,
        host=snap.host,
        seats=snap.seats,
        status=snap.status,
        match=match,
        chat=collections.deque(snap.chat, maxlen=CHAT_HISTORY),
        last_activity=snap.last_activity,
        former_colours=snap.former_colours,
        removed=set(snap.removed),
        votes=snap.votes,
        match_page=snap.match_page,
        match_started_at=snap.match_started_at,
        opening=snap.opening,
        hidden_names=set(snap.hidden_names),
        match_seq=snap.match_seq,
        match_chat=snap.match_chat,
    )


class _RefusedInPlace(Exception):
    """A record refused while folding in place: the room may be half-changed."""


def replay(live: LiveRoom, games: dict[str, ModuleType]) -> tuple[RoomModel | None, int]:
    """The room as it was after its last persisted record, and that record's seq; or
    (None, 0) if ``live`` starts from a snapshot this code cannot use (``live`` then lacks
    the records before it: load the whole log and call again, as ``replay_room`` does).

    The game's state is changed in place: nobody else holds it, and copying it for each move
    was most of a restart's time. A record the rules refuse (only if they changed under a
    stored log) may leave that state half-changed, so the log is then folded again on copies,
    where a refused record changes nothing and is logged and skipped."""
    try:
        return _fold_log(live, games, in_place=True)
    except _RefusedInPlace:
        return _fold_log(live, games, in_place=False)


def _fold_log(
    live: LiveRoom, games: dict[str, ModuleType], *, in_place: bool
) -> tuple[RoomModel | None, int]:
    room = live.room
    model, seq = None, 0
    if live.snapshot is not None:
        model = restore(room.code, room.public, live.snapshot.payload, games)
        if model is None:
            return None, 0
        seq = live.snapshot.seq
    if model is None:
        model = new_room(room.code, room.public, room.game, games)
    for entry in live.entries:
        record = record_decoder.decode(entry.payload)
        try:
            # What was accepted once is not judged again.
            fold(model, record, replaying=True, in_place=in_place)
            note_seq(model, record, entry.seq)
        except RuleError as error:  # only if the rules changed under a stored log
            if in_place:
                raise _RefusedInPlace from error
            log.error("room %s: record %d no longer applies (%s)", room.code, entry.seq, error)
        seq = entry.seq
    return model, seq


async def replay_room(
    store: Store, live: LiveRoom, games: dict[str, ModuleType]
) -> tuple[RoomModel | None, int, int]:
    """``replay``, reading the room's whole log when its snapshot cannot be used: the model,
    its seq and the seq of the snapshot it started from (0: none); (None, 0, 0) if the room
    is no longer live."""
    model, seq = replay(live, games)
    if model is not None:
        return model, seq, live.snapshot.seq if live.snapshot is not None else 0
    log.info("room %s: its snapshot is from another version; folding its whole log", live.room.code)
    whole = await store.load_live_room(live.room.code, snapshot=False)
    if whole is None:
        return None, 0, 0
    model, seq = replay(whole, games)
    return model, seq, 0


async def rebuild(
    store: Store, code: str, games: dict[str, ModuleType]
) -> tuple[RoomModel | None, int]:
    live = await store.load_live_room(code)
    if live is None:
        return None, 0
    model, seq, _ = await replay_room(store, live, games)
    return model, seq
