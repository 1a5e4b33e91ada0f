"""Several ``tertulia serve`` nodes as one site (cluster mode, opt-in by configuration).

Every room has exactly one owner node at a time: a lease in Redis (``leases.py``) says which,
and a fencing number that the owner's writes carry lets the shared log refuse a former owner
that was paused past its lease. Any node takes any connection: a frame for a room owned
elsewhere is relayed to its owner over Redis, and the owner's pushes come back the same way
(``relay.py``).

Nothing here is imported without ``--redis-url``: the single process with SQLite needs neither
Redis nor this package. ``rooms/`` never imports it; it implements what ``rooms/`` asks for.
"""
