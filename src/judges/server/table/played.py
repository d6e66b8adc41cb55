"""The table core's parts that differ by game (`TableKit`, one per game of games/registry.py):
the options a new table is stored with, how a stored table is rebuilt (from its options, a
snapshot and its actions), how an action is read from and written to the log, and the export.
Everything else the server asks of a game goes through its `ServedGame` (games/served.py) and
its `GameProtocol` (`wrap`): who owes what, the legal actions, the views, the bots.

    kit = KITS[live.kind]
    game = kit.new(stored_options)                 # the engine's own game object
    kit.wrap(game).to_move()                       # the game protocol over it
    kit.action_from_dict(d), kit.action_to_dict(a) # the log's encoding (RuleError if malformed)
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from ...engine import Game
from ...engine.dice import key_bytes
from ...engine.state import GameState, Notification, upgrade_options
from ...engine.undo import TakeBack
from ...games.judges_game import JUDGES_SERVED, JudgesGame
from ...games.protocol import GameProtocol
from ...games.registry import GAMES, SERVED
from ...games.rome_game import ROME_SERVED, RomeProtocolGame
from ...games.served import ServedGame
from ...verify import new_game
from ..errors import ServiceError

DEFAULT_GAME = "judges"


def snapshot_data(game: Game) -> dict[str, Any]:
    """A Judges & Kings game's snapshot: its state, notifications and take-back, not its log."""
    data: dict[str, Any] = game.to_dict()
    del data["log"]
    return data


def new_table_game(options: dict[str, Any], position: dict[str, Any] | None) -> Game:
    """The setup position, or a scenario position on top of it (docs/scenarios.md)."""
    return new_game(options, position)


def game_from_snapshot(data: dict[str, Any]) -> Game:
    # JSON turned the integer keys of the state's dicts into strings: str_keys converts them back.
    state = msgspec.convert(
        {**data["state"], "options": upgrade_options(data["state"]["options"])}, GameState, str_keys=True
    )
    notifications = msgspec.convert(data["notifications"], list[Notification], str_keys=True)
    game = Game(state, notifications=notifications)
    if data.get("takeback"):  # a seat's free steps that an Undo may still take back (absent from older snapshots)
        game.takeback = TakeBack.from_builtins(data["takeback"])
    return game  # a table created without "game", and every table stored before the column


class JudgesKit:
    """*Judges & Kings*' tables: options with wave pairs and a round limit, scenario positions,
    snapshots of the state with its notifications and take-back."""

    name = "judges"
    served: ServedGame = JUDGES_SERVED

    def wrap(self, game: Any) -> GameProtocol[Any, Any]:
        return JudgesGame(game)

    def options(self, players: int, rules: Any, dice: dict[str, Any], **extra: Any) -> Any:
        from ...engine import Options

        return Options(players=players, rules=rules, **extra, **dice)

    def new(self, options: dict[str, Any], position: dict[str, Any] | None = None) -> Any:
        return new_table_game(options, position)

    def action_from_dict(self, data: dict[str, Any]) -> Any:
        from ...engine import action_from_dict

        return action_from_dict(data)

    def action_to_dict(self, action: Any) -> dict[str, Any]:
        from ...engine import action_to_dict

        return action_to_dict(action)

    def snapshot(self, game: Any) -> dict[str, Any]:
        return snapshot_data(game)

    def from_snapshot(self, data: dict[str, Any]) -> Any:
        return game_from_snapshot(data)

    def rules_version(self) -> int:
        from ...engine.constants import RULES_VERSION

        return RULES_VERSION

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]:
        from ...verify import build_export

        return build_export(game, stored_options, game_id)


class RomeKit:
    """*Republic of Rome*'s tables: `RomeOptions`, snapshots of the state (the scratch and the
    dice included: a decoded position plays on as the live one, tests/rome/test_rome_state_roundtrip.py),
    `judges verify`'s Rome export."""

    name = "rome"
    served: ServedGame = ROME_SERVED

    def wrap(self, game: Any) -> GameProtocol[Any, Any]:
        return RomeProtocolGame(game)

    def options(self, players: int, rules: Any, dice: dict[str, Any], **extra: Any) -> Any:
        from ...rome.engine.state import RomeOptions

        return RomeOptions(players=players, rules=rules, **extra, **dice)

    def new(self, options: dict[str, Any], position: dict[str, Any] | None = None) -> Any:
        from ...rome.engine.game import RomeGame
        from ...rome.engine.rules import check_bounds
        from ...rome.engine.state import RomeOptions

        # the stored rules are checked as a new table's are (RomeRulesError: a ValueError)
        decoded = msgspec.convert(options, RomeOptions)
        check_bounds(decoded.rules)
        return RomeGame.new(decoded)

    def action_from_dict(self, data: dict[str, Any]) -> Any:
        from ...rome.engine.actions import action_from_dict

        return action_from_dict(data)

    def action_to_dict(self, action: Any) -> dict[str, Any]:
        from ...rome.engine.actions import action_to_dict

        return action_to_dict(action)

    def snapshot(self, game: Any) -> dict[str, Any]:
        """The state, not the log (the table's actions are stored apart)."""
        return {"state": msgspec.to_builtins(game.state)}

    def from_snapshot(self, data: dict[str, Any]) -> Any:
        from ...rome.engine.game import RomeGame
        from ...rome.engine.rules import check_bounds
        from ...rome.engine.state import RomeState

        # JSON turned any integer keys into strings: str_keys converts them back
        state = msgspec.convert(data["state"], RomeState, str_keys=True)
        check_bounds(state.options.rules)  # as a new table's rules are
        return RomeGame(state)

    def rules_version(self) -> int:
        return 1

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]:
        return ROME_SERVED.export(RomeProtocolGame(game), game_id)


TableKit = JudgesKit | RomeKit
KITS: dict[str, TableKit] = {"judges": JudgesKit(), "rome": RomeKit()}
assert set(KITS) == set(SERVED)  # every game the server hosts has its table parts


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
