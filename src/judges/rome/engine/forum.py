"""Phase 3, Forum (VG 1.07; R40-R69; ror-data §16 GAP-12 to GAP-14): events leave, six
initiatives (each faction one from the HRAO's clockwise, the rest auctioned), each a roll for a
card or an event, then a persuasion attempt with bribes and counter-bribes, knights, games and
the faction leader; then Rome is put in order (the Tax Farmers under the 2nd Punic War, the
Curia), and the game ends here if the Era Ends card came up.

The initiative in progress and its sub-steps live in `state.scratch` (cleared with the phase):
"initiatives" the factions whose own initiative is still to come, "auctions" how many are left
to auction, "auction" the auction being bid, "turn" the initiative being played (seat, stage),
"persuasion" the attempt being bid."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...engine.errors import IllegalAction
from .actions import (
    Action,
    AttractKnight,
    Bid,
    ChooseLeader,
    CounterBribe,
    DiscardLeader,
    PeddleInfluence,
    Persuade,
    PressureKnights,
    Raise,
    Roll,
    SponsorGames,
)
from .actions import (
    Skip as SkipAction,
)
from .alliances import rhodian_alliance
from .board import aligned, effective_loyalty, faction_influence, hrao, hrao_order, order_from, votes
from .combat import sue_for_peace
from .context import Ctx
from .effects import senator_from_card
from .events import destroy_concession, draw_event, omens
from .state import UNALIGNED, Decision, Result, Senator
from .wars import leaders_in_play, place_leader, place_war

RULE_INITIATIVE = "R50 Initiative (VG 1.07.2)"
RULE_PERSUASION = "R51-R56 Persuasion (VG 1.07.4)"
RULE_KNIGHTS = "R61-R64 Knights (VG 1.07.5)"
RULE_GAMES = "R66 Games (VG 1.07.6)"
RULE_LEADER = "R65 Faction leader (VG 1.07.7)"
RULE_AUCTION = "R42-R44 Auction of initiatives (VG 1.07.22)"
RULE_ENEMY_LEADER = "Enemy Leader Dies (VG events)"
RULE_PEDDLING = "R268 Influence Peddling (VG's card)"
STAGES = ("persuade", "knights", "games", "leader")
UNOPPOSED = ("seduction", "blackmail")  # R58, R269, R270: cards that forbid counter-bribes
PEDDLING = ("influence_peddling",)  # R268: the card that takes another faction's card
POPULARITY_LIMIT = 9  # VG 1.07.31: popularity stays within -9..9


def add_popularity(senator: Senator, change: int) -> None:
    senator.popularity = max(-POPULARITY_LIMIT, min(POPULARITY_LIMIT, senator.popularity + change))


# --- the start of the phase ---------------------------------------------------------------


def passage_of_time(ctx: Ctx) -> bool:
    """R40, VG 1.07.1: the events that last one turn leave."""
    state = ctx.state
    state.events = {e: n for e, n in state.events.items() if ctx.deck.events[e].lasts != "forum"}
    order = hrao_order(state)
    state.scratch["initiatives"] = list(order)
    state.scratch["auctions"] = max(0, ctx.rules.initiatives - len(order))
    return True


def initiatives(ctx: Ctx) -> bool:
    """R41-R44: the factions' own initiatives, then the auctions; False while one is played."""
    sc = ctx.state.scratch
    auction = sc.get("auction")
    if auction is not None:
        sc["auction"] = None
        winner = auction["winner"]
        if winner is None:
            top = hrao(ctx.state)
            seat = top.faction if top is not None else hrao_order(ctx.state)[0]
        else:
            seat = winner
            ctx.state.senators[auction["senator"]].talents -= auction["high"]
            ctx.report("rome.forum.auction_won", faction=seat, talents=auction["high"])
        start_initiative(ctx, seat)
        return False
    if sc["initiatives"]:
        start_initiative(ctx, sc["initiatives"].pop(0))
        return False
    if sc["auctions"] > 0:
        sc["auctions"] -= 1
        bidders = [
            seat for seat in hrao_order(ctx.state) if any(s.location == "rome" for s in aligned(ctx.state, seat))
        ]
        sc["auction"] = {"bidders": bidders, "high": 0, "winner": None, "senator": ""}
        next_bidder(ctx)
        return False
    return True


def start_initiative(ctx: Ctx, seat: int) -> None:
    """VG 1.07.2: the initiative roll: 7 draws an event (R45), else the top card (R48, R49)."""
    state = ctx.state
    roll = sum(ctx.roll(2))
    ctx.report("rome.forum.initiative", faction=seat, int=roll)
    if roll == 7:
        if draw_event(ctx) == "rhodian_maritime_alliance":
            rhodian_alliance(ctx, ctx.state.events["rhodian_maritime_alliance"])
    elif state.deck:
        draw_card(ctx, seat, state.deck.pop())
    if state.result is not None:
        return
    state.scratch["turn"] = {"seat": seat, "stage": 0}
    state.pending.append(Decision(seat, "initiative"))


def draw_card(ctx: Ctx, seat: int, card: str) -> None:
    state, deck = ctx.state, ctx.deck
    kind = deck.kind_of(card)
    if kind in ("statesman", "concession", "intrigue"):
        state.factions[seat].hand.append(card)
        ctx.report("rome.forum.faction_card", faction=seat)
    elif kind == "senator":
        arrive_in_forum(ctx, card)
    elif kind == "war":
        place_war(ctx, card)
    elif kind == "leader":
        place_leader(ctx, card)
    else:  # the Era Ends card: the game ends with this Forum phase
        state.removed.append(card)
        state.era_ended = True
        ctx.report("rome.forum.era_ends")


def arrive_in_forum(ctx: Ctx, card: str) -> None:
    """A family card reaching the Forum: unaligned there, or under its lone statesman."""
    lone = ctx.state.senators.get(card)
    if lone is not None:
        lone.family_card = True
        ctx.report("rome.forum.family_joins", senator=card)
        return
    ctx.state.senators[card] = senator_from_card(ctx.deck, card)
    ctx.report("rome.forum.senator", senator=card)


# --- the initiative's steps ---------------------------------------------------------------


def _turn(ctx: Ctx) -> dict[str, Any]:
    turn: dict[str, Any] = ctx.state.scratch["turn"]
    return turn


def next_stage(ctx: Ctx, decision: Decision) -> None:
    """The initiative goes on to its next step, or ends."""
    state = ctx.state
    if decision in state.pending:
        state.pending.remove(decision)
    turn = _turn(ctx)
    turn["stage"] += 1
    if turn["stage"] < len(STAGES):
        state.pending.append(Decision(turn["seat"], "initiative"))


def persuasion_refusal(ctx: Ctx, seat: int, action: Persuade) -> str | None:
    state = ctx.state
    p = state.senators.get(action.persuader)
    t = state.senators.get(action.target)
    if p is None or p.faction != seat or p.location != "rome":
        return "rome.error.persuader_not_in_rome"
    if t is None or t.faction == seat or t.location != "rome":
        return "rome.error.not_a_target"
    if t.faction != UNALIGNED and state.factions[t.faction].leader == t.id:
        return "rome.error.leader_not_persuadable"
    if not 0 <= action.bribe <= p.talents:
        return "rome.error.not_enough_talents"
    if action.card and (action.card not in UNOPPOSED or action.card not in state.factions[seat].hand):
        return "rome.error.not_in_hand"
    return None


def persuasion_base(ctx: Ctx, persuader: Senator, target: Senator) -> int:
    """R52: oratory + influence − loyalty − the target's talents, − 7 if he is aligned."""
    base = persuader.oratory + persuader.influence - effective_loyalty(ctx.state, target, ctx.deck) - target.talents
    if target.faction != UNALIGNED:
        base -= ctx.rules.persuasion_aligned
    return base


def legal_initiative(ctx: Ctx, decision: Decision) -> Iterable[Action]:
    state = ctx.state
    seat = decision.player
    stage = STAGES[_turn(ctx)["stage"]]
    out: list[Action] = [SkipAction(player=seat)]
    mine = aligned(state, seat)
    if stage == "persuade":
        for p in mine:
            if p.location != "rome":
                continue
            cards = [""] + [c for c in UNOPPOSED if c in state.factions[seat].hand]
            for t in state.senators.values():
                for bribe in sorted({0, p.talents}):
                    for card in cards:
                        action = Persuade(player=seat, persuader=p.id, target=t.id, bribe=bribe, card=card)
                        if persuasion_refusal(ctx, seat, action) is None:
                            out.append(action)
    elif stage == "knights":
        for s in mine:
            if s.location == "rome":
                out += [AttractKnight(player=seat, senator=s.id, talents=t) for t in sorted({0, min(s.talents, 5)})]
            if s.knights:
                out += [PressureKnights(player=seat, senator=s.id, knights=k) for k in sorted({1, s.knights})]
    elif stage == "games":
        for s in mine:
            out += [
                SponsorGames(player=seat, senator=s.id, games=g.id)
                for g in ctx.deck.games.values()
                if g.cost <= s.talents
            ]
    else:
        out += [ChooseLeader(player=seat, senator=s.id) for s in mine if s.id != state.factions[seat].leader]
    out += [
        PeddleInfluence(player=seat, card=card, target=f.seat)
        for card in dict.fromkeys(c for c in state.factions[seat].hand if c in PEDDLING)
        for f in state.factions
        if f.seat != seat and not f.eliminated and f.hand
    ]
    return out


def peddle_influence(ctx: Ctx, seat: int, action: PeddleInfluence) -> None:
    """R268 (VG's card): Influence Peddling is discarded and a card is drawn at random from the
    hand of the opponent named. [D] Played while taking one's initiative in the Forum (VG: at
    any time but the Revolution phase), at any of its steps, which it does not end."""
    state = ctx.state
    hand = state.factions[seat].hand
    if action.card not in PEDDLING or action.card not in hand:
        raise IllegalAction(RULE_PEDDLING, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
    if not 0 <= action.target < len(state.factions) or action.target == seat:
        raise IllegalAction(RULE_PEDDLING, "rome.error.no_card_to_take", "name another faction holding cards")
    victim = state.factions[action.target]
    if victim.eliminated or not victim.hand:
        raise IllegalAction(RULE_PEDDLING, "rome.error.no_card_to_take", "name another faction holding cards")
    hand.remove(action.card)
    state.discard.append(action.card)
    taken = victim.hand.pop(ctx.dice.roll(len(victim.hand)) - 1)
    hand.append(taken)
    ctx.report("rome.forum.influence_peddling", faction=seat, target=action.target)


def apply_initiative(ctx: Ctx, decision: Decision, action: Action) -> None:
    state = ctx.state
    seat = decision.player
    stage = STAGES[_turn(ctx)["stage"]]
    if isinstance(action, SkipAction):
        next_stage(ctx, decision)
    elif isinstance(action, PeddleInfluence):
        peddle_influence(ctx, seat, action)
    elif isinstance(action, Persuade) and stage == "persuade":
        why = persuasion_refusal(ctx, seat, action)
        if why is not None:
            raise IllegalAction(RULE_PERSUASION, why, f"{action.persuader} cannot persuade {action.target} now")
        open_persuasion(ctx, decision, action)
    elif isinstance(action, AttractKnight) and stage == "knights":
        s = state.senators.get(action.senator)
        if s is None or s.faction != seat or s.location != "rome":
            raise IllegalAction(RULE_KNIGHTS, "rome.error.not_your_senator_in_rome", f"{action.senator} cannot attract")
        if not 0 <= action.talents <= s.talents:
            raise IllegalAction(RULE_KNIGHTS, "rome.error.not_enough_talents", "not enough talents")
        s.talents -= action.talents
        die = ctx.roll(1)[0]
        won = die - omens(ctx) + action.talents >= ctx.rules.knight_needs
        if won:
            s.knights += 1
        ctx.report("rome.forum.knight", senator=s.id, int=die, won=won)
        next_stage(ctx, decision)
    elif isinstance(action, PressureKnights) and stage == "knights":
        s = state.senators.get(action.senator)
        if s is None or s.faction != seat or not 1 <= action.knights <= s.knights:
            raise IllegalAction(RULE_KNIGHTS, "rome.error.no_such_knights", f"{action.senator} cannot pressure")
        gained = sum(max(0, d - omens(ctx)) for d in ctx.roll(action.knights))
        s.knights -= action.knights
        s.talents += gained
        ctx.report("rome.forum.pressure", senator=s.id, int=action.knights, talents=gained)
        next_stage(ctx, decision)
    elif isinstance(action, SponsorGames) and stage == "games":
        s = state.senators.get(action.senator)
        games = ctx.deck.games.get(action.games)
        if s is None or s.faction != seat:
            raise IllegalAction(RULE_GAMES, "rome.error.not_your_senator", f"{action.senator} is not yours")
        if games is None or games.cost > s.talents:
            raise IllegalAction(RULE_GAMES, "rome.error.not_enough_talents", "not enough talents for these games")
        s.talents -= games.cost
        add_popularity(s, games.popularity)
        state.unrest = max(0, state.unrest + games.unrest)
        ctx.report("rome.forum.games", senator=s.id, games=games.id)
        next_stage(ctx, decision)
    elif isinstance(action, ChooseLeader) and stage == "leader":
        s = state.senators.get(action.senator)
        if s is None or s.faction != seat:
            raise IllegalAction(RULE_LEADER, "rome.error.not_your_senator", f"{action.senator} is not yours")
        state.factions[seat].leader = s.id
        ctx.report("rome.setup.leader", senator=s.id, faction=seat)
        next_stage(ctx, decision)
    else:
        raise IllegalAction(
            RULE_INITIATIVE, "rome.error.wrong_step", f"not the step for this now ({stage})", step=stage
        )


# --- persuasion: bribes and counter-bribes in rounds (R53, R54; VG 1.07.414) ------------------


def open_persuasion(ctx: Ctx, decision: Decision, action: Persuade) -> None:
    state = ctx.state
    state.pending.remove(decision)
    state.senators[action.persuader].talents -= action.bribe
    if action.card:
        state.factions[decision.player].hand.remove(action.card)
        state.discard.append(action.card)
    state.scratch["persuasion"] = {
        "persuader": action.persuader,
        "target": action.target,
        "bribes": action.bribe,
        "counters": 0,
        "queue": [],
        "card": action.card,
    }
    ctx.report("rome.forum.persuasion", senator=action.persuader, target=action.target, talents=action.bribe)
    counter_round(ctx)


def _persuasion(ctx: Ctx) -> dict[str, Any]:
    p: dict[str, Any] = ctx.state.scratch["persuasion"]
    return p


def counter_round(ctx: Ctx) -> None:
    """Every other faction, clockwise from the persuader's, may counter-bribe from its faction
    treasury (R54); then the persuader raises or rolls."""
    p = _persuasion(ctx)
    seat = _turn(ctx)["seat"]
    p["queue"] = [s for s in order_from(ctx.state, seat) if s != seat and ctx.state.factions[s].treasury > 0]
    if p["card"]:
        p["queue"] = []  # unopposed: only the target's loyalty and treasury defend him
    next_counter(ctx)


def next_counter(ctx: Ctx) -> None:
    p = _persuasion(ctx)
    if p["queue"]:
        ctx.state.pending.append(Decision(p["queue"].pop(0), "counter_bribe"))
    else:
        ctx.state.pending.append(Decision(_turn(ctx)["seat"], "persuasion"))


def legal_counter_bribe(ctx: Ctx, decision: Decision) -> Iterable[CounterBribe]:
    have = ctx.state.factions[decision.player].treasury
    return [CounterBribe(player=decision.player, talents=t) for t in sorted({0, min(1, have), have})]


def apply_counter_bribe(ctx: Ctx, decision: Decision, action: CounterBribe) -> None:
    f = ctx.state.factions[decision.player]
    if not 0 <= action.talents <= f.treasury:
        raise IllegalAction(RULE_PERSUASION, "rome.error.not_enough_talents", "not enough in the faction treasury")
    ctx.state.pending.remove(decision)
    f.treasury -= action.talents
    _persuasion(ctx)["counters"] += action.talents
    if action.talents:
        ctx.report("rome.forum.counter_bribe", faction=decision.player, talents=action.talents)
    next_counter(ctx)


def legal_persuasion(ctx: Ctx, decision: Decision) -> Iterable[Raise | Roll]:
    have = ctx.state.senators[_persuasion(ctx)["persuader"]].talents
    out: list[Raise | Roll] = [Roll(player=decision.player)]
    out += [Raise(player=decision.player, talents=t) for t in sorted({1, have}) if 0 < t <= have]
    return out


def apply_persuasion(ctx: Ctx, decision: Decision, action: Raise | Roll) -> None:
    state = ctx.state
    p = _persuasion(ctx)
    persuader = state.senators[p["persuader"]]
    if isinstance(action, Raise):
        if not 0 < action.talents <= persuader.talents:
            raise IllegalAction(RULE_PERSUASION, "rome.error.not_enough_talents", "not enough talents to raise")
        state.pending.remove(decision)
        persuader.talents -= action.talents
        p["bribes"] += action.talents
        ctx.report("rome.forum.raise", senator=persuader.id, talents=action.talents)
        counter_round(ctx)
        return
    state.pending.remove(decision)
    resolve_persuasion(ctx)
    next_stage(ctx, decision)


def resolve_persuasion(ctx: Ctx) -> None:
    """R56, R57 (VG 1.07.41): DR ≤ base + bribes − counter-bribes succeeds, but an unmodified
    10 or more always fails (9 or more once the Era Ends card is out); Evil Omens add to the
    roll. All the money goes to the target (R55)."""
    state = ctx.state
    p = state.scratch.pop("persuasion")
    persuader, target = state.senators[p["persuader"]], state.senators[p["target"]]
    number = persuasion_base(ctx, persuader, target) + p["bribes"] - p["counters"]
    dice = ctx.roll(2)
    roll = sum(dice)
    fails_from = ctx.rules.persuasion_fails_from_last_turn if state.era_ended else ctx.rules.persuasion_fails_from
    won = roll < fails_from and roll + omens(ctx) <= number
    target.talents += p["bribes"] + p["counters"]
    ctx.report("rome.forum.persuasion_roll", target=target.id, int=roll, number=number, won=won)
    if won:
        target.faction = persuader.faction
    elif p["card"] == "blackmail":  # R270: a failed blackmail costs the target 2d6 and 2d6
        target.influence = max(0, target.influence - sum(ctx.roll(2)))
        add_popularity(target, -sum(ctx.roll(2)))


# --- auctions (GAP-12) ----------------------------------------------------------------------


def next_bidder(ctx: Ctx) -> None:
    auction = ctx.state.scratch["auction"]
    if auction["bidders"]:
        ctx.state.pending.append(Decision(auction["bidders"].pop(0), "bid"))


def legal_bid(ctx: Ctx, decision: Decision) -> Iterable[Bid | SkipAction]:
    high = ctx.state.scratch["auction"]["high"]
    out: list[Bid | SkipAction] = [SkipAction(player=decision.player)]
    for s in aligned(ctx.state, decision.player):
        if s.location == "rome" and s.talents > high:
            out += [Bid(player=decision.player, senator=s.id, talents=t) for t in sorted({high + 1, s.talents})]
    return out


def apply_bid(ctx: Ctx, decision: Decision, action: Bid | SkipAction) -> None:
    auction = ctx.state.scratch["auction"]
    if isinstance(action, Bid):
        s = ctx.state.senators.get(action.senator)
        if s is None or s.faction != decision.player or s.location != "rome":
            raise IllegalAction(RULE_AUCTION, "rome.error.not_your_senator_in_rome", f"{action.senator} cannot bid")
        if action.talents < max(ctx.rules.minimum_bid, auction["high"] + 1) or action.talents > s.talents:
            raise IllegalAction(
                RULE_AUCTION, "rome.error.bid_too_low", "a bid must beat the last one, from one treasury"
            )
        auction.update(high=action.talents, winner=decision.player, senator=s.id)
        ctx.report("rome.forum.bid", senator=s.id, talents=action.talents)
    ctx.state.pending.remove(decision)
    next_bidder(ctx)


# --- the end of the phase ---------------------------------------------------------------------


def enemy_leader_dies(ctx: Ctx) -> bool:
    """The Enemy Leader Dies event: at the end of the Forum the HRAO discards a leader in play."""
    state = ctx.state
    if "enemy_leader_dies" not in state.events:
        return True
    top = hrao(state)
    if not leaders_in_play(ctx) or top is None:
        return True
    state.pending.append(Decision(top.faction, "discard_leader"))
    return True


def legal_discard_leader(ctx: Ctx, decision: Decision) -> Iterable[DiscardLeader]:
    return [DiscardLeader(player=decision.player, card=card) for card, _ in leaders_in_play(ctx)]


def apply_discard_leader(ctx: Ctx, decision: Decision, action: DiscardLeader) -> None:
    found = [w for card, w in leaders_in_play(ctx) if card == action.card]
    if not found:
        raise IllegalAction(RULE_ENEMY_LEADER, "rome.error.no_such_leader", f"{action.card} is not in play")
    state = ctx.state
    state.pending.remove(decision)
    found[0].leaders.remove(action.card)
    state.removed.append(action.card)
    ctx.report("rome.leader.gone", card=action.card)
    if state.events["enemy_leader_dies"] >= 2:  # intensified: his largest war sues for peace
        series = ctx.deck.leaders[action.card].series
        wars = [w for w in state.wars if ctx.deck.wars[w.id].series == series and w.state != "imminent"]
        if wars:
            war = max(
                wars, key=lambda w: (ctx.deck.wars[w.id].land + ctx.deck.wars[w.id].naval, -ctx.deck.wars[w.id].number)
            )
            sue_for_peace(ctx, war, intensified=False)
    del state.events["enemy_leader_dies"]


def put_rome_in_order(ctx: Ctx) -> bool:
    """VG 1.07.8: officers get the major-prosecution marker; with the 2nd Punic War active the
    HRAO's die destroys that Tax Farmer; a die for each senator and concession in the Curia
    brings it back to the Forum on 5 or 6, and each leader there dies on 5 or 6 (R68, R69)."""
    state, deck, rules = ctx.state, ctx.deck, ctx.rules
    for s in state.senators.values():
        s.held_office = s.office
    punic = [w for w in state.wars if w.state in ("active", "unprosecuted") and w.id == "punic_2"]
    if punic:
        number = ctx.roll(1)[0]
        farmer = [c.id for c in deck.concessions.values() if c.destroyed_by == "tax_farmer_roll" and c.number == number]
        for card in farmer:
            destroy_concession(ctx, card)
    for card in list(state.curia):
        kind = deck.kind_of(card)
        die = ctx.roll(1)[0]
        if kind == "leader":
            if die >= rules.curia_leader_dies_on:
                state.curia.remove(card)
                state.removed.append(card)
                ctx.report("rome.leader.gone", card=card)
        elif die >= rules.curia_return_on:
            state.curia.remove(card)
            if kind == "concession":
                state.forum_concessions.append(card)
                ctx.report("rome.concession.revived", card=card)
            else:
                arrive_in_forum(ctx, card)
    return True


def era_ends(ctx: Ctx) -> bool:
    """VG 1.12.2 (3), R261/R262: the game ends with the Forum phase in which the Era Ends card
    appeared: the faction with the most influence of its senators not in revolt and not
    captive wins; ties go to the highest single senator's influence, then to the most votes
    (a tie after that is shared)."""
    state = ctx.state
    if not state.era_ended:
        return True
    cfl = state.senators.get(state.consul_for_life)
    if cfl is not None and cfl.faction != UNALIGNED:  # VG 1.12.2 (3): a living Consul for Life wins
        state.result = Result("era_ends", (cfl.faction,))
        state.pending.clear()
        ctx.report("rome.game.over", ending="era_ends", factions=[cfl.faction])
        return True
    seats = [f.seat for f in state.factions if not f.eliminated]

    def standing(seat: int) -> tuple[int, int, int]:
        counted = [s for s in aligned(state, seat) if s.location not in ("rebel", "captive")]
        return (
            faction_influence(state, seat) - sum(s.influence for s in aligned(state, seat) if s.location == "captive"),
            max((s.influence for s in counted), default=0),
            sum(votes(s) for s in counted),
        )

    best = max(standing(seat) for seat in seats)
    winners = tuple(seat for seat in seats if standing(seat) == best)
    state.result = Result("era_ends", winners)
    state.pending.clear()
    ctx.report("rome.game.over", ending="era_ends", factions=list(winners))
    return True
