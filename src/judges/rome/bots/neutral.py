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
from dataclasses import dataclass
from typing import Any

import msgspec

from ...engine.dice import SeededDice
from ..cards import Deck, load_deck
from ..engine import combat, senate
from ..engine.actions import (
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
    Deploy,
    Discard,
    DiscardLeader,
    Done,
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
from ..engine.board import aligned, effective_loyalty, hrao, votes
from ..engine.context import Ctx
from ..engine.state import UNALIGNED, Decision, RomeOptions, RomeState, Senator, WarInPlay


@dataclass(frozen=True, slots=True)
class Guidelines:
    """The neutral's numbers ([D] where VG gives none; docs/rome/bots.md)."""

    persuade_bribe_floor: int = 7  # VG 4.04.2: bribes only when the number can reach 7
    persuade_bribe_ceiling: int = 9  # VG 4.04.2: ... and then up to 9
    counter_bribe_to: int = 4  # VG 4.04.21: counter-bribes bring the number to exactly 4
    opening_bid_die: int = 3  # [D] VG's 1d6 in the opening bid, at its rounded-down mean
    bid_limit_over_turn: int = 4  # VG 4.04.5: no bid above the turn number + 4
    faction_reserve: int = 10  # [D] talents kept in the faction treasury for counter-bribes
    state_reserve: int = 30  # [D] the State keeps this above its coming debits
    crisis_wars: int = 3  # VG 4.05.3: three active wars make a crisis ...
    crisis_strength: int = 15  # ... or a war of strength above 15
    peace_legions: int = 10  # VG 4.05.33: with no war Rome keeps 10 legions ...
    peace_fleets: int = 5  # ... and 5 fleets
    excess_cap: int = 15  # VG 4.05.31: half the excess legions, up to +15
    consul_for_life_at: int = 35  # VG 4.03.4: a contribution that reaches 35 influence is made
    appeal_popularity: int = 3  # [D] the accused appeals with this popularity or more
    no_graft: tuple[str, ...] = ("22A", "22B", "28A")  # VG 4.03.3: the Catos and Cicero


GUIDELINES = Guidelines()


def public_state(view: Mapping[str, Any], options: RomeOptions | None = None) -> RomeState:
    """The position the view shows: the others' hands and treasuries and the deck, which the view
    hides, are empty here (nothing the bot reads depends on them). `options`, when given, are
    the view's options already read (reading the rules again on every decision is slow)."""
    data = dict(view)
    if options is not None:
        data["options"] = {"players": options.players}
    data["deck"] = []
    data["report"] = []  # the bot reads the position, not its story
    data["factions"] = [
        {
            **f,
            "hand": f["hand"] if isinstance(f["hand"], list) else [],
            "treasury": f["treasury"] if f["treasury"] is not None else 0,
        }
        for f in view["factions"]
    ]
    state = msgspec.convert(data, RomeState)
    if options is not None:
        state.options = options
    return state


class _Seen:
    """One decision's reading of the view: the public position, the seat, the rules helpers."""

    def __init__(
        self, view: Mapping[str, Any], seat: int, deck: Deck, g: Guidelines, options: RomeOptions | None = None
    ) -> None:
        self.state = public_state(view, options)
        self.seat = seat
        self.deck = deck
        self.g = g
        self.ctx = Ctx(self.state, SeededDice(self.state), deck)  # read-only: no die is rolled

    # --- the faction and the board -----------------------------------------------------------

    @property
    def mine(self) -> list[Senator]:
        return aligned(self.state, self.seat)

    def in_rome(self, seat: int | None = None) -> list[Senator]:
        seat = self.seat if seat is None else seat
        return [s for s in aligned(self.state, seat) if s.location == "rome"]

    def richest(self) -> Senator | None:
        """VG 4.03.2: the senator with the most money spends for the faction (in Rome, then the
        lowest id)."""
        here = self.in_rome()
        return max(here, key=lambda s: (s.talents, -int(s.id))) if here else None

    def sitting(self) -> dict[str, Any]:
        sitting: dict[str, Any] = self.state.scratch.get("senate") or {}
        return sitting

    def active(self) -> list[WarInPlay]:
        return [w for w in self.state.wars if w.state in ("active", "unprosecuted")]

    def land(self, war: WarInPlay) -> int:
        return combat.strength(self.ctx, war)[0]

    def naval(self, war: WarInPlay) -> int:
        return combat.strength(self.ctx, war)[1]

    def crisis(self) -> bool:
        """VG 4.05.3: three or more active wars, or a war of strength above 15."""
        return len(self.active()) >= self.g.crisis_wars or any(
            self.land(w) > self.g.crisis_strength for w in self.state.wars
        )

    def danger(self, war: WarInPlay) -> int:
        """VG 4.05.32: a war with matching cards still to come is dangerous, measured by the force
        adequate against it with all of them in play (0: not dangerous)."""
        card = self.deck.wars[war.id]
        seen = {w.id for w in self.state.wars} | set(self.state.removed) | set(self.state.discard)
        coming = [
            w
            for w in self.deck.wars.values()
            if w.series == card.series and w.id not in seen and w.id in self._era_cards()
        ]
        if not coming:
            return 0
        series = [w for w in self.state.wars if self.deck.wars[w.id].series == card.series]
        leaders = sum(self.deck.leaders[x].strength for w in series for x in w.leaders)
        return card.land * (len(series) + len(coming)) + leaders

    def _era_cards(self) -> set[str]:
        return set(self.deck.deck_cards(self.state.options.rules.deck)) | {
            w for w, c in self.deck.wars.items() if c.starts_on_board
        }

    # --- the ruling coalition (VG 4.05.2) ------------------------------------------------------

    def ranking(self) -> list[int]:
        """The factions by votes in Rome; ties by the talents of their senators (the faction
        treasuries are secret here [D]), then the lower seat."""
        seats = [f.seat for f in self.state.factions if not f.eliminated]
        return sorted(
            seats,
            key=lambda seat: (
                -sum(votes(s) for s in self.in_rome(seat)),
                -sum(s.talents for s in aligned(self.state, seat)),
                seat,
            ),
        )

    def coalition(self) -> list[int]:
        """VG 4.05.2's coalition list, read for any number of factions [D]: the 1st alone; the
        2nd with the last, ... with the 3rd; the 1st with the last, ... with the 2nd; everyone.
        The first with a majority of the votes in Rome rules."""
        ranked = self.ranking()
        strength = {seat: sum(votes(s) for s in self.in_rome(seat)) for seat in ranked}
        total = sum(strength.values())
        tries: list[list[int]] = [ranked[:1]]
        if len(ranked) > 1:
            tries += [[ranked[1], ranked[i]] for i in range(len(ranked) - 1, 1, -1)]
            tries += [[ranked[0], ranked[i]] for i in range(len(ranked) - 1, 0, -1)]
        for group in tries:
            if 2 * sum(strength[s] for s in group) > total:
                return group
        return ranked


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
        seen = _Seen(view, seat, self._read[2], self.g, self._read[1])
        kind = owed_kind(seen.state, seat, legal)
        answer = ANSWERS.get(kind)
        choice = answer(seen, legal) if answer is not None else None
        return choice if choice is not None else legal[0]


def owed_kind(state: RomeState, seat: int, legal: Sequence[Action]) -> str:
    """The kind of the decision the legal actions answer (the first one the seat owes)."""
    from ..engine.decisions import KINDS

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


def choose_leader(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def play_cards(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def discard(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def spoils(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def redistribute(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def state_needs(seen: _Seen) -> int:
    """[D] What the State will owe at this turn's debits, plus the reserve, minus what it holds."""
    state, rules = seen.state, seen.state.options.rules
    owed = rules.war_cost * len(seen.active()) + int(state.scratch.get("state_owes", 0))
    owed += sum(seen.deck.land_bills[t].cost for t in state.land_bills)
    units = state.units.legions + state.units.fleets + sum(f.legions + f.fleets for f in state.forces)
    owed += rules.unit_upkeep * units
    return owed + seen.g.state_reserve + war_chest(seen) - state.treasury


def war_chest(seen: _Seen) -> int:
    """[D] What the levy for adequate forces against the two largest active wars would cost."""
    state = seen.state
    active = [w for w in attackable(seen) if w.state in ("active", "unprosecuted")][:2]
    need_l = sum(adequate(seen, w).legions for w in active) - state.units.legions
    need_f = sum(adequate(seen, w).fleets for w in active) - state.units.fleets
    return (max(0, need_l) + max(0, need_f)) * senate.unit_cost(seen.ctx)


def contribute(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def persuasion_number(seen: _Seen, persuader: Senator, target: Senator) -> int:
    base = persuader.oratory + persuader.influence - effective_loyalty(seen.state, target, seen.deck) - target.talents
    if target.faction != UNALIGNED:
        base -= seen.state.options.rules.persuasion_aligned
    return base


def initiative(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    if any(isinstance(a, Persuade) for a in legal):
        return persuade(seen, legal)
    if any(isinstance(a, AttractKnight) for a in legal):
        return knights(seen, legal)
    if any(isinstance(a, SponsorGames) for a in legal):
        return games(seen, legal)
    if any(isinstance(a, ChooseLeader) for a in legal):
        return choose_leader(seen, legal)
    return _done(legal)


def persuade(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def persuasion(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.2 after the counter-bribes: raise toward 9 when 7 can still be reached, else roll."""
    p = seen.state.scratch["persuasion"]
    persuader, target = seen.state.senators[p["persuader"]], seen.state.senators[p["target"]]
    number = persuasion_number(seen, persuader, target) + p["bribes"] - p["counters"]
    g = seen.g
    if number < g.persuade_bribe_floor and number + persuader.talents >= g.persuade_bribe_floor:
        return Raise(player=seen.seat, talents=min(g.persuade_bribe_ceiling - number, persuader.talents))
    return _first(legal, Roll)


def counter_bribe(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.21: counter-bribe to bring the number to exactly 4, or not at all."""
    p = seen.state.scratch["persuasion"]
    persuader, target = seen.state.senators[p["persuader"]], seen.state.senators[p["target"]]
    number = persuasion_number(seen, persuader, target) + p["bribes"] - p["counters"]
    need = number - seen.g.counter_bribe_to
    have = seen.state.factions[seen.seat].treasury
    return CounterBribe(player=seen.seat, talents=need if 0 < need <= have else 0)


def knights(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] The richest senator in Rome tries for a knight without paying (VG 4.04.3 takes the sum
    from each Neutral's card); knights are never pressured (they bring revenue and votes)."""
    richest = seen.richest()
    if richest is not None:
        return AttractKnight(player=seen.seat, senator=richest.id, talents=0)
    return _done(legal)


def games(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.04.4: the richest senator sponsors the most expensive games he can afford while the
    unrest is above his popularity."""
    richest = seen.richest()
    if richest is None or seen.state.unrest <= richest.popularity:
        return _done(legal)
    options = [a for a in legal if isinstance(a, SponsorGames) and a.senator == richest.id]
    if not options:
        return _done(legal)
    return max(options, key=lambda a: seen.deck.games[a.games].cost)


def bid(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def discard_leader(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] Enemy Leader Dies: the strongest leader goes (then the lowest id)."""
    options = [a for a in legal if isinstance(a, DiscardLeader)]
    return min(options, key=lambda a: (-seen.deck.leaders[a.card].strength, a.card)) if options else None


# --- the senate: offices -----------------------------------------------------------------------------


def repopulate(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def _military_key(s: Senator) -> tuple[int, int, int]:
    """VG 4.05.34: the highest military, ties to the least influence (then the lowest id [D])."""
    return (-s.military, s.influence, int(s.id))


def _office_key(seen: _Seen, coalition: list[int]) -> Callable[[Senator], tuple[int, ...]]:
    """VG 4.05.4, 4.05.41: spoils in the order of the coalition's factions, each office to a
    faction's eligible senator with the least influence; outside the coalition last."""

    def key(s: Senator) -> tuple[int, ...]:
        rank = coalition.index(s.faction) if s.faction in coalition else len(coalition)
        return (rank, s.influence, int(s.id))

    return key


def consul_pair(seen: _Seen) -> tuple[str, str] | None:
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
        for c in sorted(candidates, key=_military_key):
            best_of.setdefault(c.faction, c)
        tops = sorted(best_of.values(), key=lambda c: (order(c)[0], _military_key(c)))
        pool = tops if len(tops) >= 2 else sorted(candidates, key=_military_key)
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


def propose_consuls(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def propose_dictator(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.34: in a crisis the senator with the highest military is Dictator."""
    options = [a for a in legal if isinstance(a, ProposeDictator)]
    if not options or not seen.crisis():
        return _done(legal)
    s = seen.state.senators
    return min(options, key=lambda a: _military_key(s[a.senator]))


def appoint_master(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.34: the next highest military is the Master of Horse."""
    options = [a for a in legal if isinstance(a, AppointMaster)]
    s = seen.state.senators
    return min(options, key=lambda a: _military_key(s[a.senator])) if options else None


def censor_choice(seen: _Seen, candidates: Sequence[str]) -> str | None:
    s = seen.state.senators
    order = _office_key(seen, seen.coalition())
    return min(candidates, key=lambda x: order(s[x])) if candidates else None


def propose_censor(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.41: the coalition's eligible senator with the least influence."""
    options = [a for a in legal if isinstance(a, ProposeCensor)]
    want = censor_choice(seen, [a.senator for a in options])
    return next((a for a in options if a.senator == want), None)


def propose_governor(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def prosecute(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.1: Neutrals hold no prosecutions."""
    return _done(legal)


def consent(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.05.1: a Neutral does not prosecute."""
    return Consent(player=seen.seat, agree=False)


# --- the senate: the military plan (VG 4.05.3) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack:
    war: str
    legions: int  # adequate: the war's land strength in legions
    fleets: int  # its fleet support, or its naval strength when it still fights at sea
    all_out: bool = False  # a crisis attack with every unit Rome can send


def adequate(seen: _Seen, war: WarInPlay) -> Attack:
    """VG 4.05.31: legions equal to the war's strength, fleets equal to its naval strength (the
    least fleet support otherwise); commanders and veterans not counted."""
    card = seen.deck.wars[war.id]
    return Attack(war.id, seen.land(war), max(card.fleet_support, seen.naval(war)))


def attackable(seen: _Seen) -> list[WarInPlay]:
    """The wars with no force of Rome on them, the largest or most dangerous first (VG 4.05.3);
    a later war of a series only after the earlier active ones (R199)."""
    sent = {f.war for f in seen.state.forces}
    free = [w for w in seen.state.wars if w.id not in sent]
    return sorted(free, key=lambda w: (-max(seen.danger(w), seen.land(w)), -seen.naval(w), w.id))


def plan(seen: _Seen, commanders: int) -> list[Attack]:
    """VG 4.05.3's plans, read as one rule [D]: Rome attacks as many active wars as it has
    commanders for and can give adequate forces (VG 4.05.31), the weakest first (VG takes the
    largest or most dangerous, 4.05.32: the weakest first beats more wars before four are
    active), skipping those it cannot afford (VG 4.05.33); an inactive war only when
    no war is active (attacked, it turns active and counts toward the four that end Rome); with
    no adequate force anywhere, the weakest active war with all it can send (VG's last crisis
    plan)."""
    if commanders <= 0:
        return []
    wars = attackable(seen)
    active = [w for w in wars if w.state in ("active", "unprosecuted")]
    targets = sorted(active, key=lambda w: (seen.land(w), w.id)) or [w for w in wars if w.state == "inactive"]
    chosen: list[Attack] = []
    for w in targets:
        if len(chosen) == commanders:
            break
        if shortfall(seen, [*chosen, adequate(seen, w)]) is not None:
            chosen.append(adequate(seen, w))
    return chosen or all_out(seen, active)


def all_out(seen: _Seen, active: list[WarInPlay]) -> list[Attack]:
    """VG 4.05.3: the weakest active war with all possible strength — [D] only when that force,
    with what the State can pay for, may be sent at all (as strong as the war, with its best
    commander)."""
    if not active:
        return []
    weakest = min(active, key=lambda w: (seen.land(w), w.id))
    a = adequate(seen, weakest)
    attack = Attack(a.war, a.legions, a.fleets, True)
    raised = shortfall(seen, [attack]) or (0, 0)
    units = seen.state.units
    legions, fleets = units.legions + raised[0], units.fleets + raised[1]
    chiefs = [s for s in senate.in_senate(seen.ctx) if s.office in ("field_consul", "rome_consul", "dictator")]
    best = max((s.military for s in chiefs), default=0)
    card = seen.deck.wars[weakest.id]
    naval = seen.naval(weakest)
    army = legions + units.veterans
    if legions == 0 or fleets < card.fleet_support or army + min(best, army) < seen.land(weakest):
        return []
    if naval and fleets + min(best, fleets) < naval:
        return []
    return [attack]


def spare_units(seen: _Seen) -> int:
    """[D] How many units the State can pay for and keep its reserve."""
    state = seen.state
    if state.no_recruitment:
        return 0
    return max(0, state.treasury - seen.g.state_reserve) // senate.unit_cost(seen.ctx)


def shortfall(seen: _Seen, attacks: list[Attack]) -> tuple[int, int] | None:
    """The legions and fleets to raise for `attacks` beyond Rome's box, or None when the State
    cannot pay for them or they pass 25 of a kind; for an all-out attack, what the State can pay
    toward adequacy."""
    state, rules = seen.state, seen.state.options.rules
    need_l = max(0, sum(a.legions for a in attacks) - state.units.legions)
    need_f = max(0, sum(a.fleets for a in attacks) - state.units.fleets)
    fielded_l = state.units.legions + sum(f.legions for f in state.forces)
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces)
    room_l, room_f, spare = rules.max_legions - fielded_l, rules.max_fleets - fielded_f, spare_units(seen)
    if any(a.all_out for a in attacks):
        need_f = min(need_f, room_f, spare)
        return min(need_l, room_l, spare - need_f), need_f
    if need_l + need_f > spare or need_l > room_l or need_f > room_f:
        return None
    return need_l, need_f


def commanders_left(seen: _Seen) -> int:
    """The consuls and the Dictator still in Rome this sitting (the Rome Consul once elected)."""
    offices = ("field_consul", "rome_consul", "dictator") if seen.sitting().get("consuls_elected") else ("dictator",)
    return sum(1 for s in senate.in_senate(seen.ctx) if s.office in offices)


def builds(seen: _Seen) -> tuple[int, int]:
    """The levy the plan needs now (legions, fleets): the plan's units beyond those in Rome, or
    with no war the peace-time 10 legions and 5 fleets (VG 4.05.33; none under a manpower
    shortage outside a crisis)."""
    state, rules = seen.state, seen.state.options.rules
    if state.no_recruitment or (state.events.get("manpower_shortage") and not seen.crisis()):
        return 0, 0
    if state.wars:
        return shortfall(seen, plan(seen, commanders_left(seen))) or (0, 0)
    spare = spare_units(seen)
    fielded_l = state.units.legions + sum(f.legions for f in state.forces)
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces)
    want_l = min(max(0, seen.g.peace_legions - fielded_l), spare, rules.max_legions - fielded_l)
    want_f = min(max(0, seen.g.peace_fleets - fielded_f), spare - want_l, rules.max_fleets - fielded_f)
    return want_l, want_f


def dispatch(seen: _Seen) -> Deploy | None:
    """The next commander against the plan's first war: the adequate force, half the legions left
    over (up to 15) and the veterans among them; a crisis attack sends everything."""
    state = seen.state
    chiefs = senate.commanders(seen.ctx)
    attacks = plan(seen, commanders_left(seen))
    if not chiefs or not attacks:
        return None
    first = attacks[0]
    units = state.units
    if first.all_out and len(attacks) == 1:
        legions, fleets = units.legions, units.fleets
    else:
        spare = units.legions - sum(a.legions for a in attacks)
        legions = min(units.legions, first.legions + min(max(0, spare) // 2, seen.g.excess_cap))
        fleets = min(units.fleets, first.fleets)
    veterans = min(units.veterans, legions)
    for chief in sorted(chiefs, key=_military_key):
        action = Deploy(
            player=seen.seat, commander=chief.id, war=first.war, legions=legions, veterans=veterans, fleets=fleets
        )
        if senate.deploy_refusal(seen.ctx, action) is None and senate.subject_of(action) not in seen.sitting().get(
            "rejected", []
        ):
            return action
    return None


def land_bill(seen: _Seen, legal: Sequence[Action]) -> LandBill | None:
    """VG 4.05.416: with the presiding magistrate's popularity below the unrest, a land bill is
    mandatory: he sponsors the highest type available ([D] his faction's co-sponsor with the most
    popularity, then the lowest id)."""
    pm = senate.presiding(seen.ctx)
    if pm is None or pm.popularity >= seen.state.unrest:
        return None
    bills = [a for a in legal if isinstance(a, LandBill) and pm.id in (a.sponsor, a.cosponsor)]
    if not bills:
        return None
    s = seen.state.senators
    return min(
        bills,
        key=lambda a: (
            -a.bill,
            a.sponsor != pm.id,
            -s[a.cosponsor if a.sponsor == pm.id else a.sponsor].popularity,
            int(a.cosponsor),
        ),
    )


def propose_business(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def ballot(seen: _Seen, floor: Mapping[str, Any]) -> str:
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


def vote(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def assassination(seen: _Seen, legal: Sequence[Action]) -> Action | None:
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


def bodyguards(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """VG 4.07.4: every Secret Bodyguard held is played."""
    options = [a for a in legal if isinstance(a, Bodyguards)]
    return max(options, key=lambda a: a.cards) if options else None


def sue_for_peace(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] New Alliance: the strongest war sues for peace (then the lowest id)."""
    wars = {w.id: w for w in seen.state.wars}
    options = [a for a in legal if isinstance(a, SueForPeace)]
    return min(options, key=lambda a: (-seen.land(wars[a.war]) if a.war in wars else 0, a.war)) if options else None


def revolt(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral commander lays down his command: Rome's survival first (VG 4.06.2 lets a
    Neutral revolt only when he can pay and hold 60% of the legions)."""
    return _first(legal, LayDown)


def join_revolt(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral senator stays loyal to Rome."""
    return JoinRevolt(player=seen.seat, join=False)


def trade_cards(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral gives no card away."""
    return _done(legal)


def tribune_proposal(seen: _Seen, legal: Sequence[Action]) -> Action | None:
    """[D] A neutral never plays a tribune to make its own proposal; should it owe one, it lets
    the chance go."""
    return _done(legal)


ANSWERS: Mapping[str, Callable[[_Seen, Sequence[Action]], Action | None]] = {
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
    "propose_business": propose_business,
    "prosecute": prosecute,
    "consent": consent,
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
