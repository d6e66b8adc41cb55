"""Phase 7, Revolution (VG 1.11; R233-R237): victors lay down their command, cards are played
in table order from the HRAO, hands are cut to five."""

from __future__ import annotations

import pytest
from rome_position import ctx, game_in, position, senator

from judges.engine.errors import IllegalAction
from judges.rome.engine import revolution
from judges.rome.engine.actions import Discard, Done
from judges.rome.engine.state import Force


def test_a_victorious_commander_comes_home_with_his_force():
    """R238 (laying down the command; rebellion is not played yet)."""
    state = position()
    senator(state, "1", 0, location="field")
    state.forces = [Force(war="gallic_1", commander="1", legions=6, veterans=1, won=True)]
    revolution.lay_down_commands(ctx(state))
    assert state.forces == [] and state.senators["1"].location == "rome"
    assert (state.units.legions, state.units.veterans) == (6, 1)


def test_cards_in_table_order_from_the_hrao_then_hands_cut_to_five_all_at_once():
    """R234, R236."""
    state = position()
    senator(state, "1", 1, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 2)
    state.factions[0].hand = [f"tribune.{n}" for n in range(1, 8)]
    state.factions[2].hand = ["assassin", "seduction", "blackmail", "tribune.8", "tribune.9", "influence_peddling"]
    game = game_in(state, "revolution")
    assert [(d.player, d.kind) for d in game.pending] == [(1, "play_cards")]
    game.apply(Done(player=1))
    game.apply(Done(player=2))
    game.apply(Done(player=0))
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "discard"), (2, "discard")]
    with pytest.raises(IllegalAction):
        game.apply(Discard(player=2, card="tribune.1"))
    game.apply(Discard(player=2, card="blackmail"))
    game.apply(Discard(player=0, card="tribune.1"))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "discard")]
    game.ctx.dice.faces += [31]  # the next turn's Mortality chit: a blank
    game.apply(Discard(player=0, card="tribune.2"))
    assert len(state.factions[0].hand) == 5 and state.discard == ["blackmail", "tribune.1", "tribune.2"]
    assert state.turn == 2
