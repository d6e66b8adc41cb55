"""The Early Republic's setup (VG 3.01; ror-data §14; R3-R6): the State, the first war, the
deal of senators and faction cards, the bottom block with the Era Ends card, the Temporary
Rome Consul; then each faction names its leader and plays its first cards (decisions)."""

from __future__ import annotations

from collections.abc import Iterable

from ...engine.dice import SPLITMIX64, initial_rng
from ...engine.errors import IllegalAction, SetupError
from ..cards import ERA_ENDS, load_deck
from .actions import ChooseLeader
from .board import aligned
from .context import Ctx
from .effects import senator_from_card
from .state import Decision, Faction, RomeOptions, RomeState, Units, WarInPlay

RULE_LEADER = "R65 Faction leader (setup)"


def initial_state(options: RomeOptions) -> RomeState:
    rules = options.rules
    if not rules.min_players <= options.players <= rules.max_players:
        raise SetupError(
            f"Republic of Rome seats {rules.min_players} to {rules.max_players} factions, not {options.players}"
        )
    if options.dice != SPLITMIX64 and not options.key:
        raise SetupError("the blake2b dice need a key")
    deck = load_deck(rules.deck)
    state = RomeState(options=options, rng=initial_rng(options))  # type: ignore[arg-type]
    state.treasury = deck.setup.state_treasury
    state.unrest = deck.setup.unrest
    state.units = Units(legions=deck.setup.legions, fleets=deck.setup.fleets)
    state.factions = [Faction(seat=i) for i in range(options.players)]
    state.wars = [WarInPlay(id=w.id, state=w.arrives) for w in deck.wars.values() if w.starts_on_board]
    return state


def deal(ctx: Ctx) -> bool:
    """Senators face up, three each (R3); faction cards, three each, forum cards drawn meanwhile
    set aside and shuffled back; then the bottom block (six cards and the Era Ends card)."""
    state, deck, setup = ctx.state, ctx.deck, ctx.deck.setup
    families = deck.family_cards(deck.era)
    ctx.dice.shuffle(families)
    for f in state.factions:
        for _ in range(setup.senators_per_player):
            card = families.pop()
            state.senators[card] = senator_from_card(deck, card, f.seat)
    cards = families + [c for c in deck.deck_cards(deck.era) if deck.kind_of(c) != "senator"]
    ctx.dice.shuffle(cards)
    set_aside: list[str] = []
    for f in state.factions:
        while len(f.hand) < setup.faction_cards_per_player:
            card = cards.pop()
            if deck.kind_of(card) in ("statesman", "concession", "intrigue"):
                f.hand.append(card)
            else:
                set_aside.append(card)
        ctx.report("rome.setup.dealt", faction=f.seat, int=len(f.hand))
    cards += set_aside
    ctx.dice.shuffle(cards)
    # The deck's top is the end of the list: the bottom block is its first cards.
    block = cards[: setup.bottom_block_early] + [ERA_ENDS]
    ctx.dice.shuffle(block)
    state.deck = block + cards[setup.bottom_block_early :]
    return True


def temporary_consul(ctx: Ctx) -> bool:
    """VG 3.01 (2nd-edition change 9): chits are drawn until one names a senator in play; he is
    the Temporary Rome Consul with the prior-consul marker and +5 influence (R6)."""
    state = ctx.state
    chits = [str(n) for n in range(1, ctx.deck.mortality.senator_ids + 1)]
    chits += ["blank"] * ctx.deck.mortality.blank + ["draw_two"] * ctx.deck.mortality.draw_two
    while True:
        chit = chits.pop(ctx.dice.roll(len(chits)) - 1)
        if chit in state.senators:
            break
    s = state.senators[chit]
    s.office = "rome_consul"
    s.prior_consul = True
    s.influence += ctx.rules.temporary_consul_influence
    ctx.report("rome.setup.temporary_consul", senator=s.id, faction=s.faction)
    order = [(s.faction + i) % state.players for i in range(state.players)]
    state.scratch["leaders"] = list(order)
    state.scratch["first_cards"] = list(order)
    return True


def in_turn(ctx: Ctx, queue: str, kind: str) -> bool:
    """A step in which the factions of `scratch[queue]` decide one after another: posts the
    next one's decision (False: run the step again once it is answered), True when all have."""
    waiting: list[int] = ctx.state.scratch.get(queue, [])
    if not waiting:
        ctx.state.scratch.pop(queue, None)
        return True
    ctx.state.pending.append(Decision(waiting.pop(0), kind))
    return False


def ask_leaders(ctx: Ctx) -> bool:
    """Each player, from the Temporary Rome Consul's clockwise, names his faction leader."""
    return in_turn(ctx, "leaders", "choose_leader")


def legal_choose_leader(ctx: Ctx, decision: Decision) -> Iterable[ChooseLeader]:
    return [ChooseLeader(player=decision.player, senator=s.id) for s in aligned(ctx.state, decision.player)]


def apply_choose_leader(ctx: Ctx, decision: Decision, action: ChooseLeader) -> None:
    state = ctx.state
    s = state.senators.get(action.senator)
    if s is None or s.faction != decision.player:
        raise IllegalAction(
            RULE_LEADER, "rome.error.not_your_senator", f"senator {action.senator} is not yours", senator=action.senator
        )
    state.factions[decision.player].leader = s.id
    ctx.report("rome.setup.leader", senator=s.id, faction=decision.player)
    state.pending.remove(decision)


def ask_first_cards(ctx: Ctx) -> bool:
    """The initial faction phase: the same order, statesmen and concessions from the hand."""
    return in_turn(ctx, "first_cards", "play_cards")
