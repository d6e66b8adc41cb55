"""*Judges & Kings*' table kit (server/games/registry.py): its stored options, a table rebuilt
from a snapshot and its actions, the action encoding, the export, its view builder (views.py)."""

from __future__ import annotations

import time
from typing import Any

import msgspec

from ....engine import Game
from ....engine.state import PHASES, GameState, Notification, upgrade_options
from ....engine.undo import TakeBack
from ....games.judges_game import JUDGES_SERVED, JudgesGame
from ....games.protocol import GameProtocol
from ....games.served import ServedGame
from ....i18n import gettext
from ....protocol import protocol as published_protocol
from ....verify import new_game
from ...table.envelope import GameViews
from . import wire
from .views import JudgesViews

#: An unnamed seat's name: tribes of Israel whose names are not regions of the map.
TRIBES = ("Reuben", "Simeon", "Levi", "Issachar", "Zebulun", "Dan")


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
    return game


class JudgesKit:
    """*Judges & Kings*' tables: options with wave pairs and a round limit, scenario positions,
    snapshots of the state with its notifications and take-back."""

    name = "judges"
    served: ServedGame = JUDGES_SERVED
    views: GameViews = JudgesViews()
    default_bot = "greedy"
    # the strongest bot (docs/bots.md) plays a seat its player left; a table may choose another
    takeover_bot = "mcts"
    bots_apart = True  # its searches think in the bots' worker processes

    def make_bot(self, spec: str, seed: int, cpu_budget: float | None = None) -> Any:
        from ....bots import make_bot

        return make_bot(spec, seed, cpu_budget=cpu_budget)

    def lobby_phase(self, game: Any) -> str | None:
        return self.phase(game)

    def wrap(self, game: Any) -> GameProtocol[Any, Any]:
        return JudgesGame(game)

    def options(self, players: int, rules: Any, dice: dict[str, Any], **extra: Any) -> Any:
        from ....engine import Options

        return Options(players=players, rules=rules, **extra, **dice)

    def title(self, language: str) -> str:
        return gettext(language, "ui.title")

    def seat_name(self, seat: int, language: str) -> str:
        """An unnamed seat's name: a tribe's, the same in every language."""
        return TRIBES[seat]

    def names_for(self, names: dict[int, str], language: str) -> dict[int, str]:
        """The seats' names, the same in every language (a tribe's or a player's own)."""
        return names

    def new(self, options: dict[str, Any], position: dict[str, Any] | None = None) -> Any:
        return new_table_game(options, position)

    def action_from_dict(self, data: dict[str, Any]) -> Any:
        from ....engine import action_from_dict

        return action_from_dict(data)

    def action_to_dict(self, action: Any) -> dict[str, Any]:
        from ....engine import action_to_dict

        return action_to_dict(action)

    def snapshot(self, game: Any) -> dict[str, Any]:
        return snapshot_data(game)

    def from_snapshot(self, data: dict[str, Any]) -> Any:
        return game_from_snapshot(data)

    def rules_version(self) -> int:
        from ....engine.constants import RULES_VERSION

        return RULES_VERSION

    def log(self, game: Any, names: dict[int, str], language: str, since: int = -1) -> dict[str, Any]:
        """The public actions in words, one entry per action (server/games/judges/wire.py)."""
        from .wire import log_entries

        return {"seq": len(game.log), "entries": log_entries(game, names, language, since)}

    def replay(
        self, live: Any, game: Game, where: dict[str, Any], language: str, table_options: dict[str, Any]
    ) -> bytes:
        """The replay's answer (server/games/judges/wire.py, `ReplayView`): the public view with
        every hand shown, the board drawing, and the log's actions before the step."""
        from ....render.board import describe_board
        from ....render.svg import board_svg
        from ...table.envelope import table_of
        from . import wire

        table = table_of(live, table_options["turn_timer"])
        limit = table_options["limits"].max_view_notifications
        shown = self.views.payload(live, language, table, limit, {}, time.time(), game=game, reveal=True)
        payload = wire.ReplayView(
            **msgspec.structs.asdict(shown),
            replay=wire.ReplayStep(**where),
            board_svg=board_svg(describe_board(game.world, game.state, language), language, live.names()),
            log=[e for e in self.log(live.game, live.names(), language)["entries"] if e["seq"] < where["step"]],
        )
        return wire.encode(payload)

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]:
        from ....verify import build_export

        return build_export(game, stored_options, game_id)

    def protocol(self, game: Any = None) -> dict[str, Any]:
        """The decision kinds, the items for sale and the intrigue cards (docs/protocol.md),
        priced by the table's rules; with no table, by the default rules and with the JSON
        Schema of a seat's view (`view`: wire.py)."""
        if game is None:
            return {**published_protocol(), "view": wire.schema()}
        return published_protocol(game.state.options.rules)

    def phase(self, game: Any) -> str:
        return PHASES[game.state.phase - 1]

    def where(self, game: Any, language: str) -> str:
        phase = gettext(language, f"phase.{self.phase(game)}")
        return gettext(language, "ui.round_phase", round=game.state.round, phase=phase)
