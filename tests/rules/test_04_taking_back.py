"""§ 4 Taking back [D] (rules reference § 4).

A player may take back the free steps of their turn — a move, troops taken or left, the Ark
picked up or dropped, a purchase that draws no card — one at a time, last first, until
something hidden is revealed (a card drawn or played, a die rolled) or another player acts (and
so at the end of the turn). Undo restores the position exactly; it is an action of the log
(seed + log = the game) but never a legal action; a refused Undo names § 4 Taking back with
`error.undo_nothing` or `error.undo_revealed` and changes nothing.
"""

from __future__ import annotations

import json

import msgspec
import pytest

from conftest import WORLD, H, S, make_game, refused
from judges.engine import (
    Buy,
    DropArk,
    EndTurn,
    Game,
    GameOver,
    IllegalAction,
    LeaveTroops,
    MalformedAction,
    Move,
    Options,
    PickUpArk,
    PlayEvent,
    TakeTroops,
    action_from_json,
    action_to_dict,
)
from judges.engine.actions import Undo
from judges.engine.undo import TakeBack, is_free, taken_back


def gen(gid: int, owner: int, at, **extra) -> dict:
    return {"id": gid, "owner": owner, "at": at, **extra}


def movement(generals, settlements=None, **extra) -> Game:
    """Round 1's Movement: seat 0 plays first."""
    position = {
        "clear_board": True,
        "phase": "movement",
        "settlements": settlements or {"Shunem": {"owner": 0, "troops": 3}},
        "generals": generals,
        **extra,
    }
    game = make_game(position, dice=[])
    assert game.phase_name == "movement" and game.waiting_for() == [0]
    return game


def acquisitions(coins: int, hand=None, deck=None) -> Game:
    p0 = {"seat": 0, "coins": coins}
    if hand is not None:
        p0["hand"] = hand
    position = {
        "clear_board": True,
        "phase": "acquisitions",
        "settlements": {"Shunem": {"owner": 0, "troops": 1}, "Hebron": {"owner": 1, "troops": 1}},
        "generals": [gen(10, 0, "Shunem"), gen(11, 1, "Hebron")],
        "players": [p0, {"seat": 1, "coins": 5}],
    }
    if deck is not None:
        position["deck"] = deck
    game = make_game(position, dice=[])
    assert game.phase_name == "acquisitions" and game.waiting_for() == [0]
    return game


def position(game: Game) -> tuple:
    """Everything a position is: the state (dice included), the notifications, the pending."""
    return game.state_json(), msgspec.json.encode(game.notifications), list(game.pending)


UNDO = Undo(player=0)


def move(gid: int, name: str, player: int = 0) -> Move:
    hex_ = WORLD.hexes[H(name)]
    return Move(player=player, general=gid, q=hex_.q, r=hex_.r)


# --- what can be taken back ------------------------------------------------------------------


def test_a_move_is_taken_back_exactly():
    game = movement([gen(10, 0, "Shunem")])
    before = position(game)
    game.apply(move(10, "Endor"))
    assert game.state.generals[10].hex == H("Endor")
    assert game.can_undo(0)
    assert game.apply(UNDO) == []  # nobody is told anything
    assert position(game) == before  # the general back, with his movement points
    assert game.state.generals[10].hex == H("Shunem")
    assert not game.can_undo(0)


def test_free_steps_are_taken_back_one_at_a_time_last_first():
    game = movement([gen(10, 0, "Shunem")])
    seen = [position(game)]
    steps = [
        TakeTroops(player=0, general=10, count=2),
        move(10, "Endor"),
        LeaveTroops(player=0, general=10, count=1),
    ]
    for step in steps:
        game.apply(step)
        seen.append(position(game))
    assert game.state.settlements[S("Endor")].troops == 1 and game.state.generals[10].army == 1
    for expected in reversed(seen[:-1]):
        game.apply(UNDO)
        assert position(game) == expected
    refused(game, UNDO, IllegalAction, "§4 Taking back")


def test_taking_back_then_playing_on():
    game = movement([gen(10, 0, "Shunem")])
    endor = move(10, "Endor")
    game.apply(TakeTroops(player=0, general=10, count=1))
    game.apply(endor)
    game.apply(UNDO)  # the move only: he still has his troop
    assert game.state.generals[10].army == 1 and game.state.generals[10].hex == H("Shunem")
    game.apply(endor)  # the same move again, then both steps back
    game.apply(UNDO)
    game.apply(UNDO)
    assert game.state.generals[10].army == 0 and game.state.settlements[S("Shunem")].troops == 3


def test_the_ark_picked_up_and_dropped_is_taken_back():
    game = movement([gen(10, 0, "Kiriath-jearim")], settlements={}, ark="Kiriath-jearim")
    game.apply(PickUpArk(player=0, general=10))
    game.apply(DropArk(player=0, general=10))
    game.apply(UNDO)
    assert game.state.generals[10].ark and game.state.ark_hex is None
    game.apply(UNDO)
    assert not game.state.generals[10].ark and game.state.ark_hex == H("Kiriath-jearim")


@pytest.mark.parametrize(
    "buy",
    [
        {"item": "troop", "settlement": "Shunem"},
        {"item": "troop", "general": 10},
        {"item": "mercenary", "general": 10},
        {"item": "development", "settlement": "Shunem"},
        {"item": "wall", "settlement": "Shunem"},
        {"item": "general", "settlement": "Shunem"},
    ],
    ids=lambda b: "-".join(str(v) for v in b.values()),
)
def test_a_purchase_that_draws_nothing_is_taken_back_coins_and_wrath_included(buy):
    game = acquisitions(coins=12)
    before = position(game)
    game.apply(Buy(player=0, **buy))
    assert game.state.players[0].coins < 12
    game.apply(UNDO)
    assert position(game) == before  # the coins, the piece, the Wrath registered, the coins-spent counter


# --- what ends the run: something revealed, another player acting ------------------------------


def test_a_card_bought_cannot_be_taken_back_nor_anything_before_it():
    game = acquisitions(coins=10, deck=["plague", "tax", "famine"])
    game.apply(Buy(player=0, item="troop", settlement="Shunem"))
    game.apply(Buy(player=0, item="card"))  # the card drawn is seen: the run ends
    assert not game.can_undo(0)
    error = refused(game, UNDO, IllegalAction, "§4 Taking back")
    assert error.key == "error.undo_revealed" and error.params["action"] == "buy"
    # a free step after it begins a new run, which stops at the card
    game.apply(Buy(player=0, item="troop", settlement="Shunem"))
    game.apply(UNDO)
    assert game.state.settlements[S("Shunem")].troops == 2  # the first troop stays
    assert refused(game, UNDO, IllegalAction).key == "error.undo_revealed"


def test_a_card_played_ends_the_run():
    position_ = {
        "clear_board": True,
        "phase": "intrigue",
        "settlements": {"Shunem": {"owner": 0, "troops": 1}},
        "generals": [gen(10, 0, "Shunem")],
        "players": [{"seat": 0, "hand": ["famine"]}],
    }
    game = make_game(position_, dice=[])
    game.apply(PlayEvent(player=0, card="famine"))
    assert refused(game, UNDO, IllegalAction, "§4 Taking back").key == "error.undo_revealed"


def test_nothing_to_take_back_at_the_start_of_a_turn():
    game = movement([gen(10, 0, "Shunem")])
    error = refused(game, UNDO, IllegalAction, "§4 Taking back")
    assert error.key == "error.undo_nothing"


def test_once_the_turn_is_ended_and_the_next_player_acts_nothing_is_taken_back():
    game = movement([gen(10, 0, "Shunem"), gen(11, 1, "Hebron")], settlements={"Hebron": {"owner": 1, "troops": 2}})
    game.apply(move(10, "Endor"))
    game.apply(EndTurn(player=0))
    assert not game.can_undo(0)
    assert refused(game, UNDO, IllegalAction, "§4 Taking back").key == "error.undo_nothing"
    game.apply(TakeTroops(player=1, general=11, count=1))  # the next player acts
    assert refused(game, UNDO, IllegalAction).key == "error.undo_nothing"
    assert game.state.generals[10].hex == H("Endor")
    # and the other player takes back only their own steps
    game.apply(Undo(player=1))
    assert game.state.generals[11].army == 0
    assert refused(game, Undo(player=1), IllegalAction).key == "error.undo_nothing"


def test_another_seat_cannot_take_back_your_steps():
    game = movement([gen(10, 0, "Shunem")])
    game.apply(move(10, "Endor"))
    assert not game.can_undo(1)
    assert refused(game, Undo(player=1), IllegalAction, "§4 Taking back").key == "error.undo_nothing"
    assert game.can_undo(0)


def test_undo_is_refused_when_the_game_is_over_and_for_no_player():
    game = movement([gen(10, 0, "Shunem")])
    refused(game, Undo(player=7), MalformedAction)
    game.state.ending = "round_limit"
    refused(game, UNDO, GameOver)


# --- an action of the log, never a legal one -------------------------------------------------


def test_undo_is_never_a_legal_action():
    game = movement([gen(10, 0, "Shunem")])
    game.apply(move(10, "Endor"))
    assert game.can_undo(0)
    assert not any(isinstance(a, Undo) for a in game.legal_actions())


def test_undo_on_the_wire_and_in_the_log_replays():
    options = Options(players=3, seed=4)
    game = Game.new(options)
    while game.phase_name != "movement":
        seat = game.waiting_for()[0]
        game.apply(EndTurn(player=seat))
    seat = game.waiting_for()[0]
    move = next(a for a in game.legal_actions(seat) if isinstance(a, Move))
    game.apply(move)
    game.apply(action_from_json(json.dumps({"type": "undo", "player": seat})))
    assert action_to_dict(game.log[-1]) == {"type": "undo", "player": seat}
    assert taken_back(game.log) == {len(game.log) - 2: len(game.log) - 1}
    again = Game.replay(options, [action_to_dict(a) for a in game.log])  # seed + log = the game
    assert again.state_json() == game.state_json()


def test_a_copy_of_the_game_takes_back_on_its_own():
    game = movement([gen(10, 0, "Shunem")])
    game.apply(move(10, "Endor"))
    copy = game.clone()
    copy.apply(UNDO)
    assert copy.state.generals[10].hex == H("Shunem")
    assert game.state.generals[10].hex == H("Endor") and game.can_undo(0)
    game.apply(UNDO)
    assert game.state_json() == copy.state_json()


def test_the_run_survives_a_trip_through_json():
    """What a server stores with a snapshot: a process that loads it can take back."""
    game = movement([gen(10, 0, "Shunem")])
    before = game.state_json()
    game.apply(TakeTroops(player=0, general=10, count=1))
    data = json.loads(json.dumps(game.to_dict()))
    loaded = Game(msgspec.convert(data["state"], type(game.state), str_keys=True))
    loaded.takeback = TakeBack.from_builtins(data["takeback"])
    loaded.apply(UNDO)
    assert loaded.state_json() == before


def test_a_game_that_keeps_no_copy_refuses_undo():
    game = Game.new(Options(players=3, seed=4), undoable=False)
    while game.phase_name != "movement":
        game.apply(EndTurn(player=game.waiting_for()[0]))
    seat = game.waiting_for()[0]
    game.apply(next(a for a in game.legal_actions(seat) if isinstance(a, Move)))
    assert not game.can_undo(seat) and game.takeback is None
    refused(game, Undo(player=seat), IllegalAction, "§4 Taking back")


def test_a_finished_game_with_undos_exports_and_verifies():
    from judges.verify import build_export, verify_export

    options = Options(players=2, seed=11, round_limit=1)
    game = Game.new(options)
    undos = 0
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        free = [a for a in legal if is_free(a)]
        if free and undos < 3:
            game.apply(free[0])
            game.apply(Undo(player=seat))
            undos += 1
        game.apply(next((a for a in legal if isinstance(a, EndTurn)), legal[0]))
    export = build_export(game, msgspec.to_builtins(options))
    assert sum(a["type"] == "undo" for a in export["actions"]) == undos > 0
    assert verify_export(json.loads(json.dumps(export))).actions == len(game.log)
