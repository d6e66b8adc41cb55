"""The neutral bot in whole games of 3 to 6 factions: every seat played from its own view, to the
end, without a refused action; the same seed gives the same game; and Rome falls less often
under neutral seats than under random ones on the same seeds."""

from __future__ import annotations

import os

import pytest

from judges.games.protocol import play_to_end
from judges.games.rome_game import FALLS, ROME, RomeProtocolGame, new_game
from judges.rome.bots import BOTS, NeutralSeatBot
from judges.rome.engine.game import RomeGame
from judges.rome.engine.state import RomeOptions, state_to_json
from judges.rome.engine.view import player_view

GAMES = int(os.environ.get("ROME_NEUTRAL_GAMES", "200"))  # spread over 3-6 factions


class ViewOnly:
    """Wraps a bot: checks it is handed exactly its seat's view and that its answer is legal."""

    def __init__(self, bot, seat, game_ref):
        self.bot, self.seat, self.game_ref = bot, seat, game_ref

    def choose(self, legal, view):
        game = self.game_ref[0]
        assert view == player_view(game.state, self.seat)
        action = self.bot.choose(self.seat, legal, lambda: view)
        assert action.player == self.seat
        return action


def played(players, seed, bot):
    """A whole game through the game protocol's headless loop, every seat played by `bot`."""
    game = play_to_end(new_game(players, seed), ROME.seat_bots([bot] * players, seed))
    assert isinstance(game, RomeProtocolGame)
    return game.game


def neutral_game(players, seed):
    return played(players, seed, "neutral")


def test_the_neutral_bot_is_registered_beside_random():
    assert BOTS["neutral"] is NeutralSeatBot and "random" in BOTS
    assert ROME.make_bot("neutral", 1).name == "neutral"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_neutral_seats_play_whole_games_from_their_views(players):
    for seed in range(GAMES // 4):
        game = neutral_game(players, 5000 + seed)
        assert game.over, (players, seed)
        if seed % 10 == 0:  # the same seed, the same game
            again = neutral_game(players, 5000 + seed)
            assert again.log == game.log
            assert state_to_json(again.state) == state_to_json(game.state)


def test_the_bot_sees_only_its_view():
    """A game in which each bot call is checked against the seat's view."""
    ref: list[RomeGame] = []
    options = RomeOptions(players=4, seed=12)
    game = RomeGame.new(options)
    ref.append(game)
    bots = [ViewOnly(NeutralSeatBot(seat), seat, ref) for seat in range(4)]
    while not game.over:
        seat = game.state.pending[0].player
        game.apply(bots[seat].choose(game.legal_actions(seat), player_view(game.state, seat)))
    assert game.over


def test_rome_falls_less_often_under_neutral_seats_than_random_ones():
    """Paired seeds: the same deal and dice seed for both tables."""
    falls = {"neutral": 0, "random": 0}
    pairs = 0
    for players in (3, 4, 5, 6):
        for seed in range(10):
            for name in falls:
                game = played(players, 9000 + seed, name)
                assert game.state.result is not None
                falls[name] += game.state.result.ending in FALLS
            pairs += 1
    assert falls["neutral"] < falls["random"], falls
    assert falls["random"] - falls["neutral"] >= pairs // 5, falls  # a clear margin, not a tie
