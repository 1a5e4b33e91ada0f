"""The PostgreSQL back-end (cluster mode): the log several nodes share, with fencing.

`store` is `PostgresStore`, a `FencedStore`; `schema` opens connections and migrates the
tables; `writer` is the group-commit task and `batch` one transaction of it (the fence and
the log's rules checked against the rooms' locked rows); `reads` is what the read connection
runs; `identity` is the HMAC key every node shares. psycopg is the optional ``cluster`` extra:
only cluster code imports this package.
"""

from .store import PostgresStore

__all__ = ["PostgresStore"]
