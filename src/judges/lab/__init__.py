"""The lab: many seeded bot games in parallel, with rule variants, into an HTML report.

    judges lab --players 4 --games 2000 --bots greedy,greedy,mcts,random --seed 1 --out report/ \\
        [--workers N | --cluster tcp://HOST:8786 | --cluster local:N] [--resume] \\
        [--set NAME=VALUE ...] [--variant NAME:RULE=VALUE,RULE=VALUE ...] [--round-limit 60]
    judges lab-report report/records.jsonl --out report/

Design, options and the report: docs/balance.md and the docstrings of runner.py (tasks, resume),
backends.py (local pool, Dask), records.py (the records file), overrides.py and report.py.
"""

from .backends import ClusterError
from .overrides import Override, OverrideError, Variant, parse_override, parse_variant, rules_with
from .records import RecordsError, read_records
from .runner import LabConfig, make_tasks, play_task, replay_record, rotated, run_games, run_lab

__all__ = [
    "ClusterError",
    "RecordsError",
    "read_records",
    "LabConfig",
    "Override",
    "OverrideError",
    "Variant",
    "make_tasks",
    "parse_override",
    "parse_variant",
    "play_task",
    "replay_record",
    "rotated",
    "rules_with",
    "run_games",
    "run_lab",
]
