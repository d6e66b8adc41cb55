"""Running a lab: many seeded games between bots, in parallel worker processes.

Game i of a run uses seed `seed + i` and the bot list rotated by `i mod players` (seat s gets
`bots[(s + i) % players]`), so over `players` consecutive games each bot plays each seat.
Every variant plays the same seeds. Workers are started with the "spawn" method (safe on
every platform); before each game a worker restores the default constants and applies the
game's variant (`overrides.apply_overrides`), so one pool serves every variant.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from ..bots import bot_seed, make_bot, parse_bot_spec
from ..engine import Options
from ..engine import constants as C
from .overrides import OverrideError, Variant, apply_overrides, parse_overrides
from .records import game_record


@dataclass
class LabConfig:
    players: int = 4
    games: int = 100
    bots: list[str] = field(default_factory=lambda: ["greedy"])
    seed: int = 1
    out: Path = Path("report")
    workers: int = 0  # 0: one per CPU
    round_limit: int | None = C.SIMULATION_ROUND_LIMIT
    wave_pairs: int = C.DEFAULT_WAVE_PAIRS
    sets: list[str] = field(default_factory=list)  # --set, for every variant
    variants: list[Variant] = field(default_factory=list)  # --variant, compared in one report
    baseline: bool = True  # with --variant: also play the --set-only baseline ("default")
    command: str = ""

    def seat_bots(self) -> list[str]:
        """The bot list filled to one bot per seat (cycled when shorter)."""
        if not self.bots:
            raise OverrideError("--bots: name at least one bot")
        if len(self.bots) > self.players:
            raise OverrideError(f"--bots lists {len(self.bots)} bots for {self.players} players")
        for spec in self.bots:
            try:
                parse_bot_spec(spec)
            except ValueError as exc:
                raise OverrideError(f"--bots: {exc}") from None
        return [self.bots[s % len(self.bots)] for s in range(self.players)]

    def all_variants(self) -> list[Variant]:
        """The variants played: each carries the --set overrides first, then its own."""
        base = tuple(parse_overrides(self.sets))
        out = [Variant("default", base)] if self.baseline or not self.variants else []
        names = {v.name for v in out}
        for v in self.variants:
            if v.name in names:
                raise OverrideError(f"two variants are called {v.name!r}")
            names.add(v.name)
            out.append(Variant(v.name, base + v.overrides))
        return out


def rotated(bots: list[str], index: int) -> list[str]:
    k = index % len(bots)
    return bots[k:] + bots[:k]


@dataclass(frozen=True)
class Task:
    variant: Variant
    index: int
    seed: int
    bots: tuple[str, ...]
    players: int
    round_limit: int | None
    wave_pairs: int


def play_task(task: Task) -> dict:
    """Plays one game (in a worker or inline) and returns its record. Top-level: spawn-safe."""
    from ..play import play_game

    apply_overrides(task.variant.overrides)
    try:
        start = time.process_time()
        options = Options(
            players=task.players, seed=task.seed, wave_pairs=task.wave_pairs, round_limit=task.round_limit
        )
        bots = [make_bot(spec, bot_seed(task.seed, seat)) for seat, spec in enumerate(task.bots)]
        game = play_game(options, bots)
        return game_record(
            game,
            variant=task.variant.name,
            index=task.index,
            seed=task.seed,
            bots=list(task.bots),
            seconds=time.process_time() - start,
        )
    finally:
        apply_overrides(())


def make_tasks(config: LabConfig) -> list[Task]:
    bots = config.seat_bots()
    variants = config.all_variants()
    return [
        Task(
            variant=v,
            index=i,
            seed=config.seed + i,
            bots=tuple(rotated(bots, i)),
            players=config.players,
            round_limit=config.round_limit,
            wave_pairs=config.wave_pairs,
        )
        for i in range(config.games)
        for v in variants
    ]


def run_games(config: LabConfig, on_record: Callable[[dict], None] | None = None) -> list[dict]:
    """Plays every task; records come back sorted by (variant order, game index)."""
    tasks = make_tasks(config)
    order = {v.name: k for k, v in enumerate(config.all_variants())}
    workers = config.workers or os.cpu_count() or 1
    workers = max(1, min(workers, len(tasks)))
    records: list[dict] = []
    if workers == 1:
        for task in tasks:
            records.append(play_task(task))
            if on_record:
                on_record(records[-1])
    else:
        with get_context("spawn").Pool(workers) as pool:
            for record in pool.imap_unordered(play_task, tasks, chunksize=1):
                records.append(record)
                if on_record:
                    on_record(record)
    records.sort(key=lambda r: (order[r["variant"]], r["game"]))
    return records


def run_lab(config: LabConfig, on_record: Callable[[dict], None] | None = None) -> dict:
    """Plays the games and writes the report into `config.out`. Returns the summary."""
    from .report import write_report

    records = run_games(config, on_record)
    return write_report(config, records)
