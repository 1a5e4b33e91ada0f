"""The PostgreSQL store's tables, how a connection is opened, and schema migrations.

Migrations are SQL scripts applied in order, each in one transaction with the bump of
`schema_version`; never edit a released one, append a new one. Several nodes may start at
once against an empty database, so the migration runs under a transaction-level advisory
lock: the first node creates the tables, the others wait and find them made. A database
newer than this code is refused rather than guessed at.

The tables are the SQLite store's, written once in `sql` and spelt here by `DIALECT`, with two
additions for a cluster: each room's `fence` (the fencing number of its current owner, see
`base.FencedStore`) and the `identity_key` every node shares (see `identity`). Times are
seconds since the epoch as float8, as in SQLite, so the rooms layer's clock passes through
unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..sql import Dialect, migrations_to_run, schema_1, schema_2

if TYPE_CHECKING:  # psycopg is imported lazily: the single-process server never needs it
    import psycopg

# A column kind of the shared tables (`sql.Column`) -> its type here.
DIALECT = Dialect(
    types={
        "key": "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "int": "bigint",
        "bool": "boolean",
        "time": "float8",
        "text": "text",
        "json": "jsonb",
        "bytes": "bytea",
        "fence": "bigint",
    },
    table_options="",
    param="%s",
    json_text="{}::text",
    # As SQLite's json_extract(...) = 1: true, or the number 1.
    public_extra="extra -> 'public' IN ('true'::jsonb, '1'::jsonb)",
    not_listed="NOT ({} = ANY(%s::bigint[]))",
)

MIGRATIONS: list[str] = [
    # 1: rooms (with their fence), logs, snapshots, finished matches, the identity key.
    schema_1(DIALECT)
    + """
-- One row: the HMAC key that turns tokens into player ids, the same on every node.
CREATE TABLE identity_key (
    id  smallint PRIMARY KEY CHECK (id = 1),
    key bytea NOT NULL CHECK (length(key) >= 16)
);
""",
    # 2: match pages: each finished match's page id, opening and records, and its players.
    schema_2(DIALECT),
]

# Any fixed number, the same on every node: the advisory lock that serialises migrations.
_MIGRATION_LOCK = 0x7465_7274  # "tert"


def connect_kwargs(schema: str | None, password: str | None = None) -> dict[str, Any]:
    """Connection options every connection of the store uses. Everything else comes from
    the URL, which libpq reads as ``psql`` does (user and password, ``sslmode=verify-full``
    and ``sslrootcert=``, …); ``password``, read from a file of its own, wins over one there."""
    kwargs: dict[str, Any] = {"autocommit": True}  # we issue BEGIN/COMMIT: one per batch
    if password is not None:
        kwargs["password"] = password
    if schema is not None:
        # The server keeps search_path for the whole session, so every statement (ours
        # unqualified) finds the store's tables in its own schema.
        kwargs["options"] = f"-c search_path={schema}"
    return kwargs


def check_schema_name(schema: str | None) -> str | None:
    """A schema name we can put in search_path without quoting: letters, digits, _."""
    if schema is None:
        return None
    if not schema or not (schema[0].isalpha() or schema[0] == "_"):
        raise ValueError(f"expected a schema name starting with a letter, got {schema!r}")
    if not all(c.isascii() and (c.isalnum() or c == "_") for c in schema) or len(schema) > 63:
        raise ValueError(f"expected a schema name of ASCII letters, digits and _, got {schema!r}")
    return schema


async def migrate(conn: psycopg.AsyncConnection[Any], schema: str | None) -> int:
    """Create the schema (if named) and bring the tables up to date; the version in force."""
    from psycopg import sql

    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        if schema is not None:
            await conn.execute(
                sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema))
            )
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        cursor = await conn.execute("SELECT version FROM schema_version")
        row = await cursor.fetchone()
        if row is None:
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            current = 0
        else:
            current = row[0]
        for version, script in migrations_to_run(current, MIGRATIONS):
            await conn.execute(script)
            await conn.execute("UPDATE schema_version SET version = %s", (version,))
    return len(MIGRATIONS)
