"""§ 9 Phase 6 — Combat (rules brief §§ 9, 13, 14 [D/M]; rules reference "§ 9 Phase 6 — Combat").

After Movement every contested hex fights: invader sieges first (ring order), then the
other battles in the attackers' turn order. Each troop and each general rolls a d6 (the
King's general one more); attackers hit on 5–6, defenders on 5–6 or 4–6 behind walls; an
invader pair rolls 4 dice hitting on 4–6 (two hits destroy it [R]); a Canaanite garrison
rolls one die per troop. Both sides roll at once; rounds repeat until a side is empty.
Hits remove the garrison's troops, then the armies', then generals [R]. The defeated
generals are captured by a winner with a general, else they die. A victorious attacker at a
settlement holds it or plunders it. At the end of Combat a player controlling every standing
settlement of a region (≥ 4 standing) claims its Judge title.

Dice are scripted exactly (a die more is DiceScriptExhausted, a die less is left over):
in each battle round the attacker's dice come first, then the defender's; in a siege the
invaders' 4 dice first. Positions use a cleared board (`clear_board`: no player holdings,
no generals; the Canaanite garrisons stay) and give each player a far-away village so that
nobody is eliminated when a test runs on to the Victory Check.
"""

from __future__ import annotations

import pytest

from conftest import WORLD, H, R, S, end_turns, make_game, turn_of
from judges.engine import CANAANITES, ClaimJudge, Decision, EndTurn, IllegalAction, Move, Plunder, TakeTroops
from judges.engine.board import settlement_controller

HOLDINGS = {
    "Keilah": {"owner": 0, "troops": 1},
    "Lachish": {"owner": 1, "troops": 1},
    "Tamar": {"owner": 2, "troops": 1},
}


# --- helpers -------------------------------------------------------------------------------


def hx(q: int, r: int) -> int:
    return WORLD.hex_at[(q, r)]


def gen(gid: int, owner: int, at, **extra) -> dict:
    where = {"q": at[0], "r": at[1]} if isinstance(at, tuple) else at
    return {"id": gid, "owner": owner, "at": where, **extra}


def position(phase: str, generals: list[dict], settlements: dict | None = None, holdings: bool = True, **extra) -> dict:
    base = dict(HOLDINGS) if holdings else {}
    base.update(settlements or {})
    return {"clear_board": True, "phase": phase, "settlements": base, "generals": generals, **extra}


def combat_game(generals: list[dict], settlements: dict | None = None, dice: list[int] = (), **extra):
    """Starts Combat at once: every general counts as having stood there before the phase."""
    return make_game(position("combat", generals, settlements, **extra), dice=list(dice))


def movement_game(generals: list[dict], settlements: dict | None = None, dice: list[int] = (), **extra):
    return make_game(position("movement", generals, settlements, **extra), dice=list(dice))


def move(game, gid: int, target) -> None:
    q, r = target if isinstance(target, tuple) else (WORLD.hexes[H(target)].q, WORLD.hexes[H(target)].r)
    game.apply(Move(player=game.state.generals[gid].owner, general=gid, q=q, r=r))


def end_turn(game, seat: int) -> None:
    game.apply(EndTurn(player=seat))


def battles(game, round_: int | None = None) -> list:
    return [n for n in game.notifications if n.key == "notification.battle" and (round_ is None or n.round == round_)]


def dice_of(notification) -> list[tuple[list[int], list[int]]]:
    return [(r["attacker"], r["defender"]) for r in notification.params["rounds"]]


def hits_of(notification) -> list[tuple[int, int]]:
    return [(r["attacker_hits"], r["defender_hits"]) for r in notification.params["rounds"]]


def round_report(game, round_: int = 1):
    notes = [n for n in game.notifications if n.key == "notification.round_report" and n.round == round_]
    assert len(notes) == 1, notes
    return notes[0]


def report_keys(game, key: str, round_: int = 1) -> list[dict]:
    return [e.params for e in round_report(game, round_).entries if e.key == key]


def garrison(game, name: str) -> tuple:
    s = game.state.settlements[S(name)]
    return (s.owner, s.troops)


def all_dice_used(game) -> bool:
    return game.dice.remaining == []


def owed(game) -> list[tuple[int, str]]:
    return [(d.player, d.kind) for d in game.pending]


def finish_movement(game) -> None:
    while game.phase_name == "movement" and game.pending and all(d.kind == "turn" for d in game.pending):
        game.apply(EndTurn(player=game.pending[0].player))


# --- Dice and hits ---------------------------------------------------------------------------


def test_one_die_per_troop_and_general_attackers_and_defenders_hit_on_five_or_six():
    # Attacker: general 10 with an army of 2 = 3 dice. Defender: a garrison of 2 = 2 dice.
    game = combat_game(
        [gen(10, 0, "Shunem", army=2)],
        {"Shunem": {"owner": 1, "troops": 2}},
        dice=[
            5,
            4,
            1,
            5,
            4,  # round 1: one hit each (a 4 misses on both sides)
            6,
            6,
            1,
        ],
    )  # round 2: 2 dice (army 1 + general) against 1 die
    [battle] = battles(game)
    assert dice_of(battle) == [([5, 4, 1], [5, 4]), ([6, 6], [1])]
    assert hits_of(battle) == [(1, 1), (2, 0)]
    assert battle.params["attacker"] == 0 and battle.params["defender"] == 1
    assert battle.params["winner"] == 0
    assert garrison(game, "Shunem") == (None, 0)
    assert game.state.generals[10].army == 1
    assert all_dice_used(game)
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Shunem"))]


def test_defenders_behind_walls_hit_on_four_to_six_attackers_still_need_five():
    game = combat_game(
        [gen(10, 0, "Shunem", army=2)],
        {"Shunem": {"owner": 1, "troops": 2, "walls": True}},
        dice=[
            4,
            4,
            4,
            4,
            4,  # round 1: the attacker's 4s miss, the walled 4s hit
            4,
            4,
            3,
        ],
    )  # round 2: the general alone (1 die); the garrison's 4 hits
    [battle] = battles(game)
    assert dice_of(battle) == [([4, 4, 4], [4, 4]), ([4], [4, 3])]
    assert hits_of(battle) == [(0, 2), (0, 1)]
    assert battle.params["winner"] == 1
    assert garrison(game, "Shunem") == (1, 2)
    assert 10 not in game.state.generals  # a garrison takes no captives: he died
    assert all_dice_used(game)


def test_the_kings_general_rolls_one_extra_die_attacking():
    # General 10 is King with an army of 1: 1 + 1 + 1 = 3 dice.
    game = combat_game(
        [gen(10, 0, "Shunem", army=1)], {"Shunem": {"owner": 1, "troops": 1}}, king=10, dice=[1, 1, 6, 1]
    )
    [battle] = battles(game)
    assert dice_of(battle) == [([1, 1, 6], [1])]
    assert battle.params["winner"] == 0
    assert game.state.generals[10].army == 1
    assert all_dice_used(game)


def test_the_kings_general_rolls_one_extra_die_defending():
    # Defender: a garrison of 1 + King 20 (+1) = 3 dice; the attacker's lone general 1 die.
    game = combat_game(
        [gen(10, 0, "Shunem"), gen(20, 1, "Shunem")], {"Shunem": {"owner": 1, "troops": 1}}, king=20, dice=[1, 1, 1, 5]
    )
    [battle] = battles(game)
    assert dice_of(battle) == [([1], [1, 1, 5])]
    assert battle.params["winner"] == 1
    assert game.state.generals[10].captor == 1
    assert all_dice_used(game)


def test_a_canaanite_garrison_rolls_one_die_per_troop_hitting_on_five_or_six():
    # Beth-shean: a Canaanite village of 3 troops, no walls.
    game = combat_game(
        [gen(10, 0, "Beth-shean", army=3)],
        dice=[
            6,
            6,
            1,
            1,
            5,
            4,
            1,  # round 1: 4 dice against 3; a 4 misses
            5,
            1,
            1,
            1,
        ],
    )  # round 2: 3 dice against the last Canaanite
    assert garrison(game, "Beth-shean") == (None, 0)
    [battle] = battles(game)
    assert battle.params["defender"] == "canaanites"
    assert dice_of(battle) == [([6, 6, 1, 1], [5, 4, 1]), ([5, 1, 1], [1])]
    assert hits_of(battle) == [(2, 1), (1, 0)]
    assert game.state.generals[10].army == 2
    assert all_dice_used(game)


def test_a_walled_canaanite_city_hits_on_four_to_six_and_takes_no_captives():
    # Megiddo: a Canaanite city of 4 troops behind walls.
    assert garrison(make_game({"clear_board": True}, dice=[]), "Megiddo") == (CANAANITES, 4)
    game = combat_game([gen(10, 0, "Megiddo", army=1)], dice=[1, 1, 4, 4, 1, 1])
    [battle] = battles(game)
    assert dice_of(battle) == [([1, 1], [4, 4, 1, 1])]
    assert battle.params["winner"] == "canaanites"
    assert garrison(game, "Megiddo") == (CANAANITES, 4)
    assert 10 not in game.state.generals
    assert battle.params["killed"] == [10]
    assert all_dice_used(game)


# --- Simultaneous rounds ---------------------------------------------------------------------


def test_both_sides_roll_at_once_and_can_fall_in_the_same_round():
    # The garrison, wiped out by the attacker's hit, still strikes back in that round.
    game = combat_game([gen(10, 0, "Shunem")], {"Shunem": {"owner": 1, "troops": 1}}, dice=[6, 6])
    [battle] = battles(game)
    assert hits_of(battle) == [(1, 1)]
    assert battle.params["winner"] is None
    assert garrison(game, "Shunem") == (None, 0)
    assert 10 not in game.state.generals  # nobody won: he cannot be captured, he died
    assert not [d for d in game.pending if d.kind == "plunder"]
    assert all_dice_used(game)


def test_rounds_repeat_until_one_side_is_empty():
    game = combat_game(
        [gen(10, 0, "Shunem", army=1)],
        {"Shunem": {"owner": 1, "troops": 2}},
        dice=[
            1,
            1,
            1,
            1,  # round 1: nobody hits
            1,
            1,
            1,
            1,  # round 2: nobody hits
            6,
            6,
            1,
            1,
        ],
    )  # round 3: the garrison falls
    [battle] = battles(game)
    assert len(battle.params["rounds"]) == 3
    assert battle.params["winner"] == 0
    assert all_dice_used(game)


# --- Casualties: garrison, then armies, then generals ---------------------------------------------


def test_hits_remove_the_garrison_first_then_armies_by_general_then_generals():
    # Defender player 1: garrison 1, general 20 (army 1), general 21 (army 1): 5 dice.
    # Attacker player 0: general 10 with an army of 1: 2 dice.
    game = combat_game(
        [gen(10, 0, "Shunem", army=1), gen(20, 1, "Shunem", army=1), gen(21, 1, "Shunem", army=1)],
        {"Shunem": {"owner": 1, "troops": 1}},
        dice=[6, 6, 6, 6, 1, 1, 1],
    )
    [battle] = battles(game)
    assert hits_of(battle) == [(2, 2)]
    # Two hits on the defender: the garrison's troop, then general 20's army — no general.
    assert garrison(game, "Shunem") == (None, 0)
    assert game.state.generals[20].army == 0
    assert game.state.generals[21].army == 1
    assert game.state.generals[20].captor is None and game.state.generals[21].captor is None
    # Two hits on the attacker: his army's troop, then (no troop left) the general himself.
    assert battle.params["winner"] == 1
    assert game.state.generals[10].captor == 1
    assert battle.params["attacker_losses"] == 2 and battle.params["defender_losses"] == 2
    assert all_dice_used(game)


def test_a_general_falls_only_when_his_side_has_no_troop_left():
    # Two hits on a garrison of 1 and general 20's army of 2: the garrison and one army troop
    # fall; general 20 still has a troop, so he stands, and wins.
    game = combat_game(
        [gen(10, 0, "Shunem", army=1), gen(20, 1, "Shunem", army=2)],
        {"Shunem": {"owner": 1, "troops": 1}},
        dice=[6, 6, 6, 6, 1, 1],
    )
    # Defender dice: garrison 1 + army 2 + general = 4.
    [battle] = battles(game)
    assert dice_of(battle) == [([6, 6], [6, 6, 1, 1])]
    assert garrison(game, "Shunem") == (None, 0)
    assert game.state.generals[20].army == 1
    assert battle.params["winner"] == 1
    assert all_dice_used(game)


# --- The defeated: captured or killed --------------------------------------------------------


def test_a_winner_with_a_general_captures_the_defeated_generals_on_the_hex():
    game = combat_game(
        [gen(10, 0, "Shunem", army=1, ark=True), gen(20, 1, "Shunem")],
        {"Shunem": {"owner": 1, "troops": 1}},
        dice=[1, 1, 6, 6],
    )
    [battle] = battles(game)
    assert battle.params["winner"] == 1
    assert battle.params["captured"] == [10] and battle.params["killed"] == []
    g = game.state.generals[10]
    assert g.captor == 1
    assert g.hex == H("Shunem")  # he stays on the hex, in the captor's custody
    assert g.army == 0
    assert g.ark is False
    assert game.state.ark_hex == H("Shunem")  # the Ark is dropped on the hex
    assert all_dice_used(game)


def test_a_winner_without_a_general_kills_the_defeated_generals():
    # A garrison-only defence: the attacking general dies, the Ark he carried lies on the hex.
    game = combat_game([gen(10, 0, "Shunem", ark=True)], {"Shunem": {"owner": 1, "troops": 2}}, dice=[1, 5, 1])
    [battle] = battles(game)
    assert battle.params["winner"] == 1
    assert battle.params["killed"] == [10] and battle.params["captured"] == []
    assert 10 not in game.state.generals
    assert game.state.ark_hex == H("Shunem")
    assert all_dice_used(game)


def test_the_victorious_attacker_captures_the_defending_generals():
    # Player 1's general 20 and his army of 1 hold the village (no garrison); 10 attacks.
    game = movement_game([gen(10, 0, (6, 5), army=2), gen(20, 1, "Shunem", army=1)], dice=[6, 6, 1, 1, 1])
    move(game, 10, "Shunem")
    finish_movement(game)
    [battle] = battles(game)
    assert (battle.params["attacker"], battle.params["defender"], battle.params["winner"]) == (0, 1, 0)
    assert battle.params["captured"] == [20]
    g = game.state.generals[20]
    assert (g.captor, g.hex, g.army) == (0, H("Shunem"), 0)
    assert game.state.generals[10].army == 2
    assert all_dice_used(game)


# --- Sieges --------------------------------------------------------------------------------


def test_a_pair_rolls_four_dice_hitting_on_four_to_six_and_two_hits_destroy_it():
    # A siege lost by the invaders. Round 1: a 3 misses, the garrison hits once; round 2: the
    # pair, one invader down, still rolls 4 dice; the garrison's second hit destroys it.
    game = combat_game(
        [],
        {"Shunem": {"owner": 0, "troops": 2}},
        invaders=[{"at": "Shunem"}],
        dice=[3, 3, 1, 2, 5, 1, 4, 1, 1, 1, 6, 1],
    )
    [battle] = battles(game)
    assert battle.params["attacker"] == "invaders" and battle.params["defender"] == 0
    assert dice_of(battle) == [([3, 3, 1, 2], [5, 1]), ([4, 1, 1, 1], [6, 1])]
    assert hits_of(battle) == [(0, 1), (1, 1)]
    assert battle.params["winner"] == 0
    assert game.state.invaders == []  # the pair is removed
    s = game.state.settlements[S("Shunem")]
    assert (s.razed, s.owner, s.troops) == (False, 0, 1)
    assert all_dice_used(game)


def test_a_siege_won_by_the_invaders_razes_the_settlement_and_the_defending_generals_die():
    game = combat_game(
        [gen(10, 0, "Shunem"), gen(11, 0, "Keilah")],
        {"Shunem": {"owner": 0, "troops": 1}},
        invaders=[{"at": "Shunem"}],
        dice=[4, 6, 1, 1, 1, 1],
    )
    [battle] = battles(game)
    assert dice_of(battle) == [([4, 6, 1, 1], [1, 1])]
    assert battle.params["winner"] == "invaders"
    assert battle.params["killed"] == [10] and battle.params["captured"] == []
    assert 10 not in game.state.generals
    s = game.state.settlements[S("Shunem")]
    assert (s.razed, s.owner, s.troops) == (True, None, 0)
    assert len(game.state.invaders) == 1  # the pair survives (it moves on next round)
    assert all_dice_used(game)


def test_an_undefended_besieged_settlement_is_razed_without_battle():
    game = combat_game([], invaders=[{"at": "Shunem"}], dice=[])
    assert game.state.settlements[S("Shunem")].razed is True
    assert battles(game) == []


def test_a_besieged_settlement_its_defenders_marched_out_of_is_razed_without_battle():
    game = movement_game(
        [gen(10, 0, "Shunem")], {"Shunem": {"owner": 0, "troops": 2}}, invaders=[{"at": "Shunem"}], dice=[]
    )
    game.apply(TakeTroops(player=0, general=10, count=2))
    move(game, 10, (6, 5))
    finish_movement(game)
    assert game.state.settlements[S("Shunem")].razed is True
    assert battles(game) == []
    g = game.state.generals[10]
    assert (g.hex, g.army) == (hx(6, 5), 2)


# --- Order of battles; multi-way fights -----------------------------------------------------------


def test_sieges_come_first_then_battles_in_the_attackers_turn_order():
    # Round 2: turn order 1, 2, 0. Player 1 attacks Shunem, player 0 attacks Endor (a lower
    # hex index, and a lower seat); a pair besieges Hammath (the highest hex index).
    assert H("Endor") < H("Shunem") < H("Hammath")
    game = movement_game(
        [gen(10, 0, (8, 4)), gen(20, 1, (4, 5))],
        {"Endor": {"owner": 2, "troops": 1}, "Shunem": {"owner": 2, "troops": 1}, "Hammath": {"owner": 2, "troops": 1}},
        round=2,
        invaders=[{"at": "Hammath"}],
        dice=[
            4,
            1,
            1,
            1,
            1,  # the siege of Hammath: the pair wins
            6,
            1,  # Shunem: player 1 against player 2's garrison
            6,
            1,
        ],
    )  # Endor: player 0 against player 2's garrison
    turn_of(game, 1)
    move(game, 20, "Shunem")
    end_turn(game, 1)
    end_turn(game, 2)
    move(game, 10, "Endor")
    end_turn(game, 0)
    order = [(b.params["hex"], b.params["attacker"], b.params["defender"]) for b in battles(game)]
    assert order == [(H("Hammath"), "invaders", 2), (H("Shunem"), 1, 2), (H("Endor"), 0, 2)]
    assert game.state.settlements[S("Hammath")].razed is True
    assert sorted(owed(game)) == [(0, "plunder"), (1, "plunder")]
    assert all_dice_used(game)


def test_a_multi_way_fight_is_fought_pairwise_in_order_of_arrival():
    # Round 2 (turn order 1, 2, 0): player 1 arrives first at player 2's garrison, player 0
    # second. First player 1 against the holder; then player 0 against the winner.
    game = movement_game(
        [gen(10, 0, "Taanach", army=1), gen(20, 1, "Endor", army=1)],
        {"Shunem": {"owner": 2, "troops": 1}},
        round=2,
        dice=[
            6,
            1,
            1,  # player 1 (2 dice) against the garrison (1 die)
            6,
            6,
            1,
            1,
        ],
    )  # player 0 (2 dice) against player 1 (2 dice)
    turn_of(game, 1)
    move(game, 20, "Shunem")
    end_turn(game, 1)
    end_turn(game, 2)
    move(game, 10, "Shunem")
    end_turn(game, 0)
    first, second = battles(game)
    assert (first.params["attacker"], first.params["defender"], first.params["winner"]) == (1, 2, 1)
    assert (second.params["attacker"], second.params["defender"], second.params["winner"]) == (0, 1, 0)
    assert second.params["captured"] == [20]
    assert game.state.generals[20].captor == 0
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Shunem"))]
    assert all_dice_used(game)


# --- Conquest and plunder -----------------------------------------------------------------------


def conquest(settlements: dict | None = None, target: str = "Shunem", coins: int = 5, **extra):
    """Player 0's general 10 (army 1) beats player 1's garrison of 1 at `target`."""
    spec = {target: {"owner": 1, "troops": 1}}
    spec[target].update((settlements or {}).pop(target, {}))
    spec.update(settlements or {})
    return combat_game(
        [gen(10, 0, target, army=1)] + extra.pop("generals", []),
        spec,
        dice=[6, 1, 1],
        players=[{"seat": 0, "coins": coins}],
        **extra,
    )


def test_a_victorious_attacker_owes_the_plunder_decision():
    game = conquest()
    assert game.phase_name == "combat"
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Shunem"))]
    assert list(game.legal_actions(0)) == [
        Plunder(player=0, settlement="Shunem", plunder=False),
        Plunder(player=0, settlement="Shunem", plunder=True),
    ]


def test_holding_a_conquered_settlement_keeps_it():
    game = conquest()
    game.apply(Plunder(player=0, settlement="Shunem", plunder=False))
    s = game.state.settlements[S("Shunem")]
    assert s.razed is False
    assert settlement_controller(game.state, WORLD, S("Shunem")) == 0
    assert game.state.players[0].coins == 5
    assert report_keys(game, "combat.conquest") == [{"player": 0, "settlement": S("Shunem")}]
    assert report_keys(game, "combat.plunder") == []
    # Wrath at round 2's Announcements: only the Canaanite presence (+1), no plunder.
    assert game.state.wrath == 1


@pytest.mark.parametrize(
    "name, developments, gain",
    [
        ("Shunem", 0, 3),  # village: 3 x 1
        ("Shunem", 1, 9),  # village with a development: 3 x (1 + 2)
        ("Shechem", 0, 6),  # city: 3 x 2
        ("Shechem", 2, 18),  # city with two developments: 3 x (2 + 2 x 2)
    ],
)
def test_plunder_gains_three_times_the_income_value_razes_and_registers_wrath(name, developments, gain):
    assert WORLD.settlements[S(name)].is_city == (name == "Shechem")
    game = conquest({name: {"developments": developments}}, target=name)
    game.apply(Plunder(player=0, settlement=name, plunder=True))
    assert game.state.players[0].coins == 5 + gain
    assert game.state.settlements[S(name)].razed is True
    assert report_keys(game, "combat.plunder") == [{"player": 0, "settlement": S(name), "coins": gain}]
    assert report_keys(game, "wrath.registered") == [{"amount": 1, "reason": "plunder"}]
    # Added at round 2's Announcements: plunder +1 and the Canaanite presence +1.
    assert game.state.round == 2
    assert game.state.wrath == 2


def test_a_plunder_that_razes_the_region_below_four_settlements_takes_its_title_out_of_play():
    # Manasseh has 4 standing (Samaria razed); its title is player 2's, held by general 30.
    game = conquest(
        {"Samaria": {"razed": True}},
        target="Dothan",
        generals=[gen(30, 2, "Tirzah")],
        titles={"Manasseh": {"holder": 30}},
    )
    assert game.state.titles[R("Manasseh")].in_play is True
    game.apply(Plunder(player=0, settlement="Dothan", plunder=True))
    title = game.state.titles[R("Manasseh")]
    assert (title.in_play, title.owner, title.holder) == (False, None, None)
    assert 30 in game.state.generals  # the judge lives on, without a title


def test_a_conquered_canaanite_settlement_is_the_attackers():
    game = combat_game([gen(10, 0, "Beth-shean", army=3)], dice=[6, 6, 6, 1, 1, 1, 1])
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Beth-shean"))]
    game.apply(Plunder(player=0, settlement="Beth-shean", plunder=False))
    s = game.state.settlements[S("Beth-shean")]
    assert (s.razed, s.owner, s.troops) == (False, None, 0)
    assert settlement_controller(game.state, WORLD, S("Beth-shean")) == 0
    assert all_dice_used(game)


def test_a_defender_who_wins_owes_no_plunder():
    game = combat_game([gen(10, 0, "Shunem")], {"Shunem": {"owner": 1, "troops": 2}}, dice=[1, 5, 1])
    assert not [d for d in game.pending if d.kind == "plunder"]
    assert game.state.settlements[S("Shunem")].razed is False


# --- Claiming a Judge title at the end of Combat ---------------------------------------------------

NAPHTALI = ["Hazor", "Kedesh", "Merom", "Chinnereth", "Hammath"]


def naphtali(owner: int = 0, but: dict | None = None) -> dict:
    out = {name: {"owner": owner, "troops": 1} for name in NAPHTALI}
    out.update(but or {})
    return out


def test_controlling_every_settlement_of_a_region_claims_its_title_for_the_one_general_there():
    game = combat_game([gen(10, 0, "Merom")], naphtali())
    title = game.state.titles[R("Naphtali")]
    assert (title.in_play, title.owner, title.holder) == (True, 0, 10)
    assert report_keys(game, "title.claimed")[0]["player"] == 0


def test_a_razed_settlement_does_not_count_when_four_stand():
    # Kedesh razed: 4 standing settlements still sustain a judge, all player 0's.
    game = combat_game([gen(10, 0, "Hazor")], naphtali(but={"Kedesh": {"razed": True}}))
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, 10)


def test_no_claim_while_another_player_holds_a_settlement_of_the_region():
    game = combat_game([gen(10, 0, "Hazor")], naphtali(but={"Kedesh": {"owner": 1, "troops": 1}}))
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (None, None)
    assert report_keys(game, "title.claimed") == []


def test_no_claim_while_the_canaanites_hold_a_settlement_of_the_region():
    # Jezreel: Megiddo and Beth-shean stay Canaanite-held.
    game = combat_game(
        [gen(10, 0, "Shunem")], {"Taanach": {"owner": 0, "troops": 1}, "Endor": {"owner": 0, "troops": 1}}
    )
    title = game.state.titles[R("Jezreel")]
    assert (title.owner, title.holder) == (None, None)


def test_with_several_generals_in_the_region_the_player_names_the_judge():
    game = combat_game([gen(10, 0, "Merom"), gen(11, 0, "Hazor")], naphtali())
    assert game.phase_name == "combat"
    assert owed(game) == [(0, "claim_judge")]
    # The general in the city (Hazor) is listed first: the default choice.
    assert list(game.legal_actions(0)) == [
        ClaimJudge(player=0, region="Naphtali", general=11),
        ClaimJudge(player=0, region="Naphtali", general=10),
    ]
    with pytest.raises(IllegalAction):
        game.apply(ClaimJudge(player=0, region="Naphtali", general=99))
    game.apply(ClaimJudge(player=0, region="Naphtali", general=10))
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, 10)


def test_a_judge_of_another_region_standing_there_becomes_judge_of_this_one_too():
    # § 10: the manual sets no limit of titles per general; Judah's judge 10 stands in Merom.
    game = combat_game([gen(10, 0, "Merom")], naphtali(), titles={"Judah": {"holder": 10}})
    assert [r for r, t in enumerate(game.state.titles) if t.holder == 10] == sorted([R("Naphtali"), R("Judah")])


def test_a_judge_of_another_region_is_one_of_the_choices_when_several_stand_there():
    game = combat_game([gen(10, 0, "Merom"), gen(11, 0, "Hazor")], naphtali(), titles={"Judah": {"holder": 11}})
    assert [a.general for a in game.legal_actions(0)] == [11, 10]
    game.apply(ClaimJudge(player=0, region="Naphtali", general=11))
    assert (game.state.titles[R("Naphtali")].holder, game.state.titles[R("Judah")].holder) == (11, 11)


def test_with_no_general_in_the_region_the_title_is_theirs_but_vacant():
    game = combat_game([gen(10, 0, "Keilah")], naphtali())
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, None)
    # At round 2's Announcements the owner fills it (§ 10 vacant titles).
    assert game.state.round == 2
    assert owed(game) == [(0, "appoint_judge")]


def test_the_previous_holder_loses_the_title():
    game = combat_game([gen(10, 0, "Hazor"), gen(20, 1, "Lachish")], naphtali(), titles={"Naphtali": {"holder": 20}})
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, 10)
    assert 20 in game.state.generals and 20 not in [t.holder for t in game.state.titles]


def test_a_player_who_already_owns_the_title_keeps_its_judge():
    game = combat_game([gen(10, 0, "Hazor"), gen(11, 0, "Keilah")], naphtali(), titles={"Naphtali": {"holder": 11}})
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, 11)
    assert report_keys(game, "title.claimed") == []


def test_a_conquest_in_this_combat_completes_a_claim():
    # Player 0 holds four of Naphtali; his general 10 takes Kedesh from player 1 and holds it.
    game = combat_game(
        [gen(10, 0, "Kedesh", army=1)], naphtali(but={"Kedesh": {"owner": 1, "troops": 1}}), dice=[6, 1, 1]
    )
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Kedesh"))]
    assert game.state.titles[R("Naphtali")].owner is None  # claims come at the end of Combat
    game.apply(Plunder(player=0, settlement="Kedesh", plunder=False))
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder) == (0, 10)


# --- A captive taken and later freed by custody reconciliation ----------------------------------------


def captivity_game():
    """Round 1: player 0's general 10 attacks player 1's general 20 in Shunem and is captured.
    Player 0 has general 11 at (5,6), player 2 general 30 at Taanach, both next to Shunem."""
    game = movement_game(
        [gen(10, 0, "Endor"), gen(11, 0, (5, 6)), gen(20, 1, "Shunem"), gen(30, 2, "Taanach")], dice=[1, 6]
    )
    move(game, 10, "Shunem")
    finish_movement(game)
    [battle] = battles(game)
    assert battle.params["captured"] == [10]
    # The Victory Check of round 1: player 1 still controls Shunem, the captive stays his.
    assert game.state.round == 2
    g = game.state.generals[10]
    assert (g.captor, g.hex) == (1, H("Shunem"))
    assert report_keys(game, "captive.freed") == [] and report_keys(game, "captive.transferred") == []
    end_turns(game, until_phase="movement", until_round=2)
    turn_of(game, 1)
    move(game, 20, (6, 5))  # the captor's general marches out: Shunem is nobody's now
    end_turn(game, 1)
    return game


def test_a_captive_goes_free_when_nobody_controls_his_hex_at_the_victory_check():
    game = captivity_game()
    end_turn(game, 2)
    end_turn(game, 0)
    assert game.state.round == 3
    g = game.state.generals[10]
    assert (g.captor, g.hex) == (None, H("Shunem"))  # free, where he was held
    assert report_keys(game, "captive.freed", round_=2) == [{"general": 10, "owner": 0, "hex": H("Shunem")}]


def test_a_captive_goes_free_when_his_own_player_takes_his_hex():
    game = captivity_game()
    end_turn(game, 2)
    move(game, 11, "Shunem")
    end_turn(game, 0)
    g = game.state.generals[10]
    assert (g.captor, g.hex) == (None, H("Shunem"))
    assert report_keys(game, "captive.freed", round_=2)[0]["general"] == 10


def test_a_captive_passes_to_the_player_who_takes_his_hex():
    game = captivity_game()
    move(game, 30, "Shunem")
    end_turn(game, 2)
    end_turn(game, 0)
    g = game.state.generals[10]
    assert (g.captor, g.hex) == (2, H("Shunem"))  # captives never move
    assert report_keys(game, "captive.transferred", round_=2)[0]["captor"] == 2


# --- Battle notifications and the Round report ------------------------------------------------------


def test_each_battle_is_notified_to_every_living_player_and_written_in_the_round_report():
    # Player 2 is eliminated: he is not notified.
    settlements = {
        "Keilah": {"owner": 0, "troops": 1},
        "Lachish": {"owner": 1, "troops": 1},
        "Shunem": {"owner": 1, "troops": 2},
        "Endor": {"owner": 1, "troops": 2},
    }
    game = make_game(
        position(
            "combat",
            [gen(10, 0, "Shunem"), gen(11, 0, "Endor")],
            settlements,
            holdings=False,
            players=[{"seat": 2, "eliminated": True}],
        ),
        dice=[
            1,
            5,
            1,  # each: a lone general (1 die) against a garrison of 2
            1,
            5,
            1,
        ],
    )
    notes = battles(game)
    assert sorted(n.params["hex"] for n in notes) == sorted([H("Shunem"), H("Endor")])
    for n in notes:
        assert n.to == [0, 1]
        assert n.round == 1 and n.phase == "combat"
    shunem = next(n for n in notes if n.params["hex"] == H("Shunem"))
    assert shunem.params["attacker"] == 0 and shunem.params["defender"] == 1 and shunem.params["winner"] == 1
    assert shunem.params["rounds"] == [{"attacker": [1], "defender": [5, 1], "attacker_hits": 0, "defender_hits": 1}]
    assert shunem.params["attacker_losses"] == 1 and shunem.params["defender_losses"] == 0
    assert shunem.params["killed"] == [10] and shunem.params["captured"] == []
    lines = report_keys(game, "combat.battle")
    assert lines == [n.params for n in notes]
    # The Round report goes to every player, the eliminated spectator too (§ 14 [M]).
    assert round_report(game).to == [0, 1, 2]
    assert all_dice_used(game)
