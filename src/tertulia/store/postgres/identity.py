"""The identity key in cluster mode: one HMAC key, kept in PostgreSQL, for every node.

A player's public id is an HMAC of their token (`tertulia.rooms.identity`); for a browser to
keep its seat whichever node it reaches, every node must hold the same key. The first node to
start makes it; two starting at once race safely: each offers a fresh key with
``INSERT ... ON CONFLICT DO NOTHING`` and all of them then read the one that won. The key
never leaves the database except into the memory of the nodes.
"""

from __future__ import annotations

import secrets
from typing import Any

import psycopg

KEY_BYTES = 32


async def shared_key(conn: psycopg.AsyncConnection[Any]) -> bytes:
    """The site's key, made now if it does not exist yet (``conn`` in autocommit)."""
    await conn.execute(
        "INSERT INTO identity_key (id, key) VALUES (1, %s) ON CONFLICT (id) DO NOTHING",
        (secrets.token_bytes(KEY_BYTES),),
    )
    cursor = await conn.execute("SELECT key FROM identity_key WHERE id = 1")
    row = await cursor.fetchone()
    assert row is not None  # inserted above, or by whoever won; never deleted
    return bytes(row[0])
