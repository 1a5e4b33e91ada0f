"""What the live room does about votes to remove that the fold cannot (``votes.py`` has the
rules): run the vote's clock, close a vote whose outcome is decided — each a logged
``VoteClosed``, so a replay decides as the room did — and keep a removed player's addresses
out for a while. Addresses are the room's memory only, never logged (an address is not the
player's, and the log outlives the room in its matches' pages); like every per-address limit
they start afresh when the server restarts, or in a cluster when another node takes the room.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

from ..games.base import RuleError
from .clocks import Clocks
from .commit import Commits
from .config import RoomConfig
from .inbox import FollowUp, Inbox, VoteDue
from .records import Kicked, Left, Record, VoteClosed
from .room_data import RoomModel
from .votes import barred_for, decided

if TYPE_CHECKING:
    from .seams import Peer


class VotingRoom(Protocol):
    """What of the live room (``room.Room``) its votes use."""

    config: RoomConfig
    clocks: Clocks
    inbox: Inbox
    commits: Commits

    @property
    def model(self) -> RoomModel: ...

    @property
    def closed(self) -> bool: ...

    def clock(self) -> float: ...


class LiveVotes:
    def __init__(self, room: VotingRoom) -> None:
        self._room = room
        # The addresses (limit keys) each seated player's connections came from, and those
        # kept out after a vote removed their player: address -> until (the room's clock).
        self._addresses: dict[str, set[str]] = {}
        self._barred: dict[str, float] = {}

    def watch(self) -> None:
        """Keep the running vote's clock; close a vote whose outcome is decided."""
        room = self._room
        vote = room.model.votes.running
        if vote is None or room.closed:
            room.clocks.schedule_vote(None)
            return
        room.clocks.schedule_vote(VoteDue(vote.number, vote.player, vote.deadline))
        if decided(vote) is not None:
            closing = VoteClosed(at=room.clock(), vote=vote.number, player=vote.player)
            room.inbox.put(FollowUp(closing))

    async def close(self, due: VoteDue) -> None:
        """The vote's clock ran out: undecided, it keeps the player."""
        room = self._room
        at = max(room.clock(), due.deadline)
        try:
            await room.commits.commit(VoteClosed(at=at, vote=due.vote, player=due.player))
        except RuleError:
            pass  # closed meanwhile (decided, or its target left)
        except Exception:
            room.clocks.schedule_vote(None)  # the next change schedules it again
            raise

    def seen(self, peer: Peer) -> None:
        """``peer`` is seated: remember its address for its player."""
        address = getattr(peer, "address", "")
        if address:
            self._addresses.setdefault(peer.player, set()).add(address)

    def after(self, record: Record) -> None:
        """After a change: a vote that removed ``record.player`` keeps the addresses their
        connections had out (``RoomConfig.address_bar_seconds``)."""
        if isinstance(record, (Left, Kicked)):
            self._addresses.pop(record.player, None)
        room = self._room
        if not isinstance(record, VoteClosed) or room.model.seat(record.player) is not None:
            return
        now = room.clock()
        self._barred = {a: until for a, until in self._barred.items() if until > now}
        for address in self._addresses.pop(record.player, ()):
            self._barred[address] = now + room.config.address_bar_seconds

    def check_address(self, peer: Peer) -> None:
        """A newcomer from an address a vote has just kept out is refused as the removed
        player's own identity is (the same words: the room does not say which)."""
        room = self._room
        if barred_for(room.model, peer.player, room.clock()) is not None:
            return  # their own identity is barred for longer: the fold says so
        until = self._barred.get(getattr(peer, "address", ""))
        if until is not None and until > room.clock():
            raise RuleError(
                "room.voted_out",
                "The players voted you out of this room; you may come back later.",
                minutes=max(1, math.ceil((until - room.clock()) / 60)),
            )
