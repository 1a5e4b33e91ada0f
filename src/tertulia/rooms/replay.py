"""Rebuilding rooms from the store: the same fold that ran live, over the persisted log."""

from __future__ import annotations

import logging
from types import ModuleType

from ..games.base import RuleError
from ..store import LiveRoom, Store
from .model import RoomModel, fold, new_room, record_decoder

log = logging.getLogger("tertulia.replay")


def replay(live: LiveRoom, games: dict[str, ModuleType]) -> tuple[RoomModel, int]:
    """The room as it was after its last persisted record, and that record's seq."""
    room = live.room
    model = new_room(room.code, room.public, room.game, games)
    seq = 0
    for entry in live.entries:
        record = record_decoder.decode(entry.payload)
        try:
            fold(model, record, replaying=True)  # what was accepted once is not judged again
        except RuleError as error:  # only if the rules changed under a stored log
            log.error("room %s: record %d no longer applies (%s)", room.code, entry.seq, error)
        seq = entry.seq
    return model, seq


async def rebuild(
    store: Store, code: str, games: dict[str, ModuleType]
) -> tuple[RoomModel | None, int]:
    for live in await store.load_live_rooms():
        if live.room.code == code:
            return replay(live, games)
    return None, 0
