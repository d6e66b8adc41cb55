"""The server's side of the game plug-in (games/served.py): both games, through `SERVED` only."""

from __future__ import annotations

import json
import string
from typing import Any

import msgspec
import pytest

from games_support import DRIVERS
from judges.games.protocol import GameProtocol
from judges.games.registry import GAMES, SERVED
from judges.games.served import CAPABILITIES, BotRefused, RulesRefused, ServedGame
from judges.rome.engine.rules import RULE_MAXIMUM
from judges.rome.engine.view import RomeView

KEY = "ab" * 32
GAME_NAMES = sorted(SERVED)


def _played(name: str, seed: int, until: Any, max_actions: int = 5000) -> GameProtocol[Any, Any]:
    """A game of random bots, played until `until(game)` holds."""
    served, gd = SERVED[name], GAMES[name]
    game = served.new_table(4 if name == "judges" else 5, seed, None, served.parse_rules(None))
    bots = gd.seat_bots(["random"] * game.players, seed)
    for _ in range(max_actions):
        if until(game):
            return game
        assert not game.is_over, "the game ended before the position sought"
        seat = game.to_move()[0]
        game.apply_legal(bots[seat].choose(seat, game.legal_actions(seat), lambda: game.view(seat)))
    raise AssertionError("no such position within the actions played")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_is_served_and_declares_known_capabilities(name: str) -> None:
    served = SERVED[name]
    assert isinstance(served, ServedGame)
    assert served.name == name
    assert served.capabilities <= CAPABILITIES
    assert (served.min_players, served.max_players) == (GAMES[name].min_players, GAMES[name].max_players)


def test_judges_and_kings_has_every_capability_and_rome_its_log_replay_and_ratings() -> None:
    assert SERVED["judges"].capabilities == CAPABILITIES
    assert SERVED["rome"].capabilities == frozenset({"action_log", "replay", "ratings"})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_with_ratings_names_its_anchors_reference_and_length(name: str) -> None:
    """docs/accounts.md "Ratings": the reference bot is an anchor at a new player's mean, every
    anchor a bot the game seats, and a minimum length its bots' games reach."""
    served = SERVED[name]
    rating = served.rating
    assert ("ratings" in served.capabilities) == (rating is not None)
    assert rating is not None and rating.anchors[rating.reference] == 25.0
    assert all(served.check_bot(bot) == bot for bot in rating.anchors)
    assert rating.min_progress >= 2


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_of_a_seat_and_of_spectators_are_json(name: str) -> None:
    served = SERVED[name]
    game = served.new_table(served.min_players + 1, None, KEY, served.parse_rules(None))
    for view in [served.seat_view(game, s) for s in range(game.players)] + [served.spectator_view(game)]:
        text = json.dumps(view)
        assert KEY not in text  # the dice's key stays secret until the game ends
        msgspec.convert(json.loads(text), served.view_type, str_keys=True)  # the view's declared type


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_commitment_binds_the_dice_key(name: str) -> None:
    served = SERVED[name]
    rules = served.parse_rules(None)
    one = served.new_table(served.min_players, None, KEY, rules)
    other = served.new_table(served.min_players, None, "cd" * 32, rules)
    assert len(served.commitment(one)) == 64
    assert served.commitment(one) != served.commitment(other)
    assert served.commitment(one) == served.commitment(served.new_table(served.min_players, None, KEY, rules))


def test_rome_hands_and_treasuries_are_the_own_faction_s_only() -> None:
    served = SERVED["rome"]
    game = served.new_table(5, 3, None, served.parse_rules(None))
    state = game.game.state  # type: ignore[attr-defined]
    for seat in range(5):
        view = served.seat_view(game, seat)
        for faction in view["factions"]:
            real = state.factions[faction["seat"]]
            if faction["seat"] == seat:
                assert faction["hand"] == real.hand and faction["treasury"] == real.treasury
            else:
                assert faction["hand"] == len(real.hand) and faction["treasury"] is None
        assert view["deck"] == len(state.deck)
    spectator = served.spectator_view(game)
    assert all(isinstance(f["hand"], int) and f["treasury"] is None for f in spectator["factions"])


def test_rome_secret_ballots_are_hidden_from_other_seats_and_spectators() -> None:
    def voting(game: GameProtocol[Any, Any]) -> bool:
        sitting = game.game.state.scratch.get("senate") or {}  # type: ignore[attr-defined]
        ballots = sitting.get("ballots") or {}
        return len(ballots) >= 2 and "veto" not in ballots

    served = SERVED["rome"]
    game = _played("rome", 1, voting)
    ballots = game.game.state.scratch["senate"]["ballots"]  # type: ignore[attr-defined]
    for seat in range(game.players):
        seen = served.seat_view(game, seat)["scratch"]["senate"]["ballots"]
        assert seen == {k: (v if k == str(seat) else "voted") for k, v in ballots.items()}
    assert set(served.spectator_view(game)["scratch"]["senate"]["ballots"].values()) == {"voted"}


def test_judges_intrigue_cards_are_the_own_seat_s_only() -> None:
    def two_hands(game: GameProtocol[Any, Any]) -> bool:
        return sum(1 for p in game.game.state.players if p.hand) >= 2  # type: ignore[attr-defined,misc]

    served = SERVED["judges"]
    game = _played("judges", 2, two_hands)
    players = game.game.state.players  # type: ignore[attr-defined]
    for seat in range(game.players):
        view = served.seat_view(game, seat)
        for p in view["state"]["players"]:
            assert p["hand"] == (list(players[seat].hand) if p["seat"] == seat else [])
        assert view["hand_sizes"] == [len(p.hand) for p in players]
    assert all(p["hand"] == [] for p in served.spectator_view(game)["state"]["players"])


def test_rome_view_schema_comes_from_the_engine_types() -> None:
    schema = SERVED["rome"].view_schema()
    defs = schema["$defs"]
    assert schema["$ref"] == "#/$defs/RomeView"
    hand = defs["FactionView"]["properties"]["hand"]["anyOf"]
    assert {"type": "integer"} in hand and {"type": "array", "items": {"type": "string"}} in hand
    assert defs["RomeView"]["properties"]["deck"]["type"] == "integer"
    assert {"Senator", "WarInPlay", "RomeOptions", "RomeRules"} <= set(defs)
    # a view that breaks its type is refused by it
    view = SERVED["rome"].spectator_view(SERVED["rome"].new_table(3, 1, None, None))
    view["deck"] = ["hidden.card"]
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(view, RomeView)


def test_judges_view_schema_is_the_engine_s_player_view() -> None:
    schema = SERVED["judges"].view_schema()
    assert schema["$ref"] == "#/$defs/PlayerView"
    assert "hand_sizes" in schema["$defs"]["PlayerView"]["properties"]


def _fields(text: str) -> set[str]:
    return {f.split(".")[0].split("[")[0].split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_catalogs_are_complete_in_every_language(name: str) -> None:
    served = SERVED[name]
    assert {"en", "es", "pt_BR"} <= set(served.languages)
    english = served.catalog("en")
    assert served.message_keys() <= set(english)
    for lang in served.languages:
        words = served.catalog(lang)
        assert set(english) <= set(words), (lang, sorted(set(english) - set(words))[:5])
        for key in served.message_keys():
            assert _fields(words[key]) <= _fields(english[key]) | set(), (lang, key)


HOSTILE = {name: DRIVERS[name].hostile_rules for name in GAME_NAMES}  # tests/games_support.py


@pytest.mark.parametrize(("name", "changes"), [(n, c) for n in GAME_NAMES for c in HOSTILE[n]])
def test_hostile_rules_are_refused_naming_the_rule(name: str, changes: dict[str, Any]) -> None:
    served = SERVED[name]
    with pytest.raises(RulesRefused) as refused:
        served.parse_rules(changes)
    assert refused.value.rule == next(iter(changes))
    assert refused.value.key in served.catalog("en")
    assert refused.value.params["rule"] == refused.value.rule


def test_rules_within_bounds_are_taken() -> None:
    assert SERVED["rome"].parse_rules({"state_income": RULE_MAXIMUM}).state_income == RULE_MAXIMUM
    assert SERVED["rome"].parse_rules({"hand_limit": 6}).hand_limit == 6
    assert SERVED["judges"].parse_rules({"wrath_threshold": 10}).wrath_threshold == 10


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("judges", ["random", "greedy", "mcts:8"], ["neutral", "greedy:3", "mcts:x"]),
        ("rome", ["random", "neutral", "mcts:8"], ["greedy", "mcts:x", "neutral:2"]),
    ],
)
def test_bot_specs_are_the_game_s_own(name: str, good: list[str], bad: list[str]) -> None:
    served = SERVED[name]
    for spec in good:
        assert served.check_bot(spec) == spec.partition(":")[0]
        assert callable(served.make_bot(spec, 1).choose)
    for spec in bad:
        with pytest.raises(BotRefused) as refused:
            served.make_bot(spec, 1)
        assert refused.value.key in served.catalog("en")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_finished_table_exports_what_judges_verify_accepts(name: str) -> None:
    from judges.games.protocol import play_to_end
    from judges.verify import verify_export

    served = SERVED[name]
    game = served.new_table(served.min_players, None, KEY, None)
    committed = served.commitment(game)
    play_to_end(game, GAMES[name].seat_bots(["random"] * game.players, 4))
    export = json.loads(json.dumps(served.export(game, "t1")))
    assert export["dice"]["seed"] == KEY
    assert verify_export(export, committed).actions == len(game.log())
