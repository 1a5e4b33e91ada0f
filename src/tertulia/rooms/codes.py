"""Room codes: short, easy to read aloud and to type on a phone. And the ids of matches' pages.

The alphabet leaves out characters that are easy to confuse (0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V).

A match's page (``/m/<id>``) is never typed but followed from a link, and it outlives its
room by ``--keep-days``: its id is 16 characters of URL-safe base64 drawn from the system's
CSPRNG (``secrets``), 96 bits, so nothing about one id tells another (a room code has about
22.6 bits and lives only while its room does; both are looked up under the same per-address
budget of misses).
"""

from __future__ import annotations

import re
import secrets

MATCH_ID_BYTES = 12  # 96 bits: 16 characters
_MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{16}$")

ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
MIN_LENGTH = 4
MAX_LENGTH = 6
DEFAULT_LENGTH = 5


def new_code(length: int = DEFAULT_LENGTH) -> str:
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise ValueError(f"expected a length from {MIN_LENGTH} to {MAX_LENGTH}, got {length}")
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str | None:
    """What a player typed (``" kf7q x"``) as a code (``"KF7QX"``), or None if it cannot be one."""
    code = "".join(text.split()).upper() if isinstance(text, str) else ""
    if not MIN_LENGTH <= len(code) <= MAX_LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def new_match_id() -> str:
    """A fresh, unguessable id of a match's page."""
    return secrets.token_urlsafe(MATCH_ID_BYTES)


def is_match_id(text: object) -> bool:
    """Whether ``text`` has the shape of a match page's id (no lookup needed for one that
    has not)."""
    return isinstance(text, str) and _MATCH_ID.match(text) is not None
