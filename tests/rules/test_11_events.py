"""§ 5.4–5.5 Events and § 11 Plague (rules brief §§ 5, 6, 11, 12; manual: "La Fase de Anuncios").

Positions start from an empty land (`clear_board`): only the pieces placed here and the
Canaanite garrisons are on the board. Canaanite garrisons are garrisons too, so a Plague
rolls for each Canaanite-held settlement on its terrain. On the Canaan map those are Gaza
on desert (4 troops, hex 136) and Jebus on mountains (3 troops); eight on plain.

Dice are scripted exactly: one d6 per event card that is not a Sandstorm (unless a prophet
decides), then the Plague's dice hex by hex in hex index order; on a hex the garrison
first, then each general by id: his army's die (only if he has an army), then his life's.
"""

from __future__ import annotations

from itertools import product

import msgspec
import pytest

from conftest import H, R, S, entries, finish_round, make_game, refused, terrain
from judges.engine import CANAANITES, Decision, EndTurn, ForeseeEvents, IllegalAction, NotYourDecision
from judges.world import TERRAINS

DESERT_HEX = {"q": -3, "r": 19}  # a desert hex without a settlement (hex 153)


# --- helpers -------------------------------------------------------------------------------


def gen(gid: int, owner: int, at, **extra) -> dict:
    return {"id": gid, "owner": owner, "at": at, **extra}


def game_with(dice: list[int], events_area=(), generals=(), settlements=None, players: int = 3, **extra):
    position = {"clear_board": True, "events_area": list(events_area), "generals": list(generals)}
    if settlements:
        position["settlements"] = settlements
    position.update(extra)
    return make_game(position, dice=dice, players=players)


def landed(game) -> list[tuple[str, str]]:
    return sorted((e.card, e.terrain) for e in game.state.events_landed)


def rolled(game) -> list[int]:
    return [face for _, face in game.dice.rolled]


def troops(game, name: str) -> tuple:
    """(garrison owner, troops) of a settlement."""
    s = game.state.settlements[S(name)]
    return (s.owner, s.troops)


def announcements_done(game) -> bool:
    return game.phase_name == "intrigue" and all(d.kind == "turn" for d in game.pending)


def assert_refused(game, action, error: type) -> None:
    refused(game, action, error, "5.5")


# Garrisons keeping every player alive through a Victory Check, away from the desert.
SAFE_HOLDINGS = {
    "Hazor": {"owner": 0, "troops": 2},
    "Kedesh": {"owner": 1, "troops": 2},
    "Merom": {"owner": 2, "troops": 2},
}


def test_map_facts_these_tests_rely_on():
    assert [terrain(n) for n in ("Gaza", "Ziklag", "Beersheba", "Hormah", "Arad")] == ["desert"] * 5
    assert [H(n) for n in ("Ziklag", "Gaza", "Beersheba", "Hormah", "Arad")] == [129, 136, 145, 151, 154]
    assert [terrain(n) for n in ("Hazor", "Kedesh", "Merom", "Hebron")] == [
        "plain",
        "mountains",
        "mountains",
        "mountains",
    ]


# --- § 5.4 Last round's events expire ------------------------------------------------------


def test_last_rounds_events_expire_at_announcements():
    game = game_with(
        [], events_landed=[{"card": "sandstorm", "terrain": "desert"}, {"card": "famine", "terrain": "plain"}]
    )
    assert game.state.events_landed == []  # the Sandstorm no longer seals the desert
    assert sorted(game.state.discard) == ["famine", "sandstorm"]


def test_expired_events_make_room_for_this_rounds_events():
    game = game_with([3], events_area=["famine"], events_landed=[{"card": "sandstorm", "terrain": "desert"}])
    assert landed(game) == [("famine", "mountains")]
    assert game.state.events_area == []
    assert game.state.discard == ["sandstorm"]


# --- § 5.5 New events land -----------------------------------------------------------------


@pytest.mark.parametrize(
    "face,expected", [(1, "plain"), (2, "plain"), (3, "mountains"), (4, "mountains"), (5, "desert"), (6, "desert")]
)
def test_each_card_lands_on_the_terrain_its_d6_names(face, expected):
    game = game_with([face], events_area=["abundance"])
    assert landed(game) == [("abundance", expected)]
    assert rolled(game) == [face]
    assert game.state.events_area == []


def test_sandstorm_always_lands_on_desert_without_a_die():
    game = game_with([], events_area=["sandstorm"])
    assert landed(game) == [("sandstorm", "desert")]
    assert rolled(game) == []


def test_only_the_non_sandstorm_cards_roll():
    game = game_with([1], events_area=["sandstorm", "abundance"])
    assert landed(game) == [("abundance", "plain"), ("sandstorm", "desert")]
    assert rolled(game) == [1]


def test_each_card_rolls_its_own_die_in_events_area_order():
    game = game_with([6, 1, 4], events_area=["famine", "abundance", "plague"], settlements={"Jebus": {"owner": None}})
    assert landed(game) == [("abundance", "plain"), ("famine", "desert"), ("plague", "mountains")]


def test_two_cards_never_share_a_terrain_the_newer_displaces_the_older():
    game = game_with([1, 2], events_area=["abundance", "famine"])
    assert landed(game) == [("famine", "plain")]
    assert game.state.discard == ["abundance"]


def test_sandstorm_displaces_an_older_card_on_the_desert():
    game = game_with([5], events_area=["famine", "sandstorm"])
    assert landed(game) == [("sandstorm", "desert")]
    assert game.state.discard == ["famine"]


def test_a_newer_card_on_the_desert_displaces_an_older_sandstorm():
    game = game_with([6], events_area=["sandstorm", "abundance"])
    assert landed(game) == [("abundance", "desert")]
    assert game.state.discard == ["sandstorm"]


def test_a_displaced_plague_is_discarded_without_striking():
    # Plain holds eight Canaanite garrisons: a Plague there would roll eight more dice.
    game = game_with([1, 2], events_area=["plague", "abundance"])
    assert landed(game) == [("abundance", "plain")]
    assert game.state.discard == ["plague"]
    assert rolled(game) == [1, 2]
    assert troops(game, "Megiddo") == (CANAANITES, 4)


# --- § 5.5 The prophet chooses ----------------------------------------------------------------


def prophet_game(events_area=("abundance", "sandstorm"), dice=()):
    # Player 1's general 3 carries a Prophet (on a mountains hex).
    generals = [gen(3, 1, "Kedesh", prophet=True), gen(4, 0, "Hazor")]
    return game_with(dice, events_area=events_area, generals=generals)


def test_with_a_prophet_in_play_the_distribution_waits_for_its_owner_and_rolls_nothing():
    game = prophet_game()
    assert game.pending == [Decision(player=1, kind="foresee_events")]
    assert game.waiting_for() == [1]
    assert game.state.events_landed == []
    assert rolled(game) == []


def test_the_prophets_owner_chooses_each_cards_terrain_but_sandstorm_only_desert():
    game = prophet_game(("abundance", "sandstorm"))
    # One card at a time, in the Events Area's order: each choice repeats those made already.
    assert sorted(tuple(a.terrains) for a in game.legal_actions(1)) == [("desert",), ("mountains",), ("plain",)]
    game.apply(ForeseeEvents(player=1, terrains=["mountains"]))
    assert [tuple(a.terrains) for a in game.legal_actions(1)] == [("mountains", "desert")]


def test_the_prophets_choice_is_owed_until_every_card_has_a_terrain():
    game = prophet_game(("abundance", "famine", "sandstorm"))
    game.apply(ForeseeEvents(player=1, terrains=["plain"]))
    game.apply(ForeseeEvents(player=1, terrains=["plain", "mountains"]))
    assert game.pending == [Decision(player=1, kind="foresee_events")]
    assert game.state.events_landed == [] and game.state.events_area == ["abundance", "famine", "sandstorm"]
    game.apply(ForeseeEvents(player=1, terrains=["plain", "mountains", "desert"]))
    assert landed(game) == [("abundance", "plain"), ("famine", "mountains"), ("sandstorm", "desert")]
    assert rolled(game) == []
    assert announcements_done(game)


def test_the_terrains_chosen_so_far_show_to_the_prophets_owner_alone():
    game = prophet_game(("abundance", "famine"))
    game.apply(ForeseeEvents(player=1, terrains=["desert"]))
    assert game.view(1).state.pending_terrains == ["desert"]
    assert game.view(0).state.pending_terrains == []
    assert game.view(2).state.pending_terrains == []


@pytest.mark.parametrize(
    "terrains,key",
    [
        (["mountains"], "error.foresee_count"),  # nothing new
        (["mountains", "plain", "desert"], "error.foresee_count"),  # more than the next card
        (["mountains", "plain", "desert", "plain"], "error.foresee_count"),  # more terrains than cards
        (["plain", "plain"], "error.foresee_chosen"),  # the first card's terrain changed
        (["plain", "plain", "desert"], "error.foresee_count"),  # all at once, once a choice is made
    ],
    ids=["nothing_new", "two_more", "too_many", "changed", "all_at_once_after_a_choice"],
)
def test_a_choice_made_is_kept_and_only_the_next_card_follows(terrains, key):
    game = prophet_game(("abundance", "famine", "sandstorm"))
    game.apply(ForeseeEvents(player=1, terrains=["mountains"]))
    assert refused(game, ForeseeEvents(player=1, terrains=terrains), IllegalAction, "5.5").key == key


TEN_CARDS = ["plague"] * 3 + ["abundance"] * 4 + ["famine"] * 3  # every event card but a Famine and the Sandstorms
THEN_SEEDED = {"then": "seeded"}  # the Plague's dice


def test_a_prophet_foreseeing_ten_cards_is_offered_three_choices_at_a_time_not_3_to_the_10th():
    """The attack: ten cards in the Events Area once listed every combination, 3¹⁰ = 59,049
    actions (a 20 MB view for the prophet's owner, seconds to build)."""
    game = prophet_game(TEN_CARDS, THEN_SEEDED)
    for i, choice in enumerate(["plain", "desert", "mountains"] * 3 + ["plain"]):
        legal = game.legal_actions(1)
        assert len(legal) == 3
        assert sorted(a.terrains[i] for a in legal) == sorted(TERRAINS)
        assert len(msgspec.json.encode(game.view(1))) + len(msgspec.json.encode(legal)) < 100_000
        game.apply(next(a for a in legal if a.terrains[i] == choice))
    assert announcements_done(game)
    assert landed(game) == [("famine", "desert"), ("famine", "mountains"), ("famine", "plain")]  # the newest


@pytest.mark.parametrize("events_area", [("abundance", "sandstorm", "famine", "plague"), ("famine", "abundance")])
def test_every_assignment_the_rules_allow_is_reachable_and_nothing_else(events_area):
    """Whatever the terrains chosen first, the next card may go to any terrain (a Sandstorm to
    the desert): choosing card by card reaches every assignment, each of them once."""
    allowed = [("desert",) if card == "sandstorm" else TERRAINS for card in events_area]
    reached = []

    def walk(game):
        if not any(d.kind == "foresee_events" for d in game.pending):
            reached.append(tuple(entries(game, "prophet.foresaw_events")[0].params["terrains"]))
            return
        for action in game.legal_actions(1):
            branch = game.clone()
            branch.apply(action)
            walk(branch)

    walk(prophet_game(events_area, THEN_SEEDED))
    assert sorted(reached) == sorted(product(*allowed))


@pytest.mark.parametrize("terrains", [["desert", "plain", "plain"] * 3 + ["mountains"], ["plain"] * 10])
def test_all_the_terrains_at_once_still_answer_the_choice(terrains):
    """Logs stored before the choice was made card by card name every card's terrain in one
    action: they replay, and land the cards where the same choice made card by card would."""
    at_once = prophet_game(TEN_CARDS, THEN_SEEDED)
    at_once.apply(ForeseeEvents(player=1, terrains=terrains))
    one_by_one = prophet_game(TEN_CARDS, THEN_SEEDED)
    for n in range(1, len(terrains) + 1):
        one_by_one.apply(ForeseeEvents(player=1, terrains=terrains[:n]))
    assert announcements_done(at_once) and announcements_done(one_by_one)
    assert at_once.state_json() == one_by_one.state_json()


def test_the_prophets_choice_lands_the_cards():
    game = prophet_game()
    game.apply(ForeseeEvents(player=1, terrains=["mountains", "desert"]))
    assert landed(game) == [("abundance", "mountains"), ("sandstorm", "desert")]
    assert rolled(game) == []
    assert announcements_done(game)


def test_a_prophets_choice_of_one_terrain_for_two_cards_keeps_the_newer():
    game = prophet_game(("abundance", "famine"))
    game.apply(ForeseeEvents(player=1, terrains=["plain", "plain"]))
    assert landed(game) == [("famine", "plain")]
    assert game.state.discard == ["abundance"]


@pytest.mark.parametrize("terrains", [["plain", "mountains"], ["plain", "plain"]])
def test_the_prophet_cannot_send_a_sandstorm_off_the_desert(terrains):
    game = prophet_game()
    assert_refused(game, ForeseeEvents(player=1, terrains=terrains), IllegalAction)


@pytest.mark.parametrize(
    "terrains",
    [[], ["plain", "desert", "mountains"], ["swamp", "desert"], ["swamp"]],
    ids=["none", "too_many", "not_a_terrain", "not_a_terrain_alone"],
)
def test_the_prophet_must_name_one_terrain_per_card(terrains):
    game = prophet_game()
    assert_refused(game, ForeseeEvents(player=1, terrains=terrains), IllegalAction)


def test_only_the_prophets_owner_may_foresee():
    game = prophet_game()
    assert_refused(game, ForeseeEvents(player=0, terrains=["plain", "desert"]), NotYourDecision)


@pytest.mark.parametrize(
    "players,round_,prophets,decider",
    [
        (3, 1, (0, 2), 2),  # order 0 1 2
        (3, 2, (0, 2), 0),  # order 1 2 0
        (3, 3, (1, 2), 1),  # order 2 0 1
        (3, 3, (0, 2), 0),  # order 2 0 1
        (4, 4, (3, 0), 0),  # order 3 0 1 2
        (4, 2, (0, 3), 0),  # order 1 2 3 0
        (4, 2, (1, 2, 3), 3),
    ],
)
def test_with_several_prophets_the_owner_last_in_this_rounds_turn_order_decides(players, round_, prophets, decider):
    generals = [gen(10 + seat, seat, "Kedesh", prophet=True) for seat in prophets]
    game = game_with([], events_area=["abundance"], generals=generals, players=players, round=round_)
    assert game.pending == [Decision(player=decider, kind="foresee_events")]


# --- § 11 Plague ------------------------------------------------------------------------------


@pytest.mark.parametrize("face,left", [(1, 2), (2, 2), (3, 2), (4, 5), (5, 5), (6, 5)])
def test_plague_garrison_loses_half_its_troops_rounded_up_on_1_to_3(face, left):
    game = game_with(
        [5, face], events_area=["plague"], settlements={"Gaza": {"owner": None}, "Beersheba": {"owner": 0, "troops": 5}}
    )
    assert landed(game) == [("plague", "desert")]
    assert troops(game, "Beersheba") == (0, left)


def test_plague_rolls_for_every_garrison_on_the_terrain_canaanites_included_in_hex_order():
    # Hex order: Ziklag 129, Gaza 136 (Canaanite), Beersheba 145, Arad 154.
    game = game_with(
        [5, 2, 3, 1, 4],
        events_area=["plague"],
        settlements={
            "Ziklag": {"owner": 2, "troops": 1},
            "Beersheba": {"owner": 0, "troops": 3},
            "Arad": {"owner": 1, "troops": 4},
        },
    )
    assert troops(game, "Ziklag") == (None, 0)  # 1 troop, half rounded up: the garrison is gone
    assert troops(game, "Gaza") == (CANAANITES, 2)
    assert troops(game, "Beersheba") == (0, 1)  # 3 → loses 2
    assert troops(game, "Arad") == (1, 4)
    assert rolled(game) == [5, 2, 3, 1, 4]


@pytest.mark.parametrize("face,army", [(1, 2), (3, 2), (4, 5), (6, 5)])
def test_plague_army_loses_half_its_troops_rounded_up_on_1_to_3(face, army):
    game = game_with(
        [5, face, 6],
        events_area=["plague"],
        settlements={"Gaza": {"owner": None}},
        generals=[gen(1, 0, DESERT_HEX, army=5)],
    )
    assert game.state.generals[1].army == army


@pytest.mark.parametrize("face,dies", [(1, True), (2, False), (3, False), (4, False), (5, False), (6, False)])
def test_plague_general_dies_on_a_1(face, dies):
    game = game_with(
        [5, face],
        events_area=["plague"],
        settlements={"Gaza": {"owner": None}},
        generals=[gen(1, 0, DESERT_HEX), gen(2, 0, "Hazor")],
    )
    assert (1 not in game.state.generals) == dies
    assert 2 in game.state.generals


def test_plague_strikes_only_the_struck_terrain():
    # Mountains: Jebus (Canaanite, 3 troops) and general 1 roll; the desert and plain do not.
    game = game_with(
        [3, 6, 6],
        events_area=["plague"],
        settlements={"Beersheba": {"owner": 0, "troops": 4}, "Hazor": {"owner": 1, "troops": 4}},
        generals=[gen(1, 0, "Hebron"), gen(2, 1, "Hormah"), gen(3, 2, "Hazor")],
    )
    assert landed(game) == [("plague", "mountains")]
    assert troops(game, "Jebus") == (CANAANITES, 3)
    assert rolled(game) == [3, 6, 6]


def test_plague_dice_order_hex_by_hex_garrison_first_then_generals_by_id():
    # Gaza 136 (Canaanite, 4); Hormah 151: garrison 4, general 7 (army 3) placed before
    # general 4 (no army); desert hex 153: general 2 (army 2).
    dice = [
        5,
        6,  # Gaza garrison: no loss
        2,  # Hormah garrison: 4 → 2
        5,  # general 4 life: lives (no army, so no army die)
        1,  # general 7 army: 3 → 1
        6,  # general 7 life: lives
        4,  # general 2 army: no loss
        1,
    ]  # general 2 life: dies
    game = game_with(
        dice,
        events_area=["plague"],
        settlements={"Hormah": {"owner": 0, "troops": 4}},
        generals=[
            gen(7, 1, "Hormah", army=3),
            gen(4, 0, "Hormah"),
            gen(2, 2, DESERT_HEX, army=2),
            gen(9, 2, "Hebron", army=4),
        ],
    )
    assert troops(game, "Gaza") == (CANAANITES, 4)
    assert troops(game, "Hormah") == (0, 2)
    assert 4 in game.state.generals
    assert game.state.generals[7].army == 1
    assert 2 not in game.state.generals
    assert game.state.generals[9].army == 4
    assert rolled(game) == dice


def test_a_prophet_killed_by_plague_registers_three_wrath_for_the_next_announcements():
    game = game_with(
        [4, 1], events_area=["plague"], settlements=SAFE_HOLDINGS, generals=[gen(1, 0, "Beersheba", prophet=True)]
    )
    # The prophet's owner decides where the Plague lands; he sends it to the desert.
    assert game.pending == [Decision(player=0, kind="foresee_events")]
    wrath_now = game.state.wrath
    assert wrath_now == 1  # this Announcements: 0 + Canaanites in Israel/Judah
    game.apply(ForeseeEvents(player=0, terrains=["desert"]))
    assert 1 not in game.state.generals
    assert [g.id for g in game.state.generals.values() if g.prophet] == []  # token back to the supply
    assert game.state.wrath_registered == 3
    assert game.state.wrath == 1  # not this Announcements
    finish_round(game)
    assert game.state.round == 2
    assert game.state.wrath == 1 + 3 + 1
    assert game.state.wrath_registered == 0


def test_a_judge_killed_by_plague_leaves_the_title_vacant_and_its_owner_kept():
    game = game_with(
        [5, 6, 1],
        events_area=["plague"],
        settlements=SAFE_HOLDINGS,
        generals=[gen(1, 1, "Beersheba"), gen(2, 1, "Kedesh")],
        titles={"Negev": {"holder": 1}},
    )
    assert 1 not in game.state.generals
    title = game.state.titles[R("Negev")]
    assert (title.holder, title.owner, title.in_play) == (None, 1, True)
    assert announcements_done(game)
    # Filled at the next Announcements by its owner (no King reigns).
    finish_round(game)
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Negev"))]


def test_a_king_killed_by_plague_leaves_a_succession_for_the_next_announcements():
    game = game_with(
        [5, 6, 1],
        events_area=["plague"],
        settlements=SAFE_HOLDINGS,
        generals=[gen(1, 0, "Beersheba"), gen(2, 0, "Hazor")],
        king=1,
    )
    assert 1 not in game.state.generals
    assert game.state.king is None
    assert game.state.succession_owner == 0
    assert announcements_done(game)  # not settled in this Announcements
    finish_round(game)
    assert game.state.round == 2
    assert game.pending == [Decision(player=0, kind="succession")]


def test_announcements_report_lists_every_die_terrain_hit_and_plague_victim():
    dice = [2, 5, 6, 1, 3, 1]
    # famine: d6 2 → plain; plague: d6 5 → desert. On the desert: Gaza (Canaanite, 4) rolls 6,
    # no loss; on Beersheba general 1 (no army) rolls 1 for his life and dies; general 3
    # (army 4) rolls 3 for his army (loses 2) and 1 for his life, and dies.
    game = game_with(
        dice,
        events_area=["famine", "plague"],
        settlements=SAFE_HOLDINGS,
        generals=[gen(1, 0, "Beersheba"), gen(3, 2, "Beersheba", army=4)],
    )
    assert rolled(game) == dice
    assert landed(game) == [("famine", "plain"), ("plague", "desert")]
    assert {1, 3}.isdisjoint(game.state.generals)
    notes = [n for n in game.notifications if n.key == "notification.announcements"]
    assert len(notes) == 1
    [note] = notes
    assert sorted(note.to) == [0, 1, 2]  # every living player
    lines = note.entries
    # every die, in the order rolled
    assert [e.params["die"] for e in lines if "die" in e.params] == dice
    # each card's die and the terrain it names
    assert [
        (e.params["card"], e.params["die"], e.params["terrain"])
        for e in lines
        if "card" in e.params and "die" in e.params
    ] == [("famine", 2, "plain"), ("plague", 5, "desert")]
    # the terrains hit
    assert sorted((e.params["card"], e.params["terrain"]) for e in lines if e.key == "events.landed") == [
        ("famine", "plain"),
        ("plague", "desert"),
    ]
    # the plague's rolls: the Canaanite garrison, general 1's life, general 3's army and life
    assert [
        (e.params.get("settlement"), e.params.get("general"), e.params["die"])
        for e in lines
        if e.key.startswith("plague.")
    ] == [(S("Gaza"), None, 6), (None, 1, 1), (None, 3, 3), (None, 3, 1)]
    # every plague victim
    assert [e.params["general"] for e in lines if e.key == "general.died" and e.params.get("cause") == "plague"] == [
        1,
        3,
    ]


# --- Manual coverage (docs/manual-coverage.md) -------------------------------------------


def _play_to(game, round_: int, phase: str) -> None:
    """Ends turns (nobody does anything) until the game reaches `phase` of `round_`."""
    while not (game.state.round == round_ and game.phase_name == phase):
        turns = [d for d in game.pending if d.kind == "turn"]
        assert turns and len(turns) == len(game.pending), game.pending
        game.apply(EndTurn(player=turns[0].player))


def test_abundance_and_famine_act_on_this_rounds_income_and_last_one_round():
    # Manual A30 and A25: Abundance and Famine stay in force for Income; terrain events last
    # one round. Round 2: Abundance lands on plain (d6 1), Famine on mountains
    # (d6 3). Hazor (plain city) 2+1, Kedesh (mountains village) 1-1, Lachish (plain village) 1+1.
    assert (terrain("Hazor"), terrain("Kedesh"), terrain("Lachish")) == ("plain", "mountains", "plain")
    game = game_with(
        [1, 3],
        events_area=["abundance", "famine"],
        round=2,
        settlements={
            "Hazor": {"owner": 0, "troops": 2},
            "Kedesh": {"owner": 1, "troops": 2},
            "Lachish": {"owner": 2, "troops": 2},
        },
    )
    assert landed(game) == [("abundance", "plain"), ("famine", "mountains")]
    _play_to(game, 2, "acquisitions")
    assert [p.coins for p in game.state.players] == [3, 0, 2]
    # Round 3: both cards expired at the Announcements; the settlements yield their base value.
    _play_to(game, 3, "acquisitions")
    assert game.state.events_landed == []
    assert sorted(game.state.discard) == ["abundance", "famine"]
    assert [p.coins for p in game.state.players] == [3 + 2, 0 + 1, 2 + 1]


def test_sandstorm_stays_in_force_for_the_round_and_expires_at_the_next_announcements():
    # Manual A30 and A26: the Sandstorm is in force for the round; last round's cards are
    # discarded at the Announcements even when no new event lands.
    game = game_with([], events_area=["sandstorm"], settlements=SAFE_HOLDINGS)
    seen = set()
    while game.state.round == 1:
        seen.add(game.phase_name)
        assert landed(game) == [("sandstorm", "desert")]
        turns = [d for d in game.pending if d.kind == "turn"]
        assert turns and len(turns) == len(game.pending), game.pending
        game.apply(EndTurn(player=turns[0].player))
    assert {"intrigue", "acquisitions", "movement"} <= seen
    assert game.state.round == 2
    assert game.state.events_area == []
    assert game.state.events_landed == []
    assert game.state.discard == ["sandstorm"]


def test_a_king_killed_by_plague_is_succeeded_by_his_anointed_heir_at_the_next_announcements():
    # Manual A46: when the King dies, an heir carrying the Anointed is crowned automatically.
    # The plague lands on the desert (d6 5); Gaza is emptied so only the King rolls: a 1, he
    # dies. His player's general 2 carries the Anointed (not crowned while the King reigned).
    game = game_with(
        [5, 1],
        events_area=["plague"],
        settlements={**SAFE_HOLDINGS, "Gaza": {"owner": None}},
        generals=[gen(1, 0, "Beersheba"), gen(2, 0, "Hazor", anointed=True)],
        king=1,
    )
    assert 1 not in game.state.generals
    assert game.state.king is None
    assert game.state.succession_owner == 0
    assert game.state.generals[2].anointed is True
    finish_round(game)
    assert game.state.round == 2
    assert game.state.king == 2
    assert game.state.succession_owner is None
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert announcements_done(game)


def test_sandstorm_seals_the_desert_for_the_round_and_opens_it_when_it_expires():
    # Manual A30 and A26: the Sandstorm seals the desert for the round, and its expiry at the
    # next Announcements opens it again, even with no new event.
    from conftest import WORLD
    from judges.engine import Move

    open_desert = WORLD.hex_at[(0, 17)]  # next to Hebron, no settlement
    assert WORLD.hexes[open_desert].terrain == "desert"
    assert open_desert in WORLD.neighbours[H("Hebron")]
    game = game_with([], events_area=["sandstorm"], settlements=SAFE_HOLDINGS, generals=[gen(1, 0, "Hebron")])
    _play_to(game, 1, "movement")
    assert game.waiting_for() == [0]
    legal = [a for a in game.legal_actions(0) if isinstance(a, Move)]
    assert legal, "the general can move somewhere"
    assert all(WORLD.hexes[WORLD.hex_at[(a.q, a.r)]].terrain != "desert" for a in legal)
    before = game.state_json()
    with pytest.raises(IllegalAction, match="Sandstorm"):
        game.apply(Move(player=0, general=1, q=0, r=17))
    assert game.state_json() == before
    # Round 2: the Sandstorm expired at the Announcements, nothing new landed: the desert is open.
    _play_to(game, 2, "movement")
    assert game.state.events_landed == []
    while game.waiting_for() != [0]:
        game.apply(EndTurn(player=game.waiting_for()[0]))
    assert Move(player=0, general=1, q=0, r=17) in list(game.legal_actions(0))
    game.apply(Move(player=0, general=1, q=0, r=17))
    assert game.state.generals[1].hex == open_desert
