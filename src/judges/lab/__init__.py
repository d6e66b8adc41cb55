"""The lab: many seeded bot games in parallel, with rule variants, into an HTML report.

    judges lab --players 4 --games 2000 --bots greedy,greedy,mcts,random --seed 1 --out report/ \\
        [--workers N] [--set NAME=VALUE ...] [--variant NAME:RULE=VALUE,RULE=VALUE ...] [--round-limit 60]

Design, options and the report: docs/bots.md ("Ladder") and the docstrings of runner.py,
overrides.py and report.py.
"""

from .overrides import Override, OverrideError, Variant, parse_override, parse_variant, rules_with
from .runner import LabConfig, make_tasks, play_task, replay_record, rotated, run_games, run_lab

__all__ = [
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
