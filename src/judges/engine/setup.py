"""§ 3 Setup: the standard starting position for the chosen options."""

from __future__ import annotations

from ..world import World
from . import constants as C
from .dice import Dice, seed_to_state
from .errors import SetupError
from .state import CANAANITES, GameState, General, Options, Player, SettlementState, Title


def validate_options(options: Options, world: World) -> None:
    if not C.MIN_PLAYERS <= options.players <= C.MAX_PLAYERS:
        raise SetupError(f"a game has {C.MIN_PLAYERS} to {C.MAX_PLAYERS} players, not {options.players}")
    if options.players not in world.home_regions:
        raise SetupError(f"map {world.name!r} has no home regions for {options.players} players")
    if not 1 <= options.wave_pairs <= C.MAX_WAVE_PAIRS:
        raise SetupError(f"invader pairs per wave must be 1 (default) or 2 (hard), not {options.wave_pairs}")
    if options.round_limit is not None and options.round_limit < 1:
        raise SetupError(f"the round limit must be at least 1, not {options.round_limit}")


def initial_state(options: Options, world: World, dice_factory) -> tuple[GameState, Dice]:
    """Builds the setup position. `dice_factory(state)` returns the game's dice; the deck is
    shuffled through them, so the setup is part of the seeded game."""
    validate_options(options, world)
    state = GameState(rules_version=C.RULES_VERSION, options=options, rng=seed_to_state(options.seed))
    dice = dice_factory(state)
    state.settlements = [SettlementState() for _ in world.settlements]
    for info in world.settlements:
        if info.canaanite_start:
            s = state.settlements[info.index]
            s.owner = CANAANITES
            s.troops = C.CANAANITE_CITY_GARRISON if info.is_city else C.CANAANITE_GARRISON
            s.walls = info.is_city and C.CANAANITE_CITY_WALLS
    state.titles = [Title() for _ in world.regions]
    state.players = [Player(seat=seat, coins=C.START_COINS) for seat in range(options.players)]
    for seat, region_index in enumerate(world.home_regions[options.players]):
        villages = world.regions[region_index].start_villages[: C.START_VILLAGES]
        for v in villages:
            s = state.settlements[v]
            s.owner = seat
            s.troops = C.START_GARRISON
        camp = world.settlements[villages[0]].hex
        for _ in range(C.START_GENERALS):
            gid = state.next_general_id
            state.generals[gid] = General(id=gid, owner=seat, hex=camp)
            state.next_general_id += 1
    state.ark_hex = world.ark_start_hex
    deck = [card for card, copies in C.DECK.items() for _ in range(copies)]
    dice.shuffle(deck)
    state.deck = deck
    for _ in range(C.START_CARDS):
        for p in state.players:
            p.hand.append(state.deck.pop())
    return state, dice
