"""*Judges & Kings* behind the game protocol: a thin wrapper of `engine.Game` (nothing of its
rules or its state changes; `simulate`'s output is the same bytes through it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import Action, Game, Options
from ..engine.actions import CODEC
from ..engine.rules import DEFAULT_RULES, Rules
from ..engine.search import SearchState, game_from_view, material
from ..engine.state import ENDINGS
from ..engine.view import PlayerView
from .protocol import GameDef, Outcome, Owed


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
