"""*Judges & Kings* behind the game protocol: a thin wrapper of `engine.Game` (nothing of its
rules or its state changes; `simulate`'s output is the same bytes through it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from ..engine import Action, Game, Options
from ..engine.actions import CODEC
from ..engine.dice import BLAKE2B, commitment
from ..engine.rules import DEFAULT_RULES, Rules, RulesError, rules_with
from ..engine.search import SearchState, game_from_view, material
from ..engine.state import ENDINGS
from ..engine.view import NOBODY, PlayerView, player_view
from .protocol import GameDef, GameProtocol, Outcome, Owed, SeatBot
from .served import CAPABILITIES, BotRefused, Rating, RulesRefused


class JudgesGame:
    """A Judges & Kings game seen through the protocol; `game` is the engine's own object."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def name(self) -> str:
        return "judges"

    @property
    def players(self) -> int:
        return len(self.game.state.players)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def progress(self) -> int:
        return self.game.state.round

    def owed(self) -> list[Owed]:
        return [Owed(d.player, d.kind) for d in self.game.pending]

    def to_move(self) -> list[int]:
        return self.game.waiting_for()

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self.game.legal_actions(seat))

    def apply(self, action: Action | dict[str, Any]) -> None:
        self.game.apply(action)

    def apply_legal(self, action: Action) -> None:
        self.game.apply_legal(action)

    def outcome(self) -> Outcome | None:
        state = self.game.state
        return Outcome(state.ending or "", tuple(state.winners)) if self.game.is_over else None

    def returns(self) -> list[float]:
        return SearchState(self.game).returns()

    def standing(self) -> list[float]:
        return material(self.game)

    def view(self, seat: int | None) -> PlayerView:
        # a bot's view: the seat's notifications are not part of what it decides on
        return self.game.view(-1 if seat is None else seat, notifications=False)

    def clone(self) -> JudgesGame:
        return JudgesGame(self.game.clone())

    def determinize(self, seat: int, seed: int) -> JudgesGame:
        return JudgesGame(SearchState(self.game).determinize(seat, seed).game)

    def log(self) -> list[Action]:
        return list(self.game.log)


def new_game(players: int, seed: int, rules: Rules | None = None, **options: Any) -> JudgesGame:
    """A game the way headless play starts one: no copy kept for an Undo (bots never take back)."""
    opts = Options(players=players, seed=seed, rules=rules if rules is not None else DEFAULT_RULES, **options)
    return JudgesGame(Game.new(opts, undoable=False))


def from_options(options: Options) -> JudgesGame:
    return JudgesGame(Game.new(options, undoable=False))


def from_view(view: PlayerView, seed: int) -> JudgesGame:
    return JudgesGame(game_from_view(view, seed))


def render(key: str, params: Mapping[str, Any], lang: str) -> str:
    from ..i18n.render import render_entry

    return render_entry({"key": key, "params": dict(params)}, lang)


def record(game: Any) -> dict[str, Any]:
    from ..lab.records import game_record

    out = game_record(game.game, variant="", index=0, seed=game.game.state.options.seed, bots=[])
    for k in ("variant", "game", "seed", "bots", "seconds"):
        out.pop(k)
    return out


def _bots() -> Mapping[str, Any]:
    from ..bots import BOTS

    return BOTS


class _LazyBots(Mapping[str, Any]):
    """The bot registry, imported when first read (the bots import the engine's search)."""

    def __getitem__(self, name: str) -> Any:
        return _bots()[name]

    def __iter__(self) -> Any:
        return iter(_bots())

    def __len__(self) -> int:
        return len(_bots())


JUDGES: GameDef[Action, PlayerView] = GameDef(
    name="judges",
    min_players=DEFAULT_RULES.min_players,
    max_players=DEFAULT_RULES.max_players,
    endings=ENDINGS,
    codec=CODEC,
    new_game=new_game,
    from_view=from_view,
    bots=_LazyBots(),
    render=render,
    record=record,
)


class JudgesServed:
    """*Judges & Kings* as the server hosts it (games/served.py): its engine's rules, bots,
    views and catalogs, and every capability the server grew for it."""

    name = "judges"
    min_players = DEFAULT_RULES.min_players
    max_players = DEFAULT_RULES.max_players
    capabilities = CAPABILITIES
    view_type = PlayerView
    # Bots are anchors: greedy is the reference player (a new player's mean). The others follow
    # from docs/bots.md's measures under the model's own win probability (exp(mu/c) shares,
    # c = sqrt(sum of sigma^2 + beta^2)): mcts wins 88.5 % of two-player games against greedy
    # (a mean 12 higher); random wins 1 four-player game in 2,000 against three greedy seats
    # (a mean about 55 lower). A rated game lasts 3 rounds (bots' games last 4 to 29, median 10).
    rating = Rating(anchors={"greedy": 25.0, "mcts": 37.0, "random": -30.0}, reference="greedy", min_progress=3)

    @property
    def languages(self) -> tuple[str, ...]:
        from ..i18n import LANGUAGES

        return LANGUAGES

    def parse_rules(self, changes: Mapping[str, Any] | None) -> Rules:
        if not changes:
            return DEFAULT_RULES
        try:
            return rules_with(dict(changes))
        except RulesError as exc:  # an unknown rule, a wrong kind, or one beyond RULE_MAXIMA
            params = {k: v for k, v in exc.params.items() if k != "rule"}
            raise RulesRefused(exc.message, exc.key, exc.rule, **params) from None

    def check_bot(self, spec: str) -> str:
        from ..bots import parse_bot_spec

        try:
            return parse_bot_spec(spec, JUDGES.bots)[0]
        except ValueError as exc:
            raise BotRefused(str(exc), "error.bot") from None

    def make_bot(self, spec: str, seed: int) -> SeatBot[Any, Any]:
        self.check_bot(spec)
        return JUDGES.make_bot(spec, seed)

    def new_table(self, players: int, seed: int | None, key: str | None, rules: Any) -> JudgesGame:
        dice: dict[str, Any] = dict(dice=BLAKE2B, key=key) if key is not None else dict(seed=seed or 0)
        return JudgesGame(Game.new(Options(players=players, rules=rules or DEFAULT_RULES, **dice)))

    def commitment(self, game: GameProtocol[Any, Any]) -> str:
        return commitment(_engine(game).state.options)

    def export(self, game: GameProtocol[Any, Any], game_id: str | None) -> dict[str, Any]:
        from ..verify import build_export

        engine = _engine(game)
        return build_export(engine, msgspec.to_builtins(engine.state.options), game_id)

    def seat_view(self, game: GameProtocol[Any, Any], seat: int) -> dict[str, Any]:
        # the engine's view (a bot's): the screen's parts, legal actions with their words, stay
        # the server's wire view (server/games/judges/wire.py)
        view = player_view(_engine(game), seat, notifications=False)
        return msgspec.to_builtins(view)

    def spectator_view(self, game: GameProtocol[Any, Any]) -> dict[str, Any]:
        return self.seat_view(game, NOBODY)

    def view_schema(self) -> dict[str, Any]:
        return msgspec.json.schema(PlayerView)

    def catalog(self, lang: str) -> Mapping[str, str]:
        from ..i18n import catalog

        return catalog(lang)

    def message_keys(self) -> frozenset[str]:
        from ..engine.messages import MESSAGES

        return frozenset(MESSAGES)

    def render(self, key: str, params: Mapping[str, Any], lang: str) -> str:
        return render(key, params, lang)

    def render_error(self, error: Mapping[str, Any], lang: str) -> str:
        from ..i18n import render_error

        return render_error(error, lang)

    def placements(self, game: GameProtocol[Any, Any]) -> list[int]:
        from ..engine.victory import final_table

        engine = _engine(game)
        places = places_of(final_table(engine.state, engine.world))
        return [places[seat] for seat in range(len(engine.state.players))]


def places_of(table: dict[str, Any]) -> dict[int, int]:
    """Each seat's place (1 = first) from the final table (victory.final_table): the winners
    first, then the players still in the game, then the eliminated (the later the better), then
    by points and settlements; equal keys share a place."""

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        out = row["eliminated_round"]
        return (row["winner"], out is None, out or 0, row["total"], row["settlements"])

    keys = {row["seat"]: key(row) for row in table["players"]}
    return {seat: 1 + sum(1 for other in keys.values() if other > k) for seat, k in keys.items()}


def _engine(game: GameProtocol[Any, Any]) -> Game:
    if not isinstance(game, JudgesGame):
        raise TypeError(f"not a Judges & Kings game: {game!r}")
    return game.game


JUDGES_SERVED = JudgesServed()
