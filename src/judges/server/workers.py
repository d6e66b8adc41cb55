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

import functools
import os
import signal
import time
import warnings
from collections.abc import Callable
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
# limits._worker_context), which runpy would warn of on every worker's start.
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


def start_worker(nice: int) -> None:
    """A worker process's start: a lower scheduling priority (`nice` added to the server's), so
    the event loop's process is served first when both want a core; an interrupt is the
    server's to handle (it stops its workers), not each worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice > 0:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - a system that refuses: the worker runs as it is
            pass


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
