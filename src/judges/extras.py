"""Optional features and the extras that install them (pyproject.toml, [project.optional-dependencies]).

A plain `pip install judges` plays, serves and simulates. The packages below are imported only by the
feature that needs them, through `require`, which names the extra to install when one is missing:

    lab      matplotlib, numpy    the lab's report plots (judges lab, lab-report, lab-fairness --out,
                                  lab-fairness-plot); judges train-value
    redis    redis                the fan-out between server processes through Redis (JUDGES_REDIS_URL)
    cluster  dask, distributed    judges lab --cluster (lab/backends.py)
"""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """A feature's package is not installed; the message names the extra that installs it."""

    def __init__(self, feature: str, module: str, extra: str) -> None:
        self.feature, self.module, self.extra = feature, module, extra
        super().__init__(f"{feature} needs {module.partition('.')[0]}: pip install 'judges[{extra}]'")


def require(module: str, extra: str, feature: str) -> ModuleType:
    """`module`, imported; `MissingExtra` naming `extra` if it cannot be."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(feature, module, extra) from exc
