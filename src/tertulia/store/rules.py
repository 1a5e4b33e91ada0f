"""The rules every back-end applies alike: what a caller may ask of the store, and what the
log accepts.

Arguments are checked in the caller, before a request can reach a transaction other rooms
share, so a malformed one fails its own caller at once (`TypeError`, `ValueError`) and nobody
else. A back-end that stores less than this allows checks the rest on top (PostgreSQL's text
and jsonb cannot hold NUL: `postgres.store`).

The log's own rules (seqs continue by exactly one; a snapshot is neither behind the latest nor
ahead of the log) are checked in the writer, against what its transaction sees, by
`continue_log` and `check_snapshot`, whichever back-end runs them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import msgspec

from .base import LogEntry
from .errors import SeqError, SnapshotError

# -- a caller's arguments --------------------------------------------------------------


def when(at: float | None) -> float:
    """A timestamp, or now for None."""
    # The rooms layer passes its own clock so that a replayed log carries the times the
    # players saw; wall-clock time is only the fallback.
    if at is None:
        return time.time()
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise TypeError(f"expected a timestamp (float), got {type(at).__name__}")
    return float(at)


def moment(name: str, at: float) -> float:
    """A timestamp that must be given (a match's end)."""
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise TypeError(f"expected {name} to be a timestamp (float), got {type(at).__name__}")
    return float(at)


def seq(seq: int) -> int:
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"expected seq to be an int >= 1, got {seq!r}")
    return seq


def payload(payload: bytes) -> bytes:
    if isinstance(payload, bytes):
        return payload
    if isinstance(payload, bytearray | memoryview):
        return bytes(payload)
    raise TypeError(f"expected payload bytes, got {type(payload).__name__}")


def text(name: str, value: str) -> str:
    """A non-empty str (a room's code or game when it is created)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"expected {name} to be a non-empty str, got {value!r}")
    return value


def string(name: str, value: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected {name} to be a str, got {type(value).__name__}")
    return value


def code(code: str) -> str:
    """The code of a room a request names (whether a live room has it is the writer's to say)."""
    if not isinstance(code, str):
        raise TypeError(f"expected a room code (str), got {type(code).__name__}")
    return code


def entries(entries: LogEntry | Sequence[LogEntry]) -> list[LogEntry]:
    """One entry or several, each checked."""
    batch = [entries] if isinstance(entries, LogEntry) else list(entries)
    return [_entry(entry) for entry in batch]


def _entry(entry: LogEntry) -> LogEntry:
    if not isinstance(entry, LogEntry):
        raise TypeError(f"expected LogEntry, got {type(entry).__name__}")
    # Structs do not type-check on construction; a str payload would otherwise reach the
    # database and fail inside a transaction other rooms share.
    return LogEntry(seq(entry.seq), when(entry.at), payload(entry.payload))


def fence(fence: int) -> int:
    if isinstance(fence, bool) or not isinstance(fence, int) or not 0 <= fence < 2**63:
        raise ValueError(f"expected a fence to be an int from 0 to 2**63-1, got {fence!r}")
    return fence


def retention_limit(limit: int) -> int:
    """How many rows one call of `Store.remove_older_than` may remove."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"expected limit to be an int >= 1, got {limit!r}")
    return limit


def player_ids(players: list[dict[str, Any]]) -> list[str]:
    """The ids a finished match keeps as its players' (`base.FinishedMatch`): each seat's
    ``id``, once, but computer players' (``bot``)."""
    ids = [
        p["id"]
        for p in players
        if isinstance(p, dict) and isinstance(p.get("id"), str) and not p.get("bot")
    ]
    return list(dict.fromkeys(ids))


def recent_limit(limit: int) -> int:
    """How many matches `Store.recent_matches` may return."""
    if limit < 0:
        raise ValueError(f"expected limit >= 0, got {limit}")
    return limit


# -- the JSON columns (room meta, a match's players and extra) --------------------------------

_encode = msgspec.json.encode
decode_object = msgspec.json.Decoder(dict[str, Any]).decode
decode_players = msgspec.json.Decoder(list[dict[str, Any]]).decode


def to_json(value: Any) -> str:
    """JSON text (readable in the sqlite3 shell and psql); `TypeError` in the caller for a
    value JSON cannot hold, so it never fails a shared transaction."""
    return _encode(value).decode()


# -- what the log accepts (in the writer, against what its transaction sees) -------------------


def continue_log(code: str, last_seq: int, entries: Sequence[LogEntry]) -> int:
    """The room's last seq once ``entries`` follow ``last_seq``; `SeqError` unless their seqs
    continue it by exactly one each."""
    # Consecutive, not just increasing: a gap means an entry was lost or a second writer is
    # racing, and replay of a gapped log would silently diverge.
    expected = last_seq + 1
    for entry in entries:
        if entry.seq != expected:
            raise SeqError(
                f"room {code!r}: expected seq {expected}, got {entry.seq} "
                f"(batch seqs {[e.seq for e in entries]})"
            )
        expected += 1
    return expected - 1


def check_snapshot(code: str, seq: int, last_seq: int, latest: int | None) -> None:
    """`SnapshotError` for a snapshot at ``seq`` ahead of the log (which ends at ``last_seq``)
    or behind the ``latest`` kept; one at the same seq replaces it (another version's)."""
    if seq > last_seq:
        raise SnapshotError(f"room {code!r}: snapshot at seq {seq} but the log ends at {last_seq}")
    if latest is not None and seq < latest:
        raise SnapshotError(f"room {code!r}: snapshot at seq {seq} is behind the one at {latest}")
