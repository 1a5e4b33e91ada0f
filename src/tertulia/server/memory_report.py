"""What the server holds in memory, for an operator who asks (docs/operations.md, "Memory").

``tertulia serve`` answers SIGUSR1 with a report, one log line: the process's resident memory
(RSS) as it was asked, after a full garbage collection and after the C allocator gave its free
pages back (glibc's ``malloc_trim``: what that gives back was free memory malloc kept, not
live data); its rooms and connections; how many objects of each of tertulia's own classes are
alive (once every room of a drained server has closed, none of a room's — ``Room``,
``RoomModel``, ``FanOut``, ``Session``, ``Outlet``, a game's ``State`` — may be left); the most
numerous types; what Python's small-object allocator (pymalloc) and the C allocator hold, in
use and free; and, while allocations are traced (tracemalloc), the 20 source lines holding
the most of the traced memory still alive. SIGUSR2 starts tracing (or forgets what was traced
so far), so the top of a later report is what was allocated since then and still lives: what
grew. ``PYTHONTRACEMALLOC=1`` traces from the start instead.

Why not keep a snapshot and compare two: a snapshot of a server holds its traces as Python
objects, tens of MiB, and the memory it took stayed with the process (measured: RSS 76 → 109
MiB after one report, malloc_trim or not) — the report would have grown what it measures.

It runs only when asked, on the event loop, and costs what it measures: a full collection and
a walk over every live object (tens to hundreds of milliseconds for a busy server, during which
rooms wait), and a snapshot when tracing. Tracing makes every allocation slower and costs
memory of its own (reported as ``overhead``): for investigations, not to leave on.
"""

from __future__ import annotations

import ctypes
import gc
import os
import re
import sys
import sysconfig
import tempfile
import tracemalloc
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Any

TOP_LINES = 20  # tracemalloc lines reported
TOP_TYPES = 15  # most numerous types reported
_OURS = "tertulia"
_PACKAGE = Path(__file__).resolve().parents[1]  # .../tertulia
# Lines left out of the top: tracemalloc's (the snapshot), this report's, and importing.
_IGNORED = (tracemalloc.__file__, __file__, "<frozen importlib._bootstrap", "<unknown>")
# Where paths are shown from: the package's folder, then the libraries'.
_ROOTS = [
    _PACKAGE.parent,
    *(Path(p) for p in sorted({sysconfig.get_path(k) for k in ("stdlib", "purelib", "platlib")})),
]


def report(rooms: int, connections: int) -> dict[str, Any]:
    """What this process holds now (see the module's docstring)."""
    asked = rss_bytes()
    collected = gc.collect()
    after_gc = rss_bytes()
    trimmed = malloc_trim()
    result: dict[str, Any] = {
        "rss": asked,
        "rss_after_gc": after_gc,
        "rss_after_trim": rss_bytes() if trimmed else None,
        "rooms": rooms,
        "connections": connections,
        "gc_collected": collected,
        "allocated_blocks": sys.getallocatedblocks(),
        "pymalloc": pymalloc_stats(),
        "malloc": malloc_stats(),
    }
    ours, types = live_objects()
    result["tertulia_objects"] = dict(sorted(ours.items(), key=lambda kv: (-kv[1], kv[0])))
    result["types"] = dict(types.most_common(TOP_TYPES))
    result["tracemalloc"] = traced() if tracemalloc.is_tracing() else None
    return result


def trace_from_now() -> None:
    """Trace allocations from now on (``tracemalloc``; if it was tracing already, forget what
    it traced): a later report's top lines are then what was allocated since and still lives."""
    if tracemalloc.is_tracing():
        tracemalloc.clear_traces()
    else:
        tracemalloc.start()


def traced() -> dict[str, Any]:
    """The source lines holding the most memory among the blocks traced and still alive."""
    current, peak = tracemalloc.get_traced_memory()
    overhead = tracemalloc.get_tracemalloc_memory()  # the tracing's own memory
    # (Snapshot.filter_traces is written in Python and takes seconds for a big process: the
    # lines left out are dropped from the top instead.)
    stats = tracemalloc.take_snapshot().statistics("lineno")
    top = []
    for stat in stats:
        frame = stat.traceback[0]
        if not frame.filename.startswith(_IGNORED):
            where = f"{_short(frame.filename)}:{frame.lineno}"
            top.append({"where": where, "size": stat.size, "count": stat.count})
            if len(top) == TOP_LINES:
                break
    del stats
    malloc_trim()  # what the snapshot took, given back
    return {"traced": current, "peak": peak, "overhead": overhead, "top": top}


def live_objects() -> tuple[Counter[str], Counter[str]]:
    """Live objects of tertulia's classes by ``module.Class`` (enum members left out: they are
    constants), and of every type (the garbage collector's objects only, for that count).
    Objects the collector does not track (msgspec structs holding only scalars, such as most
    room records) are found among the referents of those it does."""
    ours: Counter[str] = Counter()
    types: Counter[str] = Counter()
    names: dict[type, tuple[str, bool]] = {}  # type -> its name, and whether to count it ours

    def name_of(kind: type) -> tuple[str, bool]:
        known = names.get(kind)
        if known is None:
            name = _name(kind)
            known = names[kind] = (name, name.startswith(_OURS) and not issubclass(kind, Enum))
        return known

    seen: set[int] = set()
    untracked: list[Any] = []

    def look_among(referents: list[Any]) -> None:
        for obj in referents:
            if name_of(type(obj))[1] and not gc.is_tracked(obj) and id(obj) not in seen:
                seen.add(id(obj))
                untracked.append(obj)

    tracked = gc.get_objects()
    for obj in tracked:
        name, counted = name_of(type(obj))
        types[name] += 1
        if counted:
            ours[name] += 1
    for start in range(0, len(tracked), 10_000):
        look_among(gc.get_referents(*tracked[start : start + 10_000]))
    del tracked
    while untracked:  # an untracked struct may hold another one
        obj = untracked.pop()
        ours[name_of(type(obj))[0]] += 1
        look_among(gc.get_referents(obj))
    return ours, types


# Lines of sys._debugmallocstats() and the names they are reported under.
_PYMALLOC = {
    "# arenas allocated current": "arenas",
    "# arenas highwater mark": "arenas_highwater",
    "# bytes in allocated blocks": "in_use",
    "# bytes in available blocks": "free_in_used_pools",
}
_UNUSED_POOLS = re.compile(r"^(\d+) unused pools \* (\d+) bytes")


def pymalloc_stats() -> dict[str, int] | None:
    """Python's small-object allocator: its arenas (1 MiB each, given back only when wholly
    empty), the bytes in live blocks, and the free space inside its arenas — free memory
    held, not data. Read from ``sys._debugmallocstats``, which writes to the C stderr."""
    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return None
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(2)
        try:
            os.dup2(sink.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        sink.seek(0)
        text = sink.read().decode(errors="replace")
    found: dict[str, int] = {}
    for line in text.splitlines():
        name, _, value = line.partition("=")
        key = _PYMALLOC.get(name.strip())
        if key is not None:
            found[key] = int(value.strip().replace(",", ""))
        elif unused := _UNUSED_POOLS.match(line):
            found["free_pools"] = int(unused[1]) * int(unused[2])
    if "arenas" not in found:
        return None
    found["free"] = found.get("free_in_used_pools", 0) + found.get("free_pools", 0)
    return found


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def malloc_stats() -> dict[str, int] | None:
    """The C allocator (glibc's ``mallinfo2``): its heap, what is in use there, what is free
    there (held for later, not given back), and its large blocks mapped on their own."""
    call = _libc("mallinfo2")
    if call is None:
        return None
    call.restype = _MallInfo2
    info = call()
    return {
        "heap": info.arena,
        "in_use": info.uordblks,
        "free": info.fordblks,
        "mapped": info.hblkhd,
    }


def rss_bytes() -> int | None:
    """This process's resident memory (Linux), or None."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def malloc_trim() -> bool:
    """Give the C allocator's free memory back to the system (glibc); False elsewhere."""
    trim = _libc("malloc_trim")
    if trim is None:
        return False
    trim(0)
    return True


_process: ctypes.CDLL | None = None


def _libc(name: str) -> Any:
    """A C function of the process (libc's among its symbols), or None; loaded once (each
    ``CDLL`` makes classes of its own, which would pile up a little at every report)."""
    global _process
    try:
        if _process is None:
            _process = ctypes.CDLL(None)
        return getattr(_process, name)
    except (OSError, AttributeError, TypeError):
        return None


def summary(report: dict[str, Any]) -> str:
    """One line for a person: RSS at each step, rooms, connections, the allocators' free
    memory, traced memory."""

    def mib(value: int | None) -> str:
        return "?" if value is None else f"{value / 2**20:.1f} MiB"

    line = (
        f"memory report: RSS {mib(report['rss'])}, {mib(report['rss_after_gc'])} after a full "
        f"collection, {mib(report['rss_after_trim'])} after malloc_trim; "
        f"{report['rooms']} rooms, {report['connections']} connections"
    )
    pymalloc, malloc = report["pymalloc"], report["malloc"]
    if pymalloc is not None:
        line += f"; pymalloc {pymalloc['arenas']} arenas, {mib(pymalloc['free'])} free in them"
    if malloc is not None:
        line += f"; malloc {mib(malloc['in_use'])} in use, {mib(malloc['free'])} free"
    traced = report["tracemalloc"]
    if traced is not None:
        line += f"; traced {mib(traced['traced'])} (tracing itself {mib(traced['overhead'])})"
    return line


def _name(kind: type) -> str:
    module = kind.__dict__.get("__module__")  # (a metaclass may answer __module__ otherwise)
    if not isinstance(module, str) or module == "builtins":
        return kind.__qualname__
    return f"{module}.{kind.__qualname__}"


def _short(filename: str) -> str:
    """A path shorter to read: from the package (``tertulia/rooms/room.py``) or the library
    folder (``asyncio/events.py``, ``msgspec/...``) on."""
    path = Path(filename)
    for root in _ROOTS:
        try:
            return str(path.relative_to(root))
        except ValueError:
            continue
    return filename
