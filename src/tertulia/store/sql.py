"""The SQL both dialects share, written once: the tables and indexes of the first schema and
of the one that keeps matches' logs (match pages), the queries for recent matches, a player's
matches and one kept match, copying a match's log, and turning rows back into records.

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
    # The condition "this seq is not one of a list" (one parameter: the list, as `seqs`
    # gives it); ``{}`` stands for the seq.
    not_listed: str = ""


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


# Match pages (issue 31): what each finished match kept of its room's log, released as
# SQLite's migration 3 and PostgreSQL's 2. Never edit them either.
COLUMNS_2 = (
    # The id of the match's page (/m/<id>): random, unguessable; NULL for older matches.
    Column("public_id", "text"),
    # The room as it was just before the match started (rooms/openings.py), which the kept
    # records fold from; NULL when none was kept.
    Column("opening", "bytes"),
)
TABLES_2 = (
    Table(
        "match_log",
        (
            Column("match_id", "int", "NOT NULL REFERENCES finished_matches (id)"),
            Column("seq", "int", "NOT NULL"),
            Column("at", "time", "NOT NULL"),
            Column("payload", "bytes", "NOT NULL"),
        ),
        primary_key="match_id, seq",
        note="the match's records, copied from its room's log when it ended",
    ),
    Table(
        "match_players",
        (
            Column("match_id", "int", "NOT NULL REFERENCES finished_matches (id)"),
            Column("player", "text", "NOT NULL", "a player id (never a bot's)"),
            Column("ended_at", "time", "NOT NULL", "the match's, to list by"),
        ),
        primary_key="match_id, player",
        note="who played each match: a player's own matches",
    ),
)
INDEXES_2 = """
CREATE UNIQUE INDEX finished_matches_public_id ON finished_matches (public_id);
CREATE INDEX match_players_player ON match_players (player, ended_at DESC, match_id DESC);
"""


def schema_2(dialect: Dialect) -> str:
    """Match pages' columns, tables and indexes, in ``dialect``."""
    columns = "".join(
        f"\nALTER TABLE finished_matches ADD COLUMN {column.name} {dialect.types[column.kind]};"
        for column in COLUMNS_2
    )
    return columns + "\n" + "".join(_create_table(t, dialect) for t in TABLES_2) + INDEXES_2


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
    return (
        f"SELECT {_match_columns(dialect)} "
        f"FROM finished_matches {where}ORDER BY ended_at DESC, id DESC LIMIT {dialect.param}",
        [*params, limit],
    )


def _match_columns(dialect: Dialect, table: str = "") -> str:
    """A finished match's columns, as `finished_match` reads them (of ``table.``)."""
    players = dialect.json_text.format(f"{table}players")
    extra = dialect.json_text.format(f"{table}extra")
    return (
        f"{table}room_code, {table}game, {table}started_at, {table}ended_at, {players}, "
        f"{extra}, {table}public_id"
    )


def finished_match(row: Sequence[Any]) -> FinishedMatch:
    """A row of `recent_matches_query`, `matches_of_query` or `match_query`."""
    room, game, started_at, ended_at, players, extra, public_id = row[:7]
    return FinishedMatch(
        room=room,
        game=game,
        ended_at=ended_at,
        players=rules.decode_players(players),
        started_at=started_at,
        extra=rules.decode_object(extra),
        public_id=public_id,
    )


def matches_of_query(
    dialect: Dialect, player: str, limit: int, before: float | None
) -> tuple[str, list[Any]]:
    """`Store.matches_of` as a statement and its parameters; rows for `finished_match`."""
    p = dialect.param
    earlier = f"AND p.ended_at < {p} " if before is not None else ""
    return (
        f"SELECT {_match_columns(dialect, 'm.')} FROM match_players p "
        f"JOIN finished_matches m ON m.id = p.match_id "
        f"WHERE p.player = {p} {earlier}"
        f"ORDER BY p.ended_at DESC, p.match_id DESC LIMIT {p}",
        [player, *([before] if before is not None else []), limit],
    )


def match_query(dialect: Dialect) -> str:
    """One finished match by its page's id: its columns for `finished_match`, then its row
    id and opening (one parameter: the id)."""
    return (
        f"SELECT {_match_columns(dialect)}, id, opening FROM finished_matches "
        f"WHERE public_id = {dialect.param}"
    )


def match_log_query(dialect: Dialect) -> str:
    """The kept records of one match, in order (one parameter: its row id)."""
    return f"SELECT seq, at, payload FROM match_log WHERE match_id = {dialect.param} ORDER BY seq"


# -- writes shared by both writers -----------------------------------------------------------


def insert_match_sql(dialect: Dialect) -> str:
    """A finished match's row (its columns in `writes.RecordMatch`'s order); the caller reads
    its id back as its dialect does."""
    p = dialect.param
    return (
        "INSERT INTO finished_matches "
        "(room_code, game, started_at, ended_at, players, extra, public_id, opening) "
        f"VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
    )


def insert_match_player_sql(dialect: Dialect) -> str:
    p = dialect.param
    return f"INSERT INTO match_players (match_id, player, ended_at) VALUES ({p}, {p}, {p})"


def copy_match_log_sql(dialect: Dialect) -> str:
    """Copy a match's records from its room's log (the live room with that code): parameters
    the match's row id, the code, the first and last seq, and the seqs to leave out (its chat
    lines: never kept past the room)."""
    p = dialect.param
    return (
        "INSERT INTO match_log (match_id, seq, at, payload) "
        f"SELECT {p}, l.seq, l.at, l.payload FROM log l JOIN rooms r ON r.id = l.room_id "
        f"WHERE r.code = {p} AND r.closed_at IS NULL AND l.seq BETWEEN {p} AND {p} "
        f"AND {dialect.not_listed.format('l.seq')}"
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
