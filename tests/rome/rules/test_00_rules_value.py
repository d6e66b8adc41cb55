"""The rules as one validated value (VG 1.07 Early Republic, basic game)."""

from __future__ import annotations

import msgspec
import pytest

from judges.rome.engine.rules import DEFAULT_ROME_RULES, OPTIONAL_RULES, RomeRules, RomeRulesError
from judges.rome.engine.state import RomeOptions


def test_the_basic_game_numbers():
    r = DEFAULT_ROME_RULES
    assert (r.state_income, r.war_cost, r.unit_upkeep, r.unit_cost, r.max_legions, r.max_fleets) == (
        100,
        20,
        2,
        10,
        25,
        25,
    )
    assert (r.faction_leader_income, r.senator_income, r.knight_income) == (3, 1, 1)
    assert (r.persuasion_fails_from, r.persuasion_fails_from_last_turn, r.persuasion_aligned) == (10, 9, 7)
    assert (r.consul_for_life_nominee, r.consul_for_life_automatic, r.wars_lose_game, r.hand_limit) == (21, 35, 4, 5)
    assert (r.ransom_minimum, r.ransom_per_influence) == (10, 2)  # VG, not the review's R229
    assert not any(getattr(r, name) for name in OPTIONAL_RULES)


@pytest.mark.parametrize(
    "change, rule",
    [({"hand_limit": 0}, "hand_limit"), ({"war_cost": -1}, "war_cost"), ({"knight_needs": 8}, "knight_needs"),
     ({"max_players": 7}, "max_players"), ({"era": "imperial"}, "era"), ({"deck": "late"}, "deck"),
     ({"illness": True}, "illness"), ({"pontifex_maximus": True}, "pontifex_maximus")],
)  # fmt: skip
def test_a_value_no_game_can_be_played_under_is_refused_naming_the_rule(change, rule):
    with pytest.raises(RomeRulesError) as err:
        msgspec.structs.replace(DEFAULT_ROME_RULES, **change)
    assert err.value.rule == rule


def test_rules_travel_with_the_options_and_decode_from_json():
    options = RomeOptions(players=4, rules=msgspec.structs.replace(DEFAULT_ROME_RULES, hand_limit=6))
    back = msgspec.json.decode(msgspec.json.encode(options), type=RomeOptions)
    assert back.rules.hand_limit == 6 and back == options
    assert RomeOptions(rules={"hand_limit": 7}).rules.hand_limit == 7  # type: ignore[arg-type]
    assert hash(DEFAULT_ROME_RULES) == hash(RomeRules())
