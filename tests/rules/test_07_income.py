"""§ 7 Phase 3 — Income (owner's manual, "Fase 3 — Ingresos"; binding).

Every sentence of the manual's Income section has a test here. Positions start at
phase "income" (round 2 unless the test is about the round-1 dowry), so Income runs at
once and the game stops at the first Acquisitions turn. `clear_board` empties the land of
player holdings (Canaanite holdings stay), so nothing but the listed pieces counts.
"""

from __future__ import annotations

from conftest import WORLD, S, make_game, terrain
from judges.engine import EndTurn

OTHER_TERRAIN = {"plain": "mountains", "mountains": "desert", "desert": "plain"}


def income_position(settlements: dict, round_: int = 2, **extra) -> dict:
    return {"clear_board": True, "round": round_, "phase": "income", "settlements": settlements, **extra}


def garrison(owner: int, troops: int = 1, developments: int = 0) -> dict:
    return {"owner": owner, "troops": troops, "developments": developments}


def income_notes(game, seat: int) -> list:
    return [n for n in game.notifications if n.key == "notification.income" and seat in n.to]


def coins(game) -> list[int]:
    return [p.coins for p in game.state.players]


def is_city(name: str) -> bool:
    return WORLD.settlements[S(name)].is_city


# --- What each settlement yields ------------------------------------------------------------


def test_village_yields_one_coin():
    assert not is_city("Chinnereth")
    game = make_game(income_position({"Chinnereth": garrison(0)}))
    assert coins(game) == [1, 0, 0]


def test_city_yields_two_coins():
    assert is_city("Hazor")
    game = make_game(income_position({"Hazor": garrison(0)}))
    assert coins(game) == [2, 0, 0]


def test_each_development_adds_two_coins_to_a_village():
    game = make_game(income_position({"Chinnereth": garrison(0, developments=1)}))
    assert coins(game) == [1 + 2, 0, 0]


def test_each_development_adds_two_coins_to_a_city():
    game = make_game(income_position({"Hazor": garrison(0, developments=3)}))
    assert coins(game) == [2 + 3 * 2, 0, 0]


def test_abundance_adds_one_coin_on_its_terrain():
    # Chinnereth's terrain has Abundance; Kedesh (another terrain) is unaffected.
    assert terrain("Chinnereth") != terrain("Kedesh")
    game = make_game(
        income_position(
            {"Chinnereth": garrison(0), "Kedesh": garrison(1)},
            events_landed=[{"card": "abundance", "terrain": terrain("Chinnereth")}],
        )
    )
    assert coins(game) == [1 + 1, 1, 0]


def test_abundance_adds_one_coin_to_a_developed_city():
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=2)}, events_landed=[{"card": "abundance", "terrain": terrain("Hazor")}]
        )
    )
    assert coins(game) == [2 + 2 * 2 + 1, 0, 0]


def test_famine_takes_one_coin_on_its_terrain():
    assert terrain("Hazor") != terrain("Kedesh")
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1), "Kedesh": garrison(1)},
            events_landed=[{"card": "famine", "terrain": terrain("Hazor")}],
        )
    )
    assert coins(game) == [2 + 2 - 1, 1, 0]


def test_events_on_another_terrain_change_nothing():
    t = terrain("Hazor")
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1)},
            events_landed=[
                {"card": "famine", "terrain": OTHER_TERRAIN[t]},
                {"card": "abundance", "terrain": OTHER_TERRAIN[OTHER_TERRAIN[t]]},
            ],
        )
    )
    assert coins(game) == [4, 0, 0]


def test_famine_village_yields_zero_and_takes_nothing_from_the_rest():
    # A village under Famine is worth 1 - 1 = 0; the player's city still yields its 2.
    assert terrain("Kedesh") != terrain("Hazor")
    game = make_game(
        income_position(
            {"Kedesh": garrison(0), "Hazor": garrison(0)},
            events_landed=[{"card": "famine", "terrain": terrain("Kedesh")}],
        )
    )
    assert coins(game) == [2, 0, 0]


def test_settlement_value_never_goes_below_zero():
    # Two Famines on one terrain cannot happen in play (the newer card displaces the older),
    # but it is the only way to push a value below zero: 1 - 2 must count as 0, not -1,
    # so the city's 2 coins stay whole.
    t = terrain("Kedesh")
    assert terrain("Hazor") != t
    game = make_game(
        income_position(
            {"Kedesh": garrison(0), "Hazor": garrison(0)},
            events_landed=[{"card": "famine", "terrain": t}, {"card": "famine", "terrain": t}],
        )
    )
    assert coins(game) == [2, 0, 0]


def test_manual_worked_example_city_with_two_developments_and_two_villages_one_under_famine_is_seven():
    # "Controlas una ciudad con 2 desarrollos y dos aldeas, una de ellas en terreno alcanzado
    # por el Hambre: 6 + 1 + 0 = 7 monedas."
    city, village, famine_village = "Hazor", "Chinnereth", "Kedesh"
    assert is_city(city) and not is_city(village) and not is_city(famine_village)
    assert (
        WORLD.settlements[S(village)].region
        == WORLD.settlements[S(city)].region
        == WORLD.settlements[S(famine_village)].region
    )
    famine_terrain = terrain(famine_village)
    assert terrain(city) != famine_terrain and terrain(village) != famine_terrain
    game = make_game(
        income_position(
            {city: garrison(0, developments=2), village: garrison(0), famine_village: garrison(0)},
            events_landed=[{"card": "famine", "terrain": famine_terrain}],
        )
    )
    assert game.state.players[0].coins == 7
    note = income_notes(game, 0)[-1]
    values = {e.params["settlement"]: e.params["value"] for e in note.entries if "settlement" in e.params}
    assert values == {S(city): 6, S(village): 1, S(famine_village): 0}


# --- Which settlements are yours -----------------------------------------------------------


def test_settlement_counts_as_yours_by_its_garrison():
    game = make_game(income_position({"Chinnereth": garrison(1, troops=3)}))
    assert coins(game) == [0, 1, 0]


def test_settlement_counts_as_yours_by_a_general_located_in_it():
    # No garrison at all: the general standing in the city makes it his player's.
    game = make_game(income_position({}, generals=[{"id": 10, "owner": 2, "at": "Hazor"}]))
    assert game.state.settlements[S("Hazor")].owner is None
    assert coins(game) == [0, 0, 2]


def test_garrison_and_general_in_the_same_settlement_count_it_once():
    game = make_game(income_position({"Hazor": garrison(0)}, generals=[{"id": 10, "owner": 0, "at": "Hazor"}]))
    assert coins(game) == [2, 0, 0]


def test_captive_general_gives_no_control():
    # Player 0's general is a captive (of player 1) in an ungarrisoned city: nobody
    # controls it, so it yields to nobody, neither his owner nor the captor.
    game = make_game(income_position({}, generals=[{"id": 10, "owner": 0, "at": "Hazor", "captor": 1}]))
    assert coins(game) == [0, 0, 0]


def test_other_players_and_canaanite_settlements_are_not_yours():
    # Acco is Canaanite-held; Kedesh is player 1's. Player 0 gets only his own village.
    game = make_game(
        income_position(
            {"Chinnereth": garrison(0), "Kedesh": garrison(1), "Acco": {"owner": "canaanites", "troops": 4}}
        )
    )
    assert coins(game) == [1, 1, 0]


# --- The round-1 dowry --------------------------------------------------------------------


def test_round_one_dowry_of_six_coins_for_everyone():
    game = make_game(income_position({}, round_=1))
    assert coins(game) == [6, 6, 6]


def test_round_one_dowry_is_added_to_settlement_income():
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1), "Kedesh": garrison(1)}, round_=1, players=[{"seat": 2, "coins": 3}]
        )
    )
    assert coins(game) == [6 + 4, 6 + 1, 3 + 6]


def test_round_one_dowry_comes_on_top_of_the_starting_coins_of_every_seat():
    # Owner's ruling (issue 33): the dowry is for everyone, the seats that start with coins for
    # balance ([home_coins]) too; "so that there is something to spend" is a reason, not a condition.
    from conftest import end_turns
    from judges.engine import DEFAULT_RULES, Game, Options

    game = Game.new(Options(players=4, seed=3))
    start = [p.coins for p in game.state.players]
    assert start == [DEFAULT_RULES.start_coins + c for c in WORLD.home_coins[4]]
    assert any(WORLD.home_coins[4])
    end_turns(game, until_phase="acquisitions")
    villages = [sum(1 for s in game.state.settlements if s.owner == seat) for seat in range(4)]
    expected = [start[seat] + villages[seat] * DEFAULT_RULES.village_income + DEFAULT_RULES.dowry for seat in range(4)]
    assert coins(game) == expected


def test_no_dowry_in_round_two():
    game = make_game(income_position({}, round_=2, players=[{"seat": 0, "coins": 5}]))
    assert coins(game) == [5, 0, 0]


# --- What cancels income ------------------------------------------------------------------


def test_besieged_settlement_produces_nothing_for_its_owner():
    game = make_game(
        income_position(
            {"Hazor": garrison(0, troops=3, developments=2), "Chinnereth": garrison(0)}, invaders=[{"at": "Hazor"}]
        )
    )
    assert coins(game) == [1, 0, 0]


def test_besieged_settlement_held_by_a_general_produces_nothing_either():
    game = make_game(income_position({}, generals=[{"id": 10, "owner": 1, "at": "Hazor"}], invaders=[{"at": "Hazor"}]))
    assert coins(game) == [0, 0, 0]


def test_taxed_region_yields_nothing_to_its_owners():
    # Naphtali is taxed by player 2. Players 0 and 1 get nothing from it, only from
    # their settlements in other regions (Shechem: a city of Manasseh).
    assert WORLD.settlements[S("Shechem")].region != WORLD.settlements[S("Hazor")].region
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1), "Kedesh": garrison(1), "Shechem": garrison(1)}, taxes={"Naphtali": 2}
        )
    )
    p0, p1, _ = coins(game)
    assert (p0, p1) == (0, 2)


def test_tax_collector_gets_double_the_value_of_other_players_settlements():
    # Hazor (city + 1 development = 4) is player 0's, Kedesh (village = 1) player 1's;
    # the region's three other villages are free (1 each).
    game = make_game(
        income_position({"Hazor": garrison(0, developments=1), "Kedesh": garrison(1)}, taxes={"Naphtali": 2})
    )
    assert coins(game) == [0, 0, 2 * 4 + 2 * 1 + 3 * 2]


def test_tax_collector_gets_double_the_value_of_canaanite_held_settlements():
    # Asher: Acco (a city) starts Canaanite-held; nobody else holds anything there.
    assert is_city("Acco") and WORLD.settlements[S("Acco")].canaanite_start
    asher = [WORLD.settlements[i].name for i in WORLD.regions[WORLD.settlements[S("Acco")].region].settlements]
    canaanite_only = {name: {"owner": None} for name in asher if name != "Acco"}
    game = make_game(
        income_position({**canaanite_only, "Acco": {"owner": "canaanites", "troops": 4}}, taxes={"Asher": 1})
    )
    # Acco: 2 x 2 = 4; the four free villages: 2 x 1 each (every settlement of the region).
    assert coins(game) == [0, 4 + 4 * 2, 0]


def test_tax_collector_collects_every_settlement_of_the_region_including_free_ones():
    # Naphtali: Hazor (city, 2) and four villages (1 each), all free: 2 x 6 = 12.
    game = make_game(income_position({}, taxes={"Naphtali": 0}))
    assert coins(game) == [12, 0, 0]


def test_tax_collectors_own_settlement_in_the_region_yields_double_not_more():
    # The collector owns Hazor (value 2): it yields nothing to him as owner and double as
    # collector: 4, not 2 + 4. The four free villages add 2 x 1 each.
    game = make_game(income_position({"Hazor": garrison(0)}, taxes={"Naphtali": 0}))
    assert coins(game) == [4 + 4 * 2, 0, 0]


def test_tax_doubles_the_value_with_developments_and_events():
    # Hazor: 2 + 2 (development) + 1 (Abundance) = 5 -> 10 for the collector; villages
    # on the Abundance terrain are worth 2 -> 4, the others 1 -> 2.
    t = terrain("Hazor")
    naphtali = [WORLD.settlements[i].name for i in WORLD.regions[WORLD.settlements[S("Hazor")].region].settlements]
    villages = [n for n in naphtali if n != "Hazor"]
    expected = 10 + sum(4 if terrain(v) == t else 2 for v in villages)
    game = make_game(
        income_position(
            {"Hazor": garrison(1, developments=1)},
            taxes={"Naphtali": 2},
            events_landed=[{"card": "abundance", "terrain": t}],
        )
    )
    assert coins(game) == [0, 0, expected]


def test_besieged_settlement_in_a_taxed_region_yields_to_nobody():
    # Hazor is besieged: neither its owner nor the collector gets anything from it;
    # the collector still gets double of the four free villages.
    game = make_game(
        income_position(
            {"Hazor": garrison(0, troops=3, developments=2)}, taxes={"Naphtali": 1}, invaders=[{"at": "Hazor"}]
        )
    )
    assert coins(game) == [0, 4 * 2, 0]


def test_razed_settlement_yields_nothing_to_the_tax_collector():
    naphtali = [WORLD.settlements[i].name for i in WORLD.regions[WORLD.settlements[S("Hazor")].region].settlements]
    razed = {n: {"razed": True} for n in naphtali if n != "Hazor"}
    game = make_game(income_position(razed, taxes={"Naphtali": 1}))
    assert coins(game) == [0, 2 * 2, 0]


def test_tax_acts_on_this_rounds_income_only():
    # Players 1 and 2 hold a village each outside Naphtali (and so stay in the game).
    game = make_game(
        income_position({"Hazor": garrison(0), "Lachish": garrison(1), "Keilah": garrison(2)}, taxes={"Naphtali": 1})
    )
    assert coins(game) == [0, 2 * (2 + 4) + 1, 1]
    # Play on to the next round's Income (nobody plays anything).
    while not (game.state.round == 3 and game.phase_name == "acquisitions"):
        d = game.pending
        assert d and all(x.kind == "turn" for x in d)
        game.apply(EndTurn(player=d[0].player))
    # Round 3: no tax; Hazor yields to its owner again and the collector gets only Lachish.
    assert coins(game) == [2, 2 * (2 + 4) + 1 + 1, 2]


# --- When it arrives and how it is told --------------------------------------------------


def test_income_arrives_before_acquisitions():
    game = make_game(income_position({"Hazor": garrison(0, developments=1)}, players=[{"seat": 0, "coins": 3}]))
    assert game.phase_name == "acquisitions"
    assert game.state.round == 2
    assert game.state.players[0].coins == 3 + 4
    # Income asked nothing of anyone: the only decision owed is the first Acquisitions
    # turn (round 2: the player at seat 1).
    assert [(d.player, d.kind) for d in game.pending] == [(1, "turn")]


def test_income_notification_goes_only_to_its_player():
    game = make_game(income_position({"Hazor": garrison(0), "Kedesh": garrison(1)}))
    notes = [n for n in game.notifications if n.key == "notification.income"]
    assert sorted(tuple(n.to) for n in notes) == [(0,), (1,), (2,)]
    for seat in range(3):
        assert len(income_notes(game, seat)) == 1


def test_income_notification_shows_previous_balance_income_and_lines():
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1), "Chinnereth": garrison(0), "Kedesh": garrison(0)},
            players=[{"seat": 0, "coins": 5}],
            events_landed=[{"card": "famine", "terrain": terrain("Kedesh")}],
        )
    )
    assert terrain("Kedesh") not in (terrain("Hazor"), terrain("Chinnereth"))
    (note,) = income_notes(game, 0)
    assert note.to == [0]
    assert note.phase == "income"
    assert note.params["before"] == 5
    assert note.params["income"] == 4 + 1 + 0
    assert game.state.players[0].coins == 10
    lines = sorted((e.params["settlement"], e.params["value"]) for e in note.entries if "settlement" in e.params)
    assert lines == sorted([(S("Hazor"), 4), (S("Chinnereth"), 1), (S("Kedesh"), 0)])
    assert sum(e.params["value"] for e in note.entries) == note.params["income"]


def test_income_notification_lists_the_dowry_in_round_one():
    game = make_game(income_position({"Chinnereth": garrison(0)}, round_=1))
    (note,) = income_notes(game, 0)
    assert note.params["before"] == 0
    assert note.params["income"] == 7
    assert sorted(e.params["value"] for e in note.entries) == [1, 6]


# --- Manual coverage (docs/manual-coverage.md) -------------------------------------------


def _play_to(game, round_: int, phase: str) -> None:
    """Ends turns (nobody does anything) until the game reaches `phase` of `round_`."""
    while not (game.state.round == round_ and game.phase_name == phase):
        d = game.pending
        assert d and all(x.kind == "turn" for x in d), d
        game.apply(EndTurn(player=d[0].player))


def test_income_is_phase_three_and_the_victory_check_phase_seven():
    # Manual B2: Income is phase 3, the Victory Check phase 7; both automatic.
    from judges.engine import PHASES

    assert PHASES.index("income") + 1 == 3
    assert PHASES.index("victory") + 1 == 7
    game = make_game(income_position({"Hazor": garrison(0), "Kedesh": garrison(1), "Lachish": garrison(2)}))
    (note,) = income_notes(game, 0)
    assert note.phase == "income"
    _play_to(game, 3, "intrigue")
    (report,) = [n for n in game.notifications if n.key == "notification.round_report"]
    assert (report.round, report.phase) == (2, "victory")


def test_a_settlement_yields_again_once_the_siege_is_over():
    # Manual B19: nothing for anyone "mientras dure el asedio": the pair that besieged Hazor
    # moves on at this round's Announcements (to Merom, next clockwise); Hazor yields again
    # at this round's Income and Merom, besieged now, yields nothing.
    assert WORLD.settlements[WORLD.ring_next(S("Hazor"), 1)].name == "Merom"
    game = make_game(
        {
            "clear_board": True,
            "round": 2,
            "settlements": {"Hazor": garrison(0, troops=3), "Merom": garrison(1, troops=3), "Lachish": garrison(2)},
            "invaders": [{"at": "Hazor"}],
        }
    )
    assert game.state.invaders[0].at == S("Merom")
    _play_to(game, 2, "acquisitions")
    assert coins(game) == [2, 0, 1]


def test_manual_example_seven_coins_are_a_wall_minus_three_or_three_troops_and_a_development():
    # Manual B27: 7 coins are a wall minus three coins, or three troops and a development.
    from judges.engine import DEFAULT_RULES

    assert DEFAULT_RULES.costs["wall"] - 3 == 7
    assert 3 * DEFAULT_RULES.costs["troop"] + DEFAULT_RULES.costs["development"] == 7


def test_every_round_has_its_own_income_report_with_the_previous_balance():
    # Manual B28: each round's income notification shows the previous balance and what came in.
    game = make_game(
        income_position(
            {"Hazor": garrison(0, developments=1), "Kedesh": garrison(1), "Lachish": garrison(2)},
            players=[{"seat": 0, "coins": 5}],
        )
    )
    _play_to(game, 3, "acquisitions")
    notes = income_notes(game, 0)
    assert [(n.round, n.params["before"], n.params["income"], n.params["after"]) for n in notes] == [
        (2, 5, 4, 9),
        (3, 9, 4, 13),
    ]
    assert coins(game) == [13, 2, 2]


def test_the_player_who_played_the_tax_card_collects_double_at_this_rounds_income():
    # Manual B21: whoever played the Tax card collects double the value of the whole region.
    # Round 2 (order 1, 2, 0): player 0 plays his Tax on Naphtali in Intrigue. Naphtali: Hazor
    # (player 1, city + 1 development = 4), Kedesh (player 2, 1), three free villages (1 each).
    from judges.engine import PlayTax

    game = make_game(
        {
            "clear_board": True,
            "round": 2,
            "settlements": {"Hazor": garrison(1, developments=1), "Kedesh": garrison(2), "Lachish": garrison(0)},
            "players": [{"seat": 0, "hand": ["tax"]}],
        }
    )
    assert game.phase_name == "intrigue"
    game.apply(EndTurn(player=1))
    game.apply(EndTurn(player=2))
    game.apply(PlayTax(player=0, region="Naphtali"))
    game.apply(EndTurn(player=0))
    assert game.phase_name == "acquisitions"
    assert coins(game) == [2 * (4 + 1 + 1 + 1 + 1) + 1, 0, 0]
