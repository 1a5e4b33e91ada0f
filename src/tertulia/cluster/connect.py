"""How a node reaches the cluster's Redis: its client, a check before it listens, and what
counts as Redis refusing it.

The URL says everything redis-py can take from one: ``redis://user:password@host:port/db``
(an ACL user; ``redis://:password@…`` for ``requirepass``), and ``rediss://`` for TLS with
its options in the query — ``ssl_ca_certs=/path/ca.pem`` (the CA that signed Redis's
certificate; the certificate and its host name are checked unless told otherwise),
``ssl_certfile=`` and ``ssl_keyfile=`` (a client certificate). The password may instead be
read from a file of its own (``TERTULIA_REDIS_PASSWORD_FILE``), given here as ``password``.

A refusal — a wrong password or none, a user the ACL disables, a command, key or channel
the ACL forbids, a certificate that is not trusted, a TLS file that cannot be read — is a
configuration error: trying again would fail the same way. A Redis that cannot be reached
is not: a node starts without it and joins when it answers.
"""

from __future__ import annotations

import ssl
from typing import Any

from .keys import Keys


def client(url: str, password: str | None = None) -> Any:
    """The node's asyncio client (``redis.asyncio.Redis``)."""
    import redis.asyncio

    return redis.asyncio.from_url(url, **_options(password))


def check(url: str, namespace: str, *, password: str | None = None, timeout: float = 5.0) -> None:
    """Connect as a node does and use what its ACL must allow (a key and a channel of the
    namespace); raises what redis-py raises."""
    import redis

    probe = redis.Redis.from_url(
        url, socket_connect_timeout=timeout, socket_timeout=timeout, **_options(password)
    )
    try:
        probe.ping()
        keys = Keys(namespace)
        probe.zscore(keys.nodes, "-")
        probe.publish(keys.channel("-"), b"")  # a channel no node listens on
    finally:
        probe.close()


def refusal(error: BaseException) -> str | None:
    """Why Redis refused this node (a configuration error), or None if ``error`` is not a
    refusal (Redis could not be reached, or something else went wrong)."""
    from redis.exceptions import AuthenticationError, NoPermissionError

    seen: BaseException | None = error
    for _ in range(6):  # redis-py wraps the socket's error in its own
        if seen is None:
            return None
        if isinstance(seen, AuthenticationError):
            return f"it refused the credentials ({_said(seen)})"
        if isinstance(seen, NoPermissionError):
            return f"its ACL forbids what a node needs ({_said(seen)})"
        if isinstance(seen, ssl.SSLCertVerificationError):
            return f"its TLS certificate is not trusted ({seen.verify_message or _said(seen)})"
        if isinstance(seen, (FileNotFoundError, PermissionError, IsADirectoryError)):
            return f"a TLS file cannot be read ({_said(seen)})"
        seen = seen.__cause__ or seen.__context__
    return None


def _said(error: BaseException) -> str:
    return str(error).strip().rstrip(".") or type(error).__name__


def _options(password: str | None) -> dict[str, Any]:
    return {} if password is None else {"password": password}
