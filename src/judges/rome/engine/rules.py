"""Every number of the Early Republic's rules, as one value: `RomeRules`, carried by each game's
`RomeOptions`.

Edition: Valley Games Living Rules 1.07, the Early Republic scenario, basic game. Each field
says where its number comes from: [V] VG's rule, [T] the review's words (seed 003), [D] our
decision (docs/rome/rules-reference.md gives the reason). Card values and printed tables live
in the scenario's data file (`deck`, judges/rome/data/<deck>.toml), validated on load; this
value holds the numbers of the rules text and the switches of the optional rules.

A `RomeRules` is frozen and validated when built or decoded (`RomeRulesError` names the rule).
Optional modules the engine does not play yet are refused when switched on rather than
silently ignored. A variant is `msgspec.structs.replace(DEFAULT_ROME_RULES, hand_limit=6)`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from ..cards import RomeDataError, load_deck


class RomeRulesError(ValueError):
    """A `RomeRules` value no game can be played under: the message names the rule (field)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.key = "rome.error.rules_invalid"
        self.params = {"rule": rule}


#: The optional rules of VG's Advanced Game and the review's house variants: each a switch,
#: off in the basic game. The engine refuses a switch it does not play yet (`PLAYED_OPTIONS`).
OPTIONAL_RULES = (
    "pontifex_maximus",  # [V] advanced: Pontifex Maximus and priests (R115-R121)
    "provincial_wars",  # [V] advanced
    "rebel_governors",  # [V] advanced
    "legionary_disbandment",  # [V] advanced
    "advocates",  # [V] advanced
    "passing_laws",  # [V] advanced (Middle/Late laws)
    "middle_cards_at_bottom",  # [V] basic VG setup: 6 Middle cards in the bottom block (data not yet complete)
    "illness",  # [T] house variant R272-R274
    "retirement",  # [T] house variant R275
)
PLAYED_OPTIONS: frozenset[str] = frozenset()


class RomeRules(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    deck: str = "early"  # the scenario data file: judges/rome/data/early.toml
    era: str = "early"  # [V] the events column and the rebel legions' loyalty roll
    min_players: int = 3  # [V] the multiplayer game
    max_players: int = 6  # [V]
    # Mortality
    mortality_draws: int = 1  # [V] 1.05.2 chits drawn each Mortality phase
    # Revenue
    senator_income: int = 1  # [V][T] R21
    faction_leader_income: int = 3  # [V][T] R21
    knight_income: int = 1  # [V][T] R22
    state_income: int = 100  # [V] each Revenue phase
    war_cost: int = 20  # [V][T] R29 each active war
    unit_upkeep: int = 2  # [V] each legion and fleet, each Revenue phase
    rebel_unit_upkeep: int = 2  # [V][T] R35
    governor_term: int = 3  # [V][T] R31/R143
    develop_on: int = 6  # [V] 1.07B: dr (+1 if not corrupt) of 6 or more develops a province
    develop_influence: int = 3  # [V]
    allied_enthusiasm: int = 50  # [V] event: the State's extra income next Revenue phase
    allied_enthusiasm_intensified: int = 75  # [V]
    rhodian_fleets: int = 8  # [V] event: free fleets while a war needs fleets
    rhodian_fleets_intensified: int = 12  # [V] in all
    # Forum
    initiatives: int = 6  # [T] R41
    persuasion_aligned: int = 7  # [T][V] R52
    persuasion_fails_from: int = 10  # [T][V] R56 an unmodified DR this high always fails
    persuasion_fails_from_last_turn: int = 9  # [T][V] R57 after the Era Ends card
    knight_needs: int = 6  # [T][V] R61
    curia_return_on: int = 5  # [V] dr 5+ returns a senator or concession from the Curia
    curia_leader_dies_on: int = 5  # [V][T] R68
    minimum_bid: int = 1  # [V] GAP-12: an initiative's auction
    # Senate
    consul_influence: int = 5  # [T][V] R100
    dictator_influence: int = 7  # [T][V] R108
    master_of_horse_influence: int = 3  # [T][V] R109
    censor_influence: int = 5  # [T][V] R124
    temporary_consul_influence: int = 5  # [V] setup
    dictator_active_wars: int = 3  # [T][V] R104
    dictator_war_strength: int = 20  # [T][V] R104 / K13: one war's printed land + naval strength
    unit_cost: int = 10  # [T][V] R147
    manpower_shortage_extra: int = 10  # [V] each shortage in force adds this to a unit's cost
    max_legions: int = 25  # [T][V] R145
    max_fleets: int = 25  # [T][V] R145
    minor_conviction_influence: int = 5  # [T][V] R127
    minor_conviction_popularity: int = 5  # [T][V] R127
    consul_for_life_nominee: int = 21  # [T][V] R178
    consul_for_life_automatic: int = 35  # [V] R256
    assassination_kills_from: int = 5  # [T][V] R186
    assassination_caught_to: int = 2  # [T][V] R186
    assassin_leader_influence: int = 5  # [V] ror-data §12: the caught assassin's faction leader
    rejected_proposal_influence: int = 1  # [T][V] R90
    # Combat
    wars_lose_game: int = 4  # [T][V] R232
    ransom_minimum: int = 10  # [V] 1.10.71 (the review's R229 says 1 per influence)
    ransom_per_influence: int = 2  # [V]
    disaster_unrest: int = 1  # [T][V] R71
    defeat_unrest: int = 2  # [T][V] R71
    victory_unrest: int = -1  # [T][V] R72
    # Revolution
    hand_limit: int = 5  # [T][V] R236
    rebel_legion_joins_on: int = 5  # [T][V] R241 Early Republic (Middle 4, Late 3)
    # Optional rules (see OPTIONAL_RULES): all off in the basic game
    pontifex_maximus: bool = False
    provincial_wars: bool = False
    rebel_governors: bool = False
    legionary_disbandment: bool = False
    advocates: bool = False
    passing_laws: bool = False
    middle_cards_at_bottom: bool = False
    illness: bool = False
    retirement: bool = False

    def __post_init__(self) -> None:
        validate_rules(self)


_POSITIVE = (
    "min_players",
    "max_players",
    "state_income",
    "initiatives",
    "unit_cost",
    "max_legions",
    "max_fleets",
    "governor_term",
    "hand_limit",
    "wars_lose_game",
    "consul_for_life_automatic",
    "consul_for_life_nominee",
    "persuasion_fails_from",
    "persuasion_fails_from_last_turn",
)
_DIE = ("develop_on", "knight_needs", "curia_return_on", "curia_leader_dies_on", "rebel_legion_joins_on")


def validate_rules(rules: RomeRules) -> None:
    """Refuses a value no game can be played under, naming the rule."""
    # the field names, not msgspec.structs.fields (which reads the annotations anew each call:
    # rules are validated on every decoded state, so on every copy a search makes)
    for name in RomeRules.__struct_fields__:
        value = getattr(rules, name)
        if isinstance(value, bool) or isinstance(value, str):
            continue
        if not isinstance(value, int):
            raise RomeRulesError(name, f"must be a whole number, not {value!r}")
        if name in _POSITIVE and value <= 0:
            raise RomeRulesError(name, f"must be positive, not {value}")
        if name not in _POSITIVE and name != "victory_unrest" and value < 0:
            raise RomeRulesError(name, f"cannot be negative ({value})")
    if rules.victory_unrest > 0:
        raise RomeRulesError("victory_unrest", "a victory cannot raise unrest")
    for name in _DIE:
        if not 1 <= getattr(rules, name) <= 7:
            raise RomeRulesError(name, f"a die's target must be 1-7, not {getattr(rules, name)}")
    if not 3 <= rules.min_players <= rules.max_players <= 6:
        raise RomeRulesError("max_players", "the multiplayer game seats 3 to 6 factions")
    if not 2 <= rules.persuasion_fails_from_last_turn <= rules.persuasion_fails_from <= 13:
        raise RomeRulesError("persuasion_fails_from_last_turn", "persuasion's automatic failures are 2d6 totals")
    if rules.era not in ("early", "middle", "late"):
        raise RomeRulesError("era", f"{rules.era!r} is not an era")
    if rules.consul_for_life_nominee > rules.consul_for_life_automatic:
        raise RomeRulesError("consul_for_life_nominee", "cannot exceed the automatic Consul for Life's influence")
    for name in OPTIONAL_RULES:
        if getattr(rules, name) and name not in PLAYED_OPTIONS:
            raise RomeRulesError(name, "this optional rule is not played by the engine yet")
    try:
        load_deck(rules.deck)
    except RomeDataError as exc:
        raise RomeRulesError("deck", str(exc)) from None


DEFAULT_ROME_RULES = RomeRules()

#: The largest number a table anyone opens may ask for in any rule (the server's bound; the lab
#: and the command line may go beyond): ten times the largest printed one (the State's income of
#: 100 talents), so no variant makes a phase's loops or a treasury's sums run away.
RULE_MAXIMUM = 1_000


def check_bounds(rules: RomeRules) -> None:
    """Refuses a rule beyond `RULE_MAXIMUM`, naming it (validate_rules has refused the rest)."""
    for name in rules.__struct_fields__:
        value = getattr(rules, name)
        if type(value) is int and value > RULE_MAXIMUM:
            raise RomeRulesError(name, f"at most {RULE_MAXIMUM}, not {value}")


def rules_from_builtins(data: dict[str, Any]) -> RomeRules:
    """A `RomeRules` from its JSON-like dict (a stored game's options)."""
    return msgspec.convert(data, RomeRules)
