"""What the table core asks of a table's game, whichever it is: the game a stored table plays
(`game_of`), its table kit (`kit_of`, from server/games/registry.py, where each game's kit is
named), a capability only some games have (`require_capability`), a bot seat's seed. Everything
else goes through the game's `ServedGame` (games/served.py) and its `GameProtocol` (`wrap`):
who owes what, the legal actions, the views, the bots.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...engine.dice import key_bytes
from ...games.registry import GAMES
from ...games.served import ServedGame
from ..errors import ServiceError
from ..games.registry import KITS, TableKit

__all__ = ["DEFAULT_GAME", "KITS", "TableKit", "bot_seed", "game_of", "game_named", "kit_of", "require_capability"]

DEFAULT_GAME = "judges"


def kit_of(name: str) -> TableKit:
    """The table parts of the game `name`; 422 naming the games the server hosts otherwise."""
    try:
        return KITS[name]
    except (KeyError, TypeError):
        shown = str(name)[:40]
        raise ServiceError(
            422,
            "error.unknown_game",
            f"there is no game {shown!r} on this server; games: {', '.join(sorted(KITS))}",
            game=shown,
            games=", ".join(sorted(KITS)),
        ) from None


def game_of(options: dict[str, Any]) -> str:
    """The game a stored table plays: its options' "game" (a server option), absent from
    *Judges & Kings*' tables (those stored before any other game, and every one since: their
    stored options, and so their exports, are as they always were)."""
    name = options.get("game", DEFAULT_GAME)
    return name if isinstance(name, str) else DEFAULT_GAME


def game_named(name: str) -> dict[str, str]:
    """An answer's "game" field for a table of the game `name`: none for the game a table that
    names none plays (`game_of`), whose answers are as they always were."""
    return {} if game_of({}) == name else {"game": name}


def require_capability(served: ServedGame, capability: str) -> None:
    """A route or option only some games have (games/served.py's CAPABILITIES): a typed 422
    for a table whose game lacks it, its text naming the capability in the reader's words
    (`capability.<name>` in the catalogs)."""
    if capability not in served.capabilities:
        raise ServiceError(
            422,
            "error.not_in_game",
            f"{served.name} tables have no {capability}",
            words={"capability": "capability"},
            game=served.name,
            capability=capability,
        )


def bot_seed(game: str, options: Any, seat: int) -> int:
    """The seed of a bot seat's own choices: from a SplitMix64 seed, the game's own bot seed (a
    game replays with the same bots); from the dice key, a one-way hash, so that a bot's play
    tells nothing about the key."""
    if options.dice == "splitmix64":
        return GAMES[game].bot_seed(options.seed, seat)
    digest = hashlib.blake2b(
        f"bot seat {seat}".encode(), digest_size=8, key=key_bytes(options.key), person=b"judges-bot-seed"
    ).digest()
    return int.from_bytes(digest, "little") >> 2
