"""§ 3 Setup: the standard starting position for the chosen options."""

from __future__ import annotations

from collections.abc import Callable

from ..world import World
from .cards import CARDS, copies
from .constants import RULES_VERSION
from .dice import GENERATORS, Dice, initial_rng, key_bytes
from .errors import SetupError
from .state import CANAANITES, GameState, General, Options, Player, SettlementState, Title

# The longest game a table may ask for, in rounds (a game ends at its limit).
ROUND_LIMIT_MAX = 10_000


def validate_options(options: Options, world: World) -> None:
    rules = options.rules
    if not rules.min_players <= options.players <= rules.max_players:
        raise SetupError(f"a game has {rules.min_players} to {rules.max_players} players, not {options.players}")
    if options.players not in world.home_regions:
        raise SetupError(f"map {world.name!r} has no home regions for {options.players} players")
    if not 1 <= options.wave_pairs <= rules.max_wave_pairs:
        raise SetupError(f"invader pairs per wave must be 1 (default) or 2 (hard), not {options.wave_pairs}")
    if options.round_limit is not None and not 1 <= options.round_limit <= ROUND_LIMIT_MAX:
        raise SetupError(f"the round limit must be 1 to {ROUND_LIMIT_MAX}, not {options.round_limit}")
    if options.dice not in GENERATORS:
        raise SetupError(f"unknown dice {options.dice!r}; dice: {', '.join(GENERATORS)}")
    if options.dice == "blake2b":
        try:
            key_bytes(options.key)
        except ValueError as exc:
            raise SetupError(str(exc)) from None


def initial_state(options: Options, world: World, dice_factory: Callable[[GameState], Dice]) -> tuple[GameState, Dice]:
    """Builds the setup position. `dice_factory(state)` returns the game's dice; the deck is
    shuffled through them, so the setup is part of the seeded game."""
    rules = options.rules
    validate_options(options, world)
    state = GameState(rules_version=RULES_VERSION, options=options, rng=initial_rng(options))
    dice = dice_factory(state)
    state.settlements = [SettlementState() for _ in world.settlements]
    for info in world.settlements:
        if info.canaanite_start:
            s = state.settlements[info.index]
            s.owner = CANAANITES
            s.troops = rules.canaanite_city_garrison if info.is_city else rules.canaanite_garrison
            s.walls = info.is_city and rules.canaanite_city_walls
    state.titles = [Title() for _ in world.regions]
    # the treasury: START_COINS for everyone, plus the map's compensation of the seat's home
    seat_coins = world.home_coins[options.players]
    state.players = [Player(seat=seat, coins=rules.start_coins + seat_coins[seat]) for seat in range(options.players)]
    # the garrison of each village a seat starts with: START_GARRISON, or the map's `[home_troops]`
    for seat, region_index in enumerate(world.home_regions[options.players]):
        villages = world.regions[region_index].start_villages[: rules.start_villages]
        for v in villages:
            s = state.settlements[v]
            s.owner = seat
            s.troops = world.starting_troops(options.players, seat, v, rules.start_garrison)
        camp = world.settlements[villages[0]].hex
        for _ in range(rules.start_generals):
            gid = state.next_general_id
            state.generals[gid] = General(id=gid, owner=seat, hex=camp)
            state.next_general_id += 1
    # the map's positional compensation: extra villages a seat starts with
    for seat, extra in enumerate(world.home_villages[options.players]):
        for v in extra:
            s = state.settlements[v]
            s.owner = seat
            s.troops = world.starting_troops(options.players, seat, v, rules.start_garrison)
    state.ark_hex = world.ark_start_hex
    deck = [card for card in CARDS for _ in range(copies(rules, card))]
    dice.shuffle(deck)
    state.deck = deck
    for _ in range(rules.start_cards):
        for p in state.players:
            p.hand.append(state.deck.pop())
    return state, dice
