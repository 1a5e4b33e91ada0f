"""Every Redis key and channel of a site, in one place (issue 28.4).

All of them start with the site's namespace (``--redis-namespace``, ``tertulia`` by default),
so several sites, or tests, can share one Redis, and an ACL can allow exactly
``~NS:* &NS:*`` (docs/cluster.md). Nothing else builds a key by hand: a key written here and
read there cannot drift apart.

| key | type | what | written by |
|---|---|---|---|
| ``NS:nodes`` | sorted set | node → when its heartbeat lapses | each node's beat |
| ``NS:public:NODE`` | string | that node's public rooms (``PublicRoom``s) | its beat |
| ``NS:lease:CODE`` | string | ``"node fence"``: who owns the room | ``leases.py`` |
| ``NS:fence:CODE`` | string | the room's highest fence handed out | ``leases.py`` |
| ``NS:seated:PLAYER`` | sorted set | room code → last activity | ``seats.py`` |
| ``NS:game:CODE`` | string | the room's game | ``seats.py`` |
| ``NS:node:NODE`` | channel | frames to that node | ``bus.py`` |
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys and channels of one namespace."""

    namespace: str = "tertulia"

    @property
    def nodes(self) -> str:
        return f"{self.namespace}:nodes"

    def public(self, node: str) -> str:
        return f"{self.namespace}:public:{node}"

    def lease(self, code: str) -> str:
        return f"{self.namespace}:lease:{code}"

    def fence(self, code: str) -> str:
        return f"{self.namespace}:fence:{code}"

    def seated(self, player: str) -> str:
        return f"{self.namespace}:seated:{player}"

    def game(self, code: str) -> str:
        return f"{self.namespace}:game:{code}"

    def channel(self, node: str) -> str:
        return f"{self.namespace}:node:{node}"

    @property
    def channels(self) -> str:
        """The pattern of every node's channel (``PUBSUB CHANNELS``)."""
        return self.channel("*")
