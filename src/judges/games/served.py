"""What the server asks of a game it hosts, beside `GameProtocol` (which bots and the lab use):
a table's dice and rules, its bots, the view of a seat and of spectators as JSON with their
schema, the catalogs and the game's capabilities (docs/decisions/0027-the-server-reaches-a-game-
through-its-plug-in.md).

    sg = SERVED["rome"]
    rules = sg.parse_rules({"hand_limit": 6})     # RulesRefused names the rule otherwise
    sg.check_bot("neutral")                       # BotRefused for a bot the game has not
    g = sg.new_table(players=5, seed=None, key="ab…", rules=rules)
    sg.commitment(g)                              # SHA-256 of the dice's seed, published first
    sg.export(g, "id")                            # once over: the seed revealed (`judges verify`)
    sg.seat_view(g, 2), sg.spectator_view(g)      # JSON-ready, hidden information removed
    sg.view_schema()                              # the view's JSON Schema, from the engine's types
    sg.catalog("es"), sg.message_keys()           # every key the engine emits, in each language
    "undo" in sg.capabilities                     # what only some games have
    sg.rating, sg.placements(g)                   # a game with "ratings": its anchors, each seat's place
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .protocol import GameProtocol, SeatBot

#: The capabilities a game may have beyond the table every game gets: the server offers a route
#: or an option of one of them only for a game that has it.
CAPABILITIES = frozenset(
    {
        "undo",  # a seat takes back its last free step
        "hints",  # a seat asks the game's search for advice
        "review",  # a finished game's costly decisions, found by the search
        "scenarios",  # a table opened from a scenario position
        "ratings",  # a finished table counts toward the players' ratings
        "world_map",  # the table plays on one of the project's maps
        "wave_pairs",  # the option of how many wave pairs a game has
        "round_limit",  # the option of a round limit
        "action_log",  # the table's log in words (`TableKit.log`)
        "replay",  # a finished game replayed step by step, every hand shown
        "screen",  # the site's pages show the table (play, watch, replay); else they name its API routes
    }
)


@dataclass(frozen=True)
class Rating:
    """What the ratings (server/community/ratings.py, docs/accounts.md) take from a game with the
    capability "ratings", beside each seat's place in a finished game (`ServedGame.placements`)."""

    #: the game's bots whose rating never moves, and their mean (a seat of another bot: unrated)
    anchors: Mapping[str, float]
    #: the anchor at a new player's mean: the takeover bot of a table that may be rated
    reference: str
    #: a rated game lasts this long at least, in the game's `progress` (J&K's rounds, Rome's turns)
    min_progress: int


class RulesRefused(ValueError):
    """A client's rules no table may be opened under: an unknown rule, a value of the wrong
    kind, or one beyond the game's bounds. `key` and `params` translate it (the server's 422),
    `rule` names the rule."""

    def __init__(self, message: str, key: str, rule: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.rule = rule
        self.params = {"rule": rule, **params}


class BotRefused(ValueError):
    """A bot spec the game cannot seat: an unknown bot, or settings it does not take."""

    def __init__(self, message: str, key: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.params = params


@runtime_checkable
class ServedGame(Protocol):
    """A game as the server hosts it."""

    @property
    def name(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def capabilities(self) -> frozenset[str]:
        """Which of `CAPABILITIES` the game has."""

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages of its catalogs, the default first."""

    @property
    def view_type(self) -> Any:
        """The engine's type of a view (a msgspec Struct): what `seat_view` converts to."""

    def parse_rules(self, changes: Mapping[str, Any] | None) -> Any:
        """The default rules with `changes` (a client's, by name); RulesRefused otherwise."""

    def check_bot(self, spec: str) -> str:
        """The spec's bot name; BotRefused for a spec this game cannot seat."""

    def make_bot(self, spec: str, seed: int) -> SeatBot[Any, Any]: ...

    def new_table(self, players: int, seed: int | None, key: str | None, rules: Any) -> GameProtocol[Any, Any]:
        """A new game: the blake2b dice keyed by the hex `key` (a server's game), or SplitMix64
        seeded by `seed`."""

    def commitment(self, game: GameProtocol[Any, Any]) -> str:
        """The SHA-256 of the dice's seed published before the first die (engine.dice)."""

    def export(self, game: GameProtocol[Any, Any], game_id: str | None) -> dict[str, Any]:
        """A finished game's export: options, revealed seed, actions and result, which
        `judges verify` checks (judges/verify.py, judges/rome/verify.py)."""

    def seat_view(self, game: GameProtocol[Any, Any], seat: int) -> dict[str, Any]:
        """What `seat` sees, as JSON-ready builtins: the others' secrets removed."""

    def spectator_view(self, game: GameProtocol[Any, Any]) -> dict[str, Any]:
        """The view of no seat: what anyone watching may see."""

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema of a view, from the engine's types."""

    def catalog(self, lang: str) -> Mapping[str, str]: ...

    def message_keys(self) -> frozenset[str]:
        """Every message key the engine declares (reports, notifications)."""

    def render(self, key: str, params: Mapping[str, Any], lang: str) -> str: ...

    def render_error(self, error: Mapping[str, Any], lang: str) -> str:
        """A refusal (a RuleError's or RulesRefused's key and params) as a sentence in `lang`."""

    @property
    def rating(self) -> Rating | None:
        """What the ratings take from the game (None: a game without the capability "ratings")."""

    def placements(self, game: GameProtocol[Any, Any]) -> list[int]:
        """Each seat's place in a finished game, 1 the first; seats that did equally well share a
        place (a game every seat lost: all share the first)."""
