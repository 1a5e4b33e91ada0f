"""Whether this node may use the PostgreSQL it was given, asked once before it listens.

A server that refuses the node — a wrong password or none, no such role or database, no
``pg_hba.conf`` line for it, a certificate that ``sslmode=verify-full`` does not trust — is
a configuration error: starting again would fail the same way (``tertulia serve`` exits 78).
One that cannot be reached (not started yet, a network blip) is a temporary failure.

libpq gives no SQLSTATE for a connection that failed, so `refusal` reads what it does give:
whether the server asked for a password (``needs_password``: none was given) or took one
(``used_password``: the server answered, then refused), and for what is decided before any
password — ``pg_hba.conf``, TLS — libpq's own words (client-side, in English).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .schema import connect_kwargs

# Refusals decided before any password is asked for: no pg_hba.conf line (the server's
# words, with the file's name in every language), and TLS (libpq's).
_REFUSED_BEFORE_PASSWORD = (
    "pg_hba.conf",
    "certificate",
    "does not support SSL",
    "does not exist",  # a database or role, where no password is asked (trust, cert)
)


def check(url: str, *, password: str | None = None, timeout: float = 5.0) -> None:
    """Connect as the store will and run ``SELECT 1``; raises what psycopg raises."""
    kwargs: dict[str, Any] = connect_kwargs(None, password)
    if "connect_timeout" not in conninfo_to_dict(url):
        kwargs["connect_timeout"] = max(2, round(timeout))
    with psycopg.connect(url, **kwargs) as conn:
        conn.execute("SELECT 1")


def refusal(error: BaseException) -> str | None:
    """Why PostgreSQL refused this node (a configuration error), or None if ``error`` is
    not a refusal (the server could not be reached, or something else went wrong)."""
    if not isinstance(error, psycopg.OperationalError):
        return None
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    pgconn = getattr(error, "pgconn", None)
    if pgconn is not None and (pgconn.needs_password or pgconn.used_password):
        return text
    if any(words in str(error) for words in _REFUSED_BEFORE_PASSWORD):
        return text
    return None
