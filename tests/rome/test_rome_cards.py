"""The Early Republic's data file: every card and table as VG 1.07 prints it (ror-data.md), and
the validation that refuses a broken file naming the file, the table and the item."""

from __future__ import annotations

from collections import Counter

import pytest

from judges.rome.cards import ERA_ENDS, RomeDataError, data_path, load_deck, parse_deck

DECK = load_deck()
TEXT = data_path("early").read_text(encoding="utf-8")


def test_the_early_deck_holds_the_65_cards_of_vg_setup():
    """ror-data §14: 20 family senators, 5 statesmen, 8 wars (the 1st Punic on the board), 4
    leaders, 13 concessions, 9 tribunes and one each of five other faction cards, Era Ends."""
    cards = DECK.deck_cards("early")
    kinds = Counter(DECK.kind_of(c) for c in cards)
    assert kinds == {"senator": 20, "statesman": 5, "war": 7, "leader": 4, "concession": 13, "intrigue": 14}
    assert sum(1 for c in cards if DECK.intrigue_kind(c) == "tribune") == 9
    assert len(set(cards)) == len(cards)
    assert len(cards) + 1 + 1 == 65  # the 1st Punic War on the board, the Era Ends card
    assert [w.id for w in DECK.wars.values() if w.starts_on_board] == ["punic_1"]
    assert DECK.kind_of(ERA_ENDS) == "era_ends"


def test_senators_and_statesmen_carry_the_printed_values():
    c = DECK.senators["1"]
    assert (c.family, c.military, c.oratory, c.loyalty, c.influence, c.popularity) == ("Cornelius", 4, 3, 9, 5, 0)
    assert (DECK.senators["20"].family, DECK.senators["20"].influence) == ("Terentius", 1)
    assert sorted(s.id for s in DECK.statesmen.values() if s.deck == "early") == ["18A", "19A", "1A", "22A", "2A"]
    cato = DECK.statesmen["22A"]
    assert (cato.oratory, cato.loyalty, cato.opposes) == (6, 10, ("1A", "1B", "18A"))
    assert DECK.statesmen["19A"].ability_series == ("macedonian",)


def test_wars_read_land_fleet_support_naval_in_that_order():
    """K1 resolved by the card data: land / fleet support / naval."""
    w = DECK.wars["punic_1"]
    assert (w.land, w.fleet_support, w.naval, w.disaster, w.standoff, w.spoils, w.arrives) == (
        10,
        5,
        10,
        (13,),
        (11, 14),
        35,
        "inactive",
    )
    m2 = DECK.wars["macedonian_2"]
    assert (m2.land, m2.fleet_support, m2.naval, m2.arrives, m2.revolt_if_province) == (
        10,
        5,
        0,
        "inactive",
        "macedonia",
    )
    assert DECK.wars["illyrian_1"].drought and DECK.wars["illyrian_1"].arrives == "inactive"
    assert DECK.wars["punic_2"].provinces == ("hispania_citerior", "hispania_ulterior")


def test_leaders():
    """P15: Philip's 15 is a disaster number."""
    assert (DECK.leaders["hannibal"].strength, DECK.leaders["hannibal"].disaster) == (7, (9,))
    assert (DECK.leaders["philip_v"].disaster, DECK.leaders["philip_v"].standoff) == ((15,), (14,))
    assert DECK.leaders["hamilcar"].series == "punic"


def test_concessions_and_provinces():
    assert DECK.concessions["tax_farmer_3"].income == 2 and DECK.concessions["tax_farmer_3"].number == 3
    assert DECK.concessions["land_commissioner"].needs_land_bill
    assert DECK.concessions["armaments"].kind == "per_legion"
    sicilia = DECK.provinces["sicilia"]
    assert (sicilia.state_developed.dice, sicilia.state_developed.modifier) == (1, 2)  # five sources to one
    sardinia = DECK.provinces["sardinia_et_corsica"]
    assert (sardinia.state.sign, sardinia.state.lowest, sardinia.state.highest) == (-1, -7, -2)


@pytest.mark.parametrize(
    "total, result, losses",
    [(-5, "defeat", -1), (3, "defeat", -1), (4, "defeat", 4), (7, "defeat", 1), (8, "stalemate", 5),
     (13, "stalemate", 0), (14, "victory", 4), (17, "victory", 1), (18, "victory", 0), (30, "victory", 0)],
)  # fmt: skip
def test_combat_results_table(total, result, losses):
    """GAP-32 anchors; K5: a modified 8 is a stalemate losing 5 and 5."""
    row = DECK.combat_result(total)
    assert (row.result, row.losses) == (result, losses)


def test_population_table():
    """E7 (10 -> +1 unrest), the VG board's 0 (+6, no recruitment, mob), below 0 a revolt."""

    def row(total):
        found = DECK.population_result(total)
        assert found is not None
        return found

    assert row(10).unrest == 1
    zero = row(0)
    assert (zero.unrest, zero.no_recruitment, zero.mob) == (6, True, True)
    assert DECK.population_result(-1) is None
    assert row(7).manpower_shortage
    assert row(13).unrest == 0
    assert row(25).unrest == -3


def test_popular_appeal_table_is_the_boards():
    assert DECK.appeal_result(2).effect == "killed"
    assert DECK.appeal_result(3).votes == 16
    assert DECK.appeal_result(7).votes == 0
    assert DECK.appeal_result(11).votes == -16
    assert DECK.appeal_result(12).effect == "freed"


def test_events_table_early_column():
    assert [DECK.event_for(r, "early") for r in (3, 7, 8, 9, 18)] == [
        "mob_violence",
        "refuge",
        "epidemic",
        "drought",
        "trial_of_verres",
    ]


def test_other_tables():
    assert [(g.cost, g.popularity) for g in DECK.games.values()] == [(7, 1), (13, 2), (18, 3)]
    assert [DECK.contribution_influence(t) for t in (9, 10, 24, 25, 49, 50, 80)] == [0, 1, 1, 3, 3, 7, 7]
    assert (DECK.mortality.senator_ids, DECK.mortality.blank, DECK.mortality.draw_two) == (30, 4, 2)
    assert (DECK.setup.state_treasury, DECK.setup.legions, DECK.setup.fleets) == (100, 4, 0)


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('arrives = "inactive"\ndrought = false\nstarts_on_board = true',
         'arrives = "asleep"\ndrought = false\nstarts_on_board = true', "war 'punic_1': arrives 'asleep'"),
        ('id = "2"\nfamily = "Fabius"', 'id = "1"\nfamily = "Fabius"', "senator: '1' appears twice"),
        ("disaster = [10]", "disaster = [2]", "war 'punic_2': disaster/standoff number 2"),
        ('spoils_developed = "1d6+4"', 'spoils_developed = "d6+4"', "province 'sicilia': spoils_developed"),
        ("low = 9\nhigh = 9\nresult", "low = 10\nhigh = 9\nresult", "combat"),
        ('early = "refuge"', 'early = "plague"', "event_roll 7: early names 'plague'"),
        ("copies = 9", "copies = 0", "intrigue 'tribune': copies"),
        ('family = "Fabius"\ndeck', 'family = "Fabius"\nwisdom = 3\ndeck', "senator '2'"),
        ('series = "syrian"\nstrength = 5', 'series = "persian"\nstrength = 5',
         "leader 'antiochus_iii': series 'persian'"),
        ("senator_ids = 30", "senator_ids = 29", "mortality"),
    ],
)  # fmt: skip
def test_a_broken_file_is_refused_naming_the_item(old, new, message):
    assert TEXT.count(old) == 1, old
    with pytest.raises(RomeDataError) as err:
        parse_deck(TEXT.replace(old, new), "early.toml")
    assert str(err.value).startswith("early.toml: ")
    assert message in str(err.value)


def test_not_toml_and_unknown_files():
    with pytest.raises(RomeDataError, match="not valid TOML"):
        parse_deck("era = ", "x.toml")
    with pytest.raises(RomeDataError, match="no such scenario data file"):
        load_deck("middle")
