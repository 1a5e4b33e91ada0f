"""A log of every garbage collection in a `tertulia serve` process, for `load.py` runs.

Python imports a module named ``sitecustomize`` at start from wherever it finds one on its
path, so putting this folder on ``PYTHONPATH`` makes every server process that `load.py`
starts write one line per collection to ``$GC_LOG_DIR/gc-<tag>-<pid>.log``: the time, the
generation, how long it took and what it freed. Other processes (the generators, the bare
server, the store's writer) are left alone. ``GC_THRESH=a,b,c`` sets the thresholds at start;
from 5f7ac75 on, ``tertulia serve`` sets its own right after (``server/collector.py``), so
there it only changes code from before. Used for benchmarks/README.md, "Issue 33.1 on 5
December, evening":

    PYTHONPATH=$PWD/benchmarks/gclog GC_LOG_DIR=/tmp/gclog GC_TAG=default \\
        .venv/bin/python benchmarks/load.py --rooms 670 --players 10 --period 5 \\
        --duration 300 --warmup 10 --retries 0 --servers tertulia --rev def546e
"""

import gc
import os
import sys
import time

if "serve" in sys.argv and os.environ.get("GC_LOG_DIR"):
    if os.environ.get("GC_THRESH"):
        gc.set_threshold(*(int(n) for n in os.environ["GC_THRESH"].split(",")))
    _tag = os.environ.get("GC_TAG", "run")
    _log = open(  # noqa: SIM115 - open for the process's life
        os.path.join(os.environ["GC_LOG_DIR"], f"gc-{_tag}-{os.getpid()}.log"), "w", buffering=1
    )
    _started = [0.0]

    def _logged(phase: str, info: dict) -> None:
        if phase == "start":
            _started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - _started[0]) * 1e3
        generation, freed = info["generation"], info["collected"]
        _log.write(f"{time.time():.3f} gen{generation} {ms:.2f}ms freed={freed}\n")

    gc.callbacks.append(_logged)
