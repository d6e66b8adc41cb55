"""§ 14 Phase 7 — Victory Check (owner's manual, "Fase 7 — Comprobación de Victoria"; binding).

Positions start at phase "victory" on a cleared board (`clear_board`: no player holdings,
no generals; Canaanite holdings stay), so the Victory Check runs at once. Unless a test is
about elimination, every player is given a settlement of their own so that nobody is
eliminated by accident. Scores are read from the Round report.
"""

from __future__ import annotations

from conftest import WORLD, H, S, entries, make_game
from judges.engine import Decision, EndTurn, Vote

# One village each, in regions no test below razes or taxes.
HOLDINGS = {
    "Chinnereth": {"owner": 0, "troops": 1},
    "Lachish": {"owner": 1, "troops": 1},
    "Arad": {"owner": 2, "troops": 1},
}


def victory_position(settlements: dict | None = None, round_: int = 2, holdings: bool = True, **extra) -> dict:
    base = dict(HOLDINGS) if holdings else {}
    base.update(settlements or {})
    return {"clear_board": True, "round": round_, "phase": "victory", "settlements": base, **extra}


def round_report(game, round_: int = 2):
    notes = [n for n in game.notifications if n.key == "notification.round_report" and n.round == round_]
    assert len(notes) == 1, notes
    return notes[0]


def scores(game, round_: int = 2) -> dict[int, int]:
    return {int(seat): s["total"] for seat, s in round_report(game, round_).params["scores"].items()}


def region_names(name: str) -> list[str]:
    return [WORLD.settlements[i].name for i in WORLD.regions[WORLD.region_by_name[name]].settlements]


def assert_no_winner_yet(game, round_: int = 2) -> None:
    assert not game.is_over
    assert game.state.ending is None
    assert game.state.winners == []
    assert game.state.round == round_ + 1


# --- The phase itself ----------------------------------------------------------------------


def test_without_a_winner_the_next_round_begins():
    game = make_game(victory_position())
    assert_no_winner_yet(game)
    # The check asked nothing of anyone: the game went on through the next Announcements.
    assert game.phase_name == "intrigue"


def test_the_phase_stops_only_when_someone_wins():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}, "Ephraim": {"holder": 10}},
        )
    )
    assert game.is_over
    assert game.state.round == 2
    assert game.phase_name == "victory"
    assert game.pending == []
    assert list(game.legal_actions()) == []


# --- Custody of captives ------------------------------------------------------------------


def test_captive_stays_with_a_captor_who_still_controls_the_hex():
    game = make_game(
        victory_position(
            {"Shiloh": {"owner": 1, "troops": 2}}, generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}]
        )
    )
    assert game.state.generals[10].captor == 1


def test_captive_stays_with_a_captor_whose_general_controls_the_hex():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}, {"id": 20, "owner": 1, "at": "Shiloh"}]
        )
    )
    assert game.state.generals[10].captor == 1


def test_captive_passes_to_the_new_controller_of_the_hex():
    game = make_game(
        victory_position(
            {"Shiloh": {"owner": 2, "troops": 2}}, generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}]
        )
    )
    g = game.state.generals[10]
    assert g.captor == 2
    assert g.hex == H("Shiloh")  # captives never move


def test_captive_goes_free_when_the_controller_is_his_own_player():
    game = make_game(
        victory_position(
            {"Shiloh": {"owner": 0, "troops": 2}}, generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}]
        )
    )
    g = game.state.generals[10]
    assert g.captor is None
    assert g.hex == H("Shiloh")


def test_captive_goes_free_when_nobody_controls_the_hex():
    game = make_game(victory_position(generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}]))
    g = game.state.generals[10]
    assert g.captor is None
    assert g.hex == H("Shiloh")


def test_custody_is_reconciled_before_eliminations():
    # Player 2 has no settlement; his only general is a captive on a hex nobody controls.
    # Freed first, he is a free general at the count: player 2 is not eliminated.
    holdings = {k: v for k, v in HOLDINGS.items() if v["owner"] != 2}
    game = make_game(
        victory_position(holdings, holdings=False, generals=[{"id": 30, "owner": 2, "at": "Shiloh", "captor": 1}])
    )
    assert game.state.generals[30].captor is None
    assert game.state.players[2].eliminated is False
    assert_no_winner_yet(game)


# --- Victory points --------------------------------------------------------------------------


def test_each_judge_title_held_by_a_living_general_scores_one_point():
    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shechem"},
                {"id": 20, "owner": 1, "at": "Lachish"},
            ],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 11}, "Judah": {"holder": 20}},
        )
    )
    assert scores(game) == {0: 2, 1: 1, 2: 0}
    assert_no_winner_yet(game)


def test_several_titles_on_one_general_each_score():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}},
        )
    )
    assert scores(game) == {0: 2, 1: 0, 2: 0}


def test_captive_judge_still_scores():
    # General 12 (player 0) is Judge of Ephraim and a captive of player 1 at Lachish, which
    # player 1 controls: the point is still player 0's, not the captor's.
    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shechem"},
                {"id": 12, "owner": 0, "at": "Lachish", "captor": 1},
            ],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 11}, "Ephraim": {"holder": 12}},
        )
    )
    assert game.state.generals[12].captor == 1
    assert scores(game) == {0: 3, 1: 0, 2: 0}
    assert game.is_over
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_vacant_title_scores_nothing():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}, "Ephraim": {"owner": 0}},
        )
    )
    assert game.state.titles[WORLD.region_by_name["Ephraim"]].holder is None
    assert scores(game) == {0: 2, 1: 0, 2: 0}
    assert_no_winner_yet(game)


def test_title_out_of_play_scores_nothing():
    # Ephraim is down to 3 standing settlements: its title has left play.
    ephraim = region_names("Ephraim")
    razed = {name: {"razed": True} for name in ephraim[-2:]}
    game = make_game(
        victory_position(
            razed,
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={
                "Naphtali": {"holder": 10},
                "Manasseh": {"holder": 10},
                "Ephraim": {"holder": 10, "in_play": False},
            },
        )
    )
    assert scores(game) == {0: 2, 1: 0, 2: 0}
    assert_no_winner_yet(game)


def test_king_scores_one_point():
    game = make_game(victory_position(generals=[{"id": 20, "owner": 1, "at": "Lachish"}], king=20))
    assert scores(game) == {0: 0, 1: 1, 2: 0}
    assert_no_winner_yet(game)


def test_king_who_is_also_a_judge_scores_for_both_titles():
    game = make_game(
        victory_position(generals=[{"id": 20, "owner": 1, "at": "Lachish"}], king=20, titles={"Judah": {"holder": 20}})
    )
    assert scores(game) == {0: 0, 1: 2, 2: 0}


def test_captive_king_still_reigns_and_scores():
    game = make_game(victory_position(generals=[{"id": 20, "owner": 1, "at": "Chinnereth", "captor": 0}], king=20))
    assert game.state.generals[20].captor == 0
    assert scores(game) == {0: 0, 1: 1, 2: 0}


def test_no_king_no_king_point():
    game = make_game(victory_position(generals=[{"id": 20, "owner": 1, "at": "Lachish"}], king=None))
    assert scores(game) == {0: 0, 1: 0, 2: 0}


def test_tabernacle_scores_while_the_ark_carrier_stands_on_shiloh():
    assert H("Shiloh") == WORLD.tabernacle_hex
    game = make_game(victory_position(generals=[{"id": 30, "owner": 2, "at": "Shiloh", "ark": True}]))
    assert scores(game) == {0: 0, 1: 0, 2: 1}


def test_ark_carrier_away_from_the_tabernacle_scores_nothing():
    assert H("Bethel") != WORLD.tabernacle_hex
    game = make_game(victory_position(generals=[{"id": 30, "owner": 2, "at": "Bethel", "ark": True}]))
    assert scores(game) == {0: 0, 1: 0, 2: 0}


def test_general_on_the_tabernacle_without_the_ark_scores_nothing():
    # The Ark lies unattended on Shiloh; player 2's general stands there without carrying it.
    game = make_game(victory_position(generals=[{"id": 30, "owner": 2, "at": "Shiloh"}], ark="Shiloh"))
    assert game.state.ark_hex == H("Shiloh")
    assert scores(game) == {0: 0, 1: 0, 2: 0}


def test_judge_king_and_tabernacle_make_three_points_and_win():
    game = make_game(
        victory_position(
            generals=[{"id": 20, "owner": 1, "at": "Lachish"}, {"id": 21, "owner": 1, "at": "Shiloh", "ark": True}],
            king=20,
            titles={"Judah": {"holder": 20}},
        )
    )
    assert scores(game) == {0: 0, 1: 3, 2: 0}
    assert game.is_over
    assert game.state.ending == "three_points"
    assert game.state.winners == [1]


# --- Winning -------------------------------------------------------------------------------


def test_three_judge_titles_win():
    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shechem"},
                {"id": 12, "owner": 0, "at": "Bethel"},
            ],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 11}, "Ephraim": {"holder": 12}},
        )
    )
    assert game.is_over
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_more_than_three_points_also_wins():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 11, "owner": 0, "at": "Shiloh", "ark": True}],
            king=10,
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}},
        )
    )
    assert scores(game)[0] == 4
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_two_points_do_not_win():
    game = make_game(
        victory_position(generals=[{"id": 10, "owner": 0, "at": "Hazor"}], king=10, titles={"Naphtali": {"holder": 10}})
    )
    assert scores(game)[0] == 2
    assert_no_winner_yet(game)


def _two_players_at_three_points(extra_settlements: dict) -> dict:
    # Player 0: three judges standing on Hazor, Kedesh and Merom (3 settlements + Chinnereth = 4).
    # Player 1: three judges standing on Hebron and Keilah (2 settlements + Lachish = 3).
    return victory_position(
        extra_settlements,
        generals=[
            {"id": 10, "owner": 0, "at": "Hazor"},
            {"id": 11, "owner": 0, "at": "Kedesh"},
            {"id": 12, "owner": 0, "at": "Merom"},
            {"id": 20, "owner": 1, "at": "Hebron"},
            {"id": 21, "owner": 1, "at": "Keilah"},
            {"id": 22, "owner": 1, "at": "Keilah"},
        ],
        titles={
            "Naphtali": {"holder": 10},
            "Manasseh": {"holder": 11},
            "Ephraim": {"holder": 12},
            "Judah": {"holder": 20},
            "Benjamin": {"holder": 21},
            "Negev": {"holder": 22},
        },
    )


def test_tie_at_three_points_is_broken_by_settlements_controlled():
    game = make_game(_two_players_at_three_points({}))
    assert scores(game) == {0: 3, 1: 3, 2: 0}
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_tie_broken_in_favour_of_the_player_with_more_settlements_whoever_sits_first():
    # Player 1 gets two more garrisons (Debir, Bethlehem): 5 settlements against 4.
    game = make_game(
        _two_players_at_three_points({"Debir": {"owner": 1, "troops": 1}, "Bethlehem": {"owner": 1, "troops": 1}})
    )
    assert game.state.ending == "three_points"
    assert game.state.winners == [1]


def test_tie_on_points_and_settlements_is_a_shared_victory():
    # Player 1 gets one more garrison (Debir): 4 settlements each.
    game = make_game(_two_players_at_three_points({"Debir": {"owner": 1, "troops": 1}}))
    assert game.is_over
    assert game.state.ending == "three_points"
    assert sorted(game.state.winners) == [0, 1]


# --- The other endings ------------------------------------------------------------------------


def test_last_one_standing_wins():
    # Players 1 and 2 have nothing left: both are eliminated, player 0 survives alone.
    game = make_game(victory_position({"Chinnereth": {"owner": 0, "troops": 1}}, holdings=False))
    assert game.is_over
    assert game.state.ending == "last_standing"
    assert game.state.winners == [0]


def test_last_one_standing_after_an_earlier_elimination():
    game = make_game(
        victory_position(
            {"Chinnereth": {"owner": 0, "troops": 1}, "Lachish": {"owner": 2, "troops": 1}},
            holdings=False,
            players=[{"seat": 1, "eliminated": True}],
            generals=[{"id": 30, "owner": 2, "at": "Merom", "captor": 0}, {"id": 10, "owner": 0, "at": "Merom"}],
        )
    )
    # Player 1 fell in an earlier round. Player 2 still holds Lachish: he stays, no ending yet.
    assert not game.is_over
    assert game.state.players[2].eliminated is False
    # Without Lachish, player 2 (his only general a captive) falls now: player 0 is the last
    # one standing.
    game = make_game(
        victory_position(
            {"Chinnereth": {"owner": 0, "troops": 1}},
            holdings=False,
            players=[{"seat": 1, "eliminated": True}],
            generals=[{"id": 30, "owner": 2, "at": "Merom", "captor": 0}, {"id": 10, "owner": 0, "at": "Merom"}],
        )
    )
    assert game.state.ending == "last_standing"
    assert game.state.winners == [0]


def _collapse_position(sustaining: list[str], extra: dict | None = None, **kw) -> dict:
    # Every region outside `sustaining` keeps only 3 standing settlements (the last two razed).
    razed = {}
    for region in WORLD.regions:
        if region.name not in sustaining:
            for i in region.settlements[-2:]:
                razed[WORLD.settlements[i].name] = {"razed": True}
    # Holdings in Naphtali and Manasseh only.
    holdings = {
        "Chinnereth": {"owner": 0, "troops": 1},
        "Dothan": {"owner": 1, "troops": 1},
        "Tirzah": {"owner": 2, "troops": 1},
    }
    return victory_position({**razed, **holdings, **(extra or {})}, holdings=False, **kw)


def test_collapse_of_the_regions_everyone_loses_even_with_three_points():
    # Only Naphtali and Manasseh can still sustain a judge (fewer than 3 regions).
    game = make_game(
        _collapse_position(
            ["Naphtali", "Manasseh"],
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 11, "owner": 0, "at": "Shechem"}],
            king=10,
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 11}},
        )
    )
    assert scores(game)[0] == 3
    assert game.is_over
    assert game.state.ending == "collapse"
    assert game.state.winners == []


def test_collapse_of_the_regions_without_anyone_at_three_points():
    game = make_game(_collapse_position(["Naphtali", "Manasseh"]))
    assert game.state.ending == "collapse"
    assert game.state.winners == []


def test_collapse_of_the_regions_everyone_loses_even_the_last_one_standing():
    # Owner's ruling (issue 33): collapse comes first. Players 1 and 2 fall at this check, which
    # would leave player 0 the last one standing; but only Naphtali and Manasseh sustain a judge.
    razed = {k: v for k, v in _collapse_position(["Naphtali", "Manasseh"])["settlements"].items() if v.get("razed")}
    game = make_game(victory_position({**razed, "Chinnereth": {"owner": 0, "troops": 1}}, holdings=False))
    assert [p.eliminated for p in game.state.players] == [False, True, True]
    assert game.is_over
    assert game.state.ending == "collapse"
    assert game.state.winners == []


def test_three_regions_sustaining_a_judge_is_no_collapse():
    # Naphtali, Manasseh (5 standing) and Ephraim (4 standing) still sustain a judge.
    ephraim = region_names("Ephraim")
    game = make_game(_collapse_position(["Naphtali", "Manasseh", "Ephraim"], {ephraim[-1]: {"razed": True}}))
    assert sum(1 for s in ephraim if not game.state.settlements[S(s)].razed) == 4
    assert_no_winner_yet(game)


def test_three_regions_sustaining_a_judge_let_three_points_win():
    game = make_game(
        _collapse_position(
            ["Naphtali", "Manasseh", "Ephraim"],
            {region_names("Ephraim")[-1]: {"razed": True}},
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 11, "owner": 0, "at": "Shechem"}],
            king=10,
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 11}},
        )
    )
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_general_elimination_has_no_winner():
    # Nobody has a settlement or a free general: all three fall in the same round.
    game = make_game(victory_position(holdings=False))
    assert game.is_over
    assert game.state.ending == "general_elimination"
    assert game.state.winners == []


def test_general_elimination_of_the_last_two_active_players():
    # Player 1 fell in an earlier round; players 0 and 2 now have nothing left, both at once.
    game = make_game(victory_position(holdings=False, players=[{"seat": 1, "eliminated": True}]))
    assert game.is_over
    assert game.state.ending == "general_elimination"
    assert game.state.winners == []


# --- Elimination ------------------------------------------------------------------------------


def _player_2_falls(round_: int = 2) -> dict:
    # Player 2's only general is a captive of player 1 in Lachish, which player 1 holds.
    holdings = {k: v for k, v in HOLDINGS.items() if v["owner"] != 2}
    return victory_position(
        holdings, round_=round_, holdings=False, generals=[{"id": 30, "owner": 2, "at": "Lachish", "captor": 1}]
    )


def test_player_with_no_settlement_and_only_captive_generals_is_eliminated():
    game = make_game(_player_2_falls())
    assert game.state.players[2].eliminated is True
    assert [p.eliminated for p in game.state.players[:2]] == [False, False]
    assert_no_winner_yet(game)


def test_player_with_a_free_general_but_no_settlement_is_not_eliminated():
    # Player 2's general stands free in player 1's garrisoned Lachish.
    holdings = {k: v for k, v in HOLDINGS.items() if v["owner"] != 2}
    game = make_game(victory_position(holdings, holdings=False, generals=[{"id": 30, "owner": 2, "at": "Lachish"}]))
    assert game.state.players[2].eliminated is False


def test_player_with_a_settlement_but_no_general_is_not_eliminated():
    game = make_game(victory_position())
    assert game.state.generals == {}
    assert [p.eliminated for p in game.state.players] == [False, False, False]


def test_player_holding_a_settlement_by_a_general_alone_is_not_eliminated():
    holdings = {k: v for k, v in HOLDINGS.items() if v["owner"] != 2}
    game = make_game(victory_position(holdings, holdings=False, generals=[{"id": 30, "owner": 2, "at": "Hazor"}]))
    assert game.state.players[2].eliminated is False


def test_elimination_is_announced_at_the_next_announcements():
    game = make_game(_player_2_falls())
    notes = [n for n in game.notifications if n.key == "notification.eliminated"]
    assert len(notes) == 1
    note = notes[0]
    # Decided at round 2's Victory Check, announced at round 3's Announcements, to everyone.
    assert (note.round, note.phase) == (3, "announcements")
    assert note.params["player"] == 2
    assert sorted(note.to) == [0, 1, 2]
    lines = entries(game, "player.eliminated")
    assert [line.params["player"] for line in lines] == [2]
    announcements = [n for n in game.notifications if n.key == "notification.announcements"]
    assert [n.round for n in announcements if any(e.key == "player.eliminated" for e in n.entries)] == [3]


def test_eliminated_player_owes_no_turn_and_is_skipped_in_turn_order():
    # Round 3 would start with the player at seat (3 - 1) mod 3 = 2: he is skipped.
    game = make_game(_player_2_falls())
    turns = []
    while game.state.round == 3 and not game.is_over:
        pending = game.pending
        assert pending and all(d.kind == "turn" for d in pending)
        assert 2 not in game.waiting_for()
        turns.append((game.phase_name, pending[0].player))
        game.apply(EndTurn(player=pending[0].player))
    for phase in ("intrigue", "acquisitions", "movement"):
        assert [p for ph, p in turns if ph == phase] == [0, 1]
    assert all(p != 2 for _, p in turns)


def test_elimination_is_announced_only_once():
    game = make_game(_player_2_falls())
    while game.state.round < 5 and not game.is_over:
        pending = game.pending
        game.apply(EndTurn(player=pending[0].player))
    assert len([n for n in game.notifications if n.key == "notification.eliminated"]) == 1


def test_an_eliminated_players_captive_king_loses_the_crown_at_the_announcement():
    # Owner's ruling (issue 33): player 2's King (general 30) is a captive of player 1. Player 2
    # falls at this check; at the next Announcements the King stops being King, the throne is
    # vacant, and the free judges of players 0 and 1 stand in an election.
    position = _player_2_falls()
    position["generals"] += [{"id": 10, "owner": 0, "at": "Chinnereth"}, {"id": 20, "owner": 1, "at": "Lachish"}]
    position.update(king=30, titles={"Naphtali": {"holder": 10}, "Judah": {"holder": 20}})
    game = make_game(position)
    assert game.state.players[2].eliminated is True
    assert game.state.king is None
    assert (game.state.round, game.phase_name) == (3, "announcements")
    assert game.state.generals[30].captor == 1
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "vote"), (1, "vote")]
    game.apply(Vote(player=0, candidate=20))
    game.apply(Vote(player=1, candidate=20))
    assert game.state.king == 20
    assert [line.params["general"] for line in entries(game, "king.deposed")] == [30]


# --- Round limit ------------------------------------------------------------------------------


def test_round_limit_ends_the_game_without_a_winner():
    game = make_game(victory_position(round_=5), round_limit=5)
    assert game.is_over
    assert game.state.ending == "round_limit"
    assert game.state.winners == []


def test_rounds_before_the_limit_go_on():
    game = make_game(victory_position(round_=4), round_limit=5)
    assert_no_winner_yet(game, round_=4)


def test_no_round_limit_by_default():
    game = make_game(victory_position(round_=60))
    assert_no_winner_yet(game, round_=60)


def test_three_points_in_the_last_round_still_win():
    game = make_game(
        victory_position(
            round_=5,
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}, "Ephraim": {"holder": 10}},
        ),
        round_limit=5,
    )
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


# --- Round report ------------------------------------------------------------------------------


def test_round_report_goes_to_each_player_with_the_scores():
    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shiloh", "ark": True},
                {"id": 20, "owner": 1, "at": "Lachish"},
            ],
            king=20,
            titles={"Naphtali": {"holder": 10}},
        )
    )
    note = round_report(game)
    assert note.phase == "victory"
    for seat in range(3):
        assert (
            len([n for n in game.notifications_for(seat) if n.key == "notification.round_report" and n.round == 2]) == 1
        )
    assert scores(game) == {0: 2, 1: 1, 2: 0}
    detail = {int(k): v for k, v in note.params["scores"].items()}
    assert (detail[0]["judges"], detail[0]["king"], detail[0]["tabernacle"]) == (1, 0, 1)
    assert (detail[1]["judges"], detail[1]["king"], detail[1]["tabernacle"]) == (0, 1, 0)


def test_round_report_goes_to_eliminated_players_too():
    # Manual: "una notificación de Informe de la Ronda para cada jugador" — an eliminated player
    # stays at the table as a spectator. Player 2 fell in an earlier round.
    holdings = {k: v for k, v in HOLDINGS.items() if v["owner"] != 2}
    game = make_game(victory_position(holdings, holdings=False, players=[{"seat": 2, "eliminated": True}]))
    note = round_report(game)
    assert sorted(note.to) == [0, 1, 2]
    assert any(n.key == "notification.round_report" for n in game.notifications_for(2))


def test_round_report_goes_to_a_player_eliminated_in_this_check():
    game = make_game(_player_2_falls())
    assert game.state.players[2].eliminated is True
    assert sorted(round_report(game).to) == [0, 1, 2]


def test_round_report_is_written_in_the_winning_round_too():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Hazor"}],
            titles={"Naphtali": {"holder": 10}, "Manasseh": {"holder": 10}, "Ephraim": {"holder": 10}},
        )
    )
    assert game.is_over
    assert scores(game) == {0: 3, 1: 0, 2: 0}
    for seat in range(3):
        assert any(n.key == "notification.round_report" for n in game.notifications_for(seat))


def test_round_report_lists_custody_changes():
    game = make_game(victory_position(generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}]))
    note = round_report(game)
    assert any(e.params.get("general") == 10 for e in note.entries)


# --- Manual coverage (docs/manual-coverage.md) -------------------------------------------


def test_captive_passes_to_the_player_whose_general_now_controls_the_hex():
    # No garrison on Shiloh: player 2's free general controls it, not the captor (player 1).
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}, {"id": 30, "owner": 2, "at": "Shiloh"}]
        )
    )
    g = game.state.generals[10]
    assert g.captor == 2
    assert g.hex == H("Shiloh")


def test_captive_goes_free_when_his_own_players_general_controls_the_hex():
    game = make_game(
        victory_position(
            generals=[{"id": 10, "owner": 0, "at": "Shiloh", "captor": 1}, {"id": 11, "owner": 0, "at": "Shiloh"}]
        )
    )
    assert game.state.generals[10].captor is None
    assert game.state.generals[10].hex == H("Shiloh")


def test_nothing_but_judge_titles_the_king_and_the_tabernacle_scores():
    # Manual B34, "exactamente tres fuentes": a whole region, coins, generals and relics score nothing.
    naphtali = {name: {"owner": 0, "troops": 3, "developments": 1} for name in region_names("Naphtali")}
    game = make_game(
        victory_position(
            naphtali,
            players=[{"seat": 0, "coins": 40}],
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor", "prophet": True},
                {"id": 11, "owner": 0, "at": "Kedesh", "anointed": True},
                {"id": 12, "owner": 0, "at": "Bethel", "ark": True},
            ],
        )
    )
    assert scores(game) == {0: 0, 1: 0, 2: 0}
    assert_no_winner_yet(game)


def test_a_higher_score_wins_outright_without_the_settlement_tiebreak():
    # Manual B43: the settlement tie-break applies when several players reach "la puntuación
    # máxima" (the top score), under the heading "Empates" (ties). Player 0 has 4 points and 3
    # settlements (Chinnereth, Hazor, Shiloh); player 1 has 3 points and 5 settlements
    # (Lachish, Hebron, Keilah, Debir, Bethlehem). Only player 0 has the highest score: there
    # is no tie to break, and 4 points beat 3.
    game = make_game(
        victory_position(
            {"Debir": {"owner": 1, "troops": 1}, "Bethlehem": {"owner": 1, "troops": 1}},
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shiloh", "ark": True},
                {"id": 20, "owner": 1, "at": "Hebron"},
                {"id": 21, "owner": 1, "at": "Keilah"},
                {"id": 22, "owner": 1, "at": "Keilah"},
            ],
            king=10,
            titles={
                "Naphtali": {"holder": 10},
                "Manasseh": {"holder": 11},
                "Judah": {"holder": 20},
                "Benjamin": {"holder": 21},
                "Negev": {"holder": 22},
            },
        )
    )
    assert scores(game) == {0: 4, 1: 3, 2: 0}
    assert game.is_over
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


def test_invaders_razing_can_bring_the_collapse_of_the_regions():
    # Manual B51: the players "y los invasores" razing too many settlements bring the
    # collapse. Naphtali, Manasseh (5 standing) and Ephraim (4 standing: Gezer razed)
    # sustain a judge. In round 2's Announcements the pair besieging Shechem moves on
    # clockwise to Shiloh, undefended: razed, Ephraim drops to 3 and the round's Victory
    # Check finds only two regions able to sustain a judge.
    assert WORLD.settlements[WORLD.ring_next(S("Shechem"), 1)].name == "Shiloh"
    position = _collapse_position(
        ["Naphtali", "Manasseh", "Ephraim"], {"Gezer": {"razed": True}}, invaders=[{"at": "Shechem"}]
    )
    position["phase"] = "announcements"
    game = make_game(position)
    assert game.state.settlements[S("Shiloh")].razed
    assert game.state.razed_by_invaders == 1
    assert not game.is_over  # the land is judged at the Victory Check, not before
    while not game.is_over:
        turns = [d for d in game.pending if d.kind == "turn"]
        assert turns and len(turns) == len(game.pending), game.pending
        game.apply(EndTurn(player=turns[0].player))
    assert game.state.round == 2
    assert game.state.ending == "collapse"
    assert game.state.winners == []


def test_round_report_gathers_battles_executions_taxes_and_revolts():
    # Manual B59: the Round report gathers scores, battles and the turn's actions
    # (executions, taxes, revolts). Round 2 from Intrigue (order 1, 2, 0):
    # player 1 executes his captive 30, player 2 taxes Gilead, player 0's Revolt takes
    # Chinnereth (d6 6 > 1 troop); in Combat, player 2's Hammath beats the pair besieging it.
    from judges.engine import Execute, PlayRevolt, PlayTax

    game = make_game(
        victory_position(
            {
                "Hazor": {"owner": 0, "troops": 2},
                "Chinnereth": {"owner": 1, "troops": 1},
                "Kedesh": {"owner": 1, "troops": 2},
                "Hammath": {"owner": 2, "troops": 1},
            },
            phase="intrigue",
            players=[{"seat": 0, "hand": ["revolt"]}, {"seat": 2, "hand": ["tax"]}],
            generals=[{"id": 30, "owner": 2, "at": "Kedesh", "captor": 1}],
            invaders=[{"at": "Hammath"}],
        ),
        dice=[
            6,  # the Revolt
            1,
            1,
            1,
            1,
            6,  # siege, battle round 1: the pair misses, Hammath's troop hits
            1,
            1,
            1,
            1,
            6,
        ],
    )  # battle round 2: the pair's second invader falls
    assert game.waiting_for() == [1]
    game.apply(Execute(player=1, general=30))
    game.apply(EndTurn(player=1))
    game.apply(PlayTax(player=2, region="Gilead"))
    game.apply(EndTurn(player=2))
    game.apply(PlayRevolt(player=0, settlement="Chinnereth"))
    game.apply(EndTurn(player=0))
    while game.state.round == 2:
        turns = [d for d in game.pending if d.kind == "turn"]
        assert turns and len(turns) == len(game.pending), game.pending
        game.apply(EndTurn(player=turns[0].player))
    note = round_report(game)
    assert sorted(note.to) == [0, 1, 2]
    assert scores(game) == {0: 0, 1: 0, 2: 0}
    lines = {e.key: e.params for e in note.entries}
    assert (lines["intrigue.execution"]["player"], lines["intrigue.execution"]["general"]) == (1, 30)
    assert (lines["intrigue.tax"]["player"], lines["intrigue.tax"]["region"]) == (2, WORLD.region_by_name["Gilead"])
    assert (
        lines["intrigue.revolt"]["player"],
        lines["intrigue.revolt"]["settlement"],
        lines["intrigue.revolt"]["success"],
    ) == (0, S("Chinnereth"), True)
    battle = lines["combat.battle"]
    assert (battle["hex"], battle["attacker"], battle["defender"], battle["winner"]) == (H("Hammath"), "invaders", 2, 2)


def test_plunder_pays_but_the_razed_settlement_can_bring_the_collapse_of_the_regions():
    # Manual B52: plunder pays, but each destroyed settlement brings the shared ending
    # closer. Ephraim stands at 4 (Gezer razed), the third region able to sustain a
    # judge. In round 2's Combat player 0's general 10 (army 1) beats player 1's garrison of
    # Bethel, Ephraim's city (dice: his 2 dice 6, 6; the garrison's 1 die 1) and plunders it.
    from judges.engine import Plunder

    position = _collapse_position(
        ["Naphtali", "Manasseh", "Ephraim"],
        {"Gezer": {"razed": True}, "Bethel": {"owner": 1, "troops": 1}},
        generals=[{"id": 10, "owner": 0, "at": "Bethel", "army": 1}],
    )
    position["phase"] = "combat"
    game = make_game(position, dice=[6, 6, 1])
    assert game.pending == [Decision(player=0, kind="plunder", subject=S("Bethel"))]
    game.apply(Plunder(player=0, settlement="Bethel", plunder=True))
    assert WORLD.settlements[S("Bethel")].is_city
    assert game.state.players[0].coins == 3 * 2  # 3 x a city's value
    assert game.state.wrath_registered == 1  # plunder: +1 at the next Announcements
    assert game.state.settlements[S("Bethel")].razed
    assert game.is_over
    assert game.state.round == 2
    assert game.state.ending == "collapse"
    assert game.state.winners == []


def test_dominating_three_whole_regions_makes_three_judges_and_wins():
    # Manual B40: no limit of Judge titles per player; three whole regions make 3 points.
    # Player 0 holds every settlement of Naphtali,
    # Manasseh and Gilead, with one general in each region's city. At the end of round 2's
    # Combat he claims the three titles; the Victory Check counts three judges.
    held = {
        name: {"owner": 0, "troops": 1}
        for region in ("Naphtali", "Manasseh", "Gilead")
        for name in region_names(region)
    }
    game = make_game(
        victory_position(
            held,
            phase="combat",
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shechem"},
                {"id": 12, "owner": 0, "at": "Ramoth-gilead"},
            ],
        )
    )
    titles = {name: game.state.titles[WORLD.region_by_name[name]] for name in ("Naphtali", "Manasseh", "Gilead")}
    assert {name: (t.owner, t.holder) for name, t in titles.items()} == {
        "Naphtali": (0, 10),
        "Manasseh": (0, 11),
        "Gilead": (0, 12),
    }
    assert scores(game) == {0: 3, 1: 0, 2: 0}
    assert game.is_over
    assert game.state.ending == "three_points"
    assert game.state.winners == [0]


# --- The final table (the game screen's end of game) ----------------------------------------


def test_final_table_gives_each_players_points_by_source_settlements_and_the_winner():
    from judges.engine.victory import final_table

    game = make_game(
        victory_position(
            generals=[{"id": 20, "owner": 1, "at": "Lachish"}, {"id": 21, "owner": 1, "at": "Shiloh", "ark": True}],
            king=20,
            titles={"Judah": {"holder": 20}},
        )
    )
    table = final_table(game.state, WORLD)
    assert table["ending"] == "three_points" and table["round"] == 2 and table["winners"] == [1]
    assert table["tie_break"] is None
    by_seat = {row["seat"]: row for row in table["players"]}
    # Lachish, and Shiloh where the Ark's carrier stands
    assert by_seat[1] == {
        "seat": 1,
        "judges": 1,
        "king": 1,
        "tabernacle": 1,
        "total": 3,
        "settlements": 2,
        "eliminated_round": None,
        "winner": True,
    }
    assert by_seat[0]["total"] == 0 and not by_seat[0]["winner"]


def test_standings_count_the_settlements_a_player_controls_as_the_final_table_does():
    # § 2 control: Chinnereth by seat 0's garrison, Kedesh by its general alone (no garrison),
    # Hebron contested by two players' generals (nobody's); the screen's Players panel shows
    # these numbers during the game, the final table at its end (issue 29, item 10).
    from judges.engine.victory import final_table, standings

    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Kedesh"},
                {"id": 11, "owner": 0, "at": "Hebron"},
                {"id": 20, "owner": 1, "at": "Hebron"},
            ],
        ),
        round_limit=2,
    )
    numbers = standings(game.state, WORLD)
    assert {seat: row["settlements"] for seat, row in numbers.items()} == {0: 2, 1: 1, 2: 1}
    table = final_table(game.state, WORLD)
    for row in table["players"]:
        assert {k: row[k] for k in numbers[row["seat"]]} == numbers[row["seat"]]


def test_final_table_names_the_settlements_tie_break():
    from judges.engine.victory import final_table

    game = make_game(_two_players_at_three_points({}))
    assert final_table(game.state, WORLD)["tie_break"] == "settlements"


def test_final_table_names_a_shared_victory():
    from judges.engine.victory import final_table

    game = make_game(_two_players_at_three_points({"Debir": {"owner": 1, "troops": 1}}))
    assert final_table(game.state, WORLD)["tie_break"] == "shared"


def test_final_table_names_the_score_tie_break():
    from judges.engine.victory import final_table

    game = make_game(
        victory_position(
            generals=[
                {"id": 10, "owner": 0, "at": "Hazor"},
                {"id": 11, "owner": 0, "at": "Shiloh", "ark": True},
                {"id": 20, "owner": 1, "at": "Hebron"},
                {"id": 21, "owner": 1, "at": "Keilah"},
                {"id": 22, "owner": 1, "at": "Keilah"},
            ],
            king=10,
            titles={
                "Naphtali": {"holder": 10},
                "Manasseh": {"holder": 10},
                "Judah": {"holder": 20},
                "Benjamin": {"holder": 21},
                "Negev": {"holder": 22},
            },
        )
    )
    table = final_table(game.state, WORLD)
    assert table["winners"] == [0] and table["tie_break"] == "score"
    assert {r["seat"]: r["total"] for r in table["players"]} == {0: 4, 1: 3, 2: 0}


def test_final_table_marks_the_round_a_player_was_eliminated():
    from judges.engine.victory import final_table

    game = make_game(
        victory_position(
            {"Chinnereth": {"owner": 0, "troops": 1}, "Lachish": {"owner": 1, "troops": 1}},
            holdings=False,
        )
    )
    rows = {r["seat"]: r for r in final_table(game.state, WORLD)["players"]}
    assert rows[2]["eliminated_round"] == 2 and rows[0]["eliminated_round"] is None
