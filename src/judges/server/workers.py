"""What the bots' pool runs (limits.FairPool): a bot's choice, a hint's search, a review.

These are the functions a worker calls, on a thread of the server or in a worker process
(`Limits.bot_processes`). Everything a job takes and gives back is plain data that pickles: a
bot, its seat, the legal actions and the seat's view, never a live game. A bot comes back with
its answer, so that its generator and its plans of the turn carry on in the server's copy as if
it had thought there: the same view and seed give the same choice either way.

This module imports the engine and the bots only (no web framework): a worker process starts
from it (`start_worker`) and loads little else.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from ..bots import Bot
from ..bots.review import Costly, review
from ..engine import Action
from ..engine.view import PlayerView
from ..verify import new_game
from ..world import load_world

load_world()  # the map every game plays on, read once before the workers are forked

# A worker runs the server's main module again as `__mp_main__` (multiprocessing does): started
# with `python -m judges.cli`, that module was loaded already by the fork server (by its name,
# `context`), which runpy would warn of on every worker's start.
warnings.filterwarnings("ignore", r"'.*' found in sys\.modules after import of package", RuntimeWarning)


class Failed(Exception):
    """A job's error, with the CPU seconds the job took before it failed (charged too: a bot
    that fails after thinking used its time)."""

    def __init__(self, error: BaseException, seconds: float) -> None:
        super().__init__(error, seconds)
        self.error, self.seconds = error, seconds


def timed(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, float]:
    """fn(*args), and the CPU seconds of the worker's thread it took (in a worker process, its
    one thread: the process's CPU spent on the job)."""
    start = time.thread_time()
    try:
        result = fn(*args)
    except Exception as exc:
        raise Failed(exc, time.thread_time() - start) from exc
    return result, time.thread_time() - start


def start_worker(nice: int, server: Connection | None = None) -> None:
    """A worker process's start: a lower scheduling priority (`nice` added to the server's), so
    the event loop's process is served first when both want a core; an interrupt is the
    server's to handle (it stops its workers), not each worker's. `server`: the reading end of
    a pipe whose only writing end the server holds; the worker ends when it reads the end of it
    (`watch_server`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice > 0:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - a system that refuses: the worker runs as it is
            pass
    if server is not None:
        threading.Thread(target=watch_server, args=(server,), name="server-watch", daemon=True).start()


def watch_server(server: Connection) -> None:
    """Waits for the end of the server's pipe, which comes when the server's process ends,
    however it ends (the system closes a killed process's files), then ends this worker at once,
    mid-search if it must: a worker left behind would only use a core for nobody. Its fork
    server and the resource tracker end by themselves when the last worker is gone."""
    try:
        while True:
            server.recv_bytes()  # nothing is ever sent: this waits for the end
    except (EOFError, OSError):
        os._exit(0)


def _same(value: Any) -> Any:
    """A bot's view callback: the view taken under the game's lock."""
    return value


def think(bot: Bot, seat: int, legal: list[Action], view: PlayerView) -> tuple[Action, Bot]:
    """The bot's choice and the bot after it (its generator moved on, its plans kept)."""
    return bot.choose(seat, legal, functools.partial(_same, view)), bot


def review_game(
    options: dict[str, Any], position: dict[str, Any] | None, log: list[Action], seat: int, seed: int, budget: float
) -> list[Costly]:
    """The seat's costliest decisions of the game played from `options` (and a scenario
    `position`) by `log` (bots/review.py)."""
    return review(new_game(options, position), log, seat, seed, budget)


async def submit_apart(executor: ProcessPoolExecutor, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """The job handed to the worker processes from a thread, which waits for a new worker to
    start if the pool starts one; then awaited here."""
    submitted = await asyncio.to_thread(executor.submit, timed, fn, args)
    return await asyncio.wrap_future(submitted)


def context() -> multiprocessing.context.BaseContext:
    """How the worker processes start: from a server process of their own, which loaded the
    engine and the bots once (`forkserver`, where the system has it); never by forking the
    server itself, whose other threads may hold locks at that moment. Else `spawn`."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # A worker runs the server's main module again (as `__mp_main__`, its `if __name__ ==
    # "__main__"` part left out): loaded once by the fork server too, each worker starts in
    # milliseconds, not the second its imports take.
    preload = [__name__]
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:  # `python -m judges.cli`: imported by its name
        preload.append(spec.name)
    elif getattr(main, "__file__", None):  # a script (`judges serve`): by its path
        preload.append("__main__")
    context.set_forkserver_preload(preload)
    return context
