"""Running a lab: many seeded games between bots, on a local process pool or a Dask cluster.

Game i of a run uses seed `seed + i` and the bot list rotated by `i mod players` (seat s gets
`bots[(s + i) % players]`), so over `players` consecutive games each bot plays each seat.
Every variant plays the same seeds. Each task carries its variant's `Rules` in the game's
options (nothing is patched in a worker), so one pool or cluster serves every variant, and a
game's record depends on its task alone (backends.py).

Records stream to the records file as games end (records.py); `resume` skips the games the
file already holds, after checking they were played with this run's bots and options.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ..bots import bot_seed, make_bot, parse_bot_spec
from ..engine import DEFAULT_RULES, Game, Options, Rules
from ..games.protocol import play_to_end
from ..games.registry import game_def
from .backends import check_cluster, play
from .overrides import OverrideError, Variant, parse_overrides
from .records import RecordsError, RecordsWriter, game_record, read_records, record_key, sort_records


@dataclass
class LabConfig:
    players: int = 4
    games: int = 100
    bots: list[str] = field(default_factory=lambda: ["greedy"])
    seed: int = 1
    out: Path = Path("report")
    workers: int = 0  # the local pool's processes; 0: one per CPU
    cluster: str | None = None  # a Dask cluster instead of the pool: "local:N" or "tcp://HOST:PORT"
    records: Path | None = None  # the JSONL file records stream to (run_lab: OUT/records.jsonl)
    resume: bool = False  # continue the run the records file holds
    overwrite: bool = False  # start the records file again
    round_limit: int | None = DEFAULT_RULES.simulation_round_limit
    wave_pairs: int = DEFAULT_RULES.default_wave_pairs
    sets: list[str] = field(default_factory=list)  # --set, for every variant
    variants: list[Variant] = field(default_factory=list)  # --variant, compared in one report
    baseline: bool = True  # with --variant: also play the --set-only baseline ("default")
    command: str = ""
    game: str = "judges"  # the registry's game (games/registry.py): "judges" or "rome"

    def seat_bots(self) -> list[str]:
        """The bot list filled to one bot per seat (cycled when shorter)."""
        if not self.bots:
            raise OverrideError("--bots: name at least one bot")
        if len(self.bots) > self.players:
            raise OverrideError(f"--bots lists {len(self.bots)} bots for {self.players} players")
        registry = None if self.game == "judges" else game_def(self.game).bots
        for spec in self.bots:
            try:
                parse_bot_spec(spec, registry)
            except ValueError as exc:
                raise OverrideError(f"--bots: {exc}") from None
        return [self.bots[s % len(self.bots)] for s in range(self.players)]

    def all_variants(self) -> list[Variant]:
        """The variants played: each carries the --set overrides first, then its own. Each
        variant's rules are built here, so invalid rules are refused before any game."""
        if self.game != "judges":
            if self.sets or self.variants:
                raise OverrideError("--set and --variant change Judges & Kings' rules only")
            return [Variant("default", ())]
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
    rules: Rules | None  # None: the game's default rules (a game other than Judges & Kings)
    index: int
    seed: int
    bots: tuple[str, ...]
    players: int
    round_limit: int | None
    wave_pairs: int
    game: str = "judges"


def task_options(task: Task) -> Options:
    return Options(
        players=task.players,
        seed=task.seed,
        wave_pairs=task.wave_pairs,
        round_limit=task.round_limit,
        rules=task.rules if task.rules is not None else DEFAULT_RULES,
    )


def play_task(task: Task) -> dict[str, Any]:
    """Plays one game (in a worker or inline) and returns its record. Top-level: spawn-safe."""
    start = time.process_time()
    if task.game != "judges":
        return play_protocol_task(task, start)
    game = play_record_game(task_options(task), task.bots)
    return game_record(
        game,
        variant=task.variant,
        index=task.index,
        seed=task.seed,
        bots=list(task.bots),
        seconds=time.process_time() - start,
    )


def play_protocol_task(task: Task, start: float) -> dict[str, Any]:
    """A game of another game of the registry, through the game protocol: its record is the
    game's own (`GameDef.record`), with the run's fields and its options."""
    gd = game_def(task.game)
    game = play_to_end(gd.new(task.players, task.seed), gd.seat_bots(list(task.bots), task.seed))
    return {
        "variant": task.variant,
        "game": task.index,
        "seed": task.seed,
        "bots": list(task.bots),
        **gd.record(game),
        "seconds": round(time.process_time() - start, 3),
        "game_name": task.game,
    }


def play_record_game(options: Options, bots: tuple[str, ...] | list[str]) -> Game:
    """The game of a lab record: its options (rules included) and its bots by seat, seeded
    from the game's seed. Replaying a stored record (`replay_record`) plays it again."""
    from ..play import play_game

    return play_game(options, [make_bot(spec, bot_seed(options.seed, seat)) for seat, spec in enumerate(bots)])


def replay_record(record: dict[str, Any]) -> Game:
    """The finished Game of a stored lab record (a line of records.jsonl), played
    again under the options and rules the record stores."""
    from ..engine.state import options_from_builtins

    return play_record_game(options_from_builtins(record["options"]), record["bots"])


def make_tasks(config: LabConfig) -> list[Task]:
    bots = config.seat_bots()
    variants = config.all_variants()
    rules = {v.name: v.rules if config.game == "judges" else None for v in variants}
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
            game=config.game,
        )
        for i in range(config.games)
        for v in variants
    ]


def _as_json(value: object) -> object:
    return json.loads(json.dumps(value, sort_keys=True))


def previous_records(config: LabConfig, tasks: list[Task]) -> list[dict[str, Any]]:
    """The records the run's file already holds: none for a new run, those to keep when
    resuming. Refuses to mix runs: a record kept must be a game of this run, played with the
    bots and options this run would give it."""
    path = config.records
    if path is None:
        return []
    path = Path(path)
    if config.overwrite or not path.exists():
        if path.exists():
            path.unlink()
        return []
    held = read_records(path)
    if not config.resume:
        if held or path.stat().st_size:
            raise RecordsError(
                f"{path} already holds {len(held)} games: --resume continues that run, --overwrite starts again"
            )
        return []
    by_key = {(t.variant, t.seed): t for t in tasks}
    for record in held:
        task = by_key.get(record_key(record))
        if task is None:
            raise RecordsError(
                f"{path} holds the game of variant {record['variant']!r}, seed {record['seed']}, which this run "
                "does not play: resume with the run's own --seed, --games, --variant and --set"
            )
        if record.get("game_name", "judges") != task.game:
            raise RecordsError(f"{path} holds games of {record.get('game_name', 'judges')}, not of {task.game}")
        if record["bots"] != list(task.bots) or (
            task.game == "judges" and record["options"] != _as_json(msgspec.to_builtins(task_options(task)))
        ):
            raise RecordsError(
                f"{path}: the game of variant {task.variant!r}, seed {task.seed} was played with other bots or "
                "rules than this run gives it: resume with the run's own --players, --bots, --set, --variant, "
                "--round-limit and --wave-pairs"
            )
    return held


def run_games(config: LabConfig, on_record: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Plays every task the records file does not hold yet, streaming each record to the file as
    its game ends; returns every record of the run (kept and new), sorted by variant and game.
    `on_record` sees every record of the run, the kept ones first."""
    tasks = make_tasks(config)
    records = previous_records(config, tasks)
    for record in records:
        if on_record:
            on_record(record)
    done = {record_key(r) for r in records}
    todo = [t for t in tasks if (t.variant, t.seed) not in done]
    if config.cluster:
        check_cluster(config.cluster)  # before anything is written
    writer = None
    try:
        for record in play(todo, workers=config.workers, cluster=config.cluster):
            if config.records is not None:
                writer = writer or RecordsWriter(config.records)  # opened by the first finished game
                writer.write(record)
            records.append(record)
            if on_record:
                on_record(record)
    finally:
        if writer:
            writer.close()
    return sort_records(records)


def run_lab(
    config: LabConfig, on_record: Callable[[dict[str, Any]], None] | None = None, report: bool = True
) -> dict[str, Any] | None:
    """Plays the games into the records file (OUT/records.jsonl unless named), then writes the
    report into `config.out` from that file. Returns the report's summary. A report needs the
    'lab' extra (matplotlib): without it the run refuses before any game (`MissingExtra`)."""
    from .report import report_from_file, require_plots

    if report:
        require_plots()  # before the games, not after hours of them
    if config.records is None:
        config.records = Path(config.out) / "records.jsonl"
    run_games(config, on_record)
    return report_from_file(config.records, config.out, command=config.command) if report else None
