"""Rules as a value: every number of the rules is a field of a frozen `Rules`, carried by
the game's options. A game is played under its own rules (no module global is read or
patched), so games under different rules run side by side; a Rules goes through JSON
unchanged; rules no game could be played under are refused; old options still decode."""

from __future__ import annotations

import json
import re

import msgspec
import pytest

from conftest import make_game
from judges.bots import RandomBot
from judges.engine import DEFAULT_RULES, Game, Options, Rules, RulesError, SetupError, action_to_dict
from judges.engine.rules import ReadOnlyDict, rules_from_json, rules_to_json
from judges.engine.scenario import build_game
from judges.engine.state import options_from_builtins, state_from_json, state_to_json, upgrade_options
from judges.play import play_game
from judges.world import load_world

# --- a game reads its own rules ----------------------------------------------------------------


def test_a_lower_wrath_threshold_declares_a_judgment_earlier():
    # 5 + 1 (Canaanites) = 6: no judgment under the default 13, a judgment under a threshold of 6.
    default = make_game({"wrath": 5}, dice=[1])
    harsh = make_game({"wrath": 5}, dice=[1], rules={"wrath_threshold": 6})
    assert harsh.state.options.rules.wrath_threshold == 6
    assert (harsh.state.judgment, harsh.state.judgments, harsh.state.wrath) == (True, 1, 0)
    assert (default.state.judgment, default.state.wrath) == (False, 6)
    assert default.state.options.rules is DEFAULT_RULES


def test_games_under_other_rules_do_not_change_a_default_game_in_the_same_process():
    def play(rules: Rules) -> Game:
        return play_game(Options(players=3, seed=11, round_limit=12, rules=rules), [RandomBot(s) for s in range(3)])

    before = state_to_json(play(DEFAULT_RULES).state)
    variant = play(
        msgspec.structs.replace(
            DEFAULT_RULES, wrath_threshold=3, costs={**DEFAULT_RULES.costs, "troop": 3}, movement_points=5
        )
    )
    after = state_to_json(play(DEFAULT_RULES).state)
    assert before == after
    assert variant.state.judgments > 0 and state_to_json(variant.state) != before


def test_the_rules_of_a_game_decide_its_setup():
    rules = msgspec.structs.replace(DEFAULT_RULES, start_coins=5, start_cards=2, start_garrison=3)
    game = Game.new(Options(players=3, seed=2, rules=rules), start=False)
    assert all(p.coins == 5 and len(p.hand) == 2 for p in game.state.players)
    assert {s.troops for s in game.state.settlements if s.owner in (0, 1, 2)} == {3}
    with pytest.raises(SetupError, match="a game has 2 to 3 players"):
        Game.new(Options(players=4, rules=msgspec.structs.replace(DEFAULT_RULES, max_players=3)))


def test_a_replay_uses_the_rules_in_the_options():
    rules = msgspec.structs.replace(DEFAULT_RULES, wrath_threshold=4, dowry=9)
    game = play_game(Options(players=3, seed=4, round_limit=8, rules=rules), [RandomBot(s) for s in range(3)])
    log = [action_to_dict(a) for a in game.log]
    stored = json.loads(msgspec.json.encode(game.state.options))  # as a server or a lab record keeps them
    replayed = Game.replay(options_from_builtins(stored), log)
    assert state_to_json(replayed.state) == state_to_json(game.state)


# --- the value -------------------------------------------------------------------------------------


def test_rules_round_trip_through_json():
    rules = msgspec.structs.replace(
        DEFAULT_RULES,
        wrath_threshold=9,
        sandstorm_terrain="plain",
        event_terrain_by_die={**DEFAULT_RULES.event_terrain_by_die, 6: "plain"},
    )
    assert rules_from_json(rules_to_json(rules)) == rules
    assert rules_from_json(rules_to_json(DEFAULT_RULES)) == DEFAULT_RULES
    options = Options(players=5, seed=3, rules=rules)
    assert msgspec.json.decode(msgspec.json.encode(options), type=Options) == options
    game = Game.new(options)
    assert state_from_json(state_to_json(game.state)) == game.state


def test_the_dict_rules_are_read_only_and_the_rules_hashable():
    assert isinstance(DEFAULT_RULES.costs, ReadOnlyDict)
    with pytest.raises(TypeError, match="read-only"):
        DEFAULT_RULES.costs["wall"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        DEFAULT_RULES.deck.update(tax=9)
    with pytest.raises(AttributeError):
        DEFAULT_RULES.wrath_threshold = 1  # type: ignore[misc]
    assert hash(Rules()) == hash(DEFAULT_RULES) and Rules() == DEFAULT_RULES
    changed = msgspec.structs.replace(DEFAULT_RULES, costs={**DEFAULT_RULES.costs, "wall": 8})
    assert isinstance(changed.costs, ReadOnlyDict) and changed != DEFAULT_RULES
    assert DEFAULT_RULES.costs["wall"] == 10


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"wrath_threshold": 0}, "rule wrath_threshold must be at least 1, not 0"),
        ({"wrath_threshold": "13"}, "rule wrath_threshold must be an integer, not '13'"),
        ({"canaanite_city_walls": 1}, "rule canaanite_city_walls must be true/false, not 1"),
        ({"dowry": -1}, "rule dowry must not be negative, not -1"),
        ({"walls_hit_min": 7}, "rule walls_hit_min is a die face: 1 to 6, not 7"),
        ({"costs": {**DEFAULT_RULES.costs, "wall": 0}}, "rule costs.wall must be a positive number of coins, not 0"),
        ({"costs": {"wall": 10}}, "rule costs must price exactly the items"),
        ({"deck": {**DEFAULT_RULES.deck, "dragon": 1}}, "rule deck must count exactly the cards"),
        ({"event_terrain_by_die": {1: "plain"}}, "rule event_terrain_by_die must name a terrain for each die face"),
        ({"sandstorm_terrain": "sea"}, "rule sandstorm_terrain names 'sea'"),
        ({"terrain_move_cost": {**DEFAULT_RULES.terrain_move_cost, "plain": 0}}, "rule terrain_move_cost.plain"),
        ({"min_players": 4, "max_players": 3}, "rule min_players (4) exceeds max_players (3)"),
        ({"map": "atlantis"}, "rule map: no map called 'atlantis'"),
        ({"map": "../canaan"}, "rule map: no map called '../canaan'"),
    ],
)
def test_rules_no_game_could_be_played_under_are_refused(changes, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        Rules(**changes)
    with pytest.raises(RulesError, match=re.escape(message)):
        msgspec.structs.replace(DEFAULT_RULES, **changes)
    data = json.dumps({**json.loads(rules_to_json(DEFAULT_RULES)), **changes})
    with pytest.raises(RulesError, match=r"rule |at `\$\."):  # ours, or msgspec's type error naming the field
        rules_from_json(data)


def test_a_scenario_with_invalid_rules_is_refused_naming_the_rule():
    with pytest.raises(SetupError, match="rule wrath_threshold must be at least 1"):
        build_game({"options": {"players": 3, "rules": {"wrath_threshold": 0}}, "position": {}})


# --- old options -----------------------------------------------------------------------------------

OLD_OPTIONS = {"players": 3, "seed": 7, "wave_pairs": 2, "round_limit": None, "map": "canaan"}


def test_old_options_with_a_top_level_map_still_decode():
    options = options_from_builtins(OLD_OPTIONS)
    assert options == Options(players=3, seed=7, wave_pairs=2, rules=DEFAULT_RULES)
    assert upgrade_options({"players": 2}) == {"players": 2}
    assert options_from_builtins({"players": 2, "rules": {"map": "canaan", "dowry": 4}}).rules.dowry == 4


def test_an_old_stored_state_still_decodes():
    game = Game.new(Options(players=3, seed=7, wave_pairs=2))
    data = json.loads(state_to_json(game.state))
    data["options"] = OLD_OPTIONS
    assert state_from_json(json.dumps(data)) == game.state
    assert state_from_json(json.dumps(data).encode()) == game.state


def test_an_old_scenario_file_with_a_map_in_its_options_still_runs():
    game = build_game({"options": OLD_OPTIONS, "position": {}})
    assert game.state.options.rules == DEFAULT_RULES and game.world is load_world("canaan")


def test_options_built_from_a_stored_dict_decode_its_rules():
    stored = json.loads(msgspec.json.encode(Options(players=3, rules=Rules(dowry=4))))
    assert Options(**stored).rules == Rules(dowry=4)
