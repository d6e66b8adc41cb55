"""The neutral bot: a rules-driven faction after the VG rulebook's solitaire "Neutral" guidelines
(VG 4.01-4.07), answering every decision kind of the registry from its seat's view alone.

Where VG speaks its rule is followed (persuading the most available senator, counter-bribing down
to 4, no bought votes, the ruling coalition and its spoils, the military plans with adequate
forces, no prosecutions); where VG is silent, or leaves a choice to a Neutral's printed card or
to the dice, the choice is ours and is listed, tagged [D], in docs/rome/bots.md. Every choice is
deterministic: the same view and legal actions give the same answer.

The bot reads the view (`judges.rome.engine.view.player_view`) into a public position — the
others' hands and treasuries, and the deck, left empty — and asks the engine's read-only rule
helpers about that position only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from ...cards import Deck, load_deck
from ...engine import senate
from ...engine.actions import (
    Action,
    Appeal,
    AppointMaster,
    Assassinate,
    AttractKnight,
    AwardConcession,
    Bid,
    Bodyguards,
    ChooseLeader,
    CloseSenate,
    Consent,
    Contribute,
    CounterBribe,
    Discard,
    DiscardLeader,
    Done,
    Grain,
    JoinRevolt,
    LandBill,
    LayDown,
    Persuade,
    PlayConcession,
    PlayStatesman,
    ProposeCensor,
    ProposeConsuls,
    ProposeDictator,
    ProposeGovernor,
    Raise,
    RaiseForces,
    Ransom,
    Repopulate,
    Roll,
    Skip,
    Spoils,
    SponsorGames,
    SueForPeace,
    Transfer,
    Veto,
    Vote,
)
from ...engine.board import effective_loyalty, hrao, votes
from ...engine.state import UNALIGNED, Decision, RomeOptions, RomeState, Senator
from .military import adequate, attackable, builds, dispatch, military_key
from .seen import GUIDELINES, Guidelines, Seen

# --- the bot ----------------------------------------------------------------------------------------


class NeutralRomeBot:
    """Plays one seat from its view: `choose(legal, view)` returns one of the legal actions (or
    an amount between the listed ones, which the engine accepts as legal)."""

    name = "neutral"

    def __init__(self, seed: int = 0, guidelines: Guidelines = GUIDELINES) -> None:
        del seed  # deterministic: the seed is accepted so the bot is built like the others
        self.g = guidelines
        self._read: tuple[dict[str, Any], RomeOptions, Deck] | None = None

    def choose(self, legal: Sequence[Action], view: Mapping[str, Any]) -> Action:
        seat = legal[0].player
        if self._read is None or self._read[0] != view["options"]:
            options = msgspec.convert(view["options"], RomeOptions)
            self._read = (dict(view["options"]), options, load_deck(options.rules.deck))
        return self._answer(Seen(view, seat, self._read[2], self.g, self._read[1]), legal)

    def choose_in(self, legal: Sequence[Action], state: RomeState) -> Action:
        """The answer `choose` gives from the seat's view, read off the whole state in place (a
        search's rollout, where this bot plays every seat: no view is built)."""
        return self._answer(Seen.of_state(state, legal[0].player, load_deck(state.options.rules.deck), self.g), legal)

    def _answer(self, seen: Seen, legal: Sequence[Action]) -> Action:
        kind = owed_kind(seen.state, seen.seat, legal)
        answer = ANSWERS.get(kind)
        choice = answer(seen, legal) if answer is not None else None
        return choice if choice is not None else legal[0]


def owed_kind(state: RomeState, seat: int, legal: Sequence[Action]) -> str:
    """The kind of the decision the legal actions answer (the first one the seat owes)."""
    from ...engine.decisions import KINDS

    owed: list[Decision] = [d for d in state.pending if d.player == seat]
    for d in owed:
        if any(type(a) in KINDS[d.kind].actions for a in legal):
            return d.kind
    return owed[0].kind if owed else ""


def _first(legal: Sequence[Action], kind: type[Action]) -> Action | None:
    return next((a for a in legal if isinstance(a, kind)), None)


def _done(legal: Sequence[Action]) -> Action | None:
    return _first(legal, Done) or _first(legal, Skip)


def _by_influence(s: Senator) -> tuple[int, int, int]:
    return (-s.influence, -s.oratory, int(s.id))


# --- setup, cards, the hand --------------------------------------------------------------------------


def choose_leader(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] The faction leader is the most influential senator (then oratory, then lowest id): VG
    4.01.3 reads it off each Neutral's card."""
    options = [a for a in legal if isinstance(a, ChooseLeader)]
    if not options:
        return _done(legal)
    s = seen.state.senators
    best = min(options, key=lambda a: _by_influence(s[a.senator]))
    current = seen.state.factions[seen.seat].leader
    if current and current in s and _by_influence(s[current]) <= _by_influence(s[best.senator]):
        return _done(legal) or best
    return best


def play_cards(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.01.4, 4.04.1, 4.06.1: every playable statesman at once; each concession to the senator
    with the fewest concessions, then the most influence, then [D] the lowest id."""
    statesman = _first(legal, PlayStatesman)
    if statesman is not None:
        return statesman
    plays = [a for a in legal if isinstance(a, PlayConcession)]
    if plays:
        s = seen.state.senators
        return min(plays, key=lambda a: (len(s[a.senator].concessions), *_by_influence(s[a.senator]), a.card))
    return _done(legal)


def discard(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] Down to the hand limit (VG's Neutrals have none, 4.07.1): tribunes are kept longest,
    then Seduction and Blackmail, then statesmen; the highest card id goes first among equals."""

    def keep(a: Action) -> tuple[int, str]:
        card = a.card if isinstance(a, Discard) else ""
        kind = seen.deck.kind_of(card) if card else ""
        name = seen.deck.intrigue_kind(card) if kind == "intrigue" else kind
        rank = {"tribune": 4, "seduction": 3, "blackmail": 3, "statesman": 2, "concession": 1}.get(name, 0)
        return (rank, card)

    options = [a for a in legal if isinstance(a, Discard)]
    return min(options, key=lambda a: (keep(a)[0], [-ord(c) for c in keep(a)[1]])) if options else None


# --- revenue -----------------------------------------------------------------------------------------


def grain(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral never trades its senators' popularity for a grain concession's drought
    bonus."""
    return Grain(player=seen.seat, cards=[])


def spoils(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.03.3: governors take their provinces' spoils, never the Catos nor Cicero; [D] only
    when the roll cannot go below 0 (a negative total is the State's debit)."""
    omens = seen.state.events.get("evil_omens", 0) + (3 if "trial_of_verres" in seen.state.events else 0)
    takers = []
    for s in seen.mine:
        if s.location != "province" or not s.governor_of or s.statesman in seen.g.no_graft:
            continue
        province = next(p for p in seen.state.provinces if p.id == s.governor_of)
        row = seen.deck.provinces[province.id]
        roll = row.spoils_developed if province.developed else row.spoils
        if roll.lowest - omens >= 0:
            takers.append(s.id)
    for a in legal:
        if isinstance(a, Spoils) and sorted(a.governors) == sorted(takers):
            return a
    return None


def redistribute(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.03.1 pools a Neutral's income; [D] it ransoms its captives, keeps 10T in the faction
    treasury for counter-bribes and shares the rest among its senators in Rome, the poorest first
    (a persuader must beat the target's own talents)."""
    ransom = _first(legal, Ransom)
    if ransom is not None:
        return ransom
    treasury = seen.state.factions[seen.seat].treasury
    excess = treasury - seen.g.faction_reserve
    receivers = sorted(
        (s for s in seen.in_rome() if any(isinstance(a, Transfer) and a.target == s.id for a in legal)),
        key=lambda s: (s.talents, int(s.id)),
    )
    if excess <= 0 or not receivers:
        return _done(legal)
    # water-filling: the level the poorest reach with the excess shared out
    levels = [s.talents for s in receivers]
    left, level = excess, levels[0]
    while left > 0:
        at = [i for i, v in enumerate(levels) if v <= level]
        if len(at) > left:
            break
        for i in at:
            levels[i] = level + 1
        left -= len(at)
        level += 1
    for s, target in zip(receivers, levels, strict=True):
        if target > s.talents:
            return Transfer(player=seen.seat, source="treasury", target=s.id, talents=target - s.talents)
    poorest = receivers[0]
    return Transfer(player=seen.seat, source="treasury", target=poorest.id, talents=1)


def state_needs(seen: Seen) -> int:
    """[D] What the State will owe at this turn's debits, plus the reserve, minus what it holds."""
    state, rules = seen.state, seen.state.options.rules
    owed = rules.war_cost * len(seen.active()) + int(state.scratch.get("state_owes", 0))
    owed += sum(seen.deck.land_bills[t].cost for t in state.land_bills)
    units = state.units.legions + state.units.fleets + sum(f.legions + f.fleets for f in state.forces)
    owed += rules.unit_upkeep * units
    return owed + seen.g.state_reserve + war_chest(seen) - state.treasury


def war_chest(seen: Seen) -> int:
    """[D] What the levy for adequate forces against the two largest active wars would cost."""
    state = seen.state
    active = [w for w in attackable(seen) if w.state in ("active", "unprosecuted")][:2]
    need_l = sum(adequate(seen, w).legions for w in active) - state.units.legions
    need_f = sum(adequate(seen, w).fleets for w in active) - state.units.fleets
    return (max(0, need_l) + max(0, need_f)) * senate.unit_cost(seen.ctx)


def contribute(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.03.4: a contribution that brings a senator to 35 influence is always made; [D] and
    when the State cannot meet its coming debits and reserve, each faction gives its share of the
    shortfall from its richest senator (VG's Neutrals only match a player's gifts)."""
    options = [a for a in legal if isinstance(a, Contribute)]
    if not options:
        return _done(legal)
    s = seen.state.senators
    for a in sorted(options, key=lambda a: (a.talents, int(a.senator))):
        gain = seen.deck.contribution_influence(a.talents)
        if s[a.senator].influence < seen.g.consul_for_life_at <= s[a.senator].influence + gain:
            return a
    short = state_needs(seen)
    if short <= 0:
        return _done(legal)
    playing = sum(1 for f in seen.state.factions if not f.eliminated)
    share = -(-short // playing)
    giver = max((a.senator for a in options), key=lambda x: (s[x].talents, -int(x)))
    amount = min(s[giver].talents, share)
    return Contribute(player=seen.seat, senator=giver, talents=amount) if amount > 0 else _done(legal)


# --- the forum ------------------------------------------------------------------------------------------


def persuasion_number(seen: Seen, persuader: Senator, target: Senator) -> int:
    base = persuader.oratory + persuader.influence - effective_loyalty(seen.state, target, seen.deck) - target.talents
    if target.faction != UNALIGNED:
        base -= seen.state.options.rules.persuasion_aligned
    return base


def initiative(seen: Seen, legal: Sequence[Action]) -> Action | None:
    if any(isinstance(a, Persuade) for a in legal):
        return persuade(seen, legal)
    if any(isinstance(a, AttractKnight) for a in legal):
        return knights(seen, legal)
    if any(isinstance(a, SponsorGames) for a in legal):
        return games(seen, legal)
    if any(isinstance(a, ChooseLeader) for a in legal):
        return choose_leader(seen, legal)
    return _done(legal)


def persuade(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.2: always try the most available senator — the highest number for the least money —
    ties to the more powerful (military + oratory), then to the faction with more votes; bribes
    only when they can bring the number to 7, and then up to 9; the persuader is the one reaching
    the highest number. VG 4.07.7: Seduction or Blackmail is played with it when in hand."""
    s = seen.state.senators
    attempts = [a for a in legal if isinstance(a, Persuade)]
    g = seen.g

    def faction_votes(t: Senator) -> int:
        return 0 if t.faction == UNALIGNED else sum(votes(x) for x in seen.in_rome(t.faction))

    def plan(a: Persuade) -> tuple[int, int]:
        number = persuasion_number(seen, s[a.persuader], s[a.target])
        bribe = 0
        if number < g.persuade_bribe_ceiling and number + s[a.persuader].talents >= g.persuade_bribe_floor:
            bribe = min(g.persuade_bribe_ceiling - number, s[a.persuader].talents)
        return number + bribe, bribe

    best = min(
        attempts,
        key=lambda a: (
            -plan(a)[0],
            plan(a)[1],
            -(s[a.target].military + s[a.target].oratory),
            -faction_votes(s[a.target]),
            int(a.target),
            int(a.persuader),
            a.card == "",
        ),
    )
    return Persuade(player=seen.seat, persuader=best.persuader, target=best.target, bribe=plan(best)[1], card=best.card)


def persuasion(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.2 after the counter-bribes: raise toward 9 when 7 can still be reached, else roll."""
    p = seen.state.scratch["persuasion"]
    persuader, target = seen.state.senators[p["persuader"]], seen.state.senators[p["target"]]
    number = persuasion_number(seen, persuader, target) + p["bribes"] - p["counters"]
    g = seen.g
    if number < g.persuade_bribe_floor and number + persuader.talents >= g.persuade_bribe_floor:
        return Raise(player=seen.seat, talents=min(g.persuade_bribe_ceiling - number, persuader.talents))
    return _first(legal, Roll)


def counter_bribe(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.21: counter-bribe to bring the number to exactly 4, or not at all."""
    p = seen.state.scratch["persuasion"]
    persuader, target = seen.state.senators[p["persuader"]], seen.state.senators[p["target"]]
    number = persuasion_number(seen, persuader, target) + p["bribes"] - p["counters"]
    need = number - seen.g.counter_bribe_to
    have = seen.state.factions[seen.seat].treasury
    return CounterBribe(player=seen.seat, talents=need if 0 < need <= have else 0)


def knights(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] The richest senator in Rome tries for a knight without paying (VG 4.04.3 takes the sum
    from each Neutral's card); knights are never pressured (they bring revenue and votes)."""
    richest = seen.richest()
    if richest is not None:
        return AttractKnight(player=seen.seat, senator=richest.id, talents=0)
    return _done(legal)


def games(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.4: the richest senator sponsors the most expensive games he can afford while the
    unrest is above his popularity."""
    richest = seen.richest()
    if richest is None or seen.state.unrest <= richest.popularity:
        return _done(legal)
    options = [a for a in legal if isinstance(a, SponsorGames) and a.senator == richest.id]
    if not options:
        return _done(legal)
    return max(options, key=lambda a: seen.deck.games[a.games].cost)


def bid(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.5: the HRAO's faction opens at the turn number + 1d6 ([D] the die read as 3), no
    more than its richest senator holds nor than any other faction's richest; every Neutral then
    bids one more than the last bid while that is within the turn number + 4 ([D] VG's 1d6 ≥ 4
    for going higher: never)."""
    state = seen.state
    high = state.scratch["auction"]["high"]
    richest = seen.richest()
    if richest is None:
        return _done(legal)
    top = hrao(state)
    if high == 0 and top is not None and top.faction == seen.seat:
        others = [s.talents for s in state.senators.values() if s.faction not in (seen.seat, UNALIGNED)]
        amount = min(state.turn + seen.g.opening_bid_die, richest.talents, max(others, default=0) or richest.talents)
    else:
        amount = high + 1
        if amount > state.turn + seen.g.bid_limit_over_turn:
            return _done(legal)
    if amount <= high or amount > richest.talents or amount < 1:
        return _done(legal)
    return Bid(player=seen.seat, senator=richest.id, talents=amount)


def discard_leader(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] Enemy Leader Dies: the strongest leader goes (then the lowest id)."""
    options = [a for a in legal if isinstance(a, DiscardLeader)]
    return min(options, key=lambda a: (-seen.deck.leaders[a.card].strength, a.card)) if options else None


# --- the senate: offices -----------------------------------------------------------------------------


def repopulate(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] The senator with the most votes, then influence, then the lowest id."""
    deck, s = seen.deck, seen.state.senators

    def worth(a: Repopulate) -> tuple[int, int, int]:
        if a.senator in s:
            x = s[a.senator]
            return (-votes(x), -x.influence, int(x.id))
        card = deck.senators[a.senator]
        return (-card.oratory, -card.influence, int(card.id))

    options = [a for a in legal if isinstance(a, Repopulate)]
    return min(options, key=worth) if options else None


def _office_key(seen: Seen, coalition: list[int]) -> Callable[[Senator], tuple[int, ...]]:
    """VG 4.05.4, 4.05.41: spoils in the order of the coalition's factions, each office to a
    faction's eligible senator with the least influence; outside the coalition last."""

    def key(s: Senator) -> tuple[int, ...]:
        rank = coalition.index(s.faction) if s.faction in coalition else len(coalition)
        return (rank, s.influence, int(s.id))

    return key


def consul_pair(seen: Seen) -> tuple[str, str] | None:
    """The pair the neutral wants: in a crisis each of the two first coalition factions' (or
    two best) highest-military senator (VG 4.05.34); otherwise the coalition's senators by the
    spoils order (VG 4.05.41), the first Rome Consul candidates having popularity at least the
    unrest (VG 4.05.412). None when fewer than two candidates."""
    s = seen.state.senators
    candidates = [s[x] for x in senate.consul_candidates(seen.ctx)]
    if len(candidates) < 2:
        return None
    coalition = seen.coalition()
    order = _office_key(seen, coalition)
    if seen.crisis():
        best_of: dict[int, Senator] = {}
        for c in sorted(candidates, key=military_key):
            best_of.setdefault(c.faction, c)
        tops = sorted(best_of.values(), key=lambda c: (order(c)[0], military_key(c)))
        pool = tops if len(tops) >= 2 else sorted(candidates, key=military_key)
        return pool[0].id, pool[1].id
    popular = sorted((c for c in candidates if c.popularity >= seen.state.unrest), key=order) or sorted(
        candidates, key=lambda c: (-c.popularity, *order(c))
    )
    first = popular[0]
    rest = sorted((c for c in candidates if c.id != first.id), key=order)
    # the second office goes to the next coalition faction when there is one (spoils by rounds)
    others = [c for c in rest if c.faction != first.faction and c.faction in coalition]
    second = others[0] if others else rest[0]
    return first.id, second.id


def propose_consuls(seen: Seen, legal: Sequence[Action]) -> Action | None:
    want = consul_pair(seen)
    options = [a for a in legal if isinstance(a, ProposeConsuls)]
    if want is not None:
        for a in options:
            if {a.first, a.second} == set(want):
                return a
    # the wanted pair was rejected: the legal pair closest to it in the same order
    s = seen.state.senators
    order = _office_key(seen, seen.coalition())
    return min(options, key=lambda a: sorted((order(s[a.first]), order(s[a.second])))) if options else None


def propose_dictator(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.34: in a crisis the senator with the highest military is Dictator."""
    options = [a for a in legal if isinstance(a, ProposeDictator)]
    if not options or not seen.crisis():
        return _done(legal)
    s = seen.state.senators
    return min(options, key=lambda a: military_key(s[a.senator]))


def appoint_master(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.34: the next highest military is the Master of Horse."""
    options = [a for a in legal if isinstance(a, AppointMaster)]
    s = seen.state.senators
    return min(options, key=lambda a: military_key(s[a.senator])) if options else None


def censor_choice(seen: Seen, candidates: Sequence[str]) -> str | None:
    s = seen.state.senators
    order = _office_key(seen, seen.coalition())
    return min(candidates, key=lambda x: order(s[x])) if candidates else None


def propose_censor(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.41: the coalition's eligible senator with the least influence."""
    options = [a for a in legal if isinstance(a, ProposeCensor)]
    want = censor_choice(seen, [a.senator for a in options])
    return next((a for a in options if a.senator == want), None)


def propose_governor(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.415: provinces in the order of their spoils; the governor is the eligible senator
    controlling the fewest votes, [D] of the presiding faction first, then the least influence,
    then the lowest id."""
    options = [a for a in legal if isinstance(a, ProposeGovernor)]
    s, deck = seen.state.senators, seen.deck

    def key(a: ProposeGovernor) -> tuple[int, ...]:
        x = s[a.senator]
        spoils_high = deck.provinces[a.province].spoils.highest
        return (-spoils_high, x.faction != seen.seat, votes(x), x.influence, int(x.id))

    return min(options, key=key) if options else None


def prosecute(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.1: Neutrals hold no prosecutions."""
    return _done(legal)


def consent(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.1: a Neutral does not prosecute."""
    return Consent(player=seen.seat, agree=False)


def sponsor_consent(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral lets its senator sponsor another faction's land bill: it costs nothing and
    the sponsor gains popularity if it passes."""
    return Consent(player=seen.seat, agree=True)


def land_bill(seen: Seen, legal: Sequence[Action]) -> LandBill | None:
    """VG 4.05.416: with the presiding magistrate's popularity below the unrest, a land bill is
    mandatory: he sponsors the highest type available ([D] his faction's co-sponsor with the most
    popularity, then the lowest id)."""
    pm = senate.presiding(seen.ctx)
    if pm is None or pm.popularity >= seen.state.unrest:
        return None
    s = seen.state.senators
    bills = [
        a
        for a in legal
        if isinstance(a, LandBill)
        and pm.id in (a.sponsor, a.cosponsor)
        and s[a.sponsor].faction == s[a.cosponsor].faction == seen.seat
    ]
    if not bills:
        return None
    return min(
        bills,
        key=lambda a: (
            -a.bill,
            a.sponsor != pm.id,
            -s[a.cosponsor if a.sponsor == pm.id else a.sponsor].popularity,
            int(a.cosponsor),
        ),
    )


def propose_business(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """The presiding neutral: the levy the plan needs, then the plan's dispatches, then a
    mandatory land bill, then the Forum's concessions for its own senators (VG 4.05.414: the one
    in Rome with the fewest concessions, then the most influence), then it closes the sitting. It
    never nominates a Consul for Life (VG 4.05.413 makes him only in a one-faction coalition)."""
    rejected = seen.sitting().get("rejected", [])
    legions, fleets = builds(seen)
    if legions or fleets:
        levy = RaiseForces(player=seen.seat, legions=legions, fleets=fleets)
        if senate.raise_refusal(seen.ctx, levy) is None and senate.subject_of(levy) not in rejected:
            return levy
    send = dispatch(seen)
    if send is not None:
        return send
    bill = land_bill(seen, legal)
    if bill is not None:
        return bill
    s = seen.state.senators
    awards = [a for a in legal if isinstance(a, AwardConcession) and s[a.senator].faction == seen.seat]
    if awards:
        return min(awards, key=lambda a: (len(s[a.senator].concessions), *_by_influence(s[a.senator]), a.card))
    return _first(legal, CloseSenate)


# --- the senate: votes ---------------------------------------------------------------------------------


def ballot(seen: Seen, floor: Mapping[str, Any]) -> str:
    """How the neutral votes on what is on the floor ("yea", "nay" or "abstain"); it never buys
    votes (VG 4.05.2: talents do not add to a Neutral's votes)."""
    kind, subject = floor["kind"], floor["subject"]
    s = seen.state.senators
    coalition = seen.coalition()
    if kind == "consuls":
        want = consul_pair(seen)
        pair = [s[x] for x in subject if x in s]
        if want is not None and set(subject) == set(want):
            return "yea"
        if seen.crisis():  # VG 4.05.34: each consul his faction's best soldier
            best: dict[int, int] = {}
            for x in senate.consul_candidates(seen.ctx):
                best[s[x].faction] = max(best.get(s[x].faction, 0), s[x].military)
            return "yea" if all(c.military >= best.get(c.faction, 0) for c in pair) else "nay"
        return "yea" if all(c.faction in coalition for c in pair) else "nay"
    if kind == "dictator":
        nominee = s.get(subject[1])  # VG 4.05.34: only the highest military
        top = max((x.military for x in senate.in_senate(seen.ctx) if not x.office or x.id == subject[1]), default=0)
        return "yea" if nominee is not None and nominee.military >= top else "nay"
    if kind == "censor":
        eligible = senate.censor_candidates(seen.ctx) + [subject[0]]
        nominee = s.get(subject[0])
        inside = [x for x in eligible if x in s and s[x].faction in coalition]
        return "yea" if nominee is not None and (nominee.faction in coalition or not inside) else "nay"
    if kind == "trial":
        accused = s.get(subject[0])
        return "nay" if accused is not None and accused.faction == seen.seat else "abstain"
    if kind == "governor":
        return "yea"  # VG 4.05.415: every province is given out; a governed one pays Rome its taxes
    if kind == "concession":
        holder = s.get(subject[2])
        return "yea" if holder is not None and holder.faction in coalition + [seen.seat] else "nay"
    if kind == "consul_for_life":
        nominee = s.get(subject[1])
        return "yea" if nominee is not None and nominee.faction == seen.seat else "nay"
    if kind == "land_bill":
        bill = seen.deck.land_bills[int(subject[1])]
        pm = senate.presiding(seen.ctx)
        mandatory = pm is not None and pm.popularity < seen.state.unrest
        affordable_ = seen.state.treasury - bill.cost >= seen.g.state_reserve
        return "yea" if seen.state.unrest > 0 and (mandatory or affordable_) else "nay"
    if kind == "raise":
        legions, fleets = int(subject[1]), int(subject[2])
        want_l, want_f = builds(seen)
        return "yea" if legions <= max(want_l, 0) and fleets <= max(want_f, 0) else "nay"
    if kind == "deploy":
        war = next((w for w in seen.state.wars if w.id == subject[2]), None)
        if war is None:
            return "nay"
        need = adequate(seen, war)
        legions, fleets = int(subject[3]), int(subject[5])
        return "yea" if seen.crisis() or (legions >= need.legions and fleets >= need.fleets) else "nay"
    return "abstain"


def vote(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """A tribune vetoes a trial of one's own senator ([D]; VG 4.05.419 vetoes spoils, which the
    engine has no more); an accused with popularity 3 or more appeals first ([D])."""
    floor = seen.sitting().get("floor") or {}
    if floor.get("kind") == "trial":
        accused = seen.state.senators.get(floor["subject"][0])
        if accused is not None and accused.faction == seen.seat:
            veto = _first(legal, Veto)
            if veto is not None:
                return veto
            appeal = _first(legal, Appeal)
            if appeal is not None and accused.popularity >= seen.g.appeal_popularity:
                return appeal
    choice = ballot(seen, floor) if floor else "abstain"
    for a in legal:
        if isinstance(a, Vote) and a.choice == choice and a.talents == 0:
            return a
    return next((a for a in legal if isinstance(a, Vote) and a.talents == 0 and a.choice == "nay"), None)


# --- assassins, peace, revolts ---------------------------------------------------------------------


def assassination(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.07.3: only against a senator of 21 influence or more who has more than any other,
    with every Assassin card held; [D] the assassin is the senator of least influence."""
    s = seen.state.senators
    tops = sorted((x.influence for x in s.values()), reverse=True)
    options = [
        a
        for a in legal
        if isinstance(a, Assassinate)
        and s[a.target].influence >= 21
        and s[a.target].influence == tops[0]
        and (len(tops) == 1 or tops[1] < tops[0])
    ]
    if not options:
        return _done(legal)
    return min(options, key=lambda a: (-a.cards, s[a.assassin].influence, int(a.assassin)))


def bodyguards(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.07.4: every Secret Bodyguard held is played."""
    options = [a for a in legal if isinstance(a, Bodyguards)]
    return max(options, key=lambda a: a.cards) if options else None


def sue_for_peace(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] New Alliance: the strongest war sues for peace (then the lowest id)."""
    wars = {w.id: w for w in seen.state.wars}
    options = [a for a in legal if isinstance(a, SueForPeace)]
    return min(options, key=lambda a: (-seen.land(wars[a.war]) if a.war in wars else 0, a.war)) if options else None


def revolt(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral commander lays down his command: Rome's survival first (VG 4.06.2 lets a
    Neutral revolt only when he can pay and hold 60% of the legions)."""
    return _first(legal, LayDown)


def join_revolt(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral senator stays loyal to Rome."""
    return JoinRevolt(player=seen.seat, join=False)


def trade_cards(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral gives no card away."""
    return _done(legal)


def tribune_proposal(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral never plays a tribune to make its own proposal; should it owe one, it lets
    the chance go."""
    return _done(legal)


ANSWERS: Mapping[str, Callable[[Seen, Sequence[Action]], Action | None]] = {
    "choose_leader": choose_leader,
    "play_cards": play_cards,
    "redistribute": redistribute,
    "contribute": contribute,
    "initiative": initiative,
    "counter_bribe": counter_bribe,
    "persuasion": persuasion,
    "bid": bid,
    "discard_leader": discard_leader,
    "repopulate": repopulate,
    "propose_consuls": propose_consuls,
    "propose_dictator": propose_dictator,
    "appoint_master": appoint_master,
    "propose_censor": propose_censor,
    "propose_governor": propose_governor,
    "spoils": spoils,
    "grain": grain,
    "propose_business": propose_business,
    "prosecute": prosecute,
    "consent": consent,
    "sponsor_consent": sponsor_consent,
    "vote": vote,
    "discard": discard,
    "assassination": assassination,
    "bodyguards": bodyguards,
    "sue_for_peace": sue_for_peace,
    "revolt": revolt,
    "join_revolt": join_revolt,
    "tribune_proposal": tribune_proposal,
    "trade_cards": trade_cards,
}
