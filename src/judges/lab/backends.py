"""Where a lab's games are played: the local process pool (default) or a Dask cluster.

A backend takes the run's tasks and yields each game's record as soon as it is finished, in
whatever order the games end. Every game is a pure function of its task (seed, bots by seat,
options with their rules), so any backend gives the same records; only `seconds` differs.

    --workers N                     the local pool: N spawned processes (0: one per CPU)
    --cluster local:N               a Dask cluster of N one-thread worker processes, started here
    --cluster tcp://HOST:8786       an existing Dask scheduler (`dask scheduler` /
                                    `dask worker tcp://HOST:8786 --nthreads 1 --nworkers N`)

Dask (`pip install 'judges[cluster]'`) is imported only when a cluster is asked for. Workers of
an existing cluster must run the same judges code: the run checks a fingerprint of the
installed package on every worker before it submits a game.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable, Iterator
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from .overrides import OverrideError


class ClusterError(OverrideError):
    """A --cluster that cannot be used: the message says why and what would work."""


def local_pool(tasks: list[Any], workers: int) -> Iterator[dict[str, Any]]:
    """Plays the tasks in `workers` spawned processes (inline when one), yielding as they end."""
    from .runner import play_task

    workers = max(1, min(workers or os.cpu_count() or 1, len(tasks)))
    if workers == 1:
        for task in tasks:
            yield play_task(task)
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(play_task, tasks, chunksize=1)


@cache
def code_fingerprint() -> str:
    """A digest of the judges package's code and data as installed here: two processes with the
    same fingerprint play the same game from the same task."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def parse_cluster(spec: str) -> tuple[str, Any]:
    """("local", workers) for `local:N`, ("address", spec) for a scheduler address."""
    spec = spec.strip()
    if spec.startswith("local:"):
        n = spec.partition(":")[2]
        if not n.isdigit() or int(n) < 1:
            raise ClusterError(f"--cluster {spec!r}: expected local:N with N workers, e.g. local:2")
        return "local", int(n)
    if "://" in spec:
        return "address", spec
    raise ClusterError(f"--cluster {spec!r}: expected a scheduler address (tcp://HOST:8786) or local:N")


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask distributed: pip install 'judges[cluster]' (here and on every worker)"
        ) from None
    return distributed


def check_cluster(spec: str) -> None:
    """Refuses a malformed --cluster, or one without Dask installed, before the run starts."""
    parse_cluster(spec)
    _dask()


def dask_cluster(tasks: list[Any], spec: str) -> Iterator[dict[str, Any]]:
    """Plays the tasks on a Dask cluster, yielding each record as its game ends. Leaving the
    generator early (an interrupted run) cancels the games still queued."""
    from .runner import play_task

    distributed = _dask()
    kind, value = parse_cluster(spec)
    cluster = None
    try:
        if kind == "local":
            # one thread per worker: the games are pure Python, so threads would share one core
            cluster = distributed.LocalCluster(
                n_workers=value,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # a free port: several runs may share a machine
                scheduler_port=0,
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(value, timeout="20s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"--cluster {spec}: cannot reach the scheduler ({exc})") from None
    try:
        _check_workers(client, spec)
        futures = client.map(play_task, tasks, pure=False)  # unique keys: two runs never share a result
        try:
            for future in distributed.as_completed(futures):
                yield future.result()
                future.release()
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _check_workers(client: Any, spec: str) -> None:
    try:
        client.wait_for_workers(1, timeout=60)
    except TimeoutError:
        raise ClusterError(f"--cluster {spec}: the scheduler has no worker (start one: dask worker ...)") from None
    here = code_fingerprint()
    theirs = client.run(code_fingerprint)
    wrong = sorted(worker for worker, fingerprint in theirs.items() if fingerprint != here)
    if wrong:
        raise ClusterError(
            f"--cluster {spec}: worker(s) {', '.join(wrong)} run other judges code than this "
            f"command (fingerprint {here}); install the same version on every worker"
        )


def play(tasks: Iterable[Any], *, workers: int = 0, cluster: str | None = None) -> Iterator[dict[str, Any]]:
    """The records of `tasks` from the chosen backend, as games end."""
    tasks = list(tasks)
    if not tasks:
        return iter(())
    return dask_cluster(tasks, cluster) if cluster else local_pool(tasks, workers)
