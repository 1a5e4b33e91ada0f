"""Errors the store raises.

Two kinds, kept apart on purpose (as h11 does): a *refused request* (`SeqError`,
`UnknownRoom`, `RoomExists`, `SnapshotError`, `FencedOut`, `MatchExists`) means the caller
asked for something the log cannot accept, nothing was written, and the store is fine; a
`CommitFailed` means the database itself failed, nothing in that batch was acknowledged, and
the room that sent it cannot know more than "not written".
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises."""


class UnknownRoom(StoreError):
    """The code names no live room (never created, or already closed)."""


class RoomExists(StoreError):
    """A live room already has this code."""


class SeqError(StoreError):
    """An append's seq numbers do not continue the room's log.

    Usually two writers for one room, or a retry of something already written.
    """


class MatchExists(StoreError):
    """Another finished match already has this page id (`FinishedMatch.public_id`)."""


class SnapshotError(StoreError):
    """A snapshot's seq is ahead of the log or behind the latest snapshot."""


class FencedOut(StoreError):
    """Another node has claimed this room with a higher fencing number since this store
    claimed (or created) it: this node no longer owns the room and must let it go.

    Raised by `claim` when the stored fence is already at least the one offered, and by
    every write of a room whose fence was overtaken (checked in the write's own
    transaction, so a paused former owner never appends after a takeover). Nothing of the
    request was written; other rooms' requests in the same transaction are unaffected.

    ``stored_fence``, when known (a refused claim), is the room's fence in the log: a
    lease counter that fell behind it (Redis keeps nothing on disk) starts again above it.
    """

    def __init__(self, message: str, stored_fence: int | None = None) -> None:
        super().__init__(message)
        self.stored_fence = stored_fence


class CommitFailed(StoreError):
    """The transaction holding this request failed; nothing in it was written.

    The original database error is chained as ``__cause__``.
    """


class StoreClosed(StoreError):
    """The store was closed; it takes no more requests."""
