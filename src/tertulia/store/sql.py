"""The SQL both dialects share, written once: the first schema's tables and indexes, the
recent-matches query, and turning rows back into records.

A `Dialect` (one in each back-end's `schema`) says how the shared parts are spelt there: its
column types, its query parameter, how a JSON column is read as text, how "the match's extra
says public" is asked.

What stays per dialect, and why:

- How a migration runs: SQLite in one ``executescript`` inside BEGIN IMMEDIATE; PostgreSQL
  under an advisory lock, since several nodes may start at once on an empty database.
- What only one of them has: SQLite's STRICT tables and its migration 2 (the index retention
  finds closed rooms by); PostgreSQL's ``fence`` column and ``identity_key`` table (cluster
  mode).
- Every statement whose plan or locking differs: reading live rooms (SQLite's CROSS JOIN
  plan; PostgreSQL's REPEATABLE READ and one room by id), the group commit's statements
  (PostgreSQL's row locks, ``unnest`` and pipelines; SQLite's savepoints) and retention
  (SQLite deletes a room's log in rowid batches).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import rules
from .base import FinishedMatch, LiveRoom, LogEntry, RoomRecord, Snapshot


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database spells the shared SQL."""

    # A column's kind (see `Column`) -> its type and constraints there; None: no such column.
    types: Mapping[str, str | None]
    table_options: str  # after a CREATE TABLE's closing parenthesis
    param: str  # a query parameter's placeholder
    json_text: str  # a JSON column read as JSON text; ``{}`` stands for the column
    public_extra: str  # the condition "this finished match's extra says public"


class Column(NamedTuple):
    name: str
    # key (the row id), int, bool, time (seconds since the epoch), text, json, bytes;
    # fence (PostgreSQL's alone: the owner's fencing number, see `base.FencedStore`)
    kind: str
    constraint: str = ""
    note: str = ""


class Table(NamedTuple):
    name: str
    columns: tuple[Column, ...]
    primary_key: str = ""  # one of several columns
    note: str = ""


# The tables and indexes of schema version 1, as released: never edit them (a database made
# before would differ from one made after); a change is a new migration of each dialect.
TABLES_1 = (
    Table(
        "rooms",
        (
            Column("id", "key"),
            Column("code", "text", "NOT NULL"),
            Column("game", "text", "NOT NULL"),
            Column("public", "bool", "NOT NULL"),
            Column("created_at", "time", "NOT NULL"),
            Column("meta", "json", "NOT NULL", "JSON object"),
            Column("fence", "fence", "NOT NULL DEFAULT 0", "the owner's fencing number"),
            Column("closed_at", "time", "", "NULL while the room is live"),
            Column("close_reason", "text"),
        ),
    ),
    Table(
        "log",
        (
            Column("room_id", "int", "NOT NULL REFERENCES rooms (id)"),
            Column("seq", "int", "NOT NULL"),
            Column("at", "time", "NOT NULL"),
            Column("payload", "bytes", "NOT NULL"),
        ),
        primary_key="room_id, seq",
    ),
    Table(
        "snapshots",
        (
            Column("room_id", "int", "PRIMARY KEY REFERENCES rooms (id)"),
            Column("seq", "int", "NOT NULL"),
            Column("at", "time", "NOT NULL"),
            Column("payload", "bytes", "NOT NULL"),
        ),
        note="the latest snapshot of each room only",
    ),
    Table(
        "finished_matches",
        (
            Column("id", "key"),
            Column("room_code", "text", "NOT NULL"),
            Column("game", "text", "NOT NULL"),
            Column("started_at", "time"),
            Column("ended_at", "time", "NOT NULL"),
            Column("players", "json", "NOT NULL", "JSON array of objects"),
            Column("extra", "json", "NOT NULL", "JSON object"),
        ),
    ),
)
INDEXES_1 = """
-- Codes are short, so they are reused once a room closes: unique among live rooms only.
CREATE UNIQUE INDEX rooms_live_code ON rooms (code) WHERE closed_at IS NULL;
CREATE INDEX finished_matches_recent ON finished_matches (ended_at DESC, id DESC);
CREATE INDEX finished_matches_game ON finished_matches (game, ended_at DESC, id DESC);
"""


def schema_1(dialect: Dialect) -> str:
    """The tables and indexes of schema version 1, in ``dialect``."""
    return "".join(_create_table(table, dialect) for table in TABLES_1) + INDEXES_1


def _create_table(table: Table, dialect: Dialect) -> str:
    lines = [
        (f"{column.name:<12} {spelt} {column.constraint}".rstrip(), column.note)
        for column in table.columns
        if (spelt := dialect.types[column.kind]) is not None
    ]
    if table.primary_key:
        lines.append((f"PRIMARY KEY ({table.primary_key})", ""))
    body = ""
    for number, (line, note) in enumerate(lines, start=1):
        line = f"    {line}{',' if number < len(lines) else ''}"
        body += f"{line:<44} -- {note}\n" if note else f"{line}\n"
    note = f"  -- {table.note}" if table.note else ""
    return f"\nCREATE TABLE {table.name} ({note}\n{body}){dialect.table_options};\n"


def migrations_to_run(current: int, migrations: Sequence[str]) -> list[tuple[int, str]]:
    """The migrations a database at version ``current`` still needs, each with the version
    it brings; a database newer than this code is refused rather than guessed at."""
    if current > len(migrations):
        raise RuntimeError(
            f"database schema version {current} is newer than this code "
            f"({len(migrations)}); refusing to open it"
        )
    return list(enumerate(migrations[current:], start=current + 1))


# -- reads -----------------------------------------------------------------------------------


def recent_matches_query(
    dialect: Dialect, limit: int, game: str | None, public_only: bool
) -> tuple[str, list[Any]]:
    """`Store.recent_matches` as a statement and its parameters; rows for `finished_match`."""
    conditions, params = [], []
    if game is not None:
        conditions.append(f"game = {dialect.param}")
        params.append(game)
    if public_only:
        conditions.append(dialect.public_extra)
    where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
    players, extra = dialect.json_text.format("players"), dialect.json_text.format("extra")
    return (
        f"SELECT room_code, game, started_at, ended_at, {players}, {extra} "
        f"FROM finished_matches {where}ORDER BY ended_at DESC, id DESC LIMIT {dialect.param}",
        [*params, limit],
    )


def finished_match(row: Sequence[Any]) -> FinishedMatch:
    """A row of `recent_matches_query`."""
    room, game, started_at, ended_at, players, extra = row
    return FinishedMatch(
        room=room,
        game=game,
        ended_at=ended_at,
        players=rules.decode_players(players),
        started_at=started_at,
        extra=rules.decode_object(extra),
    )


def live_room(row: Sequence[Any], snapshot: Snapshot | None, entries: list[LogEntry]) -> LiveRoom:
    """What replay needs, from a room's row (``id, code, game, public, created_at, meta`` as
    JSON text), its snapshot and the entries after it."""
    _, code, game, public, created_at, meta = row
    return LiveRoom(
        room=RoomRecord(code, game, bool(public), created_at, rules.decode_object(meta)),
        snapshot=snapshot,
        entries=entries,
    )


def live_rooms(
    rooms: Sequence[Sequence[Any]],
    snapshots: Mapping[int, Snapshot],
    entries: Mapping[int, list[LogEntry]],
) -> list[LiveRoom]:
    """`live_room` of each row, with its snapshot and entries by room id."""
    return [live_room(row, snapshots.get(row[0]), entries.get(row[0], [])) for row in rooms]
