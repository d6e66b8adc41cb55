"""Options + state = the game, as a property: a Republic of Rome position written to JSON and read
back (the state's own encoding, and the server's path through builtins and a JSON column)
continues exactly as the live game. In whole games of 3 to 6 factions played by the neutral and
the random bots, on the SplitMix64 and the BLAKE2b dice, the position is taken every few actions;
the same next actions (the dice are in the state) are played on the live position and on the
decoded one; before each of them every seat's legal actions and view, and the spectators' view,
are the same, and so is the whole state after the last."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable

import msgspec
import pytest

from judges.rome.bots import BOTS
from judges.rome.engine.actions import Action
from judges.rome.engine.game import RomeGame
from judges.rome.engine.state import RomeOptions, RomeState, state_from_json, state_to_json
from judges.rome.engine.view import player_view

EVERY = int(os.environ.get("ROME_ROUNDTRIP_EVERY", "20"))  # ROME_ROUNDTRIP_EVERY=1: every position
AHEAD = 8  # actions played on both after each round trip
KEY = "5eed" * 7  # with the seed's 4 hex digits: a BLAKE2b dice key of 128 bits


def through_state_json(state: RomeState) -> RomeState:
    return state_from_json(state_to_json(state))


def through_json_column(state: RomeState) -> RomeState:
    """As a server stores a snapshot: builtins in a JSON column, converted back."""
    stored = json.loads(json.dumps(msgspec.to_builtins(state)))
    return msgspec.convert(stored, RomeState, str_keys=True)


ENCODINGS: list[Callable[[RomeState], RomeState]] = [through_state_json, through_json_column]


def options(players: int, seed: int, strong: bool) -> RomeOptions:
    if strong:
        return RomeOptions(players=players, seed=seed, dice="blake2b", key=f"{KEY}{seed:04x}")
    return RomeOptions(players=players, seed=seed)


def whole_game(opts: RomeOptions, bot: str) -> list[Action]:
    """The actions of a whole game, each seat played by `bot` from its own view."""
    game = RomeGame.new(opts)
    bots = [BOTS[bot](opts.seed * 31 + seat) for seat in range(opts.players)]
    while not game.over:
        seat = game.state.pending[0].player
        game.apply(bots[seat].choose(seat, game.legal_actions(seat), lambda s=game.state, at=seat: player_view(s, at)))
    return list(game.log)


def same_position(live: RomeGame, decoded: RomeGame, where: str) -> None:
    assert player_view(decoded.state, None) == player_view(live.state, None), where
    for seat in range(live.state.players):
        assert decoded.legal_actions(seat) == live.legal_actions(seat), (where, seat)
        assert player_view(decoded.state, seat) == player_view(live.state, seat), (where, seat)


@pytest.mark.parametrize(
    ("players", "bot", "strong"),
    [(3, "neutral", False), (4, "random", True), (5, "neutral", True), (6, "random", False)],
)
def test_a_decoded_position_plays_on_as_the_live_game(players, bot, strong):
    positions = 0
    opts = options(players, 40 + players, strong)
    actions = whole_game(opts, bot)
    live = RomeGame.new(opts)
    for taken, action in enumerate(actions):
        if taken % EVERY == 0:
            for encode in ENCODINGS:
                reference = RomeGame(copy.deepcopy(live.state))
                decoded = RomeGame(encode(live.state))
                for ahead, next_action in enumerate(actions[taken : taken + AHEAD]):
                    same_position(reference, decoded, f"{encode.__name__} after {taken}+{ahead} actions")
                    reference.apply(next_action)
                    decoded.apply(next_action)
                same_position(reference, decoded, f"{encode.__name__} after {taken}+{AHEAD} actions")
                assert state_to_json(decoded.state) == state_to_json(reference.state)
                positions += 1
        live.apply(action)
    assert live.over
    assert positions >= 2 * len(ENCODINGS)
