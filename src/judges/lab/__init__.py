"""The lab: many seeded bot games in parallel, with rule variants, into an HTML report.

    judges lab --players 4 --games 2000 --bots greedy,greedy,mcts,random --seed 1 --out report/ \\
        [--workers N] [--set NAME=VALUE ...] [--variant NAME:CONST=VALUE,CONST=VALUE ...] [--round-limit 60]

Design, options and the report: docs/bots.md ("Ladder") and the docstrings of runner.py,
overrides.py and report.py.
"""

from .overrides import Override, OverrideError, Variant, apply_overrides, overridden, parse_override, parse_variant
from .runner import LabConfig, make_tasks, play_task, rotated, run_games, run_lab

__all__ = [
    "LabConfig",
    "Override",
    "OverrideError",
    "Variant",
    "apply_overrides",
    "make_tasks",
    "overridden",
    "parse_override",
    "parse_variant",
    "play_task",
    "rotated",
    "run_games",
    "run_lab",
]
