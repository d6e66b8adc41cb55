"""Running a lab: many seeded games between bots, in parallel worker processes.

Game i of a run uses seed `seed + i` and the bot list rotated by `i mod players` (seat s gets
`bots[(s + i) % players]`), so over `players` consecutive games each bot plays each seat.
Every variant plays the same seeds. Workers are started with the "spawn" method (safe on
every platform); each task carries its variant's `Rules` in the game's options (nothing is
patched in the worker), so one pool serves every variant.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from ..bots import bot_seed, make_bot, parse_bot_spec
from ..engine import DEFAULT_RULES, Options, Rules
from .overrides import OverrideError, Variant, parse_overrides
from .records import game_record


@dataclass
class LabConfig:
    players: int = 4
    games: int = 100
    bots: list[str] = field(default_factory=lambda: ["greedy"])
    seed: int = 1
    out: Path = Path("report")
    workers: int = 0  # 0: one per CPU
    round_limit: int | None = DEFAULT_RULES.simulation_round_limit
    wave_pairs: int = DEFAULT_RULES.default_wave_pairs
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
        """The variants played: each carries the --set overrides first, then its own. Each
        variant's rules are built here, so invalid rules are refused before any game."""
        base = tuple(parse_overrides(self.sets))
        out = [Variant("default", base)] if self.baseline or not self.variants else []
        names = {v.name for v in out}
        for v in self.variants:
            if v.name in names:
                raise OverrideError(f"two variants are called {v.name!r}")
            names.add(v.name)
            out.append(Variant(v.name, base + v.overrides))
        for v in out:
            v.rules  # noqa: B018 - raises OverrideError if the variant's rules are invalid
        return out


def rotated(bots: list[str], index: int) -> list[str]:
    k = index % len(bots)
    return bots[k:] + bots[:k]


@dataclass(frozen=True)
class Task:
    variant: str
    rules: Rules
    index: int
    seed: int
    bots: tuple[str, ...]
    players: int
    round_limit: int | None
    wave_pairs: int


def play_task(task: Task) -> dict:
    """Plays one game (in a worker or inline) and returns its record. Top-level: spawn-safe."""
    start = time.process_time()
    options = Options(
        players=task.players, seed=task.seed, wave_pairs=task.wave_pairs, round_limit=task.round_limit, rules=task.rules
    )
    game = play_record_game(options, task.bots)
    return game_record(
        game,
        variant=task.variant,
        index=task.index,
        seed=task.seed,
        bots=list(task.bots),
        seconds=time.process_time() - start,
    )


def play_record_game(options: Options, bots: tuple[str, ...] | list[str]):
    """The game of a lab record: its options (rules included) and its bots by seat, seeded
    from the game's seed. Replaying a stored record (`replay_record`) plays it again."""
    from ..play import play_game

    return play_game(options, [make_bot(spec, bot_seed(options.seed, seat)) for seat, spec in enumerate(bots)])


def replay_record(record: dict):
    """The finished Game of a stored lab record (games.csv row / summary.json game), played
    again under the options and rules the record stores."""
    from ..engine.state import options_from_builtins

    return play_record_game(options_from_builtins(record["options"]), record["bots"])


def make_tasks(config: LabConfig) -> list[Task]:
    bots = config.seat_bots()
    variants = config.all_variants()
    rules = {v.name: v.rules for v in variants}
    return [
        Task(
            variant=v.name,
            rules=rules[v.name],
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
