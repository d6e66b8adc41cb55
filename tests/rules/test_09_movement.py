"""§ 9 Phase 5 — Movement (rules brief § 9 [D]; rules reference "§ 9 Phase 5 — Movement").

A general has 3 movement points; entering a plain or desert hex costs 1, mountains 2.
Entering a hex with another player's units, a Canaanite-held settlement or a besieged
settlement ends the move there (such a hex can be entered, never crossed). While a
Sandstorm seals the desert no general may enter a desert hex. A general takes troops from,
or leaves troops in, the garrison of a settlement his owner controls; picks up the
unattended Ark and drops it; a free settlement he enters is his owner's while he stands there.

Positions start Movement on a cleared board (`clear_board`: no player holdings, no generals;
the Canaanite garrisons stay). Round 1: player 0 moves first. No die is rolled in Movement,
so every position scripts an empty dice list: a die rolled is a failure.
"""

from __future__ import annotations

import heapq

import pytest

from conftest import WORLD, H, S, end_turns, make_game, refused, turn_of
from judges.engine import DropArk, IllegalAction, LeaveTroops, Move, NotYourDecision, PickUpArk, TakeTroops
from judges.engine.board import settlement_controller

# One far-away holding each, so that nobody is eliminated if a test runs to the Victory Check.
HOLDINGS = {
    "Ramoth-gilead": {"owner": 0, "troops": 1},
    "Lachish": {"owner": 1, "troops": 1},
    "Keilah": {"owner": 2, "troops": 1},
}

# § 9 [D], written from the rule: the cost of entering a hex, and the points of a general.
ENTRY_COST = {"plain": 1, "desert": 1, "mountains": 2}
POINTS = 3
SANDSTORM = {"card": "sandstorm", "terrain": "desert"}


# --- helpers -------------------------------------------------------------------------------


def hx(q: int, r: int) -> int:
    return WORLD.hex_at[(q, r)]


def qr(hex_index: int) -> tuple[int, int]:
    h = WORLD.hexes[hex_index]
    return (h.q, h.r)


def gen(gid: int, owner: int, at, **extra) -> dict:
    """A general; `at` is a settlement name or a (q, r) pair."""
    where = {"q": at[0], "r": at[1]} if isinstance(at, tuple) else at
    return {"id": gid, "owner": owner, "at": where, **extra}


def movement_game(generals: list[dict], settlements: dict | None = None, round_: int = 1, **extra):
    base = dict(HOLDINGS)
    base.update(settlements or {})
    position = {
        "clear_board": True,
        "round": round_,
        "phase": "movement",
        "settlements": base,
        "generals": generals,
        **extra,
    }
    game = make_game(position, dice=[])
    assert game.phase_name == "movement"
    return game


def move(game, gid: int, target, player: int | None = None):
    """Moves general `gid` to a hex given as (q, r) or a settlement name."""
    q, r = target if isinstance(target, tuple) else qr(H(target))
    seat = game.state.generals[gid].owner if player is None else player
    return game.apply(Move(player=seat, general=gid, q=q, r=r))


def legal_targets(game, seat: int, gid: int) -> set[int]:
    """The hexes listed as legal moves of one general."""
    return {hx(a.q, a.r) for a in game.legal_actions(seat) if isinstance(a, Move) and a.general == gid}


def legal_of_general(game, seat: int, gid: int) -> list:
    return [a for a in game.legal_actions(seat) if getattr(a, "general", None) == gid]


def points(game, gid: int) -> int:
    return game.state.move_points.get(gid, 0)


def contact_hexes(game, seat: int) -> set[int]:
    """§ 9, from the rule: hexes whose entry ends a move of `seat`'s general — another
    player's garrison (Canaanite-held included), a besieged settlement, another player's
    free general (a captive is not a unit [R])."""
    state = game.state
    out = set()
    for s in WORLD.settlements:
        st = state.settlements[s.index]
        if st.razed:
            continue
        if st.owner is not None and st.owner != seat:
            out.add(s.hex)
    for pair in state.invaders:
        if not state.settlements[pair.at].razed:
            out.add(WORLD.settlements[pair.at].hex)
    for g in state.generals.values():
        if g.owner != seat and g.captor is None:
            out.add(g.hex)
    return out


def expected_reach(
    start: int, points_left: int = POINTS, contact: set[int] = frozenset(), sealed: bool = False
) -> dict[int, int]:
    """Cheapest cost of every hex a general can enter from `start` (Dijkstra over the map):
    each entry costs its terrain; a contact hex may be entered but not crossed; while a
    Sandstorm is in force desert hexes cannot be entered. The start hex is not a move."""
    best = {start: 0}
    frontier = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if cost > best[here]:
            continue
        if here != start and here in contact:
            continue
        for nxt in WORLD.neighbours[here]:
            terrain = WORLD.hexes[nxt].terrain
            if sealed and terrain == "desert":
                continue
            new = cost + ENTRY_COST[terrain]
            if new <= points_left and new < best.get(nxt, 1 << 30):
                best[nxt] = new
                heapq.heappush(frontier, (new, nxt))
    del best[start]
    return best


def assert_refused(game, action, error: type = IllegalAction, rule: str = "§9"):
    return refused(game, action, error, rule)


def refused_move(game, gid: int, target, player: int | None = None, rule: str = "§9"):
    q, r = target if isinstance(target, tuple) else qr(H(target))
    seat = game.state.generals[gid].owner if player is None else player
    return assert_refused(game, Move(player=seat, general=gid, q=q, r=r), rule=rule)


# --- 3 points; plain and desert 1, mountains 2 -------------------------------------------------


def test_the_map_offers_what_these_tests_need():
    # Endor is plain; these hexes are plain, three steps west; Merom two mountain steps north.
    assert WORLD.hexes[H("Endor")].terrain == "plain"
    assert [WORLD.hexes[hx(q, r)].terrain for q, r in [(6, 5), (5, 5), (4, 5), (3, 5)]] == ["plain"] * 4
    assert WORLD.hex_distance(H("Endor"), hx(4, 5)) == 3
    assert WORLD.hex_distance(H("Endor"), hx(3, 5)) == 4
    assert WORLD.hex_distance(H("Endor"), H("Merom")) == 2
    assert WORLD.hex_distance(H("Endor"), H("Shunem")) == 2


def test_every_free_general_starts_movement_with_three_points():
    game = movement_game(
        [gen(10, 0, "Endor"), gen(11, 0, "Hazor"), gen(20, 1, "Lachish"), gen(12, 0, "Lachish", captor=1)]
    )
    assert game.state.move_points == {10: 3, 11: 3, 20: 3}


def test_a_general_crosses_three_plain_hexes():
    game = movement_game([gen(10, 0, "Endor")])
    move(game, 10, (4, 5))
    assert game.state.generals[10].hex == hx(4, 5)
    assert points(game, 10) == 0


def test_a_fourth_plain_hex_is_out_of_reach_refused_naming_section_9():
    game = movement_game([gen(10, 0, "Endor")])
    err = refused_move(game, 10, (3, 5))
    assert "out of reach" in err.message
    assert game.state.generals[10].hex == H("Endor")
    assert points(game, 10) == 3


@pytest.mark.parametrize(
    "start, target, terrain, left",
    [
        ("Hammath", (8, 4), "plain", 2),
        ("Hammath", (8, 6), "desert", 2),
        ("Endor", (7, 3), "mountains", 1),
    ],
)
def test_entering_a_hex_costs_its_terrain(start, target, terrain, left):
    game = movement_game([gen(10, 0, start)])
    assert WORLD.hexes[hx(*target)].terrain == terrain
    move(game, 10, target)
    assert points(game, 10) == left
    # What is left is spent at the same rates.
    assert legal_targets(game, 0, 10) == set(expected_reach(hx(*target), left, contact_hexes(game, 0)))


def test_after_a_mountain_only_one_point_is_left_so_a_second_mountain_is_refused():
    game = movement_game([gen(10, 0, "Endor")])
    move(game, 10, (7, 3))  # mountains: 2
    assert WORLD.hexes[H("Merom")].terrain == "mountains"
    refused_move(game, 10, "Merom")  # another mountain: 2 > 1
    move(game, 10, "Endor")  # back down to the plain: 1
    assert points(game, 10) == 0


def test_a_path_through_mountains_costs_more():
    # Shunem and Merom are both two hexes from Endor: Shunem across the plain (2 points),
    # Merom only across mountains (2 + 2 = 4 points): out of reach.
    game = movement_game([gen(10, 0, "Endor")])
    refused_move(game, 10, "Merom")
    assert H("Merom") not in legal_targets(game, 0, 10)
    move(game, 10, "Shunem")
    assert points(game, 10) == 1


def test_moving_to_his_own_hex_is_refused():
    game = movement_game([gen(10, 0, "Endor")])
    refused_move(game, 10, "Endor")


# --- Legal moves enumerate exactly the reachable hexes ---------------------------------------

LEGAL_MOVE_CASES = {
    "open plain": ("Endor", {}, {}),
    "next to a Canaanite city": ("Taanach", {}, {}),
    "in the mountains": ("Shiloh", {}, {}),
    "in the desert": ("Arad", {}, {}),
    "sandstorm": ("Hammath", {}, {"events_landed": [SANDSTORM]}),
    "other units and a siege": (
        "Shunem",
        {"Aphek": {"owner": 2, "troops": 1}},
        {"invaders": [{"at": "Taanach"}], "extra_generals": [gen(20, 1, (4, 6)), gen(21, 1, (6, 6), captor=0)]},
    ),
}


@pytest.mark.parametrize("case", list(LEGAL_MOVE_CASES))
def test_legal_moves_are_exactly_the_reachable_hexes(case):
    start, settlements, extra = LEGAL_MOVE_CASES[case]
    extra = dict(extra)
    generals = [gen(10, 0, start)] + extra.pop("extra_generals", [])
    game = movement_game(generals, settlements, **extra)
    sealed = bool(extra.get("events_landed"))
    expected = expected_reach(H(start), POINTS, contact_hexes(game, 0), sealed)
    assert legal_targets(game, 0, 10) == set(expected)
    assert H(start) not in legal_targets(game, 0, 10)
    # Each listed move is accepted and costs the cheapest path.
    for target, cost in sorted(expected.items()):
        trial = game.clone()
        move(trial, 10, qr(target))
        stop = target in contact_hexes(game, 0)
        assert points(trial, 10) == (0 if stop else POINTS - cost), (qr(target), cost)


def test_the_legal_moves_shrink_as_points_are_spent():
    game = movement_game([gen(10, 0, "Endor")])
    move(game, 10, (6, 5))
    assert legal_targets(game, 0, 10) == set(expected_reach(hx(6, 5), 2, contact_hexes(game, 0)))


# --- Several moves in a turn ----------------------------------------------------------------


def test_a_general_moves_several_times_until_his_points_run_out():
    game = movement_game([gen(10, 0, "Endor")])
    move(game, 10, (6, 5))
    assert points(game, 10) == 2
    move(game, 10, "Shunem")
    assert points(game, 10) == 1
    move(game, 10, (4, 5))
    assert points(game, 10) == 0
    assert game.state.generals[10].hex == hx(4, 5)
    assert legal_targets(game, 0, 10) == set()
    refused_move(game, 10, (3, 5))
    # Still his turn: he has simply no points left.
    assert [(d.player, d.kind) for d in game.pending] == [(0, "turn")]


def test_each_general_has_his_own_points():
    game = movement_game([gen(10, 0, "Endor"), gen(11, 0, "Hammath")])
    move(game, 10, (4, 5))
    assert points(game, 10) == 0
    assert points(game, 11) == 3
    move(game, 11, "Shunem")
    assert game.state.generals[11].hex == H("Shunem")


# --- Contact ends the move -------------------------------------------------------------------


def test_without_contact_the_hex_beyond_shunem_is_reachable():
    # The reference for the contact tests below: (4,5) is three plain steps from Endor, the
    # cheapest path passing through Shunem.
    game = movement_game([gen(10, 0, "Endor")])
    assert hx(4, 5) in legal_targets(game, 0, 10)


def test_entering_another_players_garrison_ends_the_move():
    game = movement_game([gen(10, 0, "Endor")], {"Shunem": {"owner": 1, "troops": 2}})
    assert H("Shunem") in legal_targets(game, 0, 10)  # it can be entered...
    assert hx(4, 5) not in legal_targets(game, 0, 10)  # ...but not crossed
    refused_move(game, 10, (4, 5))
    move(game, 10, "Shunem")  # 2 points: one would be left
    assert points(game, 10) == 0
    assert legal_targets(game, 0, 10) == set()
    refused_move(game, 10, (4, 5))


def test_entering_another_players_general_ends_the_move():
    game = movement_game([gen(10, 0, "Endor"), gen(20, 1, (6, 5))])
    # Around him, Shunem is still reachable over the mountains (2 + 1); (4,5) is not.
    assert H("Shunem") in legal_targets(game, 0, 10)
    assert hx(4, 5) not in legal_targets(game, 0, 10)
    move(game, 10, (6, 5))  # 1 point: two would be left
    assert points(game, 10) == 0
    assert legal_targets(game, 0, 10) == set()
    refused_move(game, 10, "Shunem")


def test_entering_a_canaanite_held_settlement_ends_the_move():
    game = movement_game([gen(10, 0, "Hammath")])
    assert game.state.settlements[S("Beth-shean")].owner == -1  # Canaanite-held
    # (6,8) is three desert/plain points from Hammath only through Beth-shean.
    assert expected_reach(H("Hammath"))[hx(6, 8)] == 3
    assert hx(6, 8) not in legal_targets(game, 0, 10)
    move(game, 10, "Beth-shean")  # 2 points
    assert points(game, 10) == 0
    assert legal_targets(game, 0, 10) == set()
    refused_move(game, 10, (6, 8))


def test_entering_a_besieged_settlement_ends_the_move_even_his_own():
    game = movement_game([gen(10, 0, "Endor")], {"Shunem": {"owner": 0, "troops": 2}}, invaders=[{"at": "Shunem"}])
    assert hx(4, 5) not in legal_targets(game, 0, 10)
    move(game, 10, "Shunem")
    assert points(game, 10) == 0
    assert legal_targets(game, 0, 10) == set()


def test_his_own_garrison_does_not_stop_him():
    game = movement_game([gen(10, 0, "Endor")], {"Shunem": {"owner": 0, "troops": 2}})
    assert hx(4, 5) in legal_targets(game, 0, 10)
    move(game, 10, "Shunem")
    assert points(game, 10) == 1
    move(game, 10, (4, 5))
    assert game.state.generals[10].hex == hx(4, 5)


def test_his_own_players_generals_do_not_stop_him():
    game = movement_game([gen(10, 0, "Endor"), gen(11, 0, (6, 5))])
    move(game, 10, (6, 5))
    assert points(game, 10) == 2
    move(game, 10, (4, 5))
    assert game.state.generals[10].hex == hx(4, 5)


def test_a_captive_is_not_a_unit_and_does_not_stop_a_move():
    # [R] rules reference: captive generals do not stop a move.
    game = movement_game([gen(10, 0, "Endor"), gen(21, 1, (6, 5), captor=2)])
    move(game, 10, (6, 5))
    assert points(game, 10) == 2


# --- A Sandstorm blocking a move ----------------------------------------------------------------


def sandstorm_game():
    return movement_game([gen(10, 0, "Hammath")], events_landed=[SANDSTORM])


def test_a_sandstorm_blocks_a_move_into_the_desert():
    game = sandstorm_game()
    assert WORLD.hexes[hx(8, 6)].terrain == "desert"
    err = refused_move(game, 10, (8, 6))
    assert "sandstorm" in err.message.lower()
    assert game.state.generals[10].hex == H("Hammath")
    assert points(game, 10) == 3
    assert all(WORLD.hexes[h].terrain != "desert" for h in legal_targets(game, 0, 10))
    move(game, 10, (8, 4))  # the plain stays open
    assert points(game, 10) == 2


def test_a_sandstorm_blocks_a_path_across_the_desert():
    # Beth-shean (plain) is two steps from Hammath; every two-step path crosses a desert hex.
    game = sandstorm_game()
    assert expected_reach(H("Hammath"))[H("Beth-shean")] == 2
    assert H("Beth-shean") not in legal_targets(game, 0, 10)
    refused_move(game, 10, "Beth-shean")


def test_a_general_in_the_desert_cannot_move_during_a_sandstorm():
    game = movement_game([gen(10, 0, "Arad")], events_landed=[SANDSTORM])
    assert all(WORLD.hexes[n].terrain == "desert" for n in WORLD.neighbours[H("Arad")])
    assert legal_targets(game, 0, 10) == set()
    refused_move(game, 10, (-1, 19))


def test_after_the_sandstorm_expires_the_desert_is_open_again():
    game = sandstorm_game()
    refused_move(game, 10, (8, 6))
    end_turns(game, until_phase="movement", until_round=2)
    assert game.state.round == 2 and game.phase_name == "movement"
    assert game.state.events_landed == []  # expired at round 2's Announcements
    turn_of(game, 0)  # round 2: players 1, 2, then 0
    assert hx(8, 6) in legal_targets(game, 0, 10)
    move(game, 10, (8, 6))
    assert game.state.generals[10].hex == hx(8, 6)
    assert points(game, 10) == 2


# --- Troops: take and leave --------------------------------------------------------------------


def test_a_general_takes_troops_from_his_owners_garrison_where_he_starts():
    game = movement_game([gen(10, 0, "Endor")], {"Endor": {"owner": 0, "troops": 3}})
    game.apply(TakeTroops(player=0, general=10, count=2))
    s = game.state.settlements[S("Endor")]
    assert (s.owner, s.troops) == (0, 1)
    assert game.state.generals[10].army == 2


def test_taking_every_troop_removes_the_garrison_but_he_still_controls_the_settlement():
    game = movement_game([gen(10, 0, "Endor")], {"Endor": {"owner": 0, "troops": 3}})
    game.apply(TakeTroops(player=0, general=10, count=3))
    s = game.state.settlements[S("Endor")]
    assert (s.owner, s.troops) == (None, 0)
    assert game.state.generals[10].army == 3
    assert settlement_controller(game.state, WORLD, S("Endor")) == 0
    move(game, 10, (6, 5))
    assert settlement_controller(game.state, WORLD, S("Endor")) is None


def test_taking_more_troops_than_the_garrison_holds_is_refused():
    game = movement_game([gen(10, 0, "Endor")], {"Endor": {"owner": 0, "troops": 3}})
    assert_refused(game, TakeTroops(player=0, general=10, count=4))
    assert_refused(game, TakeTroops(player=0, general=10, count=0))
    takes = sorted(a.count for a in game.legal_actions(0) if isinstance(a, TakeTroops))
    assert takes == [1, 2, 3]


def test_a_general_takes_troops_where_he_passes():
    # From Hammath through his own Endor (2 points), picking up troops, then on (1 point).
    game = movement_game([gen(10, 0, "Hammath")], {"Endor": {"owner": 0, "troops": 3}})
    move(game, 10, "Endor")
    game.apply(TakeTroops(player=0, general=10, count=2))
    move(game, 10, (6, 5))
    g = game.state.generals[10]
    assert (g.hex, g.army, points(game, 10)) == (hx(6, 5), 2, 0)
    assert game.state.settlements[S("Endor")].troops == 1


def test_leaving_troops_in_a_free_settlement_makes_a_garrison_of_his_owner():
    game = movement_game([gen(10, 0, "Endor", army=3)])
    move(game, 10, "Shunem")
    game.apply(LeaveTroops(player=0, general=10, count=2))
    s = game.state.settlements[S("Shunem")]
    assert (s.owner, s.troops) == (0, 2)
    assert game.state.generals[10].army == 1
    move(game, 10, (4, 5))
    # The garrison holds the settlement after he has gone.
    assert settlement_controller(game.state, WORLD, S("Shunem")) == 0


def test_leaving_troops_in_his_owners_garrison_adds_to_it():
    game = movement_game([gen(10, 0, "Endor", army=2)], {"Endor": {"owner": 0, "troops": 1}})
    game.apply(LeaveTroops(player=0, general=10, count=2))
    s = game.state.settlements[S("Endor")]
    assert (s.owner, s.troops) == (0, 3)
    assert game.state.generals[10].army == 0


def test_leaving_more_troops_than_his_army_is_refused():
    game = movement_game([gen(10, 0, "Endor", army=2)])
    assert_refused(game, LeaveTroops(player=0, general=10, count=3))


def test_no_troops_change_hands_where_his_owner_does_not_control():
    # In another player's garrison: he may neither take from it nor leave troops in it.
    game = movement_game([gen(10, 0, "Endor", army=2)], {"Shunem": {"owner": 1, "troops": 2}})
    move(game, 10, "Shunem")
    assert_refused(game, TakeTroops(player=0, general=10, count=1))
    assert_refused(game, LeaveTroops(player=0, general=10, count=1))
    assert not [a for a in game.legal_actions(0) if isinstance(a, (TakeTroops, LeaveTroops))]


def test_no_troops_are_left_outside_a_settlement():
    game = movement_game([gen(10, 0, (6, 5), army=2)])
    assert_refused(game, LeaveTroops(player=0, general=10, count=1))


# --- Control of a free settlement -----------------------------------------------------------


def test_entering_a_free_settlement_makes_it_his_while_he_stands_there():
    game = movement_game([gen(10, 0, "Endor")])
    assert settlement_controller(game.state, WORLD, S("Shunem")) is None
    move(game, 10, "Shunem")
    assert settlement_controller(game.state, WORLD, S("Shunem")) == 0
    assert game.state.settlements[S("Shunem")].owner is None  # no garrison: held by his presence
    move(game, 10, (4, 5))
    assert settlement_controller(game.state, WORLD, S("Shunem")) is None


# --- The Ark ----------------------------------------------------------------------------------


def test_a_general_picks_up_the_unattended_ark_in_a_hex_he_enters_and_drops_it():
    game = movement_game([gen(10, 0, (-2, 14))])
    assert game.state.ark_hex == H("Kiriath-jearim")
    assert not [a for a in game.legal_actions(0) if isinstance(a, PickUpArk)]
    move(game, 10, "Kiriath-jearim")  # mountains: 2 points
    assert PickUpArk(player=0, general=10) in list(game.legal_actions(0))
    game.apply(PickUpArk(player=0, general=10))
    assert game.state.generals[10].ark is True
    assert game.state.ark_hex is None
    move(game, 10, (-2, 14))  # plain: the last point
    assert game.state.generals[10].ark is True  # he carries it along
    game.apply(DropArk(player=0, general=10))
    assert game.state.generals[10].ark is False
    assert game.state.ark_hex == hx(-2, 14)


def test_a_general_picks_up_the_ark_in_the_hex_he_starts_in():
    game = movement_game([gen(10, 0, "Kiriath-jearim")])
    game.apply(PickUpArk(player=0, general=10))
    assert game.state.generals[10].ark is True
    assert game.state.ark_hex is None


def test_the_ark_cannot_be_picked_up_elsewhere():
    game = movement_game([gen(10, 0, (-2, 14))])
    assert_refused(game, PickUpArk(player=0, general=10))


def test_the_ark_carried_by_a_general_is_not_unattended():
    game = movement_game([gen(10, 0, "Shunem"), gen(11, 0, "Shunem", ark=True)])
    assert game.state.ark_hex is None
    assert_refused(game, PickUpArk(player=0, general=10))
    assert_refused(game, DropArk(player=0, general=10))  # he does not carry it


# --- Who may move ------------------------------------------------------------------------------


def test_a_captive_cannot_move():
    game = movement_game([gen(10, 0, "Endor"), gen(12, 0, "Shunem", captor=1)], {"Shunem": {"owner": 1, "troops": 2}})
    refused_move(game, 12, (6, 5))
    refused_move(game, 12, (4, 5))
    assert legal_of_general(game, 0, 12) == []
    assert game.state.generals[12].hex == H("Shunem")


def test_moving_another_players_general_is_refused():
    game = movement_game([gen(10, 0, "Endor"), gen(20, 1, "Hammath")], {"Hammath": {"owner": 1, "troops": 2}})
    # On player 0's turn, player 0 may not move player 1's general...
    refused_move(game, 20, (8, 4), player=0)
    assert_refused(game, TakeTroops(player=0, general=20, count=1))
    assert legal_of_general(game, 0, 20) == []
    # ...and player 1 may not act out of turn.
    assert_refused(game, Move(player=1, general=20, q=8, r=4), error=NotYourDecision, rule="§4")
    # On his own turn, player 1 moves him.
    turn_of(game, 1)
    assert_refused(game, Move(player=0, general=20, q=8, r=4), error=NotYourDecision, rule="§4")
    move(game, 20, (8, 4))
    assert game.state.generals[20].hex == hx(8, 4)
