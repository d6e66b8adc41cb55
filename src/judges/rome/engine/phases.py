"""THE TURN MACHINE'S DECLARATION: each phase as its list of steps.

A step is a function of the context that returns True when it is finished (the cursor moves
on) or False when it posted a decision and must run again once that is answered (the
factions that decide one after another). A step may post decisions several factions owe at
once and return True: the next step runs when all are answered.

`PHASE_STEPS` lists every phase's steps. The turn runs setup once, then Mortality, Revenue,
Forum, Population, Senate, Combat, Revolution again and again (R1) until the game ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from . import (
    alliances,
    combat,
    forum,
    mortality,
    population,
    prosecutions,
    provinces,
    revenue,
    revolution,
    senate,
    setup,
    victory,
)
from .context import Ctx

Step = Callable[[Ctx], bool]

PHASE_STEPS: Mapping[str, tuple[Step, ...]] = MappingProxyType(
    {
        "setup": (setup.deal, setup.temporary_consul, setup.ask_leaders, setup.ask_first_cards),
        "mortality": (mortality.activate_imminent, mortality.mortality_draw),
        "revenue": (
            revenue.rebel_upkeep,
            provinces.ask_spoils,
            revenue.ask_grain,
            revenue.personal_revenue,
            revenue.ask_redistribution,
            provinces.develop,
            revenue.state_revenue,
            provinces.taxes,
            revenue.ask_contributions,
            revenue.debits,
            revenue.returning_governors,
        ),
        "forum": (
            forum.passage_of_time,
            forum.initiatives,
            forum.enemy_leader_dies,
            forum.put_rome_in_order,
            forum.era_ends,
        ),
        "population": (population.unrest_from_wars_and_droughts, population.state_of_the_republic),
        "senate": (
            senate.open_senate,
            senate.repopulate,
            senate.consul_elections,
            senate.dictator_election,
            senate.censor_election,
            prosecutions.prosecutions,
            provinces.governors,
            senate.business,
            alliances.new_alliance,
        ),
        "combat": (combat.combat, combat.end_of_combat, alliances.rhodian_alliance_ends),
        "revolution": (
            revolution.start,
            revolution.play_cards,
            revolution.hand_limit,
            revolution.declarations,
            victory.consul_for_life_wins,
        ),
    }
)
