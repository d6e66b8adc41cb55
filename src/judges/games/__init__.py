"""One protocol for every game of the project (`protocol.GameProtocol`): bots, the lab, the
RL environment and the command line reach *Judges & Kings* and *Republic of Rome* through it.
`GAMES` (the registry, name -> `GameDef`) is imported lazily: the engines import the shared
action encoding (`games.actions`) from here, and the adapters import the engines."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("GAMES", "SERVED", "game_def"):
        from . import registry

        return getattr(registry, name)
    raise AttributeError(name)
