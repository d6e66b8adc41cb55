"""The Rome engine's messages: one registry of its report lines, as `decisions.py` is of its
decision kinds.

The engine never writes a sentence. A rule emits a key with typed parameters
(`Ctx.report("rome.mortality.dies", senator="4", cause="mortality")`); the key is declared here
once, with the type of each parameter, so the renderer (`judges.rome.i18n`) converts each
parameter by its type (a senator id becomes his name, a faction its player's name, a war its
name in the reader's language). The tests check that every key the engine emits is declared
here, emitted with exactly its declared parameters, and has its text in every catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: What a parameter may be, and what its value is.
PARAM_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "senator": "a senator's family id ('4'): his name",
        "card": "any card id: its name",
        "faction": "a seat: its player's name",
        "war": "a war's id: its name",
        "event": "an event's id: its name",
        "office": "an office (rome.office.<name>)",
        "cause": "why a senator died (rome.cause.<name>)",
        "chit": "a mortality chit: a senator id, 'blank' or 'draw_two'",
        "int": "a number",
        "talents": "a number of talents",
        "phase": "a phase's name (rome.phase.<name>)",
        "ending": "how the game ended (rome.ending.<name>)",
        "factions": "a list of seats",
        "outcome": "true when an attempt succeeded (rome.outcome.<true|false>)",
        "war_state": "where a war stands (rome.war_state.<name>)",
        "games": "a kind of games (rome.games.<name>)",
        "proposal": "a kind of proposal (rome.proposal.<name>)",
        "senators": "a list of senators' family ids",
        "result": "a battle's result (rome.result.<name>)",
        "trial": "true for a major prosecution (rome.trial.<major|minor>)",
        "province": "a province's id (rome.province.<id>)",
    }
)


def _declare(**params: str) -> Mapping[str, str]:
    for kind in params.values():
        assert kind in PARAM_TYPES, kind
    return MappingProxyType(params)


#: key -> its parameters and their types.
MESSAGES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        # setup
        "rome.setup.temporary_consul": _declare(senator="senator", faction="faction"),
        "rome.setup.leader": _declare(senator="senator", faction="faction"),
        "rome.setup.dealt": _declare(faction="faction", int="int"),
        # cards played to the table (setup and the Revolution phase)
        "rome.cards.statesman": _declare(card="card", faction="faction"),
        "rome.cards.concession": _declare(card="card", senator="senator", faction="faction"),
        # mortality
        "rome.war.imminent_active": _declare(war="war"),
        "rome.mortality.chit": _declare(chit="chit"),
        "rome.mortality.dies": _declare(senator="senator", cause="cause"),
        "rome.mortality.no_one": _declare(),
        # revenue
        "rome.revenue.faction": _declare(faction="faction", talents="talents"),
        "rome.revenue.grain": _declare(senator="senator", card="card", talents="talents"),
        "rome.revenue.gift": _declare(faction="faction", receiver="faction", talents="talents"),
        "rome.revenue.ransom": _declare(senator="senator", talents="talents"),
        "rome.revenue.contribution": _declare(senator="senator", talents="talents", int="int"),
        "rome.revenue.state": _declare(talents="talents", int="int"),
        "rome.revenue.debits": _declare(talents="talents", int="int"),
        "rome.revenue.rebel_upkeep": _declare(senator="senator", talents="talents", int="int"),
        # forum
        "rome.forum.initiative": _declare(faction="faction", int="int"),
        "rome.forum.faction_card": _declare(faction="faction"),
        "rome.forum.senator": _declare(senator="senator"),
        "rome.forum.family_joins": _declare(senator="senator"),
        "rome.forum.era_ends": _declare(),
        "rome.forum.persuasion": _declare(senator="senator", target="senator", talents="talents"),
        "rome.forum.counter_bribe": _declare(faction="faction", talents="talents"),
        "rome.forum.raise": _declare(senator="senator", talents="talents"),
        "rome.forum.persuasion_roll": _declare(target="senator", int="int", number="int", won="outcome"),
        "rome.forum.knight": _declare(senator="senator", int="int", won="outcome"),
        "rome.forum.influence_peddling": _declare(faction="faction", target="faction"),
        "rome.forum.pressure": _declare(senator="senator", int="int", talents="talents"),
        "rome.forum.games": _declare(senator="senator", games="games"),
        "rome.forum.bid": _declare(senator="senator", talents="talents"),
        "rome.forum.auction_won": _declare(faction="faction", talents="talents"),
        "rome.event.drawn": _declare(event="event", int="int"),
        "rome.event.fleets_lost": _declare(int="int"),
        "rome.event.rhodian_fleets": _declare(int="int"),
        "rome.event.rhodian_gone": _declare(int="int"),
        "rome.war.arrives": _declare(war="war", state="war_state"),
        "rome.war.peace": _declare(war="war", talents="talents"),
        "rome.leader.joins": _declare(card="card"),
        "rome.leader.curia": _declare(card="card"),
        "rome.leader.gone": _declare(card="card"),
        "rome.concession.destroyed": _declare(card="card"),
        "rome.concession.revived": _declare(card="card"),
        # senate
        "rome.senate.opens": _declare(senator="senator"),
        "rome.senate.repopulate": _declare(senator="senator", faction="faction"),
        "rome.senate.no_candidates": _declare(office="office"),
        "rome.senate.proposal": _declare(proposal="proposal", senators="senators"),
        "rome.senate.vetoed": _declare(faction="faction"),
        "rome.senate.tally": _declare(yea="int", nay="int", won="outcome"),
        "rome.senate.rebuked": _declare(senator="senator"),
        "rome.senate.steps_down": _declare(senator="senator"),
        "rome.senate.consuls": _declare(senator="senator", other="senator"),
        "rome.senate.censor": _declare(senator="senator"),
        "rome.senate.dictator": _declare(senator="senator"),
        "rome.senate.master_of_horse": _declare(senator="senator"),
        "rome.senate.trial": _declare(senator="senator", prosecutor="senator", major="trial"),
        "rome.senate.appeal": _declare(senator="senator", int="int"),
        "rome.senate.freed": _declare(senator="senator"),
        "rome.senate.convicted": _declare(senator="senator"),
        "rome.senate.raised": _declare(legions="int", fleets="int"),
        "rome.senate.disbanded": _declare(legions="int", fleets="int"),
        "rome.senate.land_bill": _declare(int="int", senator="senator"),
        "rome.province.governor": _declare(senator="senator", province="province"),
        "rome.province.recalled": _declare(senator="senator", province="province"),
        "rome.province.spoils": _declare(senator="senator", province="province", int="int"),
        "rome.province.developed": _declare(province="province", senator="senator"),
        "rome.province.taxes": _declare(province="province", int="int"),
        "rome.senate.deployed": _declare(senator="senator", war="war"),
        "rome.senate.assassination_declared": _declare(faction="faction"),
        "rome.senate.assassination_withdrawn": _declare(faction="faction"),
        "rome.senate.assassination": _declare(senator="senator", target="senator", int="int"),
        "rome.senate.bodyguards": _declare(faction="faction", int="int"),
        "rome.senate.assassination_roll": _declare(int="int"),
        "rome.senate.assassination_fails": _declare(senator="senator"),
        "rome.senate.catch_roll": _declare(int="int"),
        "rome.senate.assassin_caught": _declare(senator="senator"),
        "rome.senate.acquitted": _declare(senator="senator"),
        "rome.senate.proposal_falls": _declare(),
        "rome.senate.land_bill_repealed": _declare(int="int", senator="senator"),
        "rome.senate.recalled": _declare(senator="senator"),
        "rome.senate.tribune_played": _declare(faction="faction"),
        "rome.senate.sponsor_asked": _declare(faction="faction"),
        "rome.senate.sponsor_refuses": _declare(faction="faction"),
        "rome.senate.dispatch_suspended": _declare(faction="faction", senator="senator"),
        "rome.senate.dispatch_resumes": _declare(senator="senator"),
        "rome.senate.dispatch_cancelled": _declare(senator="senator"),
        "rome.senate.tribune_proposal": _declare(faction="faction"),
        "rome.senate.tribune_lapses": _declare(faction="faction"),
        "rome.senate.reinforced": _declare(senator="senator", legions="int", fleets="int"),
        "rome.senate.withdrawn": _declare(senator="senator", legions="int", fleets="int"),
        "rome.senate.closed": _declare(),
        # combat
        "rome.combat.battle": _declare(war="war", senator="senator", int="int", total="int", result="result"),
        "rome.combat.captured": _declare(senator="senator"),
        "rome.combat.naval_victory": _declare(war="war"),
        "rome.combat.home_from_sea": _declare(senator="senator", war="war"),
        "rome.combat.victory": _declare(war="war", talents="talents"),
        "rome.combat.deserters": _declare(war="war", int="int"),
        "rome.combat.civil_war": _declare(senator="senator", rebel="senator", int="int", total="int", result="result"),
        # revolution: declarations of civil war
        "rome.revolution.gift": _declare(faction="faction", receiver="faction"),
        "rome.revolution.lays_down": _declare(senator="senator"),
        "rome.revolution.legions": _declare(senator="senator", int="int", legions="int"),
        "rome.revolution.declares": _declare(senator="senator", legions="int"),
        "rome.revolution.revolt": _declare(senator="senator", legions="int"),
        "rome.revolution.joins": _declare(senator="senator"),
        "rome.revolution.loyal": _declare(senator="senator"),
        "rome.revolution.revolt_fails": _declare(faction="faction", legions="int"),
        "rome.revolution.unopposed": _declare(senator="senator"),
        # population
        "rome.population.unrest": _declare(int="int"),
        "rome.population.roll": _declare(senator="senator", int="int"),
        "rome.population.result": _declare(int="int"),
        "rome.population.manpower_shortage": _declare(),
        "rome.population.no_recruitment": _declare(),
        "rome.population.mob": _declare(),
        # the end
        "rome.game.over": _declare(ending="ending", factions="factions"),
        "rome.game.consul_for_life": _declare(senator="senator", faction="faction"),
    }
)
