"""Room codes: short, easy to read aloud and to type on a phone.

The alphabet leaves out characters that are easy to confuse (0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V).
"""

from __future__ import annotations

import secrets

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
