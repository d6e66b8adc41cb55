"""*Republic of Rome* behind the game protocol: a thin wrapper of `rome.engine.game.RomeGame`,
its view the faction's (`rome.engine.view`), its search sample `rome.engine.search`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from ..engine.dice import BLAKE2B, commitment
from ..rome.engine.actions import CODEC, Action
from ..rome.engine.board import faction_influence
from ..rome.engine.game import RomeGame
from ..rome.engine.rules import DEFAULT_ROME_RULES, RomeRules, RomeRulesError, check_bounds
from ..rome.engine.search import determinize, state_from_view
from ..rome.engine.state import ENDINGS, OFFICES, RomeOptions
from ..rome.engine.view import RomeView as RomeViewType
from ..rome.engine.view import player_view
from .protocol import GameDef, GameProtocol, Outcome, Owed, SeatBot
from .served import BotRefused, Rating, RulesRefused

RomeView = dict[str, Any]
#: the endings where Rome falls and every faction loses (the others have a winner)
FALLS = ("wars", "people_revolt", "bankruptcy")
#: the war states that count toward Rome's fall (four at the end of a Combat phase)
ACTIVE_WARS = ("active", "unprosecuted")


class RomeProtocolGame:
    """A Republic of Rome game seen through the protocol; `game` is the engine's own object."""

    __slots__ = ("game",)

    def __init__(self, game: RomeGame) -> None:
        self.game = game

    @property
    def name(self) -> str:
        return "rome"

    @property
    def players(self) -> int:
        return self.game.state.players

    @property
    def is_over(self) -> bool:
        return self.game.over

    @property
    def progress(self) -> int:
        return self.game.state.turn

    def owed(self) -> list[Owed]:
        return [Owed(d.player, d.kind) for d in self.game.state.pending]

    def to_move(self) -> list[int]:
        seats: list[int] = []
        for d in self.game.state.pending:
            if d.player not in seats:
                seats.append(d.player)
        return seats

    def legal_actions(self, seat: int) -> list[Action]:
        return self.game.legal_actions(seat)

    def apply(self, action: Action | dict[str, Any]) -> None:
        self.game.apply(action)

    def apply_legal(self, action: Action) -> None:
        self.game.apply(action)

    def outcome(self) -> Outcome | None:
        result = self.game.state.result
        return None if result is None else Outcome(result.ending, tuple(result.winners))

    def returns(self) -> list[float]:
        out = [0.0] * self.players
        result = self.game.state.result
        if result is not None and result.winners:
            for seat in result.winners:
                out[seat] = 1.0 / len(result.winners)
        return out

    def standing(self) -> list[float]:
        state = self.game.state
        return [0.0 if f.eliminated else float(faction_influence(state, f.seat)) for f in state.factions]

    def view(self, seat: int | None) -> RomeView:
        return player_view(self.game.state, seat)

    def clone(self) -> RomeProtocolGame:
        return RomeProtocolGame(self.game.clone())

    def determinize(self, seat: int, seed: int) -> RomeProtocolGame:
        return RomeProtocolGame(RomeGame(determinize(self.game.state, seat, seed)))

    def log(self) -> list[Action]:
        return list(self.game.log)


def new_game(players: int, seed: int, rules: RomeRules | None = None) -> RomeProtocolGame:
    options = RomeOptions(players=players, seed=seed, rules=rules if rules is not None else DEFAULT_ROME_RULES)
    return RomeProtocolGame(RomeGame.new(options))


def from_view(view: RomeView, seed: int) -> RomeProtocolGame:
    """The seat is the faction whose hand the view shows (a list, the others' are counts)."""
    seat = next(f["seat"] for f in view["factions"] if isinstance(f["hand"], list))
    return RomeProtocolGame(RomeGame(state_from_view(view, seat, seed)))


def render(key: str, params: Mapping[str, Any], lang: str) -> str:
    from ..rome.engine.state import Entry
    from ..rome.i18n import render_entry

    return render_entry(Entry(key, dict(params)), lang)


def record(game: Any) -> dict[str, Any]:
    """What the lab keeps of a finished Rome game: how it ended (Rome's fall or a winner), the
    turns, who held each office and which wars were active at the end, the offices the winners
    held, and each faction's influence."""
    state = game.game.state
    result = state.result
    winners = list(result.winners) if result is not None else []
    offices = {s.office: s.faction for s in state.senators.values() if s.office}
    cfl = state.senators.get(state.consul_for_life)
    return {
        "ending": result.ending if result is not None else "",
        "winners": winners,
        "fell": result is not None and result.ending in FALLS,
        "turns": state.turn,
        "actions": len(game.game.log),
        "offices": {o: offices[o] for o in OFFICES if o in offices},
        "winner_offices": sorted(o for o, f in offices.items() if f in winners),
        "consul_for_life": cfl.id if cfl is not None else "",
        "wars": sorted(w.id for w in state.wars if w.state in ACTIVE_WARS),
        "influence": [faction_influence(state, f.seat) for f in state.factions],
        "unrest": state.unrest,
        "treasury": state.treasury,
        # the whole options, rules included: the game replays from these and the bots
        "options": game.game.options_as_dict(),
    }


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot of `seat` (the same as Rome's headless loop has always used)."""
    return game_seed * 7919 + seat


class _LazyBots(Mapping[str, Any]):
    def _bots(self) -> Mapping[str, Any]:
        from ..rome.bots import BOTS

        return BOTS

    def __getitem__(self, name: str) -> Any:
        return self._bots()[name]

    def __iter__(self) -> Any:
        return iter(self._bots())

    def __len__(self) -> int:
        return len(self._bots())


ROME: GameDef[Action, RomeView] = GameDef(
    name="rome",
    min_players=DEFAULT_ROME_RULES.min_players,
    max_players=DEFAULT_ROME_RULES.max_players,
    endings=ENDINGS,
    codec=CODEC,
    new_game=new_game,
    from_view=from_view,
    bots=_LazyBots(),
    render=render,
    record=record,
    bot_seed=bot_seed,
)


class RomeServed:
    """*Republic of Rome* as the server hosts it (games/served.py): of the capabilities the server
    grew for Judges & Kings, its log (the report in words), a finished game's replay
    (server/games/rome/kit.py) and the ratings (`placements`)."""

    name = "rome"
    min_players = DEFAULT_ROME_RULES.min_players
    max_players = DEFAULT_ROME_RULES.max_players
    capabilities: frozenset[str] = frozenset({"action_log", "replay", "ratings"})
    view_type = RomeViewType
    # The neutral bot is the reference player (a new player's mean) and the only anchor: the
    # others' strength against it is not measured yet (a table seating them is not rated). A
    # rated game reaches its 2nd turn (bots' games end in turns 2 to 7, median 5: 100 games of
    # five neutral bots, seeds 0-99).
    rating = Rating(anchors={"neutral": 25.0}, reference="neutral", min_progress=2)

    @property
    def languages(self) -> tuple[str, ...]:
        from ..rome.i18n import LANGUAGES

        return LANGUAGES

    def parse_rules(self, changes: Mapping[str, Any] | None) -> RomeRules:
        if not changes:
            return DEFAULT_ROME_RULES
        known = set(RomeRules.__struct_fields__)
        for name in changes:
            if name not in known:
                shown = str(name)[:40]
                raise RulesRefused(f"there is no rule called {shown!r}", RULES_KEY, shown)
        try:
            rules = msgspec.convert({**msgspec.to_builtins(DEFAULT_ROME_RULES), **changes}, RomeRules)
            check_bounds(rules)
        except msgspec.ValidationError as exc:
            if isinstance(exc.__cause__, RomeRulesError):  # validate_rules, on decoding
                raise RulesRefused(str(exc.__cause__), RULES_KEY, exc.__cause__.rule) from None
            # msgspec's own type check names the field: "Expected `int`, got `str` - at `$.hand_limit`"
            rule = str(exc).rpartition("at `$.")[2].rstrip("`").split(".")[0] if "at `$." in str(exc) else ""
            raise RulesRefused(f"rules: {exc}", RULES_KEY, rule) from None
        except RomeRulesError as exc:
            raise RulesRefused(str(exc), RULES_KEY, exc.rule) from None
        return rules

    def check_bot(self, spec: str) -> str:
        from ..bots import parse_bot_spec

        try:
            return parse_bot_spec(spec, ROME.bots)[0]
        except ValueError as exc:
            raise BotRefused(str(exc), "rome.error.bot") from None

    def make_bot(self, spec: str, seed: int) -> SeatBot[Any, Any]:
        self.check_bot(spec)
        return ROME.make_bot(spec, seed)

    def new_table(self, players: int, seed: int | None, key: str | None, rules: Any) -> RomeProtocolGame:
        dice: dict[str, Any] = dict(dice=BLAKE2B, key=key) if key is not None else dict(seed=seed or 0)
        return RomeProtocolGame(RomeGame.new(RomeOptions(players=players, rules=rules or DEFAULT_ROME_RULES, **dice)))

    def commitment(self, game: GameProtocol[Any, Any]) -> str:
        return commitment(_engine(game).state.options)  # type: ignore[arg-type]  # the same dice fields

    def export(self, game: GameProtocol[Any, Any], game_id: str | None) -> dict[str, Any]:
        from ..rome.verify import build_rome_export

        return build_rome_export(_engine(game), game_id)

    def seat_view(self, game: GameProtocol[Any, Any], seat: int) -> dict[str, Any]:
        return player_view(_engine(game).state, seat)

    def spectator_view(self, game: GameProtocol[Any, Any]) -> dict[str, Any]:
        return player_view(_engine(game).state, None)

    def view_schema(self) -> dict[str, Any]:
        return msgspec.json.schema(RomeViewType)

    def catalog(self, lang: str) -> Mapping[str, str]:
        from ..rome.i18n import catalog

        return catalog(lang)

    def message_keys(self) -> frozenset[str]:
        from ..rome.engine.messages import MESSAGES

        return frozenset(MESSAGES)

    def render(self, key: str, params: Mapping[str, Any], lang: str) -> str:
        return render(key, params, lang)

    def render_error(self, error: Mapping[str, Any], lang: str) -> str:
        from ..rome.i18n import render_error

        return render_error(error, lang)

    def placements(self, game: GameProtocol[Any, Any]) -> list[int]:
        return rome_places(_engine(game).state)


def rome_places(state: Any) -> list[int]:
    """Each faction's place in a finished game (docs/rome/rules-reference.md, "Places"): when Rome
    falls every faction loses and all share the place; otherwise the winners (several: a tie
    the rules leave shared) share the first, then the factions still in the game by their
    influence, then the eliminated; equal influence shares a place."""
    result = state.result
    winners = set(result.winners) if result is not None else set()
    if not winners:
        return [1] * state.players
    keys = {
        f.seat: (f.seat in winners, not f.eliminated, 0 if f.eliminated else faction_influence(state, f.seat))
        for f in state.factions
    }
    return [1 + sum(1 for other in keys.values() if other > keys[seat]) for seat in range(state.players)]


#: the key of every refused Rome rule (its parameter names the rule)
RULES_KEY = "rome.error.rules_invalid"


def _engine(game: GameProtocol[Any, Any]) -> RomeGame:
    if not isinstance(game, RomeProtocolGame):
        raise TypeError(f"not a Republic of Rome game: {game!r}")
    return game.game


ROME_SERVED = RomeServed()
