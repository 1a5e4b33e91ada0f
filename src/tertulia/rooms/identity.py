"""Who a connection is: a secret token kept by the browser, and the public id derived from it.

The public player id is an HMAC of the token under the server's secret key, so the server
needs no table of players, the same browser always gets the same seat, and knowing someone's
public id (which every seat in the room sees) gives no way to their token or their seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import TypeGuard

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


class Identity:
    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("expected a key of at least 16 bytes")
        self._key = key

    @classmethod
    def from_file(cls, path: Path) -> Identity:
        """The key kept beside the database; made on first start. Keep it with the data.

        A new key file is created readable by its owner only from its first byte (not
        written, then restricted: a crash or a reader in between would see the key), and
        never over an existing one (two servers starting at once keep the first key)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return cls(_read_key(path))
        try:
            os.write(descriptor, secrets.token_bytes(32))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        return cls(_read_key(path))

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)

    @staticmethod
    def is_token(text: object) -> TypeGuard[str]:
        return isinstance(text, str) and _TOKEN.match(text) is not None

    def player_id(self, token: str) -> str:
        digest = hmac.new(self._key, token.encode(), hashlib.sha256).digest()
        return base64.b32encode(digest[:10]).decode().lower()


def _read_key(path: Path) -> bytes:
    key = path.read_bytes()
    if len(key) < 16:  # a key file whose writer died before writing it: nobody used it yet
        raise ValueError(f"{path} holds no usable key; remove it and start again")
    return key
