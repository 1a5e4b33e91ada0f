"""Crash: SIGKILL a writer mid-stream; every seq it acknowledged is in the file.

This is the store's half of "nothing acknowledged is ever lost" against a process
crash. (Power loss is what `synchronous=FULL` is for; a test cannot pull the plug.)
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

from store_testing import run, seqs_by_room

HELPER = Path(__file__).with_name("store_crash_writer.py")


def _acknowledged(lines: list[str]) -> dict[str, int]:
    """The highest seq printed per room (lines arrive in seq order per room)."""
    acked: dict[str, int] = {}
    for line in lines:
        code, seq = line.split()
        acked[code] = max(acked.get(code, 0), int(seq))
    return acked


def test_every_acknowledged_seq_survives_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rooms = 8
    kill_after = random.randint(300, 1500)  # a different moment each run
    errors = tmp_path / "child-stderr.txt"
    with errors.open("w") as stderr:  # a file, not a pipe: a full pipe would hang the child
        child = subprocess.Popen(
            [sys.executable, str(HELPER), str(db), str(rooms)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    # readline() cannot time out; a watchdog kill turns a stuck child into a failure.
    watchdog = threading.Timer(20, child.kill)
    watchdog.start()
    lines: list[str] = []
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n", errors.read_text()
        while len(lines) < kill_after:
            line = child.stdout.readline()
            assert line, f"child exited early: {errors.read_text()}"
            lines.append(line)
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=10)
    finally:
        watchdog.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    # Lines already in the pipe were acknowledged too; a torn last line was not printed whole.
    lines += [line + "\n" for line in rest.split("\n")[:-1]]
    acked = _acknowledged([line for line in lines if line.endswith("\n")])

    logged = run(lambda: seqs_by_room(db))
    assert len(logged) == rooms
    for code, seqs in logged.items():
        # Complete and gap-free, and at least everything acknowledged (an append
        # that committed just before the kill may not have been printed: that is fine).
        assert seqs == list(range(1, len(seqs) + 1)), code
        assert len(seqs) >= acked.get(code, 0), (code, len(seqs), acked.get(code))
    assert sum(acked.values()) >= kill_after
