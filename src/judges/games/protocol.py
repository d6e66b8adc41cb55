"""The one interface every game of the project answers, as OpenSpiel's games do: bots, the lab,
the RL environment and the command line reach *Judges & Kings* and *Republic of Rome* only
through it (docs/decisions/0026-one-game-protocol.md).

    gd = GAMES["rome"]                      # a GameDef: the game's name, seats, bots, record
    g = gd.new(players=5, seed=1)           # a GameProtocol: a running game
    g.owed()                                # who owes what now (several seats at once)
    g.to_move()                             # the seats owing a decision, in the engine's order
    g.legal_actions(seat)                   # that seat's legal actions (typed Structs)
    g.apply(action)                         # validated; a typed RuleError, nothing half-applied
    g.is_over, g.outcome(), g.returns()     # the ending and winners; 1 split among the winners
    g.standing()                            # a heuristic score a seat, for a search cut short
    g.view(seat)                            # what `seat` may see (None: a spectator)
    g.clone(), g.determinize(seat, seed)    # a copy; a copy with what `seat` cannot see redrawn
    gd.from_view(view, seed)                # a playable game from a bot's view (search)
    gd.codec.to_dict(a) / from_dict(d)      # the shared action encoding (games/actions.py)
    gd.render(key, params, lang)            # a message key and its parameters as a sentence

What stays per game: the rules, the state, the views' shape, the decision kinds, the catalogs,
the record a lab keeps of a game and the statistics drawn from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from .actions import ActionCodec, PlayerAction

A = TypeVar("A", bound=PlayerAction)
V = TypeVar("V")
V_co = TypeVar("V_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
G = TypeVar("G", bound="GameProtocol[Any, Any]")


class Owed(NamedTuple):
    """A decision owed now: `seat` owes an answer of `kind` (the game's decision kinds)."""

    seat: int
    kind: str


class Outcome(NamedTuple):
    """How a finished game ended (one of the game's endings) and who won (no one: empty)."""

    ending: str
    winners: tuple[int, ...]


@runtime_checkable
class GameProtocol(Protocol[A, V_co]):
    """A running game of any of the project's games."""

    @property
    def name(self) -> str:
        """The game's registry name ("judges", "rome")."""

    @property
    def players(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def progress(self) -> int:
        """How far the game is: J&K's round, Rome's turn."""

    def owed(self) -> list[Owed]: ...

    def to_move(self) -> list[int]:
        """The seats owing a decision; a headless loop asks the first one."""

    def legal_actions(self, seat: int) -> list[A]: ...

    def apply(self, action: A | dict[str, Any]) -> None:
        """Validates, then plays; an illegal action raises a RuleError naming the rule."""

    def apply_legal(self, action: A) -> None:
        """Plays an action taken unchanged from `legal_actions` (no second validation)."""

    def outcome(self) -> Outcome | None: ...

    def returns(self) -> list[float]:
        """1 split evenly among the winners, 0 for the others (all 0 when no one won)."""

    def standing(self) -> list[float]:
        """Each seat's material (J&K) or influence (Rome): the search's score of an unfinished game."""

    def view(self, seat: int | None) -> V_co: ...

    def clone(self: G) -> G: ...

    def determinize(self: G, seat: int, seed: int) -> G:
        """A copy where everything `seat` cannot see (others' hands, the deck's order, secret
        ballots and treasuries, the dice to come) is drawn anew from `seed`."""

    def log(self) -> list[A]: ...


class SeatBot(Protocol[A, V_contra]):
    """A bot of any game: picks one of `legal` from its seat's view (built only if asked)."""

    name: str

    def choose(self, seat: int, legal: list[A], view: Callable[[], V_contra]) -> A: ...


@dataclass(frozen=True)
class GameDef(Generic[A, V]):
    """A game of the registry: how to start one, its bots, its encoding and its words."""

    name: str
    min_players: int
    max_players: int
    endings: tuple[str, ...]
    codec: ActionCodec[A]
    #: (players, seed, rules or None: the default rules) -> a new game
    new_game: Callable[[int, int, Any], GameProtocol[A, V]]
    #: (view, seed) -> a playable game, the hidden parts filled with a plausible sample
    from_view: Callable[[V, int], GameProtocol[A, V]]
    #: bot name -> (seed, settings) -> bot
    bots: Mapping[str, Callable[..., SeatBot[A, V]]]
    #: (key, params, lang) -> the sentence
    render: Callable[[str, Mapping[str, Any], str], str]
    #: what the lab keeps of a finished game (beside variant, seed, bots, seconds)
    record: Callable[[GameProtocol[A, V]], dict[str, Any]] = field(default=lambda g: {})
    #: (game seed, seat) -> the seed of that seat's bot: a game replays with the same bots
    bot_seed: Callable[[int, int], int] = field(default=lambda game_seed, seat: game_seed * 100 + seat)

    def new(self, players: int, seed: int, rules: Any = None) -> GameProtocol[A, V]:
        return self.new_game(players, seed, rules)

    def make_bot(self, spec: str, seed: int) -> SeatBot[A, V]:
        """A bot of this game from its spec ("random", "mcts:16:1"; judges.bots.parse_bot_spec)."""
        from ..bots import parse_bot_spec

        name, settings = parse_bot_spec(spec, self.bots)
        return self.bots[name](seed, **settings)

    def seat_bots(self, specs: list[str], game_seed: int) -> list[SeatBot[A, V]]:
        return [self.make_bot(spec, self.bot_seed(game_seed, seat)) for seat, spec in enumerate(specs)]


def play_to_end(
    game: GameProtocol[A, V], bots: list[SeatBot[A, V]], max_actions: int = 1_000_000
) -> GameProtocol[A, V]:
    """The headless loop of every game: the first seat owing a decision answers from its view,
    until the game ends. The bot's answer comes from the legal list, so it is not validated again."""
    actions = 0
    while not game.is_over:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply_legal(bots[seat].choose(seat, legal, lambda: game.view(seat)))
        actions += 1
        if actions > max_actions:  # pragma: no cover - a safety net
            raise RuntimeError(f"no end after {max_actions} actions")
    return game
