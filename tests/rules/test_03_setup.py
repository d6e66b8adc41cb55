"""§ 3 Setup, § 2 pieces at the start, and the seeded dice that shuffle the deck."""

from __future__ import annotations

import dataclasses
from collections import Counter

import msgspec
import pytest

from conftest import WORLD
from judges.engine import CANAANITES, DEFAULT_RULES, Game, Options, ScriptedDice, SetupError


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_player_starts_with_two_home_villages_of_two_troops_and_two_generals(players):
    game = Game.new(Options(players=players, seed=3), start=False)
    state = game.state
    homes = WORLD.home_regions[players]
    assert len(homes) == players
    for seat, region in enumerate(homes):
        extra = set(WORLD.home_villages[players][seat])
        owned = [i for i, s in enumerate(state.settlements) if s.owner == seat and i not in extra]
        assert len(owned) == 2
        assert all(WORLD.settlements[i].region == region for i in owned)
        assert all(not WORLD.settlements[i].is_city for i in owned)
        # two troops each, START_GARRISON, unless the design handicaps the seat's garrison
        if WORLD.home_troops[players][seat] is None:
            assert all(state.settlements[i].troops == 2 for i in owned)
        generals = [g for g in state.generals.values() if g.owner == seat]
        assert len(generals) == 2
        first_village = WORLD.regions[region].start_villages[0]
        assert {g.hex for g in generals} == {WORLD.settlements[first_village].hex}
        assert state.players[seat].coins == DEFAULT_RULES.start_coins + WORLD.home_coins[players][seat]
        assert len(state.players[seat].hand) == 1


# § 3 [D] home regions by player count, seat by seat (docs/rules-reference.md § 1–3: chosen with
# `judges lab-fairness` so that equal players win equally often from every seat, docs/balance.md)
HOMES = {
    2: ["Manasseh", "Judah"],
    3: ["Naphtali", "Benjamin", "Judah"],
    4: ["Manasseh", "Benjamin", "Negev", "Naphtali"],
    5: ["Naphtali", "Asher", "Manasseh", "Benjamin", "Negev"],
    6: ["Asher", "Manasseh", "Gilead", "Benjamin", "Negev", "Naphtali"],
}


@pytest.mark.parametrize("players", sorted(HOMES))
def test_each_seat_starts_in_the_home_region_the_design_gives_it_for_the_player_count(players):
    state = Game.new(Options(players=players, seed=11), start=False).state
    for seat, name in enumerate(HOMES[players]):
        region = WORLD.regions[WORLD.region_by_name[name]]
        villages = {i for i, s in enumerate(state.settlements) if s.owner == seat}
        assert villages == set(region.start_villages) | set(WORLD.home_villages[players][seat]), (players, seat, name)
        camp = WORLD.settlements[region.start_villages[0]].hex
        assert {g.hex for g in state.generals.values() if g.owner == seat} == {camp}


# § 3 [D] the treasury at setup, seat by seat: START_COINS (0) plus the compensation of a weaker
# home (the map's `[home_coins]`; docs/rules-reference.md § 1–3, tuned in docs/balance.md)
TREASURY = {
    2: [0, 0],
    3: [0, 0, 0],
    4: [0, 6, 12, 0],
    5: [10, 38, 0, 0, 6],
    6: [37, 0, 14, 0, 8, 16],
}


@pytest.mark.parametrize("players", sorted(TREASURY))
def test_each_seat_starts_with_the_treasury_the_design_gives_its_home(players):
    state = Game.new(Options(players=players, seed=5), start=False).state
    assert [p.coins for p in state.players] == TREASURY[players]


def test_the_compensation_adds_to_start_coins():
    rules = msgspec.structs.replace(DEFAULT_RULES, start_coins=3)
    state = Game.new(Options(players=5, seed=5, rules=rules), start=False).state
    assert [p.coins for p in state.players] == [3 + c for c in TREASURY[5]]


# § 3 [D] the extra villages a seat starts with besides its home's two, the positional
# compensation of a weaker home (the map's `[home_villages]`; docs/rules-reference.md § 1–3,
# tuned in docs/balance.md): seat -> extra village names
EXTRA_VILLAGES: dict[int, list[list[str]]] = {
    2: [[], []],
    3: [[], [], []],
    4: [["Tirzah"], [], [], []],
    5: [[], [], ["Tirzah"], [], []],
    6: [[], ["Tirzah"], [], [], [], []],
}


@pytest.mark.parametrize("players", sorted(EXTRA_VILLAGES))
def test_each_seat_starts_with_the_extra_villages_the_design_gives_its_home(players):
    state = Game.new(Options(players=players, seed=13), start=False).state
    for seat, name in enumerate(HOMES[players]):
        home = set(WORLD.regions[WORLD.region_by_name[name]].start_villages)
        extra = {WORLD.settlement_by_name[v] for v in EXTRA_VILLAGES[players][seat]}
        owned = {i for i, s in enumerate(state.settlements) if s.owner == seat}
        assert owned == home | extra, (players, seat, name)
        if WORLD.home_troops[players][seat] is None:
            assert all(state.settlements[i].troops == DEFAULT_RULES.start_garrison for i in owned)
        assert all(not WORLD.settlements[i].is_city for i in owned)
        # the generals still camp on the home's first start village
        camp = WORLD.settlements[WORLD.regions[WORLD.region_by_name[name]].start_villages[0]].hex
        assert {g.hex for g in state.generals.values() if g.owner == seat} == {camp}


def test_an_extra_village_is_the_seats_with_the_start_garrison_wherever_it_lies():
    by_name = WORLD.settlement_by_name
    extra = ((by_name["Tirzah"], by_name["Shunem"]), (), (by_name["Lachish"],), ())
    world = dataclasses.replace(WORLD, home_villages={**WORLD.home_villages, 4: extra})
    rules = msgspec.structs.replace(DEFAULT_RULES, start_garrison=3)
    state = Game.new(Options(players=4, seed=2, rules=rules), world=world, start=False).state
    for seat, villages in enumerate(extra):
        home = set(WORLD.regions[WORLD.home_regions[4][seat]].start_villages)
        owned = {i for i, s in enumerate(state.settlements) if s.owner == seat}
        assert owned == home | set(villages)
        assert all(state.settlements[i].troops == 3 for i in owned)
    # the others' treasuries, generals and the unlisted settlements are untouched
    plain = Game.new(Options(players=4, seed=2, rules=rules), start=False).state
    assert [p.coins for p in state.players] == [p.coins for p in plain.players]
    assert {g.id: (g.owner, g.hex) for g in state.generals.values()} == {
        g.id: (g.owner, g.hex) for g in plain.generals.values()
    }
    listed = {v for villages in extra for v in villages}
    for i, (a, b) in enumerate(zip(state.settlements, plain.settlements, strict=True)):
        if i not in listed:
            assert (a.owner, a.troops) == (b.owner, b.troops)


# § 3 [D] the garrison of each village a seat starts with: START_GARRISON (2), or fewer troops
# for a stronger home (the map's `[home_troops]`; docs/rules-reference.md § 1–3, tuned in
# docs/balance.md): seat -> village -> troops, for the seats the design handicaps
GARRISON: dict[int, dict[int, dict[str, int]]] = {
    2: {},
    3: {},
    4: {},
    5: {},
    6: {
        1: {"Samaria": 2, "Dothan": 2, "Tirzah": 1},  # Manasseh: its extra village Tirzah holds 1
        2: {"Mahanaim": 3, "Penuel": 3},  # Gilead: 3 in each
        3: {"Gibeon": 2, "Jericho": 1},  # Benjamin: Jericho holds 1
    },
}


@pytest.mark.parametrize("players", sorted(GARRISON))
def test_each_seat_starts_with_the_garrison_the_design_gives_its_home(players):
    state = Game.new(Options(players=players, seed=17), start=False).state
    for seat in range(players):
        owned = {WORLD.settlements[i].name: s.troops for i, s in enumerate(state.settlements) if s.owner == seat}
        expected = GARRISON[players].get(seat, dict.fromkeys(owned, DEFAULT_RULES.start_garrison))
        assert owned == expected, (players, seat)


def test_the_garrison_handicap_holds_the_listed_villages_and_nothing_else():
    by_name = WORLD.settlement_by_name
    extra = ((by_name["Tirzah"],), (), (), ())
    # seat 0: Samaria, Dothan (its home's, in order), then Tirzah; seat 2: START_GARRISON
    troops = ((1, 3, 2), (1, 1), None, (2, 1))
    world = dataclasses.replace(
        WORLD,
        home_villages={**WORLD.home_villages, 4: extra},
        home_troops={**WORLD.home_troops, 4: troops},
    )
    rules = msgspec.structs.replace(DEFAULT_RULES, start_garrison=4)
    state = Game.new(Options(players=4, seed=2, rules=rules), world=world, start=False).state
    for seat, garrison in enumerate(troops):
        villages = WORLD.regions[WORLD.home_regions[4][seat]].start_villages + extra[seat]
        owned = {i for i, s in enumerate(state.settlements) if s.owner == seat}
        assert owned == set(villages)
        expected = garrison or (4,) * len(villages)
        assert tuple(state.settlements[v].troops for v in villages) == expected, seat
    assert state.settlements[by_name["Dothan"]].troops == 3
    # the treasuries, the generals, the cards and every other settlement are the unhandicapped
    # setup's
    plain_world = dataclasses.replace(world, home_troops={**WORLD.home_troops, 4: (None,) * 4})
    plain = Game.new(Options(players=4, seed=2, rules=rules), world=plain_world, start=False).state
    assert [p.coins for p in state.players] == [p.coins for p in plain.players]
    assert {g.id: (g.owner, g.hex) for g in state.generals.values()} == {
        g.id: (g.owner, g.hex) for g in plain.generals.values()
    }
    for a, b in zip(state.settlements, plain.settlements, strict=True):
        assert a.owner == b.owner
        if a.owner is None or a.owner == CANAANITES:
            assert (a.troops, a.walls) == (b.troops, b.walls)
    assert [p.hand for p in state.players] == [p.hand for p in plain.players]
    assert state.deck == plain.deck


def test_other_settlements_start_free_or_canaanite_with_their_garrisons():
    state = Game.new(Options(players=4, seed=1), start=False).state
    for info in WORLD.settlements:
        s = state.settlements[info.index]
        if info.canaanite_start:
            assert s.owner == CANAANITES
            if info.is_city:
                assert (s.troops, s.walls) == (DEFAULT_RULES.canaanite_city_garrison, True)
            else:
                assert (s.troops, s.walls) == (DEFAULT_RULES.canaanite_garrison, False)
        elif s.owner is None:
            assert s.troops == 0 and not s.walls and s.developments == 0 and not s.razed


def test_canaanite_starts_are_the_briefs():
    assert {s.name for s in WORLD.settlements if s.canaanite_start} == {
        "Acco",
        "Megiddo",
        "Beth-shean",
        "Gezer",
        "Jebus",
        "Gaza",
        "Ashkelon",
        "Ashdod",
        "Ekron",
        "Gath",
    }


def test_the_ark_starts_unattended_on_kiriath_jearim_and_wrath_at_zero():
    state = Game.new(Options(players=3, seed=1), start=False).state
    assert state.ark_hex == WORLD.settlements[WORLD.settlement_by_name["Kiriath-jearim"]].hex
    assert not any(g.ark for g in state.generals.values())
    assert state.wrath == 0 and state.round == 1 and state.phase == 1


def test_the_intrigue_deck_has_thirty_cards_of_the_briefs_mix():
    state = Game.new(Options(players=3, seed=1), start=False).state
    cards = Counter(state.deck) + Counter(c for p in state.players for c in p.hand)
    assert sum(cards.values()) == 30
    assert cards == Counter(
        {
            "tax": 5,
            "plague": 3,
            "abundance": 4,
            "famine": 4,
            "sandstorm": 2,
            "assassin": 4,
            "revolt": 4,
            "prophet": 2,
            "anointing": 2,
        }
    )


def test_the_setup_shuffle_goes_through_the_seeded_dice():
    a = Game.new(Options(players=4, seed=11), start=False).state
    b = Game.new(Options(players=4, seed=11), start=False).state
    c = Game.new(Options(players=4, seed=12), start=False).state
    assert a.deck == b.deck
    assert a.deck != c.deck


def test_a_scripted_shuffle_sets_the_deck_order():
    order = list(range(30))[::-1]
    game = Game.new(Options(players=2), dice=ScriptedDice([], shuffles=[order]), start=False)
    plain = [card for card, n in DEFAULT_RULES.deck.items() for _ in range(n)]
    dealt = [p.hand[0] for p in game.state.players]
    assert game.state.deck + dealt[::-1] == plain[::-1]


@pytest.mark.parametrize(
    "fields,match",
    [
        ({"players": 1}, "2 to 6 players"),
        ({"players": 7}, "2 to 6 players"),
        ({"wave_pairs": 3}, "1 \\(default\\) or 2 \\(hard\\)"),
        ({"round_limit": 0}, "round limit"),
    ],
)
def test_bad_options_are_refused_clearly(fields, match):
    with pytest.raises(SetupError, match=match):
        Game.new(Options(**fields))
