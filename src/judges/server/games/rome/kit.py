"""*Republic of Rome*'s table kit (server/games/registry.py): its stored options, a table rebuilt
from its actions, the action encoding, the export."""

from __future__ import annotations

from typing import Any

import msgspec

from ....games.protocol import GameProtocol
from ....games.rome_game import ROME_SERVED, RomeProtocolGame
from ....games.served import ServedGame


class RomeKit:
    """*Republic of Rome*'s tables: `RomeOptions`, snapshots of the state (the scratch and the
    dice included: a decoded position plays on as the live one, tests/rome/test_rome_state_roundtrip.py),
    `judges verify`'s Rome export."""

    name = "rome"
    served: ServedGame = ROME_SERVED

    def wrap(self, game: Any) -> GameProtocol[Any, Any]:
        return RomeProtocolGame(game)

    def options(self, players: int, rules: Any, dice: dict[str, Any], **extra: Any) -> Any:
        from ....rome.engine.state import RomeOptions

        return RomeOptions(players=players, rules=rules, **extra, **dice)

    def new(self, options: dict[str, Any], position: dict[str, Any] | None = None) -> Any:
        from ....rome.engine.game import RomeGame
        from ....rome.engine.rules import check_bounds
        from ....rome.engine.state import RomeOptions

        # the stored rules are checked as a new table's are (RomeRulesError: a ValueError)
        decoded = msgspec.convert(options, RomeOptions)
        check_bounds(decoded.rules)
        return RomeGame.new(decoded)

    def action_from_dict(self, data: dict[str, Any]) -> Any:
        from ....rome.engine.actions import action_from_dict

        return action_from_dict(data)

    def action_to_dict(self, action: Any) -> dict[str, Any]:
        from ....rome.engine.actions import action_to_dict

        return action_to_dict(action)

    def snapshot(self, game: Any) -> dict[str, Any]:
        """The state, not the log (the table's actions are stored apart)."""
        return {"state": msgspec.to_builtins(game.state)}

    def from_snapshot(self, data: dict[str, Any]) -> Any:
        from ....rome.engine.game import RomeGame
        from ....rome.engine.rules import check_bounds
        from ....rome.engine.state import RomeState

        # JSON turned any integer keys into strings: str_keys converts them back
        state = msgspec.convert(data["state"], RomeState, str_keys=True)
        check_bounds(state.options.rules)  # as a new table's rules are
        return RomeGame(state)

    def rules_version(self) -> int:
        return 1

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]:
        return ROME_SERVED.export(RomeProtocolGame(game), game_id)

    def phase(self, game: Any) -> str:
        from ....rome.engine.state import PHASES

        return PHASES[game.state.phase]

    def where(self, game: Any, language: str) -> str:
        from ....rome import i18n

        lang = language if language in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE
        phase = i18n.text(lang, f"rome.phase.{self.phase(game)}")
        return i18n.text(lang, "rome.where", turn=game.state.turn, phase=phase)
