"""§ 5 Phase 1 — Announcements: Wrath reconciliation, invaders, the report.

(The Anointed, succession, vacant titles and the election: test_10; events: test_11.)
"""

from __future__ import annotations

import pytest

from conftest import WORLD, R, S, end_turns, entries, make_game, settlements_on, terrain
from judges.engine import CANAANITES, ForeseeEvents, ForeseeInvasion, IllegalAction, NotYourDecision

# A position with no Canaanite left in Israel or Judah: only Philistia stays Canaanite.
NO_CANAANITES_IN_ISRAEL = {name: {"owner": None} for name in ("Acco", "Megiddo", "Beth-shean", "Gezer", "Jebus")}


# --- 5.1 Wrath ---------------------------------------------------------------------------


def test_wrath_adds_what_was_registered_last_round():
    game = make_game({"wrath": 4, "wrath_registered": 3, "settlements": NO_CANAANITES_IN_ISRAEL})
    assert game.state.wrath == 7
    assert game.state.wrath_registered == 0


def test_canaanites_in_israel_or_judah_add_one_per_round_not_per_settlement():
    # The standard setup has five Canaanite-held settlements in Israel and Judah.
    held = [
        s.name
        for s in WORLD.settlements
        if s.canaanite_start and WORLD.regions[s.region].kingdom in ("israel", "judah")
    ]
    assert len(held) >= 2
    game = make_game({"wrath": 2})
    assert game.state.wrath == 3
    line = entries(game, "wrath.reconciled")[0]
    assert line.params == {"before": 2, "registered": 0, "canaanites": 1, "after": 3}


def test_canaanites_only_in_philistia_add_nothing():
    game = make_game({"wrath": 2, "settlements": NO_CANAANITES_IN_ISRAEL})
    assert game.state.settlements[S("Gaza")].owner == CANAANITES
    assert game.state.wrath == 2


def test_a_razed_canaanite_settlement_no_longer_angers_god():
    razed = {name: {"razed": True} for name in NO_CANAANITES_IN_ISRAEL}
    game = make_game({"wrath": 2, "settlements": razed})
    assert game.state.wrath == 2


def test_wrath_reaching_13_declares_a_judgment_and_returns_to_zero():
    # 12 + 1 (Canaanites) = 13: judgment; a new pair enters by a die over the candidates.
    game = make_game({"wrath": 12}, dice=[1])
    assert game.state.judgment is True
    assert game.state.judgments == 1
    assert game.state.wrath == 0
    assert entries(game, "wrath.judgment")


def test_surplus_wrath_is_lost():
    game = make_game({"wrath": 11, "wrath_registered": 6}, dice=[1])
    assert game.state.judgment is True
    assert game.state.wrath == 0


def test_wrath_below_13_is_no_judgment():
    game = make_game({"wrath": 11})
    assert game.state.wrath == 12
    assert game.state.judgment is False
    assert game.state.invaders == []


def test_wrath_registered_during_a_round_reaches_the_meter_at_the_next_announcements():
    # A prophet carrier dies in this round's plague: +3 registered, the meter unchanged now.
    plains = [n for n in settlements_on("plain") if not WORLD.settlements[S(n)].canaanite_start]
    holdings = {plains[seat]: {"owner": seat, "troops": 1} for seat in range(3)}
    game = make_game(
        {
            "clear_board": True,
            "settlements": {**NO_CANAANITES_IN_ISRAEL, **holdings},
            "wrath": 5,
            "generals": [{"owner": 0, "at": "Kedesh", "prophet": True}],
            "events_area": ["plague"],
        },
        dice=[1],
    )  # the general's life roll: he dies
    assert terrain("Kedesh") == "mountains"
    # The prophet's owner sends the plague to the mountains (where nobody else stands).
    game.apply(ForeseeEvents(player=0, terrains=["mountains"]))
    assert game.state.wrath == 5
    assert game.state.wrath_registered == 3
    end_turns(game, until_round=2)  # phases 2..7 of round 1, to the next Announcements
    assert game.state.round == 2
    assert game.state.wrath == 8


# --- 5.2 Invaders ----------------------------------------------------------------------


def _next(name: str, direction: int) -> str:
    return WORLD.settlements[WORLD.ring_next(S(name), direction)].name


def _defended_everywhere(seat: int = 0) -> dict:
    """Every non-Canaanite settlement garrisoned by `seat`, so nothing is razed on arrival."""
    return {s.name: {"owner": seat, "troops": 1} for s in WORLD.settlements if not s.canaanite_start}


def _ring_walk(start: str, direction: int, skip: set[str]) -> str:
    current = start
    while True:
        current = _next(current, direction)
        if current not in skip:
            return current


def test_a_pair_moves_clockwise_to_the_next_settlement_and_besieges_it():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    target = _next(start, 1)
    game = make_game(
        {
            "clear_board": True,
            "settlements": _defended_everywhere(),
            "invaders": [{"at": start, "direction": "clockwise"}],
        }
    )
    pair = game.state.invaders[0]
    assert pair.at == S(target)
    assert not game.state.settlements[S(target)].razed
    assert entries(game, "invaders.besiege")[0].params["settlement"] == S(target)


def test_a_counter_clockwise_pair_moves_the_other_way():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, -1) not in canaanite)
    game = make_game(
        {
            "clear_board": True,
            "settlements": _defended_everywhere(),
            "invaders": [{"at": start, "direction": "counter-clockwise"}],
        }
    )
    assert game.state.invaders[0].at == S(_next(start, -1))


def test_invaders_skip_razed_and_besieged_settlements():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(
        s.name
        for s in WORLD.settlements
        if not s.canaanite_start
        and not {_next(s.name, 1), _next(_next(s.name, 1), 1), _next(_next(_next(s.name, 1), 1), 1)} & canaanite
    )
    first = _next(start, 1)
    second = _next(first, 1)
    third = _next(second, 1)
    position = {
        "clear_board": True,
        "settlements": {**_defended_everywhere(), first: {"razed": True}},
        "invaders": [{"at": start, "direction": "clockwise"}, {"at": second, "direction": "clockwise"}],
    }
    # Pair 0 moves first: `first` is razed, `second` is besieged by pair 1: it lands on `third`.
    # Then pair 1 moves on from `second` past `third` (now besieged by pair 0).
    game = make_game(position)
    assert game.state.invaders[0].at == S(third)
    assert game.state.invaders[1].at == S(_ring_walk(third, 1, canaanite))


def test_an_undefended_settlement_is_razed_on_arrival_without_battle():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    target = _next(start, 1)
    game = make_game({"clear_board": True, "invaders": [{"at": start}]})
    assert game.state.settlements[S(target)].razed
    assert game.state.razed_by_invaders == 1
    assert entries(game, "invaders.raid")[0].params["settlement"] == S(target)


def test_a_general_alone_defends_a_settlement_from_razing():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    target = _next(start, 1)
    game = make_game({"clear_board": True, "invaders": [{"at": start}], "generals": [{"owner": 1, "at": target}]})
    assert not game.state.settlements[S(target)].razed
    assert game.state.invaders[0].at == S(target)


def test_a_pair_that_razed_its_settlement_moves_on_from_there():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(
        s.name
        for s in WORLD.settlements
        if not s.canaanite_start and _next(s.name, 1) not in canaanite and _next(_next(s.name, 1), 1) not in canaanite
    )
    game = make_game({"clear_board": True, "settlements": {start: {"razed": True}}, "invaders": [{"at": start}]})
    assert game.state.invaders[0].at == S(_next(start, 1))


def test_razing_below_four_standing_settlements_takes_the_title_out_of_play():
    region = WORLD.regions[R("Gilead")]
    names = [WORLD.settlements[s].name for s in region.settlements]
    # Two of Gilead's settlements already razed; a pair razes a third.
    razed = {names[0]: {"razed": True}, names[1]: {"razed": True}}
    target = names[2]
    start = WORLD.settlements[WORLD.ring_next(S(target), -1)].name
    game = make_game(
        {
            "clear_board": True,
            "settlements": {**razed, start: {"owner": 0, "troops": 1}},
            "invaders": [{"at": start}],
            "titles": {"Gilead": {"owner": 1}},
        }
    )
    if game.state.settlements[S(target)].razed:
        assert game.state.titles[R("Gilead")].in_play is False
        assert game.state.titles[R("Gilead")].owner is None
    else:  # pragma: no cover - the map's ring order must make target the next stop
        pytest.fail(f"expected the pair from {start} to raze {target}")


def test_a_judgment_brings_a_new_wave_placed_by_a_die_over_standing_unbesieged_settlements():
    game = make_game({"wrath": 12, "clear_board": True}, dice=[3])
    candidates = [s for s in WORLD.ring if game.state.settlements[s].owner != CANAANITES]
    (pair,) = game.state.invaders
    assert pair.direction == 1
    assert pair.at == candidates[2]
    roll = entries(game, "invaders.entry_roll")[0].params
    assert roll == {"pair": pair.id, "die": 3, "sides": len(candidates)}
    # Undefended: razed on arrival.
    assert game.state.settlements[candidates[2]].razed


def test_hard_difficulty_brings_two_pairs_the_second_counter_clockwise():
    game = make_game({"wrath": 12}, dice=[1, 1], wave_pairs=2)
    first, second = game.state.invaders
    assert (first.direction, second.direction) == (1, -1)
    assert first.at != second.at
    assert first.wave == second.wave == 1


def test_existing_pairs_move_before_a_new_wave_enters():
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    game = make_game(
        {"wrath": 12, "clear_board": True, "settlements": _defended_everywhere(), "invaders": [{"at": start}]}, dice=[1]
    )
    old, new = game.state.invaders
    assert old.at == S(_next(start, 1))
    assert new.at != old.at  # the entry die skips the settlement the old pair now besieges


def test_with_a_prophet_in_play_its_owner_chooses_where_the_wave_enters():
    game = make_game({"wrath": 12, "generals": [{"owner": 1, "at": "Hebron", "prophet": True}]}, dice=[])
    assert [(d.player, d.kind) for d in game.pending] == [(1, "foresee_invasion")]
    legal = list(game.legal_actions(1))
    assert ForeseeInvasion(player=1, settlement="Hazor") in legal
    assert all(a.settlement != "Gaza" for a in legal)  # Canaanite-held: not a target
    game.apply(ForeseeInvasion(player=1, settlement="Hazor"))
    assert game.state.invaders[0].at == S("Hazor")


@pytest.mark.parametrize(
    "players,round_,prophets,decider",
    [
        (3, 1, (0, 2), 2),  # order 0 1 2
        (3, 2, (0, 2), 0),  # order 1 2 0
        (3, 3, (1, 2), 1),  # order 2 0 1
        (4, 4, (3, 0), 0),  # order 3 0 1 2
        (4, 2, (1, 2, 3), 3),  # order 1 2 3 0
    ],
)
def test_with_several_prophets_the_owner_last_in_this_rounds_turn_order_chooses_the_entry(
    players, round_, prophets, decider
):
    # Manual (§ 5.5): "Con varios profetas, decide el dueño que esté último en el orden de turnos
    # de la ronda" — the prophet's decision covers "dónde golpean los eventos y los invasores".
    generals = [{"owner": seat, "at": "Hebron", "prophet": True} for seat in prophets]
    game = make_game({"wrath": 12, "round": round_, "generals": generals}, dice=[], players=players)
    assert [(d.player, d.kind) for d in game.pending] == [(decider, "foresee_invasion")]
    for seat in prophets:
        if seat != decider:
            assert list(game.legal_actions(seat)) == []
            with pytest.raises(NotYourDecision):
                game.apply(ForeseeInvasion(player=seat, settlement="Hazor"))
    game.apply(ForeseeInvasion(player=decider, settlement="Hazor"))
    assert game.state.invaders[0].at == S("Hazor")


def test_with_several_prophets_the_last_in_turn_order_places_both_pairs_of_a_hard_wave():
    # Round 2 with 3 players: order 1 2 0, so player 0 (last) places each pair.
    generals = [{"owner": 0, "at": "Hebron", "prophet": True}, {"owner": 1, "at": "Hebron", "prophet": True}]
    game = make_game({"wrath": 12, "round": 2, "generals": generals}, dice=[], wave_pairs=2)
    assert [(d.player, d.kind) for d in game.pending] == [(0, "foresee_invasion")]
    game.apply(ForeseeInvasion(player=0, settlement="Hazor"))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "foresee_invasion")]
    game.apply(ForeseeInvasion(player=0, settlement="Kedesh"))
    assert [p.at for p in game.state.invaders] == [S("Hazor"), S("Kedesh")]


def test_the_prophet_cannot_send_invaders_to_a_besieged_settlement():
    game = make_game(
        {
            "wrath": 12,
            "generals": [{"owner": 1, "at": "Hebron", "prophet": True}],
            "settlements": {"Hazor": {"owner": 0, "troops": 2}, "Kedesh": {"owner": 0, "troops": 2}},
            "invaders": [{"at": "Hazor"}],
        }
    )
    besieged = game.state.invaders[0].at
    name = WORLD.settlements[besieged].name
    before = game.state_json()
    with pytest.raises(IllegalAction, match="§13"):
        game.apply(ForeseeInvasion(player=1, settlement=name))
    assert game.state_json() == before


# --- The report -------------------------------------------------------------------------


def test_announcements_report_goes_to_every_living_player_with_every_die():
    game = make_game(
        {"wrath": 12, "events_area": ["famine"], "players": [{"seat": 2, "eliminated": True}]}, dice=[2, 1]
    )
    (note,) = [n for n in game.notifications if n.key == "notification.announcements"]
    assert note.to == [0, 1]
    keys = [e.key for e in note.entries]
    assert "wrath.judgment" in keys and "invaders.entry_roll" in keys and "events.roll" in keys
    assert entries(game, "events.roll")[0].params == {"card": "famine", "die": 1, "terrain": "plain"}


def test_the_phase_does_not_end_until_every_owed_decision_is_made():
    game = make_game({"wrath": 12, "generals": [{"owner": 1, "at": "Hebron", "prophet": True}]})
    assert game.phase_name == "announcements"
    assert not any(n.key == "notification.announcements" for n in game.notifications)


# --- Manual coverage (docs/manual-coverage.md) -------------------------------------------


def test_announcements_is_the_first_of_the_seven_phases_of_a_round():
    # Manual A3: Announcements is the first of the round's seven phases.
    from judges.engine import PHASES

    assert len(PHASES) == 7 and PHASES[0] == "announcements"
    holdings = {
        "Hazor": {"owner": 0, "troops": 2},
        "Kedesh": {"owner": 1, "troops": 2},
        "Merom": {"owner": 2, "troops": 2},
    }
    game = make_game(
        {
            "clear_board": True,
            "settlements": holdings,
            "events_area": ["abundance"],
            "generals": [{"id": 1, "owner": 0, "at": "Hazor", "prophet": True}],
        }
    )
    # Round 1 opens with Announcements: the prophet's choice is owed in phase 1.
    assert (game.state.round, game.state.phase, game.phase_name) == (1, 1, "announcements")
    game.apply(ForeseeEvents(player=0, terrains=["plain"]))
    end_turns(game, until_round=2)
    assert game.state.round == 2
    round_1 = [n for n in game.notifications if n.round == 1]
    round_2 = [n for n in game.notifications if n.round == 2]
    assert (round_1[0].key, round_1[0].phase) == ("notification.announcements", "announcements")
    assert (round_1[-1].key, round_1[-1].phase) == ("notification.round_report", "victory")
    assert (round_2[0].key, round_2[0].phase) == ("notification.announcements", "announcements")


FOUR_DECISIONS = {"foresee_invasion", "foresee_events", "vote", "appoint_judge", "succession"}


@pytest.mark.parametrize(
    "position,expected",
    [
        # Judgment + prophet (👁 invaders), a vacant title (⚖), two judges and no King (🗳), events (👁).
        (
            {
                "wrath": 12,
                "events_area": ["abundance"],
                "generals": [
                    {"id": 1, "owner": 0, "at": "Hazor"},
                    {"id": 2, "owner": 1, "at": "Acco"},
                    {"id": 3, "owner": 2, "at": "Hebron", "prophet": True},
                    {"id": 4, "owner": 2, "at": "Keilah"},
                ],
                "titles": {"Naphtali": {"holder": 1}, "Asher": {"holder": 2}, "Judah": {"owner": 2}},
            },
            {"foresee_invasion", "appoint_judge", "vote", "foresee_events"},
        ),
        # The King died (👑), then events with a prophet (👁).
        (
            {
                "events_area": ["famine"],
                "succession_owner": 1,
                "generals": [
                    {"id": 1, "owner": 1, "at": "Hazor"},
                    {"id": 3, "owner": 2, "at": "Hebron", "prophet": True},
                ],
            },
            {"succession", "foresee_events"},
        ),
    ],
    ids=["prophet_title_vote_events", "succession_events"],
)
def test_announcements_stops_only_for_the_four_decisions(position, expected):
    # Manual A7: the phase only stops for four decisions ("Son cuatro"): the prophet's
    # decision (where events and invaders strike), a vote, a judge's appointment, the succession.
    game = make_game({"clear_board": True, **position}, dice=[])
    seen = set()
    while game.phase_name == "announcements":
        assert game.pending, "Announcements stopped with nothing owed"
        kinds = {d.kind for d in game.pending}
        assert kinds <= FOUR_DECISIONS, kinds
        seen |= kinds
        decision = game.pending[0]
        game.apply(next(iter(game.legal_actions(decision.player))))
    assert seen == expected
    assert any(n.key == "notification.announcements" for n in game.notifications)


def test_canaanite_presence_adds_one_wrath_every_round():
    # Manual A17-A18: +1 Wrath "por ronda" while Canaanites hold Israel or Judah: round after
    # round, nothing else registered.
    holdings = {
        "Hazor": {"owner": 0, "troops": 2},
        "Kedesh": {"owner": 1, "troops": 2},
        "Merom": {"owner": 2, "troops": 2},
    }
    game = make_game({"clear_board": True, "settlements": holdings})
    assert game.state.wrath == 1
    end_turns(game, until_round=2)
    assert (game.state.round, game.state.wrath) == (2, 2)
    end_turns(game, until_round=3)
    assert (game.state.round, game.state.wrath) == (3, 3)
    lines = entries(game, "wrath.reconciled")
    assert [line.params["canaanites"] for line in lines] == [1, 1, 1]


def test_a_single_canaanite_settlement_in_israel_or_judah_is_enough():
    # Manual A17, "al menos un asentamiento": only Jebus (Benjamin, Judah) is still Canaanite-held.
    freed = {name: {"owner": None} for name in ("Acco", "Megiddo", "Beth-shean", "Gezer")}
    game = make_game({"wrath": 2, "settlements": freed})
    assert game.state.settlements[S("Jebus")].owner == CANAANITES
    assert game.state.wrath == 3


def test_default_difficulty_brings_one_pair_per_wave_and_every_pair_goes_clockwise():
    # Manual A21: on the default difficulty (1 pair per wave) every pair goes clockwise.
    # The options leave wave_pairs at its default.
    from judges.engine.scenario import build_game

    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    game = build_game(
        {
            "options": {"players": 3, "seed": 0},
            "position": {
                "wrath": 12,
                "clear_board": True,
                "settlements": _defended_everywhere(),
                "invaders": [{"at": start, "wave": 1}],
            },
            "dice": [1],
        }
    )
    assert game.state.options.wave_pairs == 1
    old, new = game.state.invaders  # one pair already on the board, one pair entered
    assert [p.direction for p in game.state.invaders] == [1, 1]
    assert old.at == S(_next(start, 1))
    assert entries(game, "invaders.wave")[0].params["pairs"] == 1


def test_the_phase_resolves_its_steps_in_the_manuals_order():
    # Manual A14: the steps in order: 1 Wrath, 2 invaders move (then the new pair), 3 the Anointed,
    # 4 last round's events expire, 5 new events land.
    canaanite = {s.name for s in WORLD.settlements if s.canaanite_start}
    start = next(s.name for s in WORLD.settlements if not s.canaanite_start and _next(s.name, 1) not in canaanite)
    game = make_game(
        {
            "wrath": 12,
            "clear_board": True,
            "settlements": _defended_everywhere(),
            "invaders": [{"at": start}],
            "generals": [{"id": 1, "owner": 0, "at": "Hazor", "anointed": True}],
            "events_landed": [{"card": "abundance", "terrain": "plain"}],
            "events_area": ["famine"],
        },
        dice=[1, 3],
    )  # the entering pair's die, then the famine's d6 (3: mountains)
    keys = [e.key for e in entries(game)]
    order = [
        "wrath.reconciled",
        "wrath.judgment",
        "invaders.besiege",
        "invaders.entry_roll",
        "king.crowned",
        "events.expired",
        "events.roll",
        "events.landed",
    ]
    positions = [keys.index(k) for k in order]
    assert positions == sorted(positions), list(zip(order, positions))
    assert game.state.king == 1
    assert [(e.card, e.terrain) for e in game.state.events_landed] == [("famine", "mountains")]


def test_taxes_assassinations_and_mercenaries_of_a_round_reach_the_meter_at_the_next_announcements():
    # Manual A15-A16: the meter adds what the previous round registered (mercenaries,
    # assassinations, plunder, prophets killed, taxes), so it rises one round late. Round 1:
    # player 1's Assassin kills general 11 (d6 6: +2), player 2 plays a Tax (+1), player 0 hires
    # a mercenary (+1). (Prophets killed: the test above;
    # plunder: Combat's tests.)
    from judges.engine import Buy, EndTurn, PlayAssassin, PlayTax

    holdings = {
        "Hazor": {"owner": 0, "troops": 2},
        "Kedesh": {"owner": 1, "troops": 2},
        "Merom": {"owner": 2, "troops": 2},
    }
    game = make_game(
        {
            "clear_board": True,
            "settlements": holdings,
            "players": [{"seat": 1, "hand": ["assassin"]}, {"seat": 2, "hand": ["tax"]}],
            "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 11, "owner": 0, "at": "Hazor"}],
        },
        dice=[6],
    )
    assert game.state.wrath == 1  # round 1: the Canaanites' +1 only
    assert (game.phase_name, game.waiting_for()) == ("intrigue", [0])
    game.apply(EndTurn(player=0))
    game.apply(PlayAssassin(player=1, target=11))
    game.apply(EndTurn(player=1))
    game.apply(PlayTax(player=2, region="Gilead"))
    game.apply(EndTurn(player=2))
    assert game.phase_name == "acquisitions"
    game.apply(Buy(player=0, item="mercenary", general=10))
    assert 11 not in game.state.generals
    assert game.state.wrath_registered == 2 + 1 + 1
    assert game.state.wrath == 1  # nothing reaches the meter during the round
    end_turns(game, until_round=2)
    assert game.state.round == 2
    assert game.state.wrath == 1 + 4 + 1
    assert game.state.wrath_registered == 0
    line = entries(game, "wrath.reconciled")[-1]
    assert line.params == {"before": 1, "registered": 4, "canaanites": 1, "after": 6}
