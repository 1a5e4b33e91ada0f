"""The process behind the bare server's durable floor (`bare_server.DurableLog`): until the
server closes the socket, take every whole record that has arrived, write them at once, sync
the file (``fdatasync``), and answer how many records that sync made durable.

A module of its own, with nothing but the standard library, so that the process starts
without the server's imports (uvicorn, Starlette): they would count as the floor's memory.

The file is made at its full size first and written over in a ring, as SQLite reuses its
WAL: a sync of blocks the file already has does not also commit the file system's metadata
(its size), which a file that grows at every write would. What it holds is the bytes on the
disk, not a log that could be read back (no sequence numbers, no checksums): the floor's
cost, not a store.

    python benchmarks/bare_log_writer.py FILE FD [SIZE]
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import sys
from pathlib import Path

# Frames both ways: a record's length before it, towards the writer; the count of records a
# sync made durable, back.
LENGTH = struct.Struct(">I")
LOG_BYTES = 16 * 1024 * 1024  # the file's size: written over from the start when full
READY = b"r"  # sent once the file is made: the server starts only then
READ_SIZE = 64 * 1024


def whole_records(buffer: bytearray) -> tuple[int, int]:
    """How many whole records ``buffer`` starts with, and where they end."""
    count, end = 0, 0
    while len(buffer) - end >= LENGTH.size:
        (size,) = LENGTH.unpack_from(buffer, end)
        if len(buffer) < end + LENGTH.size + size:
            break
        end += LENGTH.size + size
        count += 1
    return count, end


def write_all(fd: int, data: bytes | bytearray, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written


def serve(sock: socket.socket, path: Path, size: int = LOG_BYTES) -> None:
    out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        zeros = bytes(min(size, 1024 * 1024))
        for start in range(0, size, len(zeros)):
            write_all(out, zeros[: size - start], start)
        os.fsync(out)
        sock.sendall(READY)
        offset, buffer = 0, bytearray()
        while data := sock.recv(READ_SIZE):
            buffer += data
            count, end = whole_records(buffer)
            if not count:
                continue
            if end > size:
                raise ValueError(f"{end} bytes of records do not fit in a log of {size}")
            if offset + end > size:
                offset = 0
            write_all(out, buffer[:end], offset)
            offset += end
            del buffer[:end]
            os.fdatasync(out)
            sock.sendall(LENGTH.pack(count))  # only now: they are on the disk
    finally:
        os.close(out)


def main(argv: list[str]) -> int:
    # Stopping is the server's decision: it closes the socket. A Ctrl-C meant for the server
    # must not end this first (ours' SQLite writer does the same).
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    path, fd = Path(argv[1]), int(argv[2])
    size = int(argv[3]) if len(argv) > 3 else LOG_BYTES
    sock = socket.socket(fileno=fd)
    # The server went away (stopped, or killed): what was synced stays, nobody is left to tell.
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        serve(sock, path, size)
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
