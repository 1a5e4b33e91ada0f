"""The writer process: owns the write connection and group-commits every waiting request.

Why a process and not a thread: the writer spends its life handing the GIL back and forth
— every statement releases it around SQLite and must take it back — and under load the
event loop holds it for milliseconds at a time, so a writer thread waited for the GIL at
every step (measured: an append's p99 was 3.7 ms for a 0.75 ms fsync; benchmarks/README.md).
A process shares no GIL: it waits only for the disk.

Why group commit: while an fsync runs, new requests queue up in the socket; the next
transaction takes all of them, so N rooms acting at once cost about one fsync per round,
not N. Why one writer: SQLite has a single writer anyway.

A request is one typed write (`writes`), run by its handler (`ops.HANDLERS`) inside a
savepoint, so a refused request (a `StoreError`, or a caller's mistake such as a constraint)
is rolled back alone and fails alone; any other exception, or a failed COMMIT, rolls the whole
batch back and fails every request in it with `CommitFailed`. So does a request the writer
cannot read (a write it does not run: a bug). Answers are sent only after the outcome of the
COMMIT is known: nothing is acknowledged before it is durable.

Wire format, both ways: frames of a 4-byte big-endian length and a msgpack array.
Request ``[id, write]``; answer ``[id, error, commits, failed_batches, result]`` where
``error`` is None or ``[kind, message, cause_kind, cause_message]`` (see `error_from_wire`)
and ``result`` what the write returned (None for most; a count for `RemoveExpired`).

Started by `writer_client.WriterProcess`, which passes it the database path, the busy
timeout in seconds and the file descriptor of its end of a socket pair (``main``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import operator
import signal
import socket
import sqlite3
import struct
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from .. import errors
from ..writes import Write
from . import ops, schema

log = logging.getLogger("tertulia.store.writer")

# What a single request may raise without harming the rest of its batch: refusals,
# and the caller's own mistakes (a constraint, a value SQLite cannot bind). These
# leave the transaction intact, so rolling back to the request's savepoint is
# enough. Anything else (I/O, disk full, busy, corruption) ends the whole batch.
_REQUEST_ERRORS = (
    errors.StoreError,
    sqlite3.IntegrityError,
    sqlite3.InterfaceError,
    sqlite3.ProgrammingError,
    TypeError,
    ValueError,
)

# A cap keeps one transaction (and the wait of its first caller) bounded under a
# flood; 2,000 simultaneous actions still take only a few commits.
MAX_BATCH = 1000

_HEADER = struct.Struct(">I")
# Per read: recv(n) allocates n bytes whatever arrives, and a megabyte each time was slower
# than the answer it held (a batch of answers is a few kilobytes).
READ_SIZE = 64 * 1024
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode
# A request: its id and one of the writes this writer runs.
_decode_request = msgspec.msgpack.Decoder(
    tuple[int, functools.reduce(operator.or_, ops.HANDLERS)]  # type: ignore[misc]
).decode


def frame(message: Any) -> bytes:
    body = _encode(message)
    return _HEADER.pack(len(body)) + body


def frames(buffer: bytearray, decode: Callable[[memoryview], Any] = _decode) -> Iterator[Any]:
    """Every complete frame at the front of ``buffer`` (removed from it), decoded."""
    start = 0
    while len(buffer) - start >= _HEADER.size:
        (size,) = _HEADER.unpack_from(buffer, start)
        end = start + _HEADER.size + size
        if len(buffer) < end:
            break
        yield decode(memoryview(buffer)[start + _HEADER.size : end])
        start = end
    del buffer[:start]


# -- errors across the socket ---------------------------------------------------------------

_KINDS: dict[str, type[BaseException]] = {
    cls.__name__: cls
    for cls in (
        errors.StoreError,
        errors.UnknownRoom,
        errors.RoomExists,
        errors.MatchExists,
        errors.SeqError,
        errors.SnapshotError,
        errors.CommitFailed,
        sqlite3.Error,
        sqlite3.IntegrityError,
        sqlite3.InterfaceError,
        sqlite3.ProgrammingError,
        sqlite3.OperationalError,
        sqlite3.DatabaseError,
        TypeError,
        ValueError,
    )
}


def error_to_wire(error: BaseException) -> list[Any]:
    cause = error.__cause__
    return [
        type(error).__name__,
        str(error),
        type(cause).__name__ if cause is not None else None,
        str(cause) if cause is not None else None,
    ]


def error_from_wire(wire: list[Any]) -> BaseException:
    """The exception the writer raised, as the caller should see it (unknown kinds: a
    `StoreError` naming it)."""
    kind, message, cause_kind, cause_message = wire
    error = _rebuild(kind, message)
    if cause_kind is not None:
        error.__cause__ = _rebuild(cause_kind, cause_message)
    return error


def _rebuild(kind: str, message: str) -> BaseException:
    cls = _KINDS.get(kind)
    return cls(message) if cls is not None else errors.StoreError(f"{kind}: {message}")


# -- one batch --------------------------------------------------------------------------

Request = tuple[int, Write | msgspec.ValidationError]  # its id, and its write or why not


def read_request(data: memoryview) -> Request:
    """A request's id and write; for a write this writer does not run (a bug: the server and
    the writer disagree), why it cannot, so that the id is still answered."""
    try:
        return _decode_request(data)
    except msgspec.ValidationError as unreadable:
        # Without its traceback, whose frame holds ``data``: a view of the read buffer that
        # must be released before the buffer shrinks.
        return _decode(data)[0], unreadable.with_traceback(None)


class Counters:
    def __init__(self) -> None:
        self.commits = 0
        self.failed_batches = 0


def commit_batch(
    conn: sqlite3.Connection, batch: list[Request], counters: Counters
) -> list[tuple[BaseException | None, Any]]:
    """Run every request of ``batch`` in one transaction; each one's (error or None, what
    it returned)."""
    outcomes: list[tuple[BaseException | None, Any]] = []
    single = len(batch) == 1  # nothing to protect from it: no savepoint needed
    try:
        conn.execute("BEGIN IMMEDIATE")
        for _, write in batch:
            if isinstance(write, msgspec.ValidationError):
                raise write  # unreadable: the whole batch fails, as for any bug
            if not single:
                conn.execute("SAVEPOINT request")
            try:
                result = ops.HANDLERS[type(write)](conn, write)
            except _REQUEST_ERRORS as refused:
                conn.execute("ROLLBACK" if single else "ROLLBACK TO request")
                if not single:
                    conn.execute("RELEASE request")
                outcomes.append((refused, None))
            else:
                if not single:
                    conn.execute("RELEASE request")
                outcomes.append((None, result))
        committed = conn.in_transaction  # False: a lone request was refused and rolled back
        if committed:
            conn.execute("COMMIT")
    except Exception as exc:  # sqlite3.Error, or a bug: the batch is lost
        _rollback(conn)
        counters.failed_batches += 1
        log.error("store transaction of %d requests failed: %r", len(batch), exc)
        failed: list[tuple[BaseException | None, Any]] = []
        for _ in batch:
            error = errors.CommitFailed(f"transaction failed, nothing written: {exc}")
            error.__cause__ = exc
            failed.append((error, None))
        return failed
    counters.commits += committed
    return outcomes


def _rollback(conn: sqlite3.Connection) -> None:
    # Some errors (disk full, I/O) make SQLite roll back by itself; others (busy)
    # leave the transaction open.
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback after a failed store transaction failed")


# -- the process --------------------------------------------------------------------------


def serve(conn: sqlite3.Connection, sock: socket.socket) -> None:
    """Answer requests until the other end closes the socket (then every request it sent
    has been answered or was never complete), or goes away (the server was killed: what
    was committed stays committed, and nobody is left to tell)."""
    counters = Counters()
    buffer = bytearray()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        while data := sock.recv(READ_SIZE):
            buffer += data
            pending = list(frames(buffer, read_request))
            while pending:
                batch, pending = pending[:MAX_BATCH], pending[MAX_BATCH:]
                outcomes = commit_batch(conn, batch, counters)
                answers = zip(batch, outcomes, strict=True)
                sock.sendall(b"".join(_answer(r, *o, counters) for r, o in answers))


def _answer(
    request: Request, error: BaseException | None, result: Any, counters: Counters
) -> bytes:
    wire_error = error_to_wire(error) if error is not None else None
    return frame([request[0], wire_error, counters.commits, counters.failed_batches, result])


def main(argv: list[str]) -> int:
    path, busy_timeout, fd = argv[1], float(argv[2]), int(argv[3])
    # Stopping is the server's decision: it closes the socket after its last write. A
    # Ctrl-C meant for the server must not kill the writer under a write it was promised;
    # nor the server's memory report (SIGUSR1, SIGUSR2) sent to the whole service, as
    # ``systemctl kill`` does by default.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(number, signal.SIG_IGN)
    logging.basicConfig(level=logging.INFO, format="tertulia store writer: %(message)s")
    sock = socket.socket(fileno=fd)
    conn = schema.connect(schema.check_path(path), busy_timeout=busy_timeout)
    try:
        serve(conn, sock)
    finally:
        conn.close()
        sock.close()
    return 0
