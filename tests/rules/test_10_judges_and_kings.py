"""§ 10 Judges and Kings (rules brief §§ 5, 10; manual: "La Fase de Anuncios").

The Anointed is crowned automatically when no king reigns (§ 5.3), succession, vacant
titles, and the King election, with their placement inside Announcements (§ 5 Placement).
Every position starts from an empty land (`clear_board`) so only the pieces placed here
count; no dice are scripted, because nothing in these rules rolls a die.
"""

from __future__ import annotations

import pytest

from conftest import WORLD, R, entries, finish_round, make_game, refused
from judges.engine import AppointJudge, ChooseSuccessor, Decision, IllegalAction, NotYourDecision, Vote
from judges.engine.victory import score

# --- helpers -------------------------------------------------------------------------------


def gen(gid: int, owner: int, at: str = "Hazor", **extra) -> dict:
    return {"id": gid, "owner": owner, "at": at, **extra}


def judge(holder: int) -> dict:
    return {"holder": holder}


def vacant(owner: int) -> dict:
    return {"owner": owner}


def game_with(generals: list[dict], titles: dict | None = None, players: int = 3, **extra):
    position = {"clear_board": True, "generals": generals}
    if titles:
        position["titles"] = titles
    position.update(extra)
    return make_game(position, dice=[], players=players)


def owed(game) -> list[tuple[int, str]]:
    return sorted((d.player, d.kind) for d in game.pending)


def announcements_done(game) -> bool:
    """Announcements closed and Intrigue began: only the first player's turn is owed."""
    return game.phase_name == "intrigue" and all(d.kind == "turn" for d in game.pending)


def elections(game) -> list:
    return [n for n in game.notifications if n.key == "notification.election"]


def counts(notification) -> dict[int, int]:
    """Count per candidate of an election notification: general id -> votes."""
    return {c["general"]: c["votes"] for c in notification.params["tally"]}


def legal_generals(game, seat: int) -> list[int]:
    out = []
    for a in game.legal_actions(seat):
        out.append(a.candidate if isinstance(a, Vote) else a.general)
    return sorted(out)


def assert_refused(game, action, error: type, rule_word: str) -> None:
    """The action raises `error` naming the rule (§ 10), and changes nothing at all."""
    assert "10" in refused(game, action, error, rule_word).rule


# --- § 5.3 The Anointed is crowned --------------------------------------------------------


def test_anointed_free_general_is_crowned_when_no_king_reigns():
    game = game_with([gen(1, 0, anointed=True), gen(2, 1, "Kedesh")])
    assert game.state.king == 1
    assert announcements_done(game)


def test_anointed_token_returns_to_the_supply_on_coronation():
    game = game_with([gen(1, 0, anointed=True), gen(2, 1, "Kedesh")])
    assert game.state.king == 1
    assert [g.id for g in game.state.generals.values() if g.anointed] == []


def test_anointed_is_crowned_before_any_election():
    # Two free judges and no King would call an election; the Anointed skips it.
    game = game_with(
        [gen(1, 0, "Hebron", anointed=True), gen(2, 1, "Hazor"), gen(3, 2, "Acco")],
        titles={"Naphtali": judge(2), "Asher": judge(3)},
    )
    assert game.state.king == 1
    assert [d for d in game.pending if d.kind == "vote"] == []
    assert elections(game) == []
    assert announcements_done(game)


def test_anointed_takes_precedence_over_a_pending_succession():
    # Player 1's King died last round (player 1 still has a free general to name),
    # but player 0's general carries the Anointed.
    game = game_with([gen(1, 0, "Hebron", anointed=True), gen(2, 1, "Hazor")], succession_owner=1)
    assert game.state.king == 1
    assert game.state.succession_owner is None
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert announcements_done(game)


def test_captive_anointed_is_not_crowned():
    game = game_with([gen(1, 0, "Hazor", anointed=True, captor=1), gen(2, 1, "Hazor")])
    assert game.state.king is None
    assert game.state.generals[1].anointed is True
    assert announcements_done(game)


def test_captive_anointed_does_not_stop_the_election():
    game = game_with(
        [gen(1, 0, "Hebron", anointed=True, captor=1), gen(2, 1, "Hazor"), gen(3, 2, "Acco")],
        titles={"Naphtali": judge(2), "Asher": judge(3)},
    )
    assert game.state.king is None
    assert owed(game) == [(1, "vote"), (2, "vote")]


def test_captive_anointed_does_not_replace_a_pending_succession():
    game = game_with(
        [gen(1, 0, "Hebron", anointed=True, captor=1), gen(2, 1, "Hazor"), gen(3, 0, "Kedesh")], succession_owner=0
    )
    assert game.pending == [Decision(player=0, kind="succession")]
    # The captive Anointed is not crowned by step 3, but he is one of the player's own generals.
    assert legal_generals(game, 0) == [1, 3]


@pytest.mark.parametrize("king_captive", [False, True], ids=["free_king", "captive_king"])
def test_anointed_waits_while_a_king_reigns(king_captive):
    # A captive King still reigns [D]: the Anointed is crowned only when no king reigns.
    king = gen(5, 1, "Kedesh", **({"captor": 2} if king_captive else {}))
    game = game_with([gen(1, 0, "Hazor", anointed=True), king, gen(6, 2, "Kedesh")], king=5)
    assert game.state.king == 5
    assert game.state.generals[1].anointed is True


# --- § 10 Succession -----------------------------------------------------------------------


def succession_game():
    # Player 1's King died last round. Player 1: free generals 2 and 3, captive 4 (held by
    # player 0); general 3 is the judge of Naphtali.
    return game_with(
        [
            gen(2, 1, "Hazor"),
            gen(3, 1, "Kedesh"),
            gen(4, 1, "Hebron", captor=0),
            gen(5, 0, "Hebron"),
            gen(6, 2, "Acco"),
        ],
        titles={"Naphtali": judge(3)},
        succession_owner=1,
    )


def test_dead_kings_player_owes_the_succession_decision():
    # Manual: "su jugador elige al sucesor entre sus propios generales" — all of his own.
    game = succession_game()
    assert game.pending == [Decision(player=1, kind="succession")]
    assert game.waiting_for() == [1]
    assert game.phase_name == "announcements"
    assert legal_generals(game, 1) == [2, 3, 4]
    assert list(game.legal_actions(0)) == []


def test_successor_chosen_is_crowned():
    game = succession_game()
    game.apply(ChooseSuccessor(player=1, general=3))
    assert game.state.king == 3
    assert game.state.succession_owner is None
    assert announcements_done(game)


@pytest.mark.parametrize("general", [3, 4], ids=["own_judge", "own_captive"])
def test_any_of_the_players_own_generals_may_succeed(general):
    # Neither a title nor captivity bars one's own general: the manual names no condition
    # (a captive King still reigns [D]; a judge crowned King keeps his title).
    game = succession_game()
    game.apply(ChooseSuccessor(player=1, general=general))
    assert game.state.king == general
    assert game.state.succession_owner is None
    assert announcements_done(game)


@pytest.mark.parametrize("general", [5, 99], ids=["other_players", "no_such_general"])
def test_successor_must_be_one_of_the_players_own_generals(general):
    game = succession_game()
    assert_refused(game, ChooseSuccessor(player=1, general=general), IllegalAction, "succession")
    assert game.state.king is None


def test_succession_owed_by_another_player_is_not_your_decision():
    game = succession_game()
    assert_refused(game, ChooseSuccessor(player=0, general=5), NotYourDecision, "succession")


def test_a_captive_general_alone_still_succeeds():
    # Player 1's only general is captive (held on Hebron, a hex nobody controls): he is one of
    # the player's own generals, so the succession is owed, not lost.
    game = game_with(
        [gen(4, 1, "Hebron", captor=0), gen(5, 0, "Hazor"), gen(6, 2, "Achzib")],
        succession_owner=1,
        settlements={"Hazor": {"owner": 0, "troops": 2}, "Kedesh": {"owner": 2, "troops": 2}},
    )
    assert game.pending == [Decision(player=1, kind="succession")]
    assert legal_generals(game, 1) == [4]
    game.apply(ChooseSuccessor(player=1, general=4))
    assert game.state.king == 4
    assert game.state.generals[4].captor == 0


def test_no_general_left_loses_the_kings_token_without_a_decision():
    # Player 1's King died last round and player 1 has no general left (a garrison only).
    game = game_with(
        [gen(5, 0, "Hazor"), gen(6, 2, "Achzib")],
        succession_owner=1,
        settlements={"Hazor": {"owner": 0, "troops": 2}, "Kedesh": {"owner": 1, "troops": 2}},
    )
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert game.state.king is None
    assert game.state.succession_owner is None
    assert [e.params["owner"] for e in entries(game, "king.token_lost")] == [1]
    assert announcements_done(game)
    # The token is lost, not deferred: next round's Announcements owes no succession either.
    finish_round(game)
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert game.state.king is None


def test_king_crowned_by_succession_stops_the_election():
    game = game_with(
        [gen(5, 0, "Hebron"), gen(1, 1, "Hazor"), gen(2, 2, "Acco")],
        titles={"Naphtali": judge(1), "Asher": judge(2)},
        succession_owner=0,
    )
    # Succession is settled before the election: no vote is owed yet.
    assert game.pending == [Decision(player=0, kind="succession")]
    game.apply(ChooseSuccessor(player=0, general=5))
    assert game.state.king == 5
    assert [d for d in game.pending if d.kind == "vote"] == []
    assert elections(game) == []
    assert announcements_done(game)


# --- § 10 The King of an eliminated player (owner's ruling, issue 33) ----------------------


def fallen_king_game(king_captive: bool, anointed: bool = False):
    # Player 2 was eliminated at the last Victory Check (announced now); his general 5 is King,
    # held captive by player 0 on Hazor, or (custody lost) free. Players 0 and 1 have free judges.
    king = gen(5, 2, "Hazor", captor=0) if king_captive else gen(5, 2, "Hebron")
    return make_game(
        {
            "clear_board": True,
            "generals": [gen(1, 0, "Hazor"), gen(2, 1, "Acco", anointed=anointed), king],
            "titles": {"Naphtali": judge(1), "Asher": judge(2)},
            "king": 5,
            "players": [{"seat": 2, "eliminated": True, "elimination_announced": False}],
        },
        dice=[],
    )


@pytest.mark.parametrize("king_captive", [True, False], ids=["captive_king", "free_king"])
def test_an_eliminated_players_king_loses_the_crown_when_the_elimination_is_announced(king_captive):
    game = fallen_king_game(king_captive)
    assert game.state.king is None
    # No succession for the fallen player: the throne is vacant and the election runs at once.
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert game.state.succession_owner is None
    assert owed(game) == [(0, "vote"), (1, "vote")]
    game.apply(Vote(player=0, candidate=2))
    game.apply(Vote(player=1, candidate=2))
    assert game.state.king == 2
    [line] = entries(game, "king.deposed")  # in the Announcements report
    assert (line.params["general"], line.params["owner"]) == (5, 2)


def test_after_an_eliminated_players_king_falls_the_anointed_is_crowned_first():
    game = fallen_king_game(king_captive=True, anointed=True)
    assert game.state.king == 2
    assert [d for d in game.pending if d.kind == "vote"] == []
    assert elections(game) == []
    keys = [e.key for e in entries(game) if e.key.startswith("king.")]
    assert keys == ["king.deposed", "king.crowned"]
    assert announcements_done(game)


def test_a_king_whose_player_is_still_in_the_game_keeps_reigning_in_captivity():
    # Only elimination takes the crown: a captive King of a living player still reigns [D].
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(5, 2, "Hazor", captor=0)],
        titles={"Naphtali": judge(1), "Asher": judge(2)},
        king=5,
    )
    assert game.state.king == 5
    assert entries(game, "king.deposed") == []
    assert [d for d in game.pending if d.kind == "vote"] == []


# --- § 10 Vacant titles --------------------------------------------------------------------


def king_grants_game():
    # Player 0's general 1 reigns. Naphtali's title is vacant, owned by player 1.
    return game_with(
        [gen(1, 0, "Hebron"), gen(2, 1, "Hazor"), gen(3, 2, "Acco"), gen(4, 2, "Hebron", captor=0)],
        titles={"Naphtali": vacant(1)},
        king=1,
    )


def test_reigning_king_fills_a_vacant_title():
    game = king_grants_game()
    assert game.pending == [Decision(player=0, kind="appoint_judge", subject=R("Naphtali"))]
    assert game.waiting_for() == [0]


def test_reigning_king_may_grant_the_title_to_any_free_general():
    game = king_grants_game()
    assert legal_generals(game, 0) == [1, 2, 3]


def test_title_granted_by_the_king_passes_to_the_appointed_generals_player():
    game = king_grants_game()
    game.apply(AppointJudge(player=0, region="Naphtali", general=3))
    title = game.state.titles[R("Naphtali")]
    assert (title.holder, title.owner) == (3, 2)
    assert announcements_done(game)


def test_king_may_grant_a_vacant_title_to_a_general_who_already_holds_one():
    # Manual: the King grants it "a un general no cautivo"; nothing limits a general to one title.
    game = game_with(
        [gen(1, 0, "Hebron"), gen(2, 1, "Hazor"), gen(3, 2, "Acco")],
        titles={"Naphtali": vacant(1), "Asher": judge(3)},
        king=1,
    )
    assert legal_generals(game, 0) == [1, 2, 3]
    game.apply(AppointJudge(player=0, region="Naphtali", general=3))
    assert [(t.holder, t.owner) for t in game.state.titles if t.holder == 3] == [(3, 2), (3, 2)]


def test_king_cannot_grant_a_title_to_a_captive_general():
    game = king_grants_game()
    assert_refused(game, AppointJudge(player=0, region="Naphtali", general=4), IllegalAction, "vacant")


def test_title_owner_cannot_fill_the_title_while_a_king_reigns():
    game = king_grants_game()
    assert_refused(game, AppointJudge(player=1, region="Naphtali", general=2), NotYourDecision, "vacant")


def owner_fills_game():
    # No King. Naphtali's vacant title is owned by player 1: free general 2, captive 3.
    return game_with(
        [gen(2, 1, "Hazor"), gen(3, 1, "Hebron", captor=2), gen(4, 2, "Acco"), gen(5, 0, "Kedesh")],
        titles={"Naphtali": vacant(1)},
    )


def test_without_a_king_the_titles_owner_fills_it_with_an_own_general():
    game = owner_fills_game()
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Naphtali"))]
    assert legal_generals(game, 1) == [2, 3]
    game.apply(AppointJudge(player=1, region="Naphtali", general=2))
    title = game.state.titles[R("Naphtali")]
    assert (title.holder, title.owner) == (2, 1)
    assert announcements_done(game)


def test_without_a_king_the_owner_may_fill_a_title_with_a_general_who_holds_another():
    # Manual: the owner fills it "eligiendo a uno de sus propios generales" — no limit of one.
    game = game_with(
        [gen(2, 1, "Hazor"), gen(4, 2, "Acco"), gen(5, 0, "Kedesh")],
        titles={"Naphtali": vacant(1), "Judah": judge(2)},
    )
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Naphtali"))]
    assert legal_generals(game, 1) == [2]
    game.apply(AppointJudge(player=1, region="Naphtali", general=2))
    assert game.state.titles[R("Naphtali")].holder == 2
    assert game.state.titles[R("Judah")].holder == 2


@pytest.mark.parametrize("general", [4, 99], ids=["other_players_general", "no_such_general"])
def test_without_a_king_the_owner_cannot_appoint_other_than_an_own_general(general):
    game = owner_fills_game()
    assert_refused(game, AppointJudge(player=1, region="Naphtali", general=general), IllegalAction, "vacant")
    assert game.state.titles[R("Naphtali")].holder is None


def test_without_a_king_the_owner_may_appoint_an_own_captive_general():
    # Owner's ruling (issue 33): "uno de sus propios generales" means every one of them, as in
    # the succession; only the King's grant says "no cautivo".
    game = owner_fills_game()
    game.apply(AppointJudge(player=1, region="Naphtali", general=3))
    title = game.state.titles[R("Naphtali")]
    assert (title.holder, title.owner) == (3, 1)
    assert game.state.generals[3].captor == 2
    assert announcements_done(game)


def test_a_captive_judge_appointed_by_his_owner_scores_but_neither_votes_nor_stands():
    # Player 2 owns Gilead's vacant title; his only general 3 is a captive of player 0. He
    # appoints him: the title scores (§ 14), but a captive judge has no vote and cannot stand.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Hebron", captor=0)],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Gilead": vacant(2)},
    )
    assert game.pending == [Decision(player=2, kind="appoint_judge", subject=R("Gilead"))]
    assert legal_generals(game, 2) == [3]
    game.apply(AppointJudge(player=2, region="Gilead", general=3))
    assert score(game.state, WORLD, 2)["judges"] == 1
    assert owed(game) == [(0, "vote"), (1, "vote")]
    assert legal_generals(game, 0) == [1, 2]
    assert_refused(game, Vote(player=0, candidate=3), IllegalAction, "election")


def test_while_the_king_is_captive_the_owner_may_appoint_an_own_captive_general():
    # A captive King grants nothing [D]: the owner fills the title as with no King, any of his
    # own generals included (owner's ruling, issue 33).
    game = game_with(
        [gen(1, 0, "Hebron", captor=2), gen(2, 1, "Hazor"), gen(3, 1, "Acco", captor=2), gen(4, 2, "Acco")],
        titles={"Naphtali": vacant(1)},
        king=1,
    )
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Naphtali"))]
    assert legal_generals(game, 1) == [2, 3]
    game.apply(AppointJudge(player=1, region="Naphtali", general=3))
    assert game.state.titles[R("Naphtali")].holder == 3


def test_while_the_king_is_captive_owners_fill_their_titles():
    game = game_with(
        [gen(1, 0, "Hebron", captor=2), gen(6, 0, "Kedesh"), gen(2, 1, "Hazor"), gen(3, 2, "Acco")],
        titles={"Naphtali": vacant(1)},
        king=1,
    )
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Naphtali"))]
    assert legal_generals(game, 1) == [2]
    assert_refused(game, AppointJudge(player=0, region="Naphtali", general=6), NotYourDecision, "vacant")
    assert_refused(game, AppointJudge(player=1, region="Naphtali", general=3), IllegalAction, "vacant")


def test_title_nobody_eligible_can_fill_is_deferred_and_blocks_nobody():
    # Player 1 owns the vacant title but has no general at all; no King reigns.
    game = game_with([gen(5, 0, "Kedesh"), gen(6, 2, "Acco")], titles={"Naphtali": vacant(1)})
    assert [d for d in game.pending if d.kind == "appoint_judge"] == []
    assert announcements_done(game)
    title = game.state.titles[R("Naphtali")]
    assert (title.holder, title.owner) == (None, 1)


def test_deferred_title_is_filled_at_the_next_announcements():
    # Player 1 has no general when the title falls vacant; he buys one in Acquisitions.
    from judges.engine import Buy, EndTurn

    game = game_with(
        [],
        titles={"Naphtali": vacant(1)},
        settlements={"Hazor": {"owner": 0, "troops": 2}, "Achzib": {"owner": 1, "troops": 2}},
        players=2,
    )
    assert announcements_done(game)
    while not (game.phase_name == "acquisitions" and game.pending[0].player == 1):
        game.apply(EndTurn(player=game.pending[0].player))
    game.apply(Buy(player=1, item="general", settlement="Achzib"))
    [new] = [g.id for g in game.state.generals.values() if g.owner == 1]
    finish_round(game)
    assert game.state.round == 2
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Naphtali"))]
    game.apply(AppointJudge(player=1, region="Naphtali", general=new))
    assert game.state.titles[R("Naphtali")].holder == new


# --- § 10 The election ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "titles,generals",
    [
        ({"Naphtali": judge(1)}, [gen(1, 0, "Hazor"), gen(2, 1, "Acco")]),
        ({"Naphtali": judge(1), "Asher": judge(2)}, [gen(1, 0, "Hazor"), gen(2, 1, "Acco", captor=0)]),
    ],
    ids=["one_judge", "second_judge_captive"],
)
def test_no_election_with_fewer_than_two_free_judges(titles, generals):
    game = game_with(generals, titles=titles)
    assert [d for d in game.pending if d.kind == "vote"] == []
    assert elections(game) == []
    assert game.state.king is None
    assert announcements_done(game)


@pytest.mark.parametrize("king_captive", [False, True], ids=["free_king", "captive_king"])
def test_no_election_while_a_king_reigns(king_captive):
    king = gen(5, 0, "Hebron", **({"captor": 1} if king_captive else {}))
    game = game_with(
        [king, gen(1, 1, "Hazor"), gen(2, 2, "Acco")], titles={"Naphtali": judge(1), "Asher": judge(2)}, king=5
    )
    assert [d for d in game.pending if d.kind == "vote"] == []
    assert elections(game) == []
    assert game.state.king == 5


def three_voters_game():
    # Player 0: judge 1 (Naphtali). Player 1: judge 2 (Asher). Player 2: a Prophet carrier.
    return game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Hebron", prophet=True)],
        titles={"Naphtali": judge(1), "Asher": judge(2)},
    )


def test_votes_of_several_players_are_owed_at_the_same_time():
    game = three_voters_game()
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    assert game.waiting_for() == [0, 1, 2]


def test_any_free_judge_including_ones_own_is_a_candidate_and_prophets_are_not():
    game = three_voters_game()
    for seat in (0, 1, 2):
        assert legal_generals(game, seat) == [1, 2]


def test_votes_can_be_cast_in_any_order_and_the_most_votes_wins():
    game = three_voters_game()
    game.apply(Vote(player=2, candidate=2))
    assert owed(game) == [(0, "vote"), (1, "vote")]
    assert game.state.king is None
    game.apply(Vote(player=1, candidate=2))  # for one's own judge
    assert owed(game) == [(0, "vote")]
    game.apply(Vote(player=0, candidate=1))
    assert game.state.king == 2
    [note] = elections(game)
    assert counts(note) == {1: 1, 2: 2}
    assert announcements_done(game)


def test_prophet_cannot_be_elected():
    game = three_voters_game()
    assert_refused(game, Vote(player=2, candidate=3), IllegalAction, "election")


def test_a_player_votes_once():
    game = three_voters_game()
    game.apply(Vote(player=0, candidate=1))
    assert_refused(game, Vote(player=0, candidate=2), NotYourDecision, "election")


def test_each_judge_title_gives_its_owner_one_vote():
    # Player 0 holds two titles: 2 votes for general 1 against 1 + 1.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 0, "Acco"), gen(3, 1, "Megiddo"), gen(4, 2, "Shechem")],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3), "Manasseh": judge(4)},
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=3))
    game.apply(Vote(player=2, candidate=4))
    [note] = elections(game)
    assert counts(note) == {1: 2, 2: 0, 3: 1, 4: 1}
    assert game.state.king == 1


@pytest.mark.parametrize("carrier", ["other_general", "the_judge_himself"])
def test_each_free_prophet_carrier_gives_its_owner_one_more_vote(carrier):
    generals = [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Megiddo", prophet=carrier == "the_judge_himself")]
    if carrier == "other_general":
        generals.append(gen(4, 2, "Hebron", prophet=True))
    game = game_with(generals, titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)})
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    [note] = elections(game)
    assert counts(note) == {1: 1, 2: 1, 3: 2}
    assert game.state.king == 3


def test_captive_prophet_carrier_gives_no_vote():
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Megiddo"), gen(4, 2, "Hebron", prophet=True, captor=0)],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)},
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    [note] = elections(game)
    assert counts(note) == {1: 1, 2: 1, 3: 1}
    assert game.state.king is None


def captive_judge_game():
    # Player 2's judge 3 is captive: he neither votes nor stands.
    return game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Megiddo", captor=0)],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)},
    )


def test_captive_judge_gives_no_vote():
    game = captive_judge_game()
    assert owed(game) == [(0, "vote"), (1, "vote")]
    assert_refused(game, Vote(player=2, candidate=1), NotYourDecision, "election")


def test_captive_judge_cannot_be_elected():
    game = captive_judge_game()
    assert legal_generals(game, 0) == [1, 2]
    assert_refused(game, Vote(player=0, candidate=3), IllegalAction, "election")
    game.apply(Vote(player=0, candidate=2))
    game.apply(Vote(player=1, candidate=2))
    [note] = elections(game)
    assert counts(note) == {1: 0, 2: 2}
    assert game.state.king == 2


def test_tie_for_first_crowns_nobody_and_the_election_runs_again_next_round():
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Achzib"), gen(3, 2, "Taanach")],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)},
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    assert game.state.king is None
    [note] = elections(game)
    assert counts(note) == {1: 1, 2: 1, 3: 1}
    assert announcements_done(game)
    finish_round(game)
    assert game.state.round == 2
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    game.apply(Vote(player=0, candidate=3))
    game.apply(Vote(player=1, candidate=3))
    game.apply(Vote(player=2, candidate=1))
    assert game.state.king == 3
    assert counts(elections(game)[-1]) == {1: 1, 2: 0, 3: 2}


def test_tie_between_two_leaders_with_a_trailing_candidate_crowns_nobody():
    # 4 players: generals 1 and 2 tie on 2 votes each, general 3 has 0.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Megiddo"), gen(4, 3, "Hebron", prophet=True)],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)},
        players=4,
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=3, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=2))
    [note] = elections(game)
    assert counts(note) == {1: 2, 2: 2, 3: 0}
    assert game.state.king is None


def test_every_living_player_is_notified_of_the_count_per_candidate():
    # Seat 3 has no vote (no judge, no prophet) and is told anyway.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Hebron", prophet=True), gen(4, 3, "Kedesh")],
        titles={"Naphtali": judge(1), "Asher": judge(2)},
        players=4,
    )
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=2))
    [note] = elections(game)
    assert sorted(note.to) == [0, 1, 2, 3]
    assert counts(note) == {1: 1, 2: 2}
    assert game.state.king == 2


def test_an_eliminated_player_is_notified_of_the_election_too():
    # Manual: "Todos reciben una notificación con el recuento" — eliminated players stay at the
    # table as spectators.
    game = make_game(
        {
            "clear_board": True,
            "generals": [gen(1, 0, "Hazor"), gen(2, 1, "Acco")],
            "titles": {"Naphtali": judge(1), "Asher": judge(2)},
            "players": [{"seat": 3, "eliminated": True}],
        },
        dice=[],
        players=4,
    )
    game.apply(Vote(player=0, candidate=2))
    game.apply(Vote(player=1, candidate=2))
    [note] = elections(game)
    assert sorted(note.to) == [0, 1, 2, 3]
    assert counts(note) == {1: 0, 2: 2}


# --- § 5 Placement: vacant titles, then the election ---------------------------------------


def test_judge_appointed_this_phase_can_stand_in_this_phases_election():
    # Naphtali has a free judge; Asher's title is vacant, owned by player 1.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Hebron")], titles={"Naphtali": judge(1), "Asher": vacant(1)}
    )
    # The title is settled first; the election waits for it.
    assert game.pending == [Decision(player=1, kind="appoint_judge", subject=R("Asher"))]
    game.apply(AppointJudge(player=1, region="Asher", general=2))
    assert owed(game) == [(0, "vote"), (1, "vote")]
    assert legal_generals(game, 0) == [1, 2]
    game.apply(Vote(player=0, candidate=2))
    game.apply(Vote(player=1, candidate=2))
    assert game.state.king == 2


def test_deferred_title_does_not_block_the_election():
    # Gilead's vacant title cannot be filled (its owner, player 2, has no general); it
    # still gives player 2 a vote (§ 10: "each Judge title gives its owner one vote").
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco")],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Gilead": vacant(2)},
    )
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]


def test_a_vacant_title_gives_its_owner_one_vote():
    # Manual: "Cada título de juez otorga un voto a su dueño"; a vacant title keeps its owner
    # [D]. Player 2 owns the vacant titles of Gilead and Jezreel (no general to fill them):
    # 2 votes for general 2 tie the 1 + 1 of players 0 and 1 for general 1.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco")],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Gilead": vacant(2), "Jezreel": vacant(2)},
    )
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=1))
    game.apply(Vote(player=2, candidate=2))
    [note] = elections(game)
    assert counts(note) == {1: 2, 2: 2}
    assert game.state.king is None
    ballots = {b["player"]: b["votes"] for b in note.params["ballots"]}
    assert ballots == {0: 1, 1: 1, 2: 2}


# --- Manual coverage (docs/manual-coverage.md) -------------------------------------------


def test_dead_kings_heir_carrying_the_anointed_is_crowned_without_a_succession_decision():
    # Manual A46: when the King dies, an heir carrying the Anointed is crowned automatically.
    # Player 1's King died last round; player 1's general 2 carries the Anointed.
    game = game_with([gen(2, 1, "Hazor", anointed=True), gen(3, 1, "Kedesh"), gen(5, 0, "Hebron")], succession_owner=1)
    assert game.state.king == 2
    assert game.state.succession_owner is None
    assert [d for d in game.pending if d.kind == "succession"] == []
    assert announcements_done(game)


def test_reigning_king_may_grant_a_vacant_title_to_a_general_of_his_own_tribe():
    # Manual A44: the King grants it to a free general, another player's "o de su propia tribu".
    # Player 0's general 1 reigns; Naphtali's vacant title is player 1's.
    game = game_with(
        [gen(1, 0, "Hebron"), gen(6, 0, "Kedesh"), gen(2, 1, "Hazor"), gen(3, 2, "Acco")],
        titles={"Naphtali": vacant(1)},
        king=1,
    )
    assert game.pending == [Decision(player=0, kind="appoint_judge", subject=R("Naphtali"))]
    game.apply(AppointJudge(player=0, region="Naphtali", general=6))
    title = game.state.titles[R("Naphtali")]
    assert (title.holder, title.owner) == (6, 0)
    assert announcements_done(game)


def test_the_election_result_is_part_of_the_announcements_report():
    # Manual A51: the election result is part of the Announcements notification.
    from conftest import entries

    game = three_voters_game()
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=2))
    (note,) = [n for n in game.notifications if n.key == "notification.announcements"]
    assert sorted(note.to) == [0, 1, 2]
    (line,) = entries(game, "election.result")
    assert line.params["winner"] == 2
    assert {c["general"]: c["votes"] for c in line.params["tally"]} == {1: 1, 2: 2}


def test_a_tied_election_is_reported_in_the_announcements_too():
    from conftest import entries

    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Acco"), gen(3, 2, "Megiddo")],
        titles={"Naphtali": judge(1), "Asher": judge(2), "Jezreel": judge(3)},
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    (line,) = entries(game, "election.tie")
    assert sorted(line.params["tied"]) == [1, 2, 3]
    assert entries(game, "election.result") == []


def test_after_a_tie_the_election_runs_again_at_the_next_announcements():
    # Manual A39: a tie for first crowns nobody; the election runs again next round. Every judge
    # stands alone in a settlement nobody else holds, so the round's Combat has nothing to fight.
    game = game_with(
        [gen(1, 0, "Hazor"), gen(2, 1, "Hebron"), gen(3, 2, "Shechem")],
        titles={"Naphtali": judge(1), "Judah": judge(2), "Manasseh": judge(3)},
    )
    game.apply(Vote(player=0, candidate=1))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    assert game.state.king is None
    assert counts(elections(game)[-1]) == {1: 1, 2: 1, 3: 1}
    finish_round(game)
    assert game.state.round == 2
    assert owed(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    game.apply(Vote(player=0, candidate=2))
    game.apply(Vote(player=1, candidate=2))
    game.apply(Vote(player=2, candidate=3))
    assert game.state.king == 2
    assert counts(elections(game)[-1]) == {1: 0, 2: 2, 3: 1}
    assert len(elections(game)) == 2


def test_the_boards_label_names_every_region_a_general_judges():
    # A general with two titles: the board's tooltip names both regions, not only one.
    from conftest import WORLD
    from judges.render.board import describe_board
    from judges.render.svg import board_svg

    game = game_with([gen(10, 0, "Hazor")], titles={"Naphtali": judge(10), "Judah": judge(10)})
    [general] = [g for g in describe_board(WORLD, game.state)["generals"] if g["id"] == 10]
    assert general["judge_of"] == [R("Naphtali"), R("Judah")]
    assert "Judge (Naphtali, Judah)" in board_svg(describe_board(WORLD, game.state))
