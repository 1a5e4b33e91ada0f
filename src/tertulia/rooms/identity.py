"""Who a connection is: a secret token kept by the browser, and the public id derived from it.

The public player id is an HMAC of the token under the server's secret key, so the server
needs no table of players, the same browser always gets the same seat, and knowing someone's
public id (which every seat in the room sees) gives no way to their token or their seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from pathlib import Path

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


class Identity:
    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("expected a key of at least 16 bytes")
        self._key = key

    @classmethod
    def from_file(cls, path: Path) -> Identity:
        """The key kept beside the database; made on first start. Keep it with the data."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_bytes(secrets.token_bytes(32))
            path.chmod(0o600)
        return cls(path.read_bytes())

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)

    @staticmethod
    def is_token(text: object) -> bool:
        return isinstance(text, str) and _TOKEN.match(text) is not None

    def player_id(self, token: str) -> str:
        digest = hmac.new(self._key, token.encode(), hashlib.sha256).digest()
        return base64.b32encode(digest[:10]).decode().lower()
