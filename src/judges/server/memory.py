"""The garbage collector while serving (`judges serve`): collections stay young.

Serving an action leaves about a hundred tracked objects alive (the log, notifications, the
engine's caches). With CPython's generations they pile up in the middle generation, and its
collection, every twentieth young one, walked them all on the event loop: 80-200 ms of CPU
under the load benchmark, the tail of the submission-to-delivery latency
(docs/decisions/0020-the-server-freezes-what-survives-a-collection.md).
So what survives any collection is frozen at once (`gc.freeze`): the collector never walks it
again, the older generations stay empty, and each collection walks only what is young.

Frozen objects are still freed when their count of references drops to zero; only a reference
cycle that outlives a young collection would stay, so a full collection of the whole heap runs
once every FULL_COLLECTION_SECONDS, on a thread of its own (it holds the interpreter while it
runs, like any collection).
"""

from __future__ import annotations

import gc
import threading
import time
from collections import deque
from typing import Any

FULL_COLLECTION_SECONDS = 3600.0

_installed = threading.Lock()
_full_collector: threading.Thread | None = None


# The collections that held the interpreter PAUSE_MS_NOTED ms or more: (wall-clock time of
# their start, generation, milliseconds, of which the collecting thread's CPU: the rest is the
# machine's other work, and the unreachable objects it found), the latest PAUSES_KEPT
# (bench/load.py reads them through the server's statistics file, JUDGES_DB_CALLS_FILE).
PAUSE_MS_NOTED = 5.0
PAUSES_KEPT = 1000
pauses: deque[tuple[float, int, float, float, int]] = deque(maxlen=PAUSES_KEPT)
_started = [0.0, 0.0]


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A `gc.callbacks` entry: once a collection is over, what survived it is frozen (and a
    long collection noted in `pauses`)."""
    if phase == "start":
        _started[:] = time.perf_counter(), time.thread_time()
        return
    if phase == "stop":
        gc.freeze()
        took = (time.perf_counter() - _started[0]) * 1000
        if took >= PAUSE_MS_NOTED:
            cpu = (time.thread_time() - _started[1]) * 1000
            started = time.time() - took / 1000
            pauses.append((started, info["generation"], round(took, 1), round(cpu, 1), info["collected"]))


def collect_fully() -> None:
    """Collects the whole heap (cycles among frozen objects included), then freezes again."""
    gc.unfreeze()
    gc.collect()  # the callback freezes the survivors


def _full_collections(every: float) -> None:
    while True:
        time.sleep(every)
        collect_fully()


def keep_collections_young(full_every: float = FULL_COLLECTION_SECONDS) -> None:
    """Installs the policy for the rest of the process (once; `judges serve` calls it)."""
    global _full_collector
    with _installed:
        if freeze_survivors not in gc.callbacks:
            gc.callbacks.append(freeze_survivors)
        if _full_collector is None:
            _full_collector = threading.Thread(
                target=_full_collections, args=(full_every,), name="full-gc", daemon=True
            )
            _full_collector.start()
