"""What one faction may see (VG 1.04.9, 1.06.31): its own hand and faction treasury, of the
others only how many cards they hold, of the deck only its size, never the seed."""

from __future__ import annotations

from judges.rome.engine.game import RomeGame
from judges.rome.engine.state import RomeOptions
from judges.rome.engine.view import player_view


def test_a_faction_sees_its_own_hand_and_treasury_only():
    game = RomeGame.new(RomeOptions(players=4, seed=77))
    game.state.factions[2].treasury = 9
    view = player_view(game.state, 1)
    assert view["factions"][1]["hand"] == game.state.factions[1].hand
    assert view["factions"][2]["hand"] == 3 and view["factions"][2]["treasury"] is None
    assert view["deck"] == len(game.state.deck)
    assert view["rng"] == 0 and view["options"]["seed"] == 0
    spectator = player_view(game.state, None)
    assert all(isinstance(f["hand"], int) and f["treasury"] is None for f in spectator["factions"])
    assert game.state.factions[2].hand and isinstance(game.state.deck, list)  # the game itself unchanged
