"""The writes a store's writer runs: one typed message per operation.

A store object checks its caller's arguments (`rules`) and turns the call into one of these;
its writer runs the message in a group-committed transaction with a handler per type:
SQLite's in the writer process (`sqlite.ops`, the message crossing the socket as msgpack),
PostgreSQL's on the event loop (`postgres.batch`). Messages are frozen and array-like (on the
wire: the type's name, then the fields in order); JSON columns travel already encoded, so a
value JSON cannot hold fails in the caller, never in a shared transaction.

Which writer runs which: both run every `RoomWrite` but `Claim`, and `RecordMatch`. `Claim` is
PostgreSQL's alone (fencing, `base.FencedStore`). `RemoveExpired` is SQLite's alone: its single
writer does retention between group commits, where PostgreSQL does it on its read connection
beside the writer (`postgres.reads.remove_older_than`).
"""

from __future__ import annotations

import msgspec

from .base import LogEntry, Snapshot


class Write(msgspec.Struct, frozen=True, array_like=True, tag=True):
    """A request for the writer; the tag is the class's name."""


class RoomWrite(Write, frozen=True):
    """A write of one room, by its code: the rows a PostgreSQL batch locks."""

    code: str


class CreateRoom(RoomWrite, frozen=True):
    """Register a live room (`RoomExists` if one has the code); PostgreSQL: owned under
    ``fence`` by the store that creates it."""

    game: str
    public: bool
    created_at: float
    meta_json: str
    fence: int = 0


class Claim(RoomWrite, frozen=True):
    """Raise the room's fence to ``fence`` (`FencedOut` unless it is above); answered with
    `Claimed`."""

    fence: int


class Append(RoomWrite, frozen=True):
    """Entries that continue the room's log by +1 each (`rules.continue_log`)."""

    entries: list[LogEntry]


class SaveSnapshot(RoomWrite, frozen=True):
    """Keep the room's latest snapshot (`rules.check_snapshot`)."""

    snapshot: Snapshot


class UpdateMeta(RoomWrite, frozen=True):
    meta_json: str


class CloseRoom(RoomWrite, frozen=True):
    """Mark the room closed at ``at``; its log and snapshot go too unless ``keep_log``."""

    reason: str
    at: float
    keep_log: bool


class RecordMatch(Write, frozen=True):
    """Keep a finished match (of ``room``, which need not be live), its players (``player_ids``)
    and, if ``last_seq``, its records copied from the live room's log (``first_seq`` to
    ``last_seq`` but ``skip``) with its ``opening``. Its first fields are in the order of the
    columns of ``finished_matches`` they fill."""

    room: str
    game: str
    started_at: float | None
    ended_at: float
    players_json: str
    extra_json: str
    public_id: str | None = None
    opening: bytes | None = None
    player_ids: list[str] = []
    first_seq: int = 0
    last_seq: int = 0
    skip: list[int] = []

    def row(self) -> tuple:
        """The values of the match's row, in `sql.insert_match_sql`'s order."""
        return (
            self.room,
            self.game,
            self.started_at,
            self.ended_at,
            self.players_json,
            self.extra_json,
            self.public_id,
            self.opening,
        )


class RemoveExpired(Write, frozen=True):
    """Retention: at most ``limit`` rows of what ended before ``before``; answered with how
    many went."""

    before: float
    limit: int


class Claimed(msgspec.Struct, frozen=True):
    """What a `Claim` answers: the room's row, and the fence it is now held under."""

    room_id: int
    fence: int
