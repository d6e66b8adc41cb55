"""*Republic of Rome*'s table kit (server/games/registry.py): its stored options, a table rebuilt
from its actions, the action encoding, the export, its view builder (wire.py)."""

from __future__ import annotations

from typing import Any

import msgspec

from ....games.protocol import GameProtocol
from ....games.rome_game import ROME_SERVED, RomeProtocolGame
from ....games.served import ServedGame
from ...table.envelope import GameViews
from .wire import RomeViews


class RomeKit:
    """*Republic of Rome*'s tables: `RomeOptions`, snapshots of the state (the scratch and the
    dice included: a decoded position plays on as the live one, tests/rome/test_rome_state_roundtrip.py),
    `judges verify`'s Rome export."""

    name = "rome"
    served: ServedGame = ROME_SERVED
    views: GameViews = RomeViews()
    # "neutral" plays its guidelines at once: a search would starve the other tables
    default_bot = "neutral"
    takeover_bot = "neutral"
    bots_apart = False  # its bots think on a thread

    def make_bot(self, spec: str, seed: int, cpu_budget: float | None = None) -> Any:
        return ROME_SERVED.make_bot(spec, seed)

    def lobby_phase(self, game: Any) -> str | None:
        return None  # a lobby row shows its turn only

    def wrap(self, game: Any) -> GameProtocol[Any, Any]:
        return RomeProtocolGame(game)

    def title(self, language: str) -> str:
        from ....rome.i18n import DEFAULT_LANGUAGE, LANGUAGES, text

        return text(language if language in LANGUAGES else DEFAULT_LANGUAGE, "rome.title")

    def seat_name(self, seat: int, language: str) -> str:
        """An unnamed seat's name: its faction's number in the catalogs' words ("Faction 2",
        "Facción 2", "Facção 2"), as the engine's report names a faction without a player
        (docs/rome/rules-reference.md, "Seats and factions")."""
        from ....rome.i18n import DEFAULT_LANGUAGE, LANGUAGES, text

        return text(language if language in LANGUAGES else DEFAULT_LANGUAGE, "rome.faction", seat=seat + 1)

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

    def log(self, game: Any, names: dict[int, str], language: str, since: int = -1) -> dict[str, Any]:
        """The game's report in words, one entry per line (every line is public: the engine
        reports nothing secret), numbered from 0: `{"seq", "key", "params", "text"}`. A faction is
        its seat's name; an unnamed seat's ("Faction 2") in the reader's language."""
        from ....rome.i18n import DEFAULT_LANGUAGE, LANGUAGES, render_entry

        lang = language if language in LANGUAGES else DEFAULT_LANGUAGE
        readers = self.names_for(names, lang)
        report = game.state.report
        entries = [
            {"seq": i, "key": e.key, "params": dict(e.params), "text": render_entry(e, lang, readers)}
            for i, e in enumerate(report[max(since + 1, 0) :], max(since + 1, 0))
        ]
        return {"seq": len(report), "entries": entries}

    def replay(
        self, live: Any, game: Any, where: dict[str, Any], language: str, table_options: dict[str, Any]
    ) -> bytes:
        """The replay's answer: the game after `where["step"]` actions with every faction's hand,
        treasury and ballot shown (the game is over), and its log up to there (the report then).
        `where`: the step, the steps, the step at which each turn begins (`rounds`) and each phase
        (`phases`). The deck stays its size, as in a view.

            {"game": "rome", "game_id", "seats": [{"seat", "name"}], "replay": where,
             "ending", "winners", "state": {...the view, everything shown}, "log": [...]}"""
        from ....rome.engine.view import player_view

        state = game.state
        shown = player_view(state, None)
        shown["factions"] = msgspec.to_builtins(state.factions)
        shown["scratch"] = msgspec.to_builtins(state.scratch)  # the ballots of a vote under way
        del shown["report"]  # the log carries it
        names = self.names_for(live.names(), language)
        result = state.result
        payload = {
            "game": self.name,
            "game_id": live.id,
            "seats": [{"seat": seat, "name": name} for seat, name in names.items()],
            "replay": where,
            "ending": result.ending if result is not None else None,
            "winners": list(result.winners) if result is not None else [],
            "state": shown,
            "log": self.log(game, live.names(), language)["entries"],
        }
        return msgspec.json.encode(payload)

    def names_for(self, names: dict[int, str], language: str) -> dict[int, str]:
        """The seats' names as a reader of `language` reads them: a name the game gave an unnamed
        seat (`seat_name`, in its creator's language) in the reader's; a player's own as it is."""
        from ....rome.i18n import LANGUAGES

        return {
            seat: self.seat_name(seat, language)
            if any(name == self.seat_name(seat, lang) for lang in LANGUAGES)
            else name
            for seat, name in names.items()
        }

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]:
        return ROME_SERVED.export(RomeProtocolGame(game), game_id)

    def protocol(self, game: Any = None) -> dict[str, Any]:
        """The JSON Schema of the game's own part of a seat's view (`view`: wire.py)."""
        return {"game": self.name, "view": self.served.view_schema()}

    def phase(self, game: Any) -> str:
        from ....rome.engine.state import PHASES

        return PHASES[game.state.phase]

    def where(self, game: Any, language: str) -> str:
        from ....rome import i18n

        lang = language if language in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE
        phase = i18n.text(lang, f"rome.phase.{self.phase(game)}")
        return i18n.text(lang, "rome.where", turn=game.state.turn, phase=phase)
